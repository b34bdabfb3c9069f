/// Decodes a `Transfer-Encoding: chunked` body (RFC 9112 §7.1) incrementally, collecting the data and trailers.
///
/// Feed it the unconsumed bytes; it returns how many it consumed. A partial line (chunk size or trailer) is left
/// unconsumed and must be passed again, followed by the bytes that arrived since. Chunk extensions
/// (`;name=value`, `;name="quoted"`) are validated and ignored.
///
/// ```swift
/// var decoder = ChunkedDecoder()
/// let used = try decoder.decode(Array("5\r\nhello\r\n0\r\n\r\n".utf8))
/// decoder.isComplete  // true
/// decoder.body        // "hello"
/// ```
public struct ChunkedDecoder: Sendable {
    /// The longest chunk-size line (size and extensions, CRLF excluded) accepted, in bytes.
    public static let maxChunkLineBytes = 4096
    /// The most hex digits in a chunk size (15 digits cannot overflow a 64-bit Int).
    public static let maxChunkSizeDigits = 15

    private enum State: Sendable {
        case size, data(remaining: Int), dataCRLF, trailers, done
    }

    /// The limits: `maxBodyBytes` bounds the decoded body, `maxHeaderBytes` and `maxHeaderCount` the trailers.
    public let limits: ParserLimits
    private var state = State.size
    private var scanner = LineScanner()
    private var trailerBytes = 0
    /// The data decoded so far.
    public private(set) var body: [UInt8] = []
    /// The trailer fields decoded so far.
    public private(set) var trailers = HTTPHeaders()

    public init(limits: ParserLimits = ParserLimits()) {
        self.limits = limits
    }

    /// Whether the last chunk, the trailers and the final CRLF have been decoded.
    public var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Decodes as much of `bytes` as possible and stops after the final CRLF.
    /// - Returns: the number of bytes consumed from the start of `bytes`.
    /// - Throws: ``ParserError`` `.invalidChunk` for bad syntax, `.bodyTooLarge` when the chunk sizes add up to
    ///   more than `limits.maxBodyBytes`, `.headerOverflow` / `.invalidHeader` for bad trailers.
    public mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Int {
        var used = 0
        while true {
            let input = UnsafeBufferPointer(rebasing: bytes[used...])
            switch state {
            case .size:
                guard let length = try completeLine(input, limit: Self.maxChunkLineBytes, what: "chunk size line")
                else { return used }
                let size = try Self.parseSizeLine(UnsafeBufferPointer(rebasing: input[0..<length]))
                guard size <= limits.maxBodyBytes - body.count else {
                    throw ParserError(.bodyTooLarge, "chunked body is larger than \(limits.maxBodyBytes) bytes")
                }
                used += length + 2
                state = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let n = min(remaining, input.count)
                guard n > 0 else { return used }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: input[0..<n]))
                used += n
                state = n == remaining ? .dataCRLF : .data(remaining: remaining - n)
            case .dataCRLF:
                if input.count >= 1 && input[0] != ByteClass.cr || input.count >= 2 && input[1] != ByteClass.lf {
                    throw ParserError(.invalidChunk, "chunk data is not followed by CRLF")
                }
                guard input.count >= 2 else { return used }
                used += 2
                state = .size
            case .trailers:
                guard let length = try trailerLine(input) else { return used }
                used += length + 2
                if length == 0 { state = .done }
            case .done:
                return used
            }
        }
    }

    /// Decodes as much of `bytes` as possible; see ``decode(_:)-(UnsafeBufferPointer<UInt8>)``.
    public mutating func decode(_ bytes: [UInt8]) throws(ParserError) -> Int {
        // A Result, not a typed-throws closure: see ``RequestParser/next()``.
        try bytes.withUnsafeBufferPointer { buffer -> Result<Int, ParserError> in
            do throws(ParserError) { return .success(try decode(buffer)) } catch { return .failure(error) }
        }.get()
    }

    /// Hands over the body and trailers and resets the decoder for another body.
    public mutating func take() -> (body: [UInt8], trailers: HTTPHeaders) {
        let result = (body, trailers)
        self = ChunkedDecoder(limits: limits)
        return result
    }

    /// The content length of the CRLF-terminated line at the start of `input`, or nil if it is incomplete.
    private mutating func completeLine(
        _ input: UnsafeBufferPointer<UInt8>, limit: Int,
        what: String
    ) throws(ParserError) -> Int? {
        switch scanner.scan(input) {
        case .partial(let length):
            if length > limit { throw ParserError(.invalidChunk, "\(what) is longer than \(limit) bytes") }
            return nil
        case .line(let length, let crlf):
            if length > limit { throw ParserError(.invalidChunk, "\(what) is longer than \(limit) bytes") }
            guard crlf else { throw ParserError(.invalidChunk, "\(what) ends with a bare LF instead of CRLF") }
            return length
        }
    }

    /// A trailer line's content length (0 for the final empty line) after parsing it into ``trailers``, or nil
    /// if it is incomplete. Trailers are bounded like a header section.
    private mutating func trailerLine(_ input: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Int? {
        let countThreshold = trailers.count >= limits.maxHeaderCount ? 1 : Int.max
        let bytesThreshold = limits.maxHeaderBytes - trailerBytes + 1
        let length: Int, crlf: Bool
        switch scanner.scan(input) {
        case .partial(let partialLength):
            try checkTrailerLimits(length: partialLength, countThreshold, bytesThreshold)
            return nil
        case .line(let lineLength, let lineCRLF):
            length = lineLength
            crlf = lineCRLF
        }
        try checkTrailerLimits(length: length, countThreshold, bytesThreshold)
        guard crlf else { throw ParserError(.invalidChunk, "trailer line ends with a bare LF instead of CRLF") }
        guard length > 0 else { return 0 }
        guard trailerBytes + length + 2 <= limits.maxHeaderBytes else {
            throw ParserError(.headerOverflow, "trailer section is larger than \(limits.maxHeaderBytes) bytes")
        }
        var framing: FramingField?
        trailers.fields.append(try FieldLine.parse(UnsafeBufferPointer(rebasing: input[0..<length]), framing: &framing))
        trailerBytes += length + 2
        return length
    }

    private func checkTrailerLimits(length: Int, _ countThreshold: Int, _ bytesThreshold: Int) throws(ParserError) {
        switch LimitBreach.check(length: length, first: countThreshold, second: bytesThreshold) {
        case .none: return
        case .first: throw ParserError(.headerOverflow, "more than \(limits.maxHeaderCount) trailer fields")
        case .second:
            throw ParserError(.headerOverflow, "trailer section is larger than \(limits.maxHeaderBytes) bytes")
        }
    }

    /// Parses `chunk-size [ chunk-ext ]`: 1–15 hex digits, then `*( BWS ";" BWS name [ BWS "=" BWS value ] )`.
    static func parseSizeLine(_ line: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Int {
        var size = 0
        var i = 0
        while i < line.count, let digit = ByteClass.hexValue(line[i]) {
            i += 1
            guard i <= maxChunkSizeDigits else {
                throw ParserError(.invalidChunk, "chunk size has more than \(maxChunkSizeDigits) hex digits")
            }
            size = size << 4 | digit
        }
        guard i > 0 else { throw ParserError(.invalidChunk, "chunk size is not a hexadecimal number") }
        try ChunkExtensions.validate(UnsafeBufferPointer(rebasing: line[i...]))
        return size
    }
}
