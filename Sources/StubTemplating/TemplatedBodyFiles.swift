import StubModel

/// The candidate files of a templated `bodyFileName` (``BodyFileSet``), each parsed as a template when
/// the response's template compiles, so a request only picks one and renders it.
package struct TemplatedBodyFiles: Sendable {
    /// Name under `__files` → parsed contents.
    private let templates: [String: Template]
    /// `Stubs/__files`, for messages.
    let displayPath: String

    var count: Int { templates.count }

    /// The files' templates, by name.
    var parsedTemplates: [Template] { templates.keys.sorted().compactMap { templates[$0] } }

    /// The helpers the files call that stubserver does not implement, each once.
    var unknownHelpers: [String] {
        var found: [String] = []
        for name in templates.keys.sorted() {
            found += templates[name]?.unknownHelpers.filter { !found.contains($0) } ?? []
        }
        return found
    }

    /// - Throws: the name of the file whose contents are not a valid template, with the error.
    package init(_ set: BodyFileSet) throws(ResponseTemplate.Failure) {
        displayPath = set.displayPath
        var templates: [String: Template] = [:]
        for (name, bytes) in set.files.sorted(by: { $0.key < $1.key }) {
            do {
                templates[name] = try Template(bytes: bytes)
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
        return templates[parts.joined(separator: "/")]
    }
}
