/// Entry points for building a ``ResponseDefinition`` in Swift, each the WireMock `response` object
/// it stands for:
///
/// ```swift
/// .json(["login": "octocat", "followers": 20])      // 200, jsonBody, Content-Type: application/json
/// .json(["login": login, "id": id])                 // variables too (see JSONRepresentable)
/// .json(user)                                       // an Encodable model
/// .status(404).header("X-RateLimit-Remaining", "0")
/// .json(["id": 1]).status(201)                      // every entry point chains with every modifier
/// .text("hi")                                       // 200, body, Content-Type: text/plain; charset=utf-8
/// .data([0x89, 0x50], contentType: "image/png")     // 200, base64Body
/// .file("users/octocat.json")                       // 200, bodyFileName (read by the server, see below)
/// .ok.delay(.milliseconds(300))                     // 200, fixedDelayMilliseconds
/// ```
///
/// **Content-Type.** WireMock adds no `Content-Type` for `jsonBody` or `body`; stubs loaded from
/// files keep that behaviour. The Swift `.json` and `.text` constructors add `application/json` and
/// `text/plain; charset=utf-8`, since that is what someone writing `.json(...)` expects; call
/// `.header("Content-Type", ...)` afterwards to send another type. `.data` and `.file` add one
/// only when `contentType:` is given.
extension ResponseDefinition {
    /// The `Content-Type` the ``json(_:status:)-(JSONValue,_)`` constructors send.
    public static let jsonContentType = "application/json"
    /// The `Content-Type` the ``text(_:status:)`` constructors send.
    public static let textContentType = "text/plain; charset=utf-8"

    /// An empty response with `code` (`{"status": code}`).
    public static func status(_ code: Int) -> ResponseDefinition {
        ResponseDefinition(status: code)
    }

    /// An empty `200 OK`.
    public static var ok: ResponseDefinition { ResponseDefinition(status: 200) }

    /// An empty `404 Not Found`.
    public static var notFound: ResponseDefinition { ResponseDefinition(status: 404) }

    /// A JSON body (`jsonBody`), serialized compactly, with `Content-Type: application/json`.
    ///
    /// ```swift
    /// server.stub(.get("/users/octocat"), .json(["login": "octocat", "followers": 20]))
    /// ```
    public static func json(_ value: JSONValue, status: Int = 200) -> ResponseDefinition {
        ResponseDefinition(status: status).json(value)
    }

    /// A text body (`body`), sent as UTF-8, with `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200) -> ResponseDefinition {
        ResponseDefinition(status: status).text(text)
    }

    /// A binary body (`base64Body`), with `Content-Type: contentType` if given.
    public static func data(_ bytes: [UInt8], contentType: String? = nil, status: Int = 200) -> ResponseDefinition {
        ResponseDefinition(status: status).data(bytes, contentType: contentType)
    }

    /// A body read from `name` under the server's `__files` directory (`bodyFileName`), with
    /// `Content-Type: contentType` if given (none by default, as in WireMock).
    ///
    /// The value holds `.file(name: name, bytes: [])` until the server reads the file when the stub
    /// is added; see ``bodyFileToLoad`` and ``loadingBodyFile(_:)``.
    public static func file(_ name: String, contentType: String? = nil, status: Int = 200) -> ResponseDefinition {
        ResponseDefinition(status: status).file(name, contentType: contentType)
    }
}
