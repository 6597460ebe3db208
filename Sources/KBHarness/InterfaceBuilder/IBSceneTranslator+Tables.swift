import KeyboardAvoidance

extension IBSceneTranslator {
    /// A table view's static sections and cells, header and footer views; prototype cells are filled at run
    /// time, so they are skipped (with a warning when they hold a text input).
    mutating func table(_ element: IBElement, id: String, origin: Point, hidden: Bool) -> TableSpec {
        var table = TableSpec(style: TableStyle(rawValue: element["style"] ?? "plain") ?? .plain)
        let tableSize = element.rect("frame")?.size
        for (key, isHeader) in [("tableHeaderView", true), ("tableFooterView", false)] {
            guard let end = element.children.first(where: { $0.key == key }), let rect = end.rect("frame") else { continue }
            var children: [ViewSpec] = []
            if end.name == "view" {
                // The header view itself is generated (`$<table>.header`); its subviews are the scenario's.
                for child in end.list("subviews") {
                    if let view = view(child, parent: id, superviewSize: rect.size, stackAxis: nil, inCell: true,
                                       group: "deep:" + id, windowOrigin: Point(x: origin.x + rect.minX, y: origin.y + rect.minY),
                                       hiddenAncestor: hidden) {
                        children.append(view)
                    }
                }
            } else if var view = view(end, parent: id, superviewSize: nil, stackAxis: nil, inCell: true,
                                      group: "deep:" + id, windowOrigin: origin, hiddenAncestor: hidden) {
                // A search bar or control as the header: it spans the header's width.
                view.frame.autoresizing = AutoresizingSpec(frame: Rect(x: 0, y: 0, width: rect.width, height: rect.height),
                                                           superviewSize: rect.size, mask: .flexibleWidth)
                children.append(view)
            }
            let spec = TableHeaderSpec(height: rect.height, children: children)
            if isHeader { table.header = spec } else { table.footer = spec }
        }
        for prototype in element.list("prototypes") where prototype.containsTextInput {
            warn(prototype, "prototype cell '\(prototype["reuseIdentifier"] ?? prototype.id ?? "?")' with a text input "
                 + "skipped: its rows are filled at run time")
        }
        guard element["dataMode"] == "static" else { return table }
        var previousEnd = table.header.map(\.height) ?? 0
        for (sectionIndex, section) in element.list("sections").enumerated() {
            var rows: [Double] = []
            var headerHeight = 0.0
            for (row, cell) in section.list("cells").enumerated() {
                let rect = cell.rect("frame") ?? Rect(x: 0, y: previousEnd, width: tableSize?.width ?? 0, height: 44)
                // The gap above a section's first row is its header (the previous section's footer included).
                if row == 0 { headerHeight = max(0, rect.minY - previousEnd) }
                rows.append(cell.number("rowHeight") ?? rect.height)
                previousEnd = rect.maxY
                table.cells.append(self.cell(cell, indexPath: IndexPath(section: sectionIndex, item: row), table: id,
                                             origin: Point(x: origin.x + rect.minX, y: origin.y + rect.minY),
                                             hidden: hidden))
            }
            table.sections.append(TableSection(header: headerHeight, footer: 0, rowHeights: rows))
        }
        // Each footer is in the gap above the next section; the last one is in no stored frame: the table's
        // section footer height, which a grouped table or a footer title shows.
        if let last = element.list("sections").last, !table.sections.isEmpty,
           table.style != .plain || last["footerTitle"] != nil {
            table.sections[table.sections.count - 1].footer = element.number("sectionFooterHeight") ?? 0
        }
        return table
    }

    /// A static cell: its content view's subviews, with the frames they have in the cell.
    mutating func cell(_ element: IBElement, indexPath: IndexPath, table: String, origin: Point, hidden: Bool) -> CellSpec {
        let id = element.id ?? "\(table).cell-\(indexPath.section)-\(indexPath.item)"
        frames[id] = element.rect("frame")
        kinds[id] = .tableCell
        parents[id] = table
        inCells.insert(id)
        let content = element.child("tableViewCellContentView", key: "contentView") ?? element.child("view", key: "contentView")
        if let contentID = content?.id { inCells.insert(contentID); parents[contentID] = id }
        cellPins = IBSceneTranslator.pins(in: element, containers: [id, content?.id].compactMap { $0 })
        let size = content?.rect("frame")?.size ?? element.rect("frame")?.size
        var children: [ViewSpec] = []
        for child in content?.list("subviews") ?? [] {
            if let view = view(child, parent: id, superviewSize: size, stackAxis: nil, inCell: true, group: "deep:" + table,
                               windowOrigin: origin, hiddenAncestor: hidden) {
                children.append(view)
            }
        }
        cellPins = [:]
        return CellSpec(indexPath: indexPath, id: id, children: children, path: "tableViewCell \(id)",
                        location: location(of: element))
    }

