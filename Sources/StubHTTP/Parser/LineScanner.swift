#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the end of the line that starts at the beginning of the unconsumed bytes, without re-scanning bytes
/// already searched on an earlier call (a line may arrive over many reads).
struct LineScanner: Sendable {
    /// What is known about the current line.
    enum Result: Equatable {
        /// The line is complete. `length` is its content length: the bytes before CRLF, or before a bare LF when
        /// `crlf` is false (which callers reject). `length + 2` bytes make up a CRLF-terminated line.
        case line(length: Int, crlf: Bool)
        /// No LF yet. `length` is how long the line content is known to be: the bytes buffered, less a trailing
        /// CR that may be the start of CRLF. It only grows as bytes arrive, so limit checks on it are monotonic.
        case partial(length: Int)
    }

    /// Bytes after the line start already known to contain no LF.
    private var scanned = 0

    /// Forgets the current line; call after consuming it.
    @inline(__always)
    mutating func reset() { scanned = 0 }

    /// Looks for the LF ending the line that starts at `bytes[0]`.
    @inline(__always)
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        let count = bytes.count
        if scanned < count, let base = bytes.baseAddress {
            if let hit = memchr(base + scanned, Int32(ByteClass.lf), count - scanned) {
                let lf = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                scanned = 0
                if lf > 0 && bytes[lf - 1] == ByteClass.cr { return .line(length: lf - 1, crlf: true) }
                return .line(length: lf, crlf: false)
            }
            scanned = count
        }
        if count > 0 && bytes[count - 1] == ByteClass.cr { return .partial(length: count - 1) }
        return .partial(length: count)
    }
}

/// Which of two limits a growing line breaches first, as a reader fed one byte at a time would see it.
///
/// A line may be complete in one read or arrive byte by byte; treating each limit as "the line content reached
/// `threshold` bytes" and reporting the smallest threshold reached (the first on a tie) makes the error independent
/// of how the bytes were split.
enum LimitBreach {
    case none, first, second

    @inline(__always)
    static func check(length: Int, first: Int, second: Int) -> LimitBreach {
        guard length >= min(first, second) else { return .none }
        return first <= second ? .first : .second
    }
}
