import Foundation

/// The device profiles compiled into kbharness from the package's `Devices/*.yaml` (the EmbedDeviceProfiles
/// build plugin), read by the same decoder as a user's devices file.
public enum BuiltInDevices {
    /// What a built-in profile's source file starts with (in messages and in `device.source_file`):
    /// `<built-in>/devices.yaml` for `Devices/devices.yaml`. A user's file reads as built in only when its
    /// path starts so, in a directory literally named `<built-in>` (a limit the README names).
    public static let sourcePrefix = "<built-in>/"

    /// The embedded files decoded once, on first use; an error names the embedded file and line.
    private static let decoded = Result { () throws(ScenarioLoadError) -> [DeviceProfile] in
        var devices: [DeviceProfile] = []
        for file in EmbeddedDeviceProfiles.files {
            devices += try DeviceProfile.parseDevices(file.text, file: sourcePrefix + file.name)
        }
        return devices
    }

    /// Every built-in profile, in file order.
    public static func profiles() throws(ScenarioLoadError) -> [DeviceProfile] { try decoded.get() }

    /// The built-in profile with this key, if there is one.
    public static func profile(_ key: String) throws(ScenarioLoadError) -> DeviceProfile? {
        try profiles().first { $0.key == key }
    }

    /// The embedded text of each built-in file, by name (`devices.yaml`): the tests compare it with the
    /// file in `Devices/`.
    public static var files: [(name: String, text: String)] { EmbeddedDeviceProfiles.files }
}

extension DeviceProfile {
    /// Whether the profile is one of kbharness's own, not read from a user's file.
    public var isBuiltIn: Bool { source.file.hasPrefix(BuiltInDevices.sourcePrefix) }
}

/// The device profiles an import validates scenarios against and writes: the built-in profiles, replaced
/// by key by the profiles the database keeps from a user's file, replaced in turn by the profiles of the
/// files being imported.
///
/// A stored profile from a user's file stays until a file defining its key is imported again, so importing
/// one scenario file never changes a device another file defined. When the import reads the file the
/// stored profile came from (named, or under a directory named) and that file no longer defines the key
/// (the entry or the whole file was removed), an override of a built-in profile goes back to the built-in
/// one. A profile the user added, with no built-in of that key, stays, as scenarios removed from their
/// files stay: import never deletes a definition that results may refer to.
public enum DeviceLayers {
    /// The profiles in order: built-in order, a replaced profile in the place of the one it replaces, the
    /// user's added profiles after them. Two files of this import defining one key both stay, so that
    /// `ScenarioLibrary` reports the duplicate with both places.
    public static func resolve(builtIn: [DeviceProfile], stored: [DeviceProfile], files: [DeviceProfile],
                               imported paths: [String]) -> [DeviceProfile] {
        var devices = builtIn
        var index: [String: Int] = [:]
        for (offset, device) in builtIn.enumerated() where index[device.key] == nil { index[device.key] = offset }
        func place(_ device: DeviceProfile) {
            if let at = index[device.key] {
                devices[at] = device
            } else {
                index[device.key] = devices.count
                devices.append(device)
            }
        }
        let builtInKeys = Set(index.keys)
        for device in stored {
            if device.isBuiltIn {
                // Written by another kbharness version: this binary's profile of that key replaces it; a key
                // no longer built in stays, since import never deletes.
                if index[device.key] == nil { place(device) }
                continue
            }
            if builtInKeys.contains(device.key) && isReread(device, imported: paths) {
                continue  // its file was read again: the files below put it back, or the built-in one stays
            }
            place(device)
        }
        var fromFiles = Set<String>()
        for device in files {
            if fromFiles.insert(device.key).inserted {
                place(device)
            } else {
                devices.append(device)  // a duplicate within the files: ScenarioLibrary reports it
            }
        }
        return devices
    }

    /// The stored profiles of a user's file that this import reads again without finding them, and that no
    /// built-in profile replaces: the database keeps them, and `import` says so.
    public static func keptWithoutTheirFile(stored: [DeviceProfile], files: [DeviceProfile], builtIn: [DeviceProfile],
                                            imported paths: [String]) -> [DeviceProfile] {
        let defined = Set(files.map(\.key)).union(builtIn.map(\.key))
        return stored.filter { !$0.isBuiltIn && !defined.contains($0.key) && isReread($0, imported: paths) }
    }

    /// Whether this import reads the file a stored profile came from: the file itself, or a directory above it.
    static func isReread(_ device: DeviceProfile, imported paths: [String]) -> Bool {
        let file = lexicalAbsolute(device.source.file)
        return paths.map(lexicalAbsolute).contains { file == $0 || file.hasPrefix($0 == "/" ? $0 : $0 + "/") }
    }

    /// `path` made absolute against the working directory and freed of `.`, `..` and repeated slashes,
    /// without touching the file system: a stored relative source path and the path an import names
    /// compare equal when they name the same place from the same directory.
    static func lexicalAbsolute(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
