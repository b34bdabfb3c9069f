#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON bodies from Swift values: `Encodable` models, and literals holding variables.
///
/// ```swift
/// server.stub(.get("/users/octocat"), .json(GitHubUser(login: "octocat", id: 1)))   // your Codable model
/// server.stub(.get("/users/\(login)"), .json(["login": login, "followers": count]))  // variables
/// server.stub(.post("/repos"), .json(["id": 1, "name": "x"]).status(201))           // literals: a JSONValue
/// ```
extension ResponseDefinition {
    /// A JSON body encoded from `value` with `encoder`, and `Content-Type: application/json`.
    ///
    /// If `encoder` fails (say, a `Double.nan` without a non-conforming float strategy), the stub
    /// answers 500 with the reason in its body, as for a missing body file.
    /// - Parameters:
    ///   - value: what the body is encoded from.
    ///   - encoder: Default: a `JSONEncoder` with `.sortedKeys`, so the body is the same
    ///     from run to run; pass your app's decoder's counterpart for its key and date strategies.
    ///   - status: the status code. Default 200.
    public static func json(
        _ value: some Encodable, encoder: JSONEncoder = JSONValue.sortedKeysEncoder(),
        status: Int = 200
    ) -> ResponseDefinition {
        ResponseDefinition(status: status).json(value, encoder: encoder)
    }

    /// A JSON object whose values are Swift values or ``JSONValue``s, in the literal's order (see
    /// ``JSONRepresentable``), with `Content-Type: application/json`.
    @_disfavoredOverload  // a literal whose values are all JSONValues is the JSONValue overload's
    public static func json(
        _ members: KeyValuePairs<String, any JSONRepresentable>,
        status: Int = 200
    ) -> ResponseDefinition {
        ResponseDefinition(status: status).json(JSONValue(members))
    }

    /// A JSON array of Swift values or ``JSONValue``s, with `Content-Type: application/json`.
    @_disfavoredOverload  // a literal whose values are all JSONValues is the JSONValue overload's
    public static func json(_ elements: [any JSONRepresentable], status: Int = 200) -> ResponseDefinition {
        ResponseDefinition(status: status).json(JSONValue(elements))
    }

    /// Sets a JSON body encoded from `value` (see ``json(_:encoder:status:)``), keeping the status.
    public func json(_ value: some Encodable, encoder: JSONEncoder = JSONValue.sortedKeysEncoder())
        -> ResponseDefinition
    {
        do {
            return json(try JSONValue(encoding: value, encoder: encoder))
        } catch {
            return ResponseDefinition(
                status: 500, headers: ["Content-Type": Self.textContentType],
                body: .text("stubserver: \(error)\n"))
        }
    }

    /// Sets a JSON object body whose values are Swift values or ``JSONValue``s, keeping the status.
    @_disfavoredOverload  // a literal whose values are all JSONValues is the JSONValue overload's
    public func json(_ members: KeyValuePairs<String, any JSONRepresentable>) -> ResponseDefinition {
        json(JSONValue(members))
    }
}
