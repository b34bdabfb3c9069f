/// The files a templated `bodyFileName` (`users/{{request.path.[1]}}.json`) can name, read when the stub
/// loads, so serving reads no file. The response's template compiles them (`TemplatedBodyFiles`).
///
/// The candidates are the files under the name's literal folder (`users/`) whose names end with its
/// literal suffix (`.json`). Loading stops with an error beyond ``maxFiles`` files or ``maxBytes`` bytes
/// in total: name a narrower folder. Files added to `__files` later are seen after a reload (`--watch`).
public struct BodyFileSet: Sendable, Hashable {
    /// At most this many candidate files.
    public static let maxFiles = 1_000
    /// At most this many bytes across the candidates (32 MiB).
    public static let maxBytes = 32 << 20

    /// Name under `__files` → contents.
    package let files: [String: [UInt8]]
    /// `Stubs/__files`, for messages.
    package let displayPath: String

    package init(files: [String: [UInt8]], displayPath: String) {
        self.files = files
        self.displayPath = displayPath
    }
}
