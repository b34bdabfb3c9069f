import StubHTTP

/// A stub's response, prepared once when the route table is built.
///
/// The bytes on the wire are prepared ahead and the hot path only splices in the `Date` header; what
/// varies per request (a random delay, pacing, a fault) is decided by ``send(_:via:after:network:)``; a templated
/// response (``ResponseTemplate``) is parsed here and rendered per request by the handler.
///
/// A class: every request takes one from the snapshot, and a reference is one retain where a copy
/// of these fields was one per field.
final class StubResponse: Sendable {
    let prepared: PreparedResponse
    let status: Int
    let delay: Duration?
    let delayDistribution: DelayDistribution?
    let fault: ResponseFault?
    let dribble: ChunkedDribbleDelay?
    let bytesPerSecond: Int?
    /// Set for templated responses; ``prepared`` is then unused.
    let template: ResponseTemplate?
    /// Set for proxy stubs; ``prepared`` is then unused.
    let proxy: ProxyDefinition?
    /// A body file left on disk (over ``BodyFiles/cacheLimit``), streamed when served; ``prepared`` then
    /// has the head and no body.
    let bodyFile: StreamedBodyFile?
    /// For proxy stubs: the stub's own header fields, added to the upstream's (no `Matched-Stub-Id`, as WireMock).
    let proxyHeaders: HTTPHeaders

    convenience init(_ mapping: StubMapping, globalResponseTemplating: Bool = false) {
        self.init(mapping.response, stubID: mapping.id, stubName: mapping.name, globalResponseTemplating: globalResponseTemplating)
    }

    init(_ definition: ResponseDefinition, stubID: String, stubName: String?, globalResponseTemplating: Bool = false) {
        var response = HTTPResponse(definition, stubID: stubID, stubName: stubName)
        var template: ResponseTemplate?
        if definition.isTemplated(globally: globalResponseTemplating) {
            do {
                template = try ResponseTemplate(definition, stubID: stubID, stubName: stubName)
            } catch {
                // Stub files and admin mappings were checked when decoded; a stub built in Swift with a
                // bad template answers 500 with the reason, as WireMock does.
                let reason = "stubserver: \(stubName ?? stubID): \(error.field.joined(separator: ".")): \(error.message)\n"
                response = HTTPResponse(status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                        body: Array(reason.utf8))
            }
        }
        self.template = template
        bodyFile = template == nil && definition.proxy == nil ? definition.streamedBodyFile : nil
        proxy = definition.proxy
        proxyHeaders = definition.proxy == nil ? [:] : definition.headers
        prepared = PreparedResponse(response)
        status = response.status.code
        delay = definition.fixedDelayMilliseconds.map { .milliseconds($0) }
        delayDistribution = definition.delayDistribution
        fault = definition.fault
        dribble = definition.chunkedDribbleDelay
        bytesPerSecond = definition.bytesPerSecond
    }
}

extension HTTPResponse {
    /// The response WireMock would send for `definition`: its status, reason and headers in order,
    /// followed by `Matched-Stub-Id` (and `Matched-Stub-Name` for named stubs), with no default
    /// `Content-Type`.
    init(_ definition: ResponseDefinition, stubID: String, stubName: String?) {
        var headers = definition.headers
        headers.add(name: "Matched-Stub-Id", value: stubID)
        if let stubName { headers.add(name: "Matched-Stub-Name", value: stubName) }
        self.init(status: HTTPStatus(code: definition.status, reasonPhrase: definition.statusMessage),
                  headers: headers, body: definition.body.bytes)
    }
}

extension ResponseDefinition.Body {
    /// The bytes sent on the wire.
    var bytes: [UInt8] {
        switch self {
        case .none: []
        case let .text(text): Array(text.utf8)
        case let .json(value): Array(value.serialized(.compact).utf8)
        case let .bytes(bytes), let .file(_, bytes): bytes
        }
    }
}
