import StubHTTP
import StubModel

/// A templated response's templates as the loader parsed them when it checked the stub, kept in
/// ``StubModel/ResponseDefinition/loaded``: serving takes them (``ResponseDefinition/responseTemplate(stubID:stubName:)``,
/// ``ResponseDefinition/loadedWebSocketTemplates``), so each template is parsed once per load.
package final class ParsedResponse: Sendable {
    /// The fields the templates were parsed from: the parse is taken only while the response still has them.
    struct Source: Sendable, Hashable {
        let status: Int
        let statusMessage: String?
        let headers: StubHTTPHeaders
        let body: ResponseDefinition.Body
        let bodyFileSet: BodyFileSet?
        let stream: ResponseStream?
        let webSocket: WebSocketScript?

        init(_ definition: ResponseDefinition) {
            status = definition.status
            statusMessage = definition.statusMessage
            headers = definition.headers
            body = definition.body
            bodyFileSet = definition.bodyFileSet
            stream = definition.stream
            webSocket = definition.webSocket
        }
    }

    let source: Source
    /// The headers, body and stream.
    let template: ResponseTemplate
    /// The messages of the WebSocket script: `onConnect`, then each reply's `send`.
    let webSocket: [WebSocketTemplate]

    /// The templates of `definition`, parsed now; `bodyFileName` is the templated `bodyFileName` when the caller
    /// parsed it already.
    /// - Throws: ``ResponseTemplate/Failure`` naming the field of the first template that does not parse (a stream's
    ///   or a WebSocket message's under `metadata.stubserver`).
    package init(_ definition: ResponseDefinition, bodyFileName: Template? = nil) throws(ResponseTemplate.Failure) {
        source = Source(definition)
        template = try ResponseTemplate(definition, stubID: "", stubName: nil, bodyFileName: bodyFileName)
        var webSocket: [WebSocketTemplate] = []
        for (field, messages) in definition.webSocket.map(WebSocketTemplate.lists(of:)) ?? [] {
            do throws(ResponseTemplate.Failure) {
                webSocket.append(try WebSocketTemplate(messages, at: field))
            } catch {
                throw ResponseTemplate.Failure(
                    field: ["metadata", "stubserver"] + error.field, bodyFile: error.bodyFile, error: error.error)
            }
        }
        self.webSocket = webSocket
    }

    /// The helpers stubserver does not implement, by the field that calls them (``ResponseTemplate/unknownHelpers``,
    /// and `metadata.stubserver.webSocket` for a WebSocket message).
    package var unknownHelpers: [(field: String, helper: String)] {
        template.unknownHelpers
            + webSocket.flatMap {
                $0.templates.flatMap { $0.unknownHelpers.map { ("metadata.stubserver.webSocket", $0) } }
            }
    }

    /// The literal `fake` / `random` keys that name no fake data, by field (``ResponseTemplate/unknownFakeDataKeys``).
    package var unknownFakeDataKeys: [(field: String, key: String)] { template.unknownFakeDataKeys }
}

extension WebSocketTemplate {
    /// The message lists of `script` that are templated, by field relative to `metadata.stubserver`: `onConnect`,
    /// then each reply's `send`.
    package static func lists(of script: WebSocketScript) -> [(field: [String], messages: [WebSocketOutgoing])] {
        var lists = [(["webSocket", "onConnect"], script.onConnect)]
        for (index, reply) in script.onMessage.enumerated() {
            lists.append((["webSocket", "onMessage", "[\(index)]", "send"], reply.send))
        }
        return lists
    }
}

extension ResponseDefinition {
    /// Parses every template of this response (its headers, body, stream and WebSocket messages) and keeps the
    /// parse in ``loaded`` for serving to take.
    /// - Throws: ``ResponseTemplate/Failure`` naming the field of the first template that does not parse.
    package mutating func parseTemplates(bodyFileName: Template? = nil) throws(ResponseTemplate.Failure)
        -> ParsedResponse
    {
        let parsed = try ParsedResponse(self, bodyFileName: bodyFileName)
        loaded = LoadedParts(parsed)
        return parsed
    }

    /// The templates the loader parsed (``parseTemplates(bodyFileName:)``), when this response still says what they
    /// were parsed from.
    private var parsed: ParsedResponse? {
        guard let parsed = loaded.value as? ParsedResponse, parsed.source == ParsedResponse.Source(self) else {
            return nil
        }
        return parsed
    }

    /// The response template of the stub `stubID`: the loader's parse when there is one, else parsed now.
    /// - Throws: ``ResponseTemplate/Failure`` naming the field of the first template that does not parse.
    package func responseTemplate(stubID: String, stubName: String?) throws(ResponseTemplate.Failure)
        -> ResponseTemplate
    {
        if let parsed { return parsed.template.bound(stubID: stubID, stubName: stubName) }
        return try ResponseTemplate(self, stubID: stubID, stubName: stubName)
    }

    /// The WebSocket script's message templates as the loader parsed them (``WebSocketTemplate/lists(of:)``'s
    /// order), or `nil` when it did not.
    package var loadedWebSocketTemplates: [WebSocketTemplate]? {
        guard let parsed, webSocket != nil else { return nil }
        return parsed.webSocket
    }
}
