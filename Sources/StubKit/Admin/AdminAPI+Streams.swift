import StubHTTP

/// `/__admin/stubserver/streams`: the streamed responses open now, and pushing events or lines into those a
/// request pattern matches, or ending them (as ``StubServer/streams(matching:)`` does in-process).
extension AdminAPI {
    /// `GET /__admin/stubserver/streams`: `{"streams": [{"method": "GET", "url": "/scores", "kind": "events"}]}`,
    /// oldest first.
    func listStreams() -> HTTPResponse {
        let open = streams.streams(matching: CompiledRequestPattern(RequestPattern()))
        return AdminResponse.json([
            "streams": .array(
                open.map {
                    .object([
                        ("method", .string($0.request.method.rawValue)), ("url", .string($0.request.target)),
                        ("kind", .string($0.isEvents ? "events" : "lines"))
                    ])
                })
        ])
    }

    /// `POST /__admin/stubserver/streams/send` with `{"request": {pattern}, "events": [...]}` (or `"lines"`,
    /// in the stub-file form): sends them at once, delays ignored, to every open stream of that kind whose
    /// request matches; answers `{"streams": N}`, how many got them.
    func sendToStreams(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let (open, json) = try openStreams(body, fields: ["request", "events", "lines"])
        let content: ResponseStream.Content?
        do {
            content = try MappingDecoder().decodeStreamContent(json)
        } catch {
            throw .invalid(error, title: "Invalid stream content")
        }
        let count: Int
        switch content {
        case .events(let events)?:
            for event in events { open.send(event) }
            count = open.eventStreamCount
        case .lines(let lines)?:
            for line in lines { open.send(line) }
            count = open.count - open.eventStreamCount
        case nil:
            throw Self.invalidCall("Invalid stream call", "/", "give 'events' or 'lines' to send")
        }
        return AdminResponse.json(["streams": JSONValue(count)])
    }

    /// `POST /__admin/stubserver/streams/finish` (or `abort`) with `{"request": {pattern}}`: ends every open
    /// stream whose request matches, properly or by closing its connection; answers `{"streams": N}`.
    func endStreams(_ body: [UInt8], abort: Bool) throws(AdminError) -> HTTPResponse {
        let (open, _) = try openStreams(body, fields: ["request"])
        if abort { open.abort() } else { open.finish() }
        return AdminResponse.json(["streams": JSONValue(open.count)])
    }

    /// The open streams matching the body's `request` (every one without it), and the body.
    private func openStreams(_ body: [UInt8], fields: [String]) throws(AdminError) -> (OpenStreams, JSONValue) {
        let (pattern, json) = try patternBody(
            body, fields: fields, example: #"{"request": {"urlPath": "/events"}}"#, title: "Invalid stream call")
        return (OpenStreams(streams.streams(matching: pattern)), json)
    }
}
