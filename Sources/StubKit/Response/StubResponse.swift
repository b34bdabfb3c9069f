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
    /// Never answered (``ResponseDefinition/hangs``).
    let hangs: Bool
    /// Sent as a stream of events or lines instead of a body (``ResponseDefinition/stream``).
    let stream: PreparedStream?
    /// A WebSocket stub's script, its matchers compiled (``ResponseDefinition/webSocket``).
    let webSocket: CompiledWebSocketScript?
    /// For a stream of a closure stub's events: the closure, bound to its request, run once the stream is open.
    let eventProducer: (@Sendable (EventSink) async throws -> Void)?
    /// For a WebSocket closure stub: makes the connection's handler (``ClosureWebSocket``), in place of the script.
    let webSocketHandler: (@Sendable () -> any WebSocketHandler)?
    /// Where the answer comes from.
    let kind: Kind

    /// Where a stub's answer comes from, decided once when its route table is built. (A stub answered by a
    /// Swift closure has its closure in the snapshot instead, and this response is unused.)
    enum Kind: Sendable {
        /// ``prepared`` as it is.
        case prepared
        /// A body file left on disk (over ``BodyFiles/cacheLimit``), streamed when served: ``prepared``
        /// has the head and no body.
        case streamedFile(StreamedBodyFile)
        /// Rendered per request; ``prepared`` is unused.
        case template(ResponseTemplate)
        /// Forwarded upstream; ``prepared`` is unused. `headers`: the stub's own header fields, added to
        /// the upstream's (no `Matched-Stub-Id`, as WireMock).
        case proxy(ProxyDefinition, headers: StubHTTPHeaders)
    }

    /// The parsed template, for a templated response.
    var template: ResponseTemplate? {
        if case .template(let template) = kind { return template }
        return nil
    }

    /// The body file streamed from disk, if any.
    var streamedFile: StreamedBodyFile? {
        if case .streamedFile(let file) = kind { return file }
        return nil
    }

    /// The stub's own header fields added to an upstream's answer (empty unless a proxy stub).
    var proxyHeaders: StubHTTPHeaders {
        if case .proxy(_, let headers) = kind { return headers }
        return [:]
    }

    convenience init(_ mapping: StubMapping, loadOptions: StubsLoadOptions = StubsLoadOptions()) {
        self.init(
            mapping.response, stubID: mapping.id, stubName: mapping.name, loadOptions: loadOptions,
            scenarioName: mapping.scenarioName)
    }

    init(
        _ definition: ResponseDefinition, stubID: String, stubName: String?,
        loadOptions: StubsLoadOptions = StubsLoadOptions(),
        eventProducer: (@Sendable (EventSink) async throws -> Void)? = nil,
        webSocketHandler: (@Sendable () -> any WebSocketHandler)? = nil, scenarioName: String? = nil
    ) {
        self.eventProducer = eventProducer
        self.webSocketHandler = webSocketHandler
        var response = HTTPResponse(definition, stubID: stubID, stubName: stubName)
        if definition.stream != nil { response.body = [] }  // the stream replaces it
        var template: ResponseTemplate?
        var webSocketProblem: ResponseTemplate.Failure?
        if let script = definition.webSocket {
            do throws(ResponseTemplate.Failure) {
                webSocket = try CompiledWebSocketScript(
                    script, scenarioName: scenarioName, templated: definition.isTemplated(under: loadOptions))
            } catch {
                webSocket = nil
                webSocketProblem = error
            }
        } else {
            webSocket = nil
        }
        if let problem = definition.bodyFileProblem {
            // A stub file whose body file is missing: WireMock answers 500 when it is hit, and so do we,
            // saying which file, in the response and in the journal.
            response = HTTPResponse(
                status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Array("stubserver: \(problem)\n".utf8))
        } else if definition.isTemplated(under: loadOptions) {
            do throws(ResponseTemplate.Failure) {
                if let webSocketProblem { throw webSocketProblem }
                template = try ResponseTemplate(definition, stubID: stubID, stubName: stubName)
            } catch {
                // Stub files and admin mappings were checked when decoded; a stub built in Swift with a
                // bad template answers 500 with the reason, as WireMock does.
                let reason =
                    "stubserver: \(stubName ?? stubID): \(error.field.joined(separator: ".")): \(error.message)\n"
                response = HTTPResponse(
                    status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: Array(reason.utf8))
            }
        }
        if let proxy = definition.proxy, definition.bodyFileProblem == nil {
            kind = .proxy(proxy, headers: definition.headers)
        } else if let template {
            kind = .template(template)
        } else if let file = definition.streamedBodyFile {
            kind = .streamedFile(file)
        } else {
            kind = .prepared
        }
        prepared = PreparedResponse(response)
        status = response.status.code
        delay = definition.fixedDelayMilliseconds.map { .milliseconds($0) }
        delayDistribution = definition.delayDistribution
        fault = definition.fault
        dribble = definition.chunkedDribbleDelay
        bytesPerSecond = definition.bytesPerSecond
        hangs = definition.hangs
        stream = definition.stream.map(PreparedStream.init)
    }
}

extension HTTPResponse {
    /// The response WireMock would send for `definition`: its status, reason and headers in order,
    /// followed by `Matched-Stub-Id` (and `Matched-Stub-Name` for named stubs), with no default
    /// `Content-Type`.
    init(_ definition: ResponseDefinition, stubID: String, stubName: String?) {
        var headers = definition.headersWithStreamDefaults
        headers.add(name: "Matched-Stub-Id", value: stubID)
        if let stubName { headers.add(name: "Matched-Stub-Name", value: stubName) }
        self.init(
            status: StubHTTPStatus(code: definition.status, reasonPhrase: definition.statusMessage),
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
