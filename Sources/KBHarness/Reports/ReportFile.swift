import Foundation

/// Writes report files with POSIX calls, so a failure names the path and the system's reason.
///
/// A regular file is written whole or not at all: the text goes to a temporary file in the same directory,
/// which is renamed over the target only once every byte is written. A reader (a CI step reading
/// `junit.xml`) never sees half a report, and a full disk leaves the old file, or none, rather than a
/// 0-byte one. What the path names is respected: a symbolic link is followed and its target written (the
/// link stays, so a symlinked cache or artefact folder keeps working), and a device or FIFO
/// (`/dev/null`, `/dev/stdout`, a named pipe a CI tool reads) is written through, never replaced.
public enum ReportFile {
    /// Writes `text` to the file at `path` (created, or replaced whole), or with `append` adds it to its end.
    /// Failing to create the file throws `.cannotCreate` (exit 73); failing to write it, `.io` (exit 74).
    public static func write(_ text: String, to path: String, append: Bool = false) throws {
        let target = try resolvedTarget(path)
        var status = stat()
        let exists = stat(target, &status) == 0
        if exists && (status.st_mode & S_IFMT) == S_IFDIR {
            throw HarnessError(.cannotCreate, "\(path): is a directory")
        }
        if append || (exists && (status.st_mode & S_IFMT) != S_IFREG) {
            // Appending (the GitHub step summary, which other steps share) cannot be atomic; a device or
            // FIFO is not ours to replace.
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : 0)
            let descriptor = open(target, flags, 0o644)
            guard descriptor >= 0 else { throw HarnessError(.cannotCreate, "\(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            try writeAll(text, to: descriptor, path: path)
            return
        }
        let directory = PathText.directory(of: target)
        let name = PathText.name(of: target)
        var template = Array(((directory.isEmpty ? "" : directory + "/") + ".\(name).kbharness-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw HarnessError(.cannotCreate, "\(path): \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            // mkstemp creates the file 0600: give it the replaced file's mode, or what open(0644) would.
            let mask = umask(0)
            umask(mask)
            let mode = exists ? status.st_mode & 0o7777 : 0o644 & ~mask
            _ = fchmod(descriptor, mode)
            try writeAll(text, to: descriptor, path: path)
            // The bytes reach the disk before the name does, so a crash leaves the old report or the new one.
            guard fsync(descriptor) == 0 || errno == EINVAL else {
                throw HarnessError(.io, "\(path): \(String(cString: strerror(errno)))")
            }
        }
        guard rename(temporary, target) == 0 else {
            throw HarnessError(.io, "\(path): cannot replace it (\(String(cString: strerror(errno))))")
        }
        renamed = true
    }

    /// The path a write to `path` lands on: `path` itself, or, through any chain of symbolic links (the last
    /// one may dangle), the file its links end at.
    static func resolvedTarget(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {  // SYMLOOP_MAX on Linux
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw HarnessError(.cannotCreate, "\(path): \(String(cString: strerror(errno)))") }
            let link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let directory = PathText.directory(of: current)
            current = link.hasPrefix("/") || directory.isEmpty ? link : directory + "/" + link
        }
        throw HarnessError(.cannotCreate, "\(path): too many levels of symbolic links")
    }

    /// Writes every byte of `text`, retrying short writes and EINTR.
    private static func writeAll(_ text: String, to descriptor: Int32, path: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw HarnessError(.io, "\(path): \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }
}
