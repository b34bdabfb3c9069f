import StubHTTP

/// A stub's response, prepared once when the route table is built.
///
/// The bytes on the wire are prepared ahead and the hot path only splices in the `Date` header; what
/// varies per request (a random delay, pacing) is decided when it is sent; ``answer`` says how the stub answers,
/// decided here once: a templated response (``ResponseTemplate``) is parsed here and rendered per request by the
/// handler.
///
/// A class: every request takes one from the snapshot, and a reference is one retain where a copy
/// of these fields was one per field.
final class StubResponse: Sendable {
    /// The response's bytes: the whole answer for ``Answer/prepared``, the head for the other answers.
    let prepared: PreparedResponse
    let status: Int
    let delay: Duration?
    let delayDistribution: DelayDistribution?
    let dribble: ChunkedDribbleDelay?
    let bytesPerSecond: Int?
    /// How the stub answers.
    let answer: Answer
    /// How the journal names the stub this answers for, made once with the response (``LoggedRequest/MatchedStub``);
    /// `nil` when made without the stub's display name (then the handler asks the match).
    let stub: LoggedRequest.MatchedStub?

    /// How a request is answered: fixed for a stub when its route table is built, and made for one request
    /// from what a template rendered, a body file opened or a closure stub's code
    /// (``StubRequestHandler/deliver(_:of:sending:ownsBody:for:match:responder:started:)`` switches on it).
    enum Answer: Sendable {
        /// ``prepared`` as it is, paced by the stub's dribble or rate and the network's.
        case prepared
        /// A body file left on disk (over ``BodyFiles/cacheLimit``), opened and streamed when served:
        /// ``prepared`` has the head and no body.
        case streamedFile(StreamedBodyFile)
        /// A rendered body that spilled to a temporary file (``TemplateOutput``), sent from there.
        case spilledBody(TemplateSpillFile)
        /// A stream of events or lines (``ResponseDefinition/stream``) after the head.
        case stream(PreparedStream)
        /// A closure stub's event stream: `produce` (bound to its request) sends events once it is open.
        case producedStream(PreparedStream, produce: @Sendable (EventSink) async throws -> Void)
        /// A WebSocket stub's script, its matchers compiled (``ResponseDefinition/webSocket``).
        case webSocket(CompiledWebSocketScript)
        /// A WebSocket closure stub: makes the connection's handler (``ClosureWebSocket``).
        case closureWebSocket(@Sendable () -> any WebSocketHandler)
        /// No response: the connection ends as the fault says.
        case fault(ResponseFault)
        /// Never answered (``ResponseDefinition/hangs``).
        case hang
        /// Rendered per request, then answered as `then` says (``prepared``, unless the stub also faults, hangs
        /// or is a WebSocket); a rendered stream or spilled body is answered as such.
        indirect case template(ResponseTemplate, then: Answer)
        /// Forwarded upstream; ``prepared`` is unused. `headers`: the stub's own header fields, added to
        /// the upstream's (no `Matched-Stub-Id`, as WireMock).
        case proxy(ProxyDefinition, headers: StubHTTPHeaders)
    }

    convenience init(_ mapping: StubMapping, loadOptions: StubsLoadOptions = StubsLoadOptions()) {
        self.init(
            mapping.response, stubID: mapping.id, stubName: mapping.name, displayName: mapping.displayName,
            loadOptions: loadOptions, scenarioName: mapping.scenarioName)
    }

    init(
        _ definition: ResponseDefinition, stubID: String, stubName: String?, displayName: String? = nil,
        loadOptions: StubsLoadOptions = StubsLoadOptions(), scenarioName: String? = nil
    ) {
        stub = displayName.map { LoggedRequest.MatchedStub(id: stubID, name: stubName, displayName: $0) }
        var response = HTTPResponse(definition, stubID: stubID, stubName: stubName)
        if definition.stream != nil { response.body = [] }  // the stream replaces it
        let templated = definition.isTemplated(under: loadOptions)
        var template: ResponseTemplate?
        var webSocket: CompiledWebSocketScript?
        do throws(ResponseTemplate.Failure) {
            if let script = definition.webSocket {
                webSocket = try CompiledWebSocketScript(
                    script, scenarioName: scenarioName, templated: templated,
                    parsed: definition.loadedWebSocketTemplates)
            }
            if definition.bodyFileProblem == nil, templated {
                // The loader's parse, when the stub was loaded from a file or the admin API.
                template = try definition.responseTemplate(stubID: stubID, stubName: stubName)
            }
        } catch {
            // Stub files and admin mappings were checked when decoded; a stub built in Swift with a
            // bad template answers 500 with the reason, as WireMock does.
            let reason =
                "stubserver: \(stubName ?? stubID): \(error.field.joined(separator: ".")): \(error.message)\n"
            response = HTTPResponse(
                status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Array(reason.utf8))
        }
        if let problem = definition.bodyFileProblem {
            // A stub file whose body file is missing: WireMock answers 500 when it is hit, and so do we,
            // saying which file, in the response and in the journal.
            response = HTTPResponse(
                status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: Array("stubserver: \(problem)\n".utf8))
        }
        // What is sent once the response is known: a fault or a hang first, then a WebSocket.
        let sent: Answer =
            if definition.hangs {
                .hang
            } else if let fault = definition.fault {
                .fault(fault)
            } else if let webSocket {
                .webSocket(webSocket)
            } else {
                .prepared
            }
        answer =
            if let proxy = definition.proxy, definition.bodyFileProblem == nil {
                .proxy(proxy, headers: definition.headers)
            } else if let template {
                .template(template, then: sent)
            } else if case .prepared = sent, let stream = definition.stream {
                .stream(PreparedStream(stream))
            } else if case .prepared = sent, let file = definition.streamedBodyFile {
                .streamedFile(file)
            } else {
                sent
            }
        prepared = PreparedResponse(response)
        status = response.status.code
        delay = definition.fixedDelayMilliseconds.map { .milliseconds($0) }
        delayDistribution = definition.delayDistribution
        dribble = definition.chunkedDribbleDelay
        bytesPerSecond = definition.bytesPerSecond
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
