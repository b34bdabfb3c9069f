/// The namespace bindings in scope while parsing: a stack of prefix → URI declarations, one frame per
/// open element.
struct XMLNamespaces {
    /// The URI the `xml` prefix is always bound to.
    static let xmlURI = "http://www.w3.org/XML/1998/namespace"
    /// The namespace of `xmlns` and `xmlns:p` attributes.
    static let xmlnsURI = "http://www.w3.org/2000/xmlns/"

    /// Declarations in scope, innermost last; an empty prefix is the default namespace, an empty URI
    /// undeclares it.
    private var bindings: [(prefix: String, uri: String)] = []
    /// How many bindings each open element added.
    private var frames: [Int] = []

    mutating func push() { frames.append(0) }

    mutating func pop() {
        let count = frames.removeLast()
        bindings.removeLast(count)
    }

    /// Declares `prefix` (empty: the default namespace) in the innermost frame.
    mutating func declare(_ prefix: String, _ uri: String) {
        bindings.append((prefix, uri))
        frames[frames.count - 1] += 1
    }

    /// The URI `prefix` is bound to; `nil` when undeclared (for the empty prefix: no default namespace).
    func resolve(_ prefix: String) -> String? {
        if prefix == "xml" { return Self.xmlURI }
        if prefix == "xmlns" { return Self.xmlnsURI }
        for binding in bindings.reversed() where binding.prefix == prefix {
            return binding.uri.isEmpty ? nil : binding.uri
        }
        return nil
    }
}
