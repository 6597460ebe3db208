/// The identity of a view controller in a `Screen`: its index in the controller array.
public struct ControllerID: Hashable, Sendable, CustomStringConvertible {
    /// Position in `Screen.controllers`.
    public let index: Int

    /// Wraps an index; `Screen` validates it before use.
    @inlinable public init(_ index: Int) { self.index = index }

    /// `vc#index`.
    public var description: String { "vc#\(index)" }
}

/// The UIKit view-controller class a simulated controller is (or inherits from).
public enum ControllerKind: String, CaseIterable, Sendable, Codable {
    /// `UIViewController`.
    case viewController
    /// `UINavigationController`.
    case navigationController
    /// `UITabBarController`.
    case tabBarController
    /// `UISplitViewController`.
    case splitViewController
    /// `UITableViewController`.
    case tableViewController
    /// `UICollectionViewController`.
    case collectionViewController
    /// `UIAlertController`.
    case alertController
    /// `UIInputViewController`.
    case inputViewController
    /// A SwiftUI `UIHostingController`.
    case hostingController

    /// The UIKit class name, as IQ's class lists name it.
    public var uikitClassName: String {
        switch self {
        case .viewController: return "UIViewController"
        case .navigationController: return "UINavigationController"
        case .tabBarController: return "UITabBarController"
        case .splitViewController: return "UISplitViewController"
        case .tableViewController: return "UITableViewController"
        case .collectionViewController: return "UICollectionViewController"
        case .alertController: return "UIAlertController"
        case .inputViewController: return "UIInputViewController"
        case .hostingController: return "UIHostingController"
        }
    }

    /// Whether IQ's root search stops at this kind of container (navigation, tab bar, split).
    @inlinable public var isSystemContainer: Bool {
        self == .navigationController || self == .tabBarController || self == .splitViewController
    }
}

/// How a controller is shown; informs the harness and the invariants, not IQ's arithmetic.
public enum Presentation: String, CaseIterable, Sendable, Codable {
    /// The window's root view controller.
    case windowRoot
    /// A child of a container controller.
    case child
    /// Presented full screen.
    case fullScreen
    /// Presented as a form sheet (or page sheet on iPhone).
    case formSheet
    /// Presented as a popover.
    case popover
}

/// One simulated view controller.
public struct ViewController: Sendable, Equatable {
    /// The UIKit class it is, or inherits from.
    public var kind: ControllerKind
    /// Its own class name (e.g. `LoginViewController`), matched against IQ's class lists.
    public var className: String
    /// The container it is a child of (`parent`), if any.
    public var parent: ControllerID?
    /// Its root `view`.
    public var view: NodeID
    /// `topViewController` of a navigation controller, `selectedViewController` of a tab bar controller.
    public var visibleChild: ControllerID?
    /// `navigationBar.frame` in the navigation controller's view coordinates (navigation controllers only).
    public var navigationBarFrame: Rect?
    /// `navigationBar.isHidden`; IQ 8.x ignores it (quirk Q5).
    public var isNavigationBarHidden = false
    /// The `UISearchTextField` of `navigationItem.searchController`, if the controller has one.
    public var navigationItemSearchField: NodeID?
    /// Whether its view is in the window (IQ's `isReady`); false before `viewDidAppear`.
    public var isViewInWindow = true
    /// How it is shown.
    public var presentation: Presentation

    /// Creates a controller whose class name is the UIKit name of its kind.
    public init(kind: ControllerKind, view: NodeID, parent: ControllerID? = nil,
                className: String? = nil, presentation: Presentation = .windowRoot) {
        self.kind = kind
        self.view = view
        self.parent = parent
        self.className = className ?? kind.uikitClassName
        self.presentation = presentation
    }

    /// Whether the class name looks like UIKit's private alert text-field controller
    /// (contains `UIAlertController`, ends with `TextFieldViewController`), which IQ never handles.
    public var isAlertTextFieldController: Bool {
        // A byte search over the name's own storage: String.contains(_:) builds a searcher and copying the
        // bytes into arrays allocates, both too slow for every adjust.
        let suffix: StaticString = "TextFieldViewController", needle: StaticString = "UIAlertController"
        let found = className.utf8.withContiguousStorageIfAvailable { name in
            ViewController.endsWith(name, suffix) && ViewController.contains(name, needle)
        }
        if let found { return found }
        let name = Array(className.utf8)
        return name.withUnsafeBufferPointer { ViewController.endsWith($0, suffix) && ViewController.contains($0, needle) }
    }

    /// Whether `bytes` ends with the bytes of `suffix`.
    private static func endsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        suffix.withUTF8Buffer { suffix in
            bytes.count >= suffix.count && bytes[(bytes.count - suffix.count)...].elementsEqual(suffix)
        }
    }

    /// Whether the bytes of `needle` occur anywhere in `bytes`.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count)
            where bytes[start..<start + needle.count].elementsEqual(needle) {
                return true
            }
            return false
        }
    }

    /// IQ's class-list rule (distance handling §2.1.6, toolbar §4.3): on when globally enabled or kind-of an
    /// enabled class, then off when kind-of a disabled class or UIKit's alert text-field controller.
    public func passesClassRules(globallyEnabled: Bool, enabledClasses: [String], disabledClasses: [String]) -> Bool {
        classListVerdict(enabledClasses: enabledClasses, disabledClasses: disabledClasses)
            .passes(globallyEnabled: globallyEnabled)
    }

    /// What the two class lists say about this controller, whatever the global switch: worked out once, it
    /// spares comparing class names at every adjust.
    public func classListVerdict(enabledClasses: [String], disabledClasses: [String]) -> ClassListVerdict {
        // Closures rather than `isKind(of:)` itself: a method reference copies the controller (a retain and a
        // release of each of its strings) where a closure reads it in place.
        ClassListVerdict(isKindOfEnabledClass: enabledClasses.contains { isKind(of: $0) },
                         isExcluded: disabledClasses.contains { isKind(of: $0) } || isAlertTextFieldController)
    }

    /// Whether `isKind(of:)` holds for the class `name` (its own class, its UIKit class, `UIViewController`).
    @inlinable public func isKind(of name: String) -> Bool {
        ViewController.sameClassName(name, className) || ViewController.sameClassName(name, kind.uikitClassName)
            || ViewController.sameClassName(name, "UIViewController")
    }

    /// Whether two class names are one. The runtime matches a class by its name's bytes, so names of different
    /// lengths are never one class: most pairs IQ's lists make are told apart by their lengths alone, where
    /// `==` took about a hundred instructions for each.
    @inlinable static func sameClassName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }
}

/// IQ's class-list rule for one controller, with the class names already matched.
public struct ClassListVerdict: Sendable, Equatable {
    /// Kind of an enabled class: handling is on even when globally off.
    public var isKindOfEnabledClass: Bool
    /// Kind of a disabled class, or UIKit's alert text-field controller: handling is off whatever else holds.
    public var isExcluded: Bool

    /// Creates a verdict.
    @inlinable public init(isKindOfEnabledClass: Bool, isExcluded: Bool) {
        self.isKindOfEnabledClass = isKindOfEnabledClass
        self.isExcluded = isExcluded
    }

    /// The rule: on when globally enabled or kind-of an enabled class, then off when excluded.
    @inlinable public func passes(globallyEnabled: Bool) -> Bool {
        (globallyEnabled || isKindOfEnabledClass) && !isExcluded
    }
}
