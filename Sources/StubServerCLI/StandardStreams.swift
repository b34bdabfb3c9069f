import StubHTTP

/// Direct, unbuffered writes to stdout and stderr from the main thread, for what is printed before the
/// server starts or instead of it (`Listening on …`, usage, version). Everything the server logs while
/// it runs goes through its ``LogSink`` instead. A closed or failing stream is ignored.
enum StandardStreams {
    static func output(_ text: String) { write(text, to: 1) }

    static func error(_ text: String) { write(text, to: 2) }

    /// Bytes as they are (`stubserver ca export --der`).
    static func output(bytes: [UInt8]) { bytes.withUnsafeBytes { _ = writeFully(1, $0) } }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { _ = writeFully(descriptor, UnsafeRawBufferPointer($0)) }
    }
}

/// `1 stub`, `7 stubs`.
func stubCount(_ count: Int) -> String {
    count == 1 ? "1 stub" : "\(count) stubs"
}
