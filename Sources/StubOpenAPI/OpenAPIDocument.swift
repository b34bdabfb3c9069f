import StubHTTP
import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An OpenAPI 3.0 or 3.1 document, loaded and checked: its operations, their parameters, request bodies and
/// responses, and one JSON Schema validator for all of its schemas.
///
/// `$ref`s to other files (`common.yaml#/components/schemas/Error`) are read and put in place when the document
/// loads; references within the document stay references, so recursive schemas work.
public struct OpenAPIDocument: Sendable {
    /// Which OpenAPI the document follows (its `openapi` member).
    public enum Version: Sendable, Hashable {
        /// 3.0.x: schemas are draft 4 with `nullable`.
        case v30
        /// 3.1.x: schemas are JSON Schema 2020-12 (type arrays for null).
        case v31
    }

    /// The file as the user named it.
    public let file: String
    public let version: Version
    /// `info.title`.
    public let title: String
    /// The document, with other files' parts put in place of `$ref`s to them.
    public let root: JSONValue
    /// In document order (paths as listed, methods in `get, put, post, delete, options, head, patch, trace` order).
    public let operations: [OpenAPIOperation]
    /// Validates with every schema of the document.
    let validator: JSONSchema
    let router: OpenAPIRouter

    /// The most bytes a document (with the files its `$ref`s name) may have.
    public static let maxBytes = 64 << 20

    /// Reads and checks the document at `path` (YAML or JSON).
    public static func load(contentsOf path: String) throws(OpenAPIError) -> OpenAPIDocument {
        let loader = OpenAPIFileLoader(mainFile: path)
        let root = try loader.readRoot()
        return try OpenAPIDocument(root, file: path, loader: loader)
    }

    /// Checks a document given as text (YAML or JSON); `$ref`s to other files resolve against `directory`.
    public init(parsing text: String, file: String = "<openAPI>", directory: String? = nil) throws(OpenAPIError) {
        let loader = OpenAPIFileLoader(mainFile: file, directory: directory)
        let root = try OpenAPIFileLoader.parse(text, file: file)
        try self.init(root, file: file, loader: loader)
    }

    private init(_ parsed: JSONValue, file: String, loader: OpenAPIFileLoader) throws(OpenAPIError) {
        self.file = file
        func fail(_ place: String, _ message: String) -> OpenAPIError {
            OpenAPIError(file: file, place: place, message: message)
        }
        guard case .object = parsed else { throw fail("", "an OpenAPI document is an object (a YAML mapping)") }
        guard let declared = parsed["openapi"]?.stringValue else {
            if parsed["swagger"] != nil {
                throw fail("#/swagger", "Swagger 2.0 is not supported: convert it to OpenAPI 3 (e.g. swagger2openapi)")
            }
            throw fail("#/openapi", "missing the `openapi` version (3.0.x or 3.1.x)")
        }
        if declared.hasPrefix("3.0") {
            version = .v30
        } else if declared.hasPrefix("3.1") {
            version = .v31
        } else {
            throw fail("#/openapi", "OpenAPI \(declared) is not supported: 3.0.x and 3.1.x are")
        }
        title = parsed["info"]?["title"]?.stringValue ?? file
        let root = try loader.inlineExternalReferences(parsed)
        self.root = root
        let operations = try OpenAPIOperation.all(in: root, file: file)
        self.operations = operations
        var entries: [(pointer: String, node: JSONValue)] = []
        if case .object(let schemas)? = root["components"]?["schemas"] {
            entries += schemas.map { ("/components/schemas/" + OpenAPIPointer.escape($0.key), $0.value) }
        }
        for operation in operations { entries += operation.schemaEntries }
        do {
            validator = try JSONSchema(
                root, version: version == .v30 ? .v4 : .v202012, entries: entries, openAPI30: version == .v30)
        } catch {
            throw fail("#" + error.pointer, error.message)
        }
        router = OpenAPIRouter(operations)
    }

    /// The operation `method` and `path` (raw, as sent, without the query) belong to, with the path's parameters
    /// (decoded).
    public func operation(method: String, path: String) -> (
        operation: OpenAPIOperation, pathParameters: [String: String]
    )? {
        router.route(method: method, path: path).map { (operations[$0.index], $0.parameters) }
    }
}

/// JSON pointer tokens.
enum OpenAPIPointer {
    static func escape(_ token: String) -> String {
        token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    static func unescape(_ token: Substring) -> String {
        String(token.replacing("~1", with: "/").replacing("~0", with: "~"))
    }

    /// The node at `pointer` (`/a/b`, without `#`) in `root`.
    static func resolve(_ pointer: Substring, in root: JSONValue) -> JSONValue? {
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var node = root
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = unescape(Substring(PercentDecoding.decode(raw, plusAsSpace: false)))
            switch node {
            case .object: guard let next = node[token] else { return nil }; node = next
            case .array(let list):
                guard let index = Int(token), list.indices.contains(index) else { return nil }
                node = list[index]
            case .null, .bool, .number, .string: return nil
            }
        }
        return node
    }
}
