import StubModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import Foundation  // FileHandle opens the file: C's open(2) is variadic
#endif

/// Reads a HAR file entry by entry, so that importing it holds the largest entry and the entries read so
/// far, never the whole file and its parsed tree (a 495 MB capture peaked at 1.9 GB when parsed whole).
///
/// The file is read in chunks. The top-level object and `log` are walked here; each other member value
/// and each `log.entries[i]` is cut out as raw bytes, checked and parsed by ``JSONParser`` (with the
/// depth it would have had in the whole document) and turned into an entry at once. On anything
/// unexpected (a syntax error, a duplicate key, a missing `log` or `entries`, a wrong field) it gives up,
/// and ``HARCapture/load(_:displayPath:)`` parses the whole file to name the problem exactly as before.
struct HARStreamReader {
    /// Why the stream stopped: the caller parses the whole file instead, which reports the error.
    struct GiveUp: Error {}

    /// Bytes read per `read(2)`.
    static let chunkSize = 64 << 10

    private let fd: Int32
    private let reader: HARReader
    private var buffer: [UInt8] = []
    private var index = 0
    private var isAtEnd = false
    /// Where the value being cut out begins: ``fill()`` keeps the bytes from there.
    private var valueStart: Int?
    /// The most bytes of the file held at once: the largest value cut out plus a chunk (tests read it).
    private(set) var bytesHeldHighWater = 0

    private init(fd: Int32, file: String) {
        self.fd = fd
        reader = HARReader(file: file)
    }

    /// The capture in `path`, and the most file bytes held at once; throws ``GiveUp`` when the file
    /// cannot be opened or is not a HAR document this reader accepts.
    static func capture(path: String, file: String) throws(GiveUp) -> (HARCapture, bytesHeld: Int) {
        #if canImport(Glibc)
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw GiveUp() }
            defer { close(fd) }
        #else
            guard let handle = FileHandle(forReadingAtPath: path) else { throw GiveUp() }
            let fd = handle.fileDescriptor
            defer { try? handle.close() }
        #endif
        var stream = HARStreamReader(fd: fd, file: file)
        let capture = try stream.document()
        return (capture, stream.bytesHeldHighWater)
    }

    // MARK: The document

    private mutating func document() throws(GiveUp) -> HARCapture {
        _ = try peek()
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        var creator: String?
        var entries: [HARCapture.Entry]?
        try object { (stream, key) throws(GiveUp) in
            guard key == "log" else {
                _ = try stream.parsedValue(maximumDepth: JSONParser.defaultMaximumDepth - 1); return
            }
            try stream.object { (stream, key) throws(GiveUp) in
                if key == "entries" {
                    entries = try stream.entries()
                } else {
                    let value = try stream.parsedValue(maximumDepth: JSONParser.defaultMaximumDepth - 2)
                    if key == "creator" {
                        do { creator = try stream.reader.creator(value) } catch { throw GiveUp() }
                    }
                }
            }
        }
        skipWhitespace()
        guard try peek() == nil, let entries else { throw GiveUp() }
        return HARCapture(creator: creator, entries: entries)
    }

    /// `log.entries`, each parsed and converted as soon as it is read.
    private mutating func entries() throws(GiveUp) -> [HARCapture.Entry] {
        guard try peek() == UInt8(ascii: "[") else { throw GiveUp() }
        index += 1
        skipWhitespace()
        var entries: [HARCapture.Entry] = []
        if try peek() == UInt8(ascii: "]") { index += 1; return entries }
        while true {
            let value = try parsedValue(maximumDepth: JSONParser.defaultMaximumDepth - 3)
            do { entries.append(try reader.entry(value, index: entries.count)) } catch { throw GiveUp() }
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "]"): index += 1; return entries
            default: throw GiveUp()
            }
        }
    }

    /// Walks an object at the read position, calling `member` with each key (unique) with the position
    /// at its value, which `member` must consume.
    private mutating func object(_ member: (inout HARStreamReader, String) throws(GiveUp) -> Void) throws(GiveUp) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "{") else { throw GiveUp() }
        index += 1
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        var seen: Set<String> = []
        while true {
            guard try peek() == UInt8(ascii: "\""), case .string(let key) = try parsedValue(maximumDepth: 0),
                seen.insert(key).inserted
            else { throw GiveUp() }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw GiveUp() }
            index += 1
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1; skipWhitespace()
            case UInt8(ascii: "}"): index += 1; return
            default: throw GiveUp()
            }
        }
    }

    // MARK: Values

    /// The JSON value at the read position, cut out and parsed.
    private mutating func parsedValue(maximumDepth: Int) throws(GiveUp) -> JSONValue {
        valueStart = index
        try skipValue()
        let bytes = Array(buffer[(valueStart ?? 0)..<index])
        valueStart = nil
        do { return try JSONParser.parse(bytes, maximumDepth: maximumDepth) } catch { throw GiveUp() }
    }

    /// Moves past one value, keeping its bytes in the buffer. Only finds where it ends: ``JSONParser``
    /// checks it.
    private mutating func skipValue() throws(GiveUp) {
        guard let first = try peek() else { throw GiveUp() }
        switch first {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard let byte = try peek() else { throw GiveUp() }
                switch byte {
                case UInt8(ascii: "\""): try skipString(); continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0
        default:
            while let byte = try peek(), !Self.endsScalar(byte) { index += 1 }
        }
    }

    private mutating func skipString() throws(GiveUp) {
        index += 1
        while true {
            guard let byte = try peek() else { throw GiveUp() }
            index += 1
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard try peek() != nil else { throw GiveUp() }
                index += 1
            }
        }
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: ":")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func skipWhitespace() {
        while let byte = try? peek(), Self.isWhitespace(byte) { index += 1 }
    }

    // MARK: Reading

    /// The byte at the read position, reading the next chunk when the buffer is used up; nil at the end.
    private mutating func peek() throws(GiveUp) -> UInt8? {
        if index < buffer.count { return buffer[index] }
        guard !isAtEnd else { return nil }
        try fill()
        return index < buffer.count ? buffer[index] : nil
    }

    /// Reads the next chunk. Bytes before the read position are dropped unless the value being cut out
    /// (``parsedValue(maximumDepth:)``) still needs them, once they are half the buffer (so that a large
    /// value is not moved once per chunk).
    private mutating func fill() throws(GiveUp) {
        let drop = valueStart ?? index
        if drop > 0 && drop * 2 >= buffer.count {
            buffer.removeSubrange(0..<drop)
            index -= drop
            valueStart = valueStart.map { $0 - drop }
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        let count = chunk.withUnsafeMutableBytes { raw in
            var count: Int
            repeat { count = read(fd, raw.baseAddress, raw.count) } while count < 0 && errno == EINTR
            return count
        }
        guard count >= 0 else { throw GiveUp() }
        if count == 0 { isAtEnd = true; return }
        buffer.append(contentsOf: chunk[..<count])
        bytesHeldHighWater = max(bytesHeldHighWater, buffer.count)
    }
}