    /// A collection view's flow layout; its cells are prototypes filled at run time, so none is declared.
    mutating func collection(_ element: IBElement, id: String) -> CollectionSpec {
        let layout = element.child("collectionViewFlowLayout", key: "collectionViewLayout")
        let itemSize = layout?.child("size", key: "itemSize").map {
            Size(width: $0.number("width") ?? 50, height: $0.number("height") ?? 50)
        } ?? Size(width: 50, height: 50)
        var spec = CollectionSpec(itemSize: itemSize, items: 0)
        spec.direction = layout?["scrollDirection"] == "horizontal" ? .horizontal : .vertical
        spec.spacing = layout?.number("minimumLineSpacing") ?? 10
        if let inset = layout?.child("inset", key: "sectionInset") {
            spec.inset = EdgeInsets(top: inset.number("minY") ?? 0, left: inset.number("minX") ?? 0,
                                    bottom: inset.number("maxY") ?? 0, right: inset.number("maxX") ?? 0)
        }
        for cell in element.list("cells") where cell.containsTextInput {
            warn(cell, "prototype cell '\(cell["reuseIdentifier"] ?? cell.id ?? "?")' with a text input skipped: "
                 + "its items are filled at run time")
        }
        return spec
    }

    /// The autoresizing a cell subview's constraints to its cell imply: pinned to both sides, it stretches;
    /// to the trailing side only, it keeps its distance from it; centred, it stays centred; else it keeps
    /// its place from the top-left.
    func cellMask(_ id: String) -> AutoresizingMask {
        let pins = cellPins[id] ?? []
        var mask: AutoresizingMask = [.flexibleBottomMargin]
        let leading = pins.contains("leading"), trailing = pins.contains("trailing")
        if leading && trailing {
            mask.insert(.flexibleWidth)
        } else if trailing {
            mask.insert(.flexibleLeftMargin)
        } else if pins.contains("centerX") {
            mask.formUnion([.flexibleLeftMargin, .flexibleRightMargin])
        } else {
            mask.insert(.flexibleRightMargin)
        }
        return mask
    }

    /// The horizontal edges each view is pinned to one of `containers` by, from the constraints under `cell`;
    /// an edge tied to a sibling's edge counts as pinned to the side of the cell that sibling edge follows.
    static func pins(in cell: IBElement, containers: [String]) -> [String: Set<String>] {
        var pins: [String: Set<String>] = [:]
        var siblings: [(view: String, sibling: String, siblingEdge: String)] = []
        func edge(_ attribute: String) -> String? {
            switch attribute {
            case "leading", "left", "leadingMargin", "leftMargin": return "leading"
            case "trailing", "right", "trailingMargin", "rightMargin": return "trailing"
            case "centerX", "centerXWithinMargins": return "centerX"
            default: return nil
            }
        }
        cell.walk { element in
            guard element.name == "constraints" else { return }
            let holder = containers.first ?? ""
            for constraint in element.children where constraint.name == "constraint" {
                let first = constraint["firstItem"] ?? holder, second = constraint["secondItem"] ?? ""
                guard let firstEdge = edge(constraint["firstAttribute"] ?? ""),
                      let secondEdge = edge(constraint["secondAttribute"] ?? "") else { continue }
                if !containers.contains(first) && !containers.contains(second) && !second.isEmpty && firstEdge != "centerX"
                    && secondEdge != "centerX" && firstEdge != secondEdge {
                    // `field.leading == label.trailing + 8`: the field's edge follows the label's.
                    siblings.append((first, second, secondEdge))
                    siblings.append((second, first, firstEdge))
                    continue
                }
                guard firstEdge == secondEdge else { continue }
                if containers.contains(second) && !containers.contains(first) { pins[first, default: []].insert(firstEdge) }
                if containers.contains(first) && !containers.contains(second) { pins[second, default: []].insert(firstEdge) }
            }
        }
        // A view whose width is fixed (a width constraint) or set by its content (a label, a button, a switch)
        // keeps it: the sibling that stretches is the other one.
        var keepsWidth = Set<String>()
        cell.walk { element in
            guard let id = element.id else { return }
            if ["label", "button", "switch", "imageView", "segmentedControl", "stepper"].contains(element.name) { keepsWidth.insert(id) }
            for constraint in element.list("constraints") where constraint.name == "constraint" {
                if constraint["firstAttribute"] == "width", constraint["secondItem"] == nil, constraint["firstItem"] ?? id == id {
                    keepsWidth.insert(id)
                }
            }
        }
        var tied = pins
        for (view, sibling, siblingEdge) in siblings where !keepsWidth.contains(view) {
            let own = pins[sibling] ?? []
            guard !own.contains("centerX") || own.contains("leading") || own.contains("trailing") else { continue }
            // The sibling's edge follows the cell's left side, its right side, or (stretched) its own side.
            let side = own.contains("leading") && own.contains("trailing") ? siblingEdge
                : own.contains("trailing") ? "trailing" : "leading"
            tied[view, default: []].insert(side)
        }
        return tied
    }
}
