import Foundation
import KeyboardAvoidance

/// The conditions a run happens under, recorded so runs are only compared with like runs.
public enum RunEnvironment {
    /// The harness version.
    public static let harnessVersion = "0.1.0"

    /// `debug` or `release`, as this binary was built.
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    /// The Swift compiler generation that built this binary.
    public static var toolchain: String {
        #if compiler(>=6.3)
        return "swift-6.3+"
        #elseif compiler(>=6.0)
        return "swift-6.x"
        #else
        return "swift-5.x"
        #endif
    }

    /// Host name, core count and architecture.
    public static var host: String {
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "arm64"
        #else
        let arch = "unknown-arch"
        #endif
        let info = ProcessInfo.processInfo
        return "\(info.hostName) (\(info.activeProcessorCount) cores, \(arch))"
    }

    /// `git rev-parse HEAD` in the working directory, or nil outside a checkout.
    public static func gitSHA() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let sha = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return sha.isEmpty ? nil : sha
    }

    /// Metadata for a new run with this selection.
    public static func metadata(selection: RunSelection) -> RunMetadata {
        RunMetadata(uuid: UUID().uuidString.lowercased(), startedAt: Timestamp.now(), gitSHA: gitSHA(), host: host,
                    toolchain: toolchain, buildConfiguration: buildConfiguration, engineVersion: EngineInfo.version,
                    harnessVersion: harnessVersion, selectionJSON: selection.json)
    }
}
