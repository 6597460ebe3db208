import Foundation

/// Bytes written one after another through a pointer, for text made for every cell (a state's stored form).
/// An append checks the room left and nothing else: appending to an `[UInt8]` checks the array's uniqueness at
/// every byte and copies every run of bytes through generic code, which made writing a state cost about 28
/// instructions a byte.
///
/// A writer owns its memory, which it frees when the last copy of it goes. Copies share that memory, so a
/// writer is moved or swapped, never written while a copy of it is read: `init(copying:)` makes a separate one.
struct ByteWriter {
    /// The memory, freed with the last writer that holds it.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>

        init(capacity: Int) { base = .allocate(capacity: capacity) }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// `storage.base`, kept here so an append reads no object.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    /// An empty writer with room for `capacity` bytes before it grows.
    init(capacity: Int = 1_024) {
        self.capacity = max(capacity, 16)
        storage = Storage(capacity: self.capacity)
        base = storage.base
    }

    /// A writer of its own holding the bytes `other` holds.
    init(copying other: ByteWriter) {
        self.init(capacity: other.count)
        other.withBytes { append($0) }
    }

    /// Forgets the bytes written, keeping the room.
    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes written; they stay valid only inside it.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// The bytes written, as UTF-8 text.
    var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The bytes written, as an array.
    var array: [UInt8] { withBytes { Array($0) } }

    /// Whether `other` holds the same bytes.
    func hasSameBytes(as other: ByteWriter) -> Bool {
        guard count == other.count else { return false }
        return withBytes { mine in other.withBytes { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, count) == 0 } }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 of a literal.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// Appends a copy of the bytes at `range` of those written.
    mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "copying bytes \(range) of \(count)")
        if capacity - count < range.count { grow(toHold: count + range.count) }
        // The copy lies after the end, clear of its source.
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// Lets `body` write at most `limit` bytes where the next byte goes; it returns how many it wrote.
    @inline(__always)
    mutating func append(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if capacity - count < limit { grow(toHold: count + limit) }
        let written = body(base + count)
        precondition(written >= 0 && written <= limit, "wrote \(written) bytes where at most \(limit) were allowed")
        count += written
    }

    /// Moves the bytes to memory with room for at least `needed`, twice the room before at least.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let larger = max(needed, 2 * capacity)
        let moved = Storage(capacity: larger)
        // `storage` still holds the old memory here.
        moved.base.update(from: base, count: count)
        storage = moved
        base = moved.base
        capacity = larger
    }
}
