import StubHTTP
import StubModel

/// The events or lines of a templated streamed response (``ResponseStream`` in a stub with the
/// `response-template` transformer), compiled with the rest of its ``ResponseTemplate`` and rendered with the
/// same request context: an event's `data`, `id` and `event`, and each line.
package struct StreamTemplate: Sendable {
    /// One event or line: its parts, templated where they have tags.
    enum Item: Sendable {
        case event(ServerSentEvent, data: Template?, id: Template?, event: Template?)
        case line(StreamedLine, Template?)
    }

    let items: [Item]
    let end: HTTPStreamEnd
    let isEvents: Bool

    /// Compiles `stream`'s templated parts.
    /// - Throws: ``ResponseTemplate/Failure`` naming the field as in a stub file (`events.[0].data`), relative
    ///   to `metadata.stubserver`.
    package init(_ stream: ResponseStream) throws(ResponseTemplate.Failure) {
        func compile(_ text: String?, _ field: [String]) throws(ResponseTemplate.Failure) -> Template? {
            guard let text, Template.hasTags(text.utf8) else { return nil }
            do { return try Template(text) } catch {
                throw ResponseTemplate.Failure(field: field, bodyFile: nil, error: error)
            }
        }
        var items: [Item] = []
        switch stream.content {
        case .events(let events):
            for (index, event) in events.enumerated() {
                let at = ["events", "[\(index)]"]
                items.append(
                    .event(
                        event, data: try compile(event.data, at + ["data"]), id: try compile(event.id, at + ["id"]),
                        event: try compile(event.event, at + ["event"])))
            }
            isEvents = true
        case .lines(let lines):
            for (index, line) in lines.enumerated() {
                items.append(.line(line, try compile(line.text, ["lines", "[\(index)]", "text"])))
            }
            isEvents = false
        }
        self.items = items
        end = PreparedStream.end(of: stream)
    }

    /// Every template, by its field.
    package var templates: [(field: String, template: Template)] {
        var found: [(field: String, template: Template)] = []
        for item in items {
            switch item {
            case .event(_, let data, let id, let event):
                for template in [data, id, event].compactMap({ $0 }) {
                    found.append(("metadata.stubserver.events", template))
                }
            case .line(_, let template?): found.append(("metadata.stubserver.lines", template))
            case .line(_, nil): break
            }
        }
        return found
    }

    /// The stream for the request of `context`.
    func render(in context: inout TemplateContext) -> PreparedStream {
        func rendered(_ template: Template?, _ fixed: String?, oneLine: Bool) -> String? {
            guard let template else { return fixed }
            var out = TemplateOutput()
            template.render(in: &context, into: &out)
            if oneLine {  // an id, event name or line must stay one line
                for index in out.bytes.indices where out.bytes[index] == 0x0D || out.bytes[index] == 0x0A {
                    out.bytes[index] = 0x20
                }
            }
            return String(decoding: out.bytes, as: UTF8.self)
        }
        var steps: [HTTPStreamStep] = []
        var ids: [String?] = []
        for item in items {
            switch item {
            case .event(var event, let data, let id, let name):
                event.data = rendered(data, event.data, oneLine: false)
                event.id = rendered(id, event.id, oneLine: true)
                event.event = rendered(name, event.event, oneLine: true)
                steps.append(HTTPStreamStep(after: event.delay, event.wireBytes))
                ids.append(event.id)
            case .line(let line, let template):
                let text = rendered(template, line.text, oneLine: true) ?? ""
                steps.append(HTTPStreamStep(after: line.delay, StreamedLine(text).wireBytes))
            }
        }
        return PreparedStream(steps: steps, ids: ids, end: end, isEvents: isEvents)
    }
}
