import StubHTTP
import StubModel

/// The response half of a recorded stub: status, the headers worth replaying, and the body file.
extension StubWriter {
    struct ResponsePlan: Hashable {
        var status: Int
        var headers: StubHTTPHeaders
        /// The bytes for `__files/`; empty for no body (then no file is written).
        var body: [UInt8]
        /// The body file's extension, from `Content-Type` (`json`, `png`, `txt`, …; `bin` when unknown).
        var fileExtension: String
        var dropped: [RecordingSummary.Dropped]
    }

    /// Header fields never replayed: the server writes its own framing, a recorded `Date` would be replayed
    /// frozen at the time of the recording (the server sends the current one instead), bodies are stored
    /// decoded, so `Content-Encoding` would lie, and `Matched-Stub-Id`/`Matched-Stub-Name` name the stub
    /// of an upstream stub server (WireMock or stubserver), which the replaying server replaces with its own.
    static let transportHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "date", "te",
        "trailer", "upgrade", "proxy-connection", "matched-stub-id", "matched-stub-name"
    ]

    func responsePlan(for response: RecordedExchange.Response) -> ResponsePlan {
        var headers = StubHTTPHeaders()
        var dropped: [RecordingSummary.Dropped] = []
        for field in response.headers {
            let lower = field.name.lowercased()
            // `:status` and friends: HTTP/2 pseudo-headers, as some HAR exporters list them.
            guard !lower.hasPrefix(":"), !Self.transportHeaders.contains(lower) else { continue }
            if options.secrets.isSecretHeader(field.name) {
                if !dropped.contains(where: { $0.kind == .responseHeader && $0.name.lowercased() == lower }) {
                    dropped.append(.init(kind: .responseHeader, name: field.name))
                }
                continue
            }
            headers.add(name: field.name, value: field.value)
        }
        let contentType = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        var body = response.body
        if options.jsonBodies == .prettyPrinted, contentType.contains("json"), let value = Self.jsonDocument(body) {
            body = value.serializedBytes(.pretty)
        }
        return ResponsePlan(
            status: response.status, headers: headers, body: body,
            fileExtension: Self.fileExtension(contentType: contentType, body: response.body),
            dropped: dropped)
    }

    /// `json`, `html`, `png`, … from the media type; `txt` for other UTF-8 text, `bin` for other bytes, and `bin`
    /// too for bytes that are not UTF-8 text under a text media type (a server that labels an image `text/plain`).
    static func fileExtension(contentType: String, body: [UInt8]) -> String {
        let media = contentType.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
        let known: [(suffix: String, ext: String)] = [
            ("json", "json"), ("/html", "html"), ("/xml", "xml"), ("+xml", "xml"), ("/svg+xml", "svg"),
            ("/plain", "txt"), ("/css", "css"), ("/javascript", "js"), ("/csv", "csv"), ("/png", "png"),
            ("/jpeg", "jpg"), ("/gif", "gif"), ("/webp", "webp"), ("/pdf", "pdf"), ("/zip", "zip")
        ]
        // The longest suffix wins, so image/svg+xml is svg, not xml.
        if let match = known.filter({ media.hasSuffix($0.suffix) }).max(by: { $0.suffix.count < $1.suffix.count }) {
            let textual: Set = ["json", "html", "xml", "svg", "txt", "css", "js", "csv"]
            return textual.contains(match.ext) && !body.isEmpty && text(body) == nil ? "bin" : match.ext
        }
        return text(body) == nil ? "bin" : "txt"
    }
}
