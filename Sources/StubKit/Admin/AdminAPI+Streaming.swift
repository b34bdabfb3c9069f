import StubHTTP

/// The listings that can be big (the journal, the unmatched or found requests, the stubs) are built from
/// a snapshot and sent as they are serialized, pulled as the client reads (``StreamedJSONBodySource``):
/// a full journal costs the snapshot plus the engine's bounded buffer, not the JSON text, and a client that
/// stops reading holds no more. The bytes are those of the whole document, announced by `Content-Length`.
extension AdminAPI {
    /// Answers one admin call through `responder`, its route resolved once. Runs on a worker thread; a
    /// listing longer than ``HTTPBodyStreaming/lowWater`` is streamed, its pieces made on `executor`, and
    /// so is a body file over ``BodyFiles/cacheLimit``.
    func answer(_ request: StubHTTPRequest, responder: HTTPResponder, executor: HTTPBodyExecutor) {
        do {
            let resolved = try AdminRoute.resolve(request)
            switch resolved.route.answer {
            case .response(let answer):
                responder.respond(try answer(self, request, resolved.parameters))
            case .listing(let listing):
                let document = try listing(self, request, resolved.parameters)
                let length = document.byteCount()  // a first pass: the length, element by element, nothing kept
                guard length > HTTPBodyStreaming.lowWater else {
                    return responder.respond(AdminResponse.json(document))
                }
                responder.respond(
                    .pulled(
                        AdminResponse.jsonHead, contentLength: length, from: StreamedJSONBodySource(document),
                        on: executor))
            case .file:
                switch try loadFile(resolved.parameters[0]) {
                case .cached(let bytes):
                    responder.respond(HTTPResponse(status: .ok, headers: Self.fileHeaders, body: bytes))
                case .streamed(let file): try streamFile(file, responder: responder, executor: executor)
                }
            case .live(let open):
                open(self, request, responder, executor)
            }
        } catch {
            responder.respond(error.response)
        }
    }
}

extension AdminAPI {
    /// `GET /__admin/files/{name}` for a file over ``BodyFiles/cacheLimit``: streamed from disk.
    private func streamFile(_ file: StreamedBodyFile, responder: HTTPResponder, executor: HTTPBodyExecutor)
        throws(AdminError)
    {
        let reader: BodyFileReader
        do {
            reader = try file.open()
        } catch {
            throw .notFound(error.description)
        }
        responder.respond(
            .pulled(
                HTTPResponse(headers: Self.fileHeaders), contentLength: reader.size, from: BodyFileSource(reader),
                on: executor))
    }
}

extension AdminRoute {
    /// The route of an admin request (its target under `/__admin`).
    static func resolve(_ request: StubHTTPRequest) throws(AdminError) -> Resolved {
        try resolve(method: request.method.rawValue, segments: segments(ofRawPath: request.rawPath))
    }

    /// The path below `/__admin` split on `/` as sent, then each segment percent-decoded: an encoded
    /// slash (`%2F`) stays inside its segment, so ids and scenario names holding one are reachable
    /// (`/__admin/scenarios/checkout%2Fflow/state`).
    static func segments(ofRawPath rawPath: Substring) -> [String] {
        let below = rawPath.hasPrefix(AdminAPI.prefix) ? rawPath.dropFirst(AdminAPI.prefix.count) : rawPath
        return below.split(separator: "/").map { PercentDecoding.decode($0, plusAsSpace: false) }
    }
}
