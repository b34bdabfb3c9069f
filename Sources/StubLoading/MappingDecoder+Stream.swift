import StubModel
import StubTemplating

/// Decoding of streamed responses: `metadata.stubserver.events`, `lines` and `streamEnd` (see
/// the StreamingResponses article), which WireMock ignores (it answers the stub's `body`).
extension MappingDecoder.Run {
    static let eventFields = ["data", "event", "id", "retry", "comment", "delayMilliseconds"]
    static let lineFields = ["json", "text", "delayMilliseconds"]

    /// The stream of `own` (a `metadata.stubserver` object), if it has one.
    mutating func decodeStream(_ own: JSONValue, at path: MappingPath) throws(StubsLoadError) -> ResponseStream? {
        let events = own["events"], lines = own["lines"]
        if events != nil && lines != nil { throw failure(path, "give 'events' or 'lines', not both") }
        let content: ResponseStream.Content
        if let events {
            var decoded: [ServerSentEvent] = []
            for element in try elements(events, at: path.key("events"), of: "event objects") {
                decoded.append(try decodeEvent(element.value, at: element.path))
            }
            content = .events(decoded)
        } else if let lines {
            var decoded: [StreamedLine] = []
            for element in try elements(lines, at: path.key("lines"), of: "line objects") {
                decoded.append(try decodeLine(element.value, at: element.path))
            }
            content = .lines(decoded)
        } else {
            if own["streamEnd"] != nil { throw failure(path.key("streamEnd"), "'streamEnd' needs 'events' or 'lines'") }
            return nil
        }
        var end = ResponseStream.End.finish
        if let value = own["streamEnd"] {
            let text = try string(value, at: path.key("streamEnd"))
            guard let decoded = ResponseStream.End(rawValue: text) else {
                let names = ResponseStream.End.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure(path.key("streamEnd"), "unknown end \"\(text)\"; expected one of \(names)")
            }
            end = decoded
        }
        return ResponseStream(content, end: end)
    }

    private mutating func decodeEvent(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> ServerSentEvent
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.eventFields)
        var event = ServerSentEvent(after: try delay(json, at: path))
        if let data = json["data"] {
            // A string as it is; any other JSON value as compact JSON (one line).
            if case .string(let text) = data { event.data = text } else { event.data = data.serialized(.compact) }
        }
        event.event = try singleLine(json, "event", at: path)
        event.id = try singleLine(json, "id", at: path)
        if let retry = json["retry"] { event.retry = try integer(retry, at: path.key("retry"), in: 0...Int(Int32.max)) }
        if let comment = json["comment"] { event.comment = try string(comment, at: path.key("comment")) }
        if event.data == nil && event.comment == nil && event.id == nil && event.retry == nil && event.event == nil {
            throw failure(path, "an event needs at least one of 'data', 'event', 'id', 'retry' or 'comment'")
        }
        return event
    }

    private mutating func decodeLine(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> StreamedLine {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.lineFields)
        let delay = try delay(json, at: path)
        switch (json["json"], json["text"]) {
        case (let value?, nil):
            return .json(value, after: delay)
        case (nil, let text?):
            let line = try string(text, at: path.key("text"))
            guard !line.contains(where: { $0 == "\n" || $0 == "\r\n" }) else {
                throw failure(path.key("text"), "a line must not contain a line break (give several lines)")
            }
            return StreamedLine(line, after: delay)
        default:
            throw failure(path, "a line needs exactly one of 'json' and 'text'")
        }
    }

    private func delay(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> Duration {
        guard let value = json["delayMilliseconds"] else { return .zero }
        return .milliseconds(try integer(value, at: path.key("delayMilliseconds"), in: 0...Int(Int32.max)))
    }

    private func singleLine(_ json: JSONValue, _ key: String, at path: MappingPath) throws(StubsLoadError) -> String? {
        guard let value = json[key] else { return nil }
        let text = try string(value, at: path.key(key))
        if let problem = ServerSentEvent.singleLineProblem(text) { throw failure(path.key(key), problem) }
        return text
    }
}

extension ResponseStream {
    /// The stream's members of `metadata.stubserver`.
    var metadataMembers: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        switch content {
        case .events(let events): members.append(("events", .array(events.map(\.json))))
        case .lines(let lines): members.append(("lines", .array(lines.map(\.json))))
        }
        if end != .finish { members.append(("streamEnd", .string(end.rawValue))) }
        return members
    }
}

extension ServerSentEvent {
    /// The event as an element of `metadata.stubserver.events`.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let data { members.append(("data", .string(data))) }
        if let event { members.append(("event", .string(event))) }
        if let id { members.append(("id", .string(id))) }
        if let retry { members.append(("retry", JSONValue(retry))) }
        if let comment { members.append(("comment", .string(comment))) }
        if delay > .zero { members.append(("delayMilliseconds", JSONValue(delay.wholeMilliseconds))) }
        return .object(members)
    }
}

extension StreamedLine {
    /// The line as an element of `metadata.stubserver.lines` (always as `text`: a JSON line is its text).
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("text", .string(text))]
        if delay > .zero { members.append(("delayMilliseconds", JSONValue(delay.wholeMilliseconds))) }
        return .object(members)
    }
}
