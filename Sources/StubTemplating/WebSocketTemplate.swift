import StubHTTP
import StubModel

/// The messages of a templated WebSocket stub (one with the `response-template` transformer), compiled once:
/// a `text` message, and the string values of a `json` one, rendered with the upgrade request (`request.path`,
/// `request.query.room`, …) and, in a reply, the message it answers (`message.body`,
/// `{{jsonPath message.body '$.id'}}`). Binary messages and parts without `{{` are sent as they are.
package struct WebSocketTemplate: Sendable {
    /// One message: as written, and its template if it has one.
    struct Message: Sendable {
        enum Body: Sendable {
            case text(Template)
            case json(TemplatedJSON)
        }

        let message: WebSocketOutgoing
        let body: Body?
    }

    let messages: [Message]

    /// Whether any message has a template: if none has, the messages go out as written.
    package var isTemplated: Bool { messages.contains { $0.body != nil } }

    /// Every template, for the load-time warnings about helpers stubserver does not know.
    package var templates: [Template] {
        messages.flatMap { message -> [Template] in
            switch message.body {
            case .text(let template): [template]
            case .json(let json): json.templates
            case nil: []
            }
        }
    }

    /// Compiles `messages`, at `field` (`webSocket.onMessage.[0].send`) for the error.
    /// - Throws: ``ResponseTemplate/Failure`` naming the message's field, relative to `metadata.stubserver`.
    package init(_ messages: [WebSocketOutgoing], at field: [String]) throws(ResponseTemplate.Failure) {
        var compiled: [Message] = []
        for (index, message) in messages.enumerated() {
            let at = field + ["[\(index)]"]
            switch message.payload {
            case .text(let text) where Template.hasTags(text.utf8):
                do { compiled.append(Message(message: message, body: .text(try Template(text)))) } catch {
                    throw ResponseTemplate.Failure(field: at + ["text"], bodyFile: nil, error: error)
                }
            case .json(let value) where Template.hasTags(value.serialized(.compact).utf8):
                compiled.append(Message(message: message, body: .json(try TemplatedJSON(value, at: at + ["json"]))))
            case .text, .json, .binary:
                compiled.append(Message(message: message, body: nil))
            }
        }
        self.messages = compiled
    }

    /// The messages for the upgrade `request` and, in a reply, the `message` it answers (its text, or a binary
    /// message's bytes as UTF-8), rendered within `limits`; or why they cannot be (the limit reached, or a
    /// `jsonPath` past the parser's bounds). `data` is the server's data store, which the `data` helper reads.
    package func render(
        for request: StubHTTPRequest, message: String?, serverOrigin: String, limits: TemplateLimits,
        data: (any TemplateDataSource)? = nil
    ) -> Result<[WebSocketOutgoing], RenderFailure> {
        var context = TemplateContext(
            request, pathParameters: [:], serverOrigin: serverOrigin, limits: limits, data: data)
        if let message { context.evaluator.variables["message"] = .map([("body", .string(message))]) }
        var rendered: [WebSocketOutgoing] = []
        rendered.reserveCapacity(messages.count)
        for message in messages {
            var out = TemplateOutput()
            switch message.body {
            case nil:
                rendered.append(message.message)
                continue
            case .text(let template): template.render(in: &context, into: &out)
            case .json(let json): json.render(in: &context, into: &out)
            }
            if let exceeded = context.exceeded { return .failure(.limit(exceeded)) }
            rendered.append(
                WebSocketOutgoing(.text(String(decoding: out.bytes, as: UTF8.self)), after: message.message.delay))
        }
        if let failure = context.evaluator.failure { return .failure(.template(failure)) }
        return .success(rendered)
    }

    /// Why a templated message could not be rendered.
    package enum RenderFailure: Error, CustomStringConvertible {
        case limit(TemplateLimitExceeded)
        case template(String)

        package var description: String {
            switch self {
            case .limit(let exceeded): exceeded.description
            case .template(let reason): reason
            }
        }
    }
}
