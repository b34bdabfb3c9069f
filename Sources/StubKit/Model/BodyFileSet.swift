/// The files a templated `bodyFileName` (`users/{{request.path.[1]}}.json`) can name, read and parsed
/// when the stub loads, so serving reads no file.
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
    let files: [String: [UInt8]]
    /// Name → parsed template; built with ``files``.
    private let templates: [String: TemplateBox]
    /// `Stubs/__files`, for messages.
    let displayPath: String

    var count: Int { files.count }

    /// - Throws: the name of the file whose contents are not a valid template, with the error.
    init(files: [String: [UInt8]], displayPath: String) throws(ResponseTemplate.Failure) {
        self.files = files
        self.displayPath = displayPath
        var templates: [String: TemplateBox] = [:]
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            do {
                templates[name] = TemplateBox(template: try Template(bytes: bytes))
            } catch {
                throw ResponseTemplate.Failure(field: ["bodyFileName"], bodyFile: name, error: error)
            }
        }
        self.templates = templates
    }

    /// The template of the file `name` (as rendered from the stub's `bodyFileName`), if it was read.
    func template(named name: String) -> Template? {
        var parts: [Substring] = []
        for part in name.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." { return nil }
            parts.append(part)
        }
        return templates[parts.joined(separator: "/")]?.template
    }

    /// Equality and hashing by file contents (templates are derived from them).
    struct TemplateBox: Sendable, Hashable {
        let template: Template
        static func == (lhs: TemplateBox, rhs: TemplateBox) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
    }
}
