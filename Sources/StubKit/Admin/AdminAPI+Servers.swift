import StubHTTP

/// `/__admin/servers`: isolated servers, each with its own stubs, journal, scenarios and port, for test runners
/// sharing one stub server.
extension AdminAPI {
    /// The longest `name` a new server may be given, in UTF-8 bytes.
    static let maxServerNameBytes = 256
    /// The longest `stubs` path, in UTF-8 bytes.
    static let maxStubsPathBytes = 4096

    /// `POST /__admin/servers` with an optional body `{"name": "runner-3", "stubs": "runner-3"}`: starts an
    /// isolated server and answers 201 with `{"id", "name", "port", "baseUrl", "adminUrl"}`. Without `stubs`
    /// it loads this server's stubs directory; `stubs` names a folder inside that directory (relative to it,
    /// or absolute), never outside. 429 at ``StubServer/Configuration/maxIsolatedServers``; 403 on an
    /// isolated server (servers are started through the parent) or with a limit of 0.
    func createServer(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let registry = try registry()
        var name: String?
        var stubs: String?
        if !body.allSatisfy(Self.isWhitespace) {
            let json = try Self.parseBody(body)
            guard case .object(let members) = json else {
                throw Self.invalidServer("the body must be a JSON object such as {\"name\": \"runner-3\"}", "/")
            }
            for (key, value) in members {
                switch key {
                case "name": name = try Self.text(value, field: key, limit: Self.maxServerNameBytes)
                case "stubs": stubs = try Self.text(value, field: key, limit: Self.maxStubsPathBytes)
                default:
                    throw Self.invalidServer("unknown field '\(key)'; the fields are 'name' and 'stubs'", "/" + key)
                }
            }
        }
        do {
            let info = try registry.startServer(name: name, folder: stubs, parent: state.httpServer)
            return AdminResponse.json(info.json, status: StubHTTPStatus(code: 201))
        } catch {
            throw Self.adminError(error)
        }
    }

    /// `GET /__admin/servers`: `{"servers": [...]}`, oldest first. An isolated server lists none.
    func listServers() -> HTTPResponse {
        AdminResponse.json(["servers": .array((isolatedServers?.list ?? []).map(\.json))])
    }

    /// `GET /__admin/servers/{id}`: one server; 404 if none has that id.
    func getServer(_ id: String) throws(AdminError) -> HTTPResponse {
        guard let info = try registry().info(id) else { throw Self.noServer(id) }
        return AdminResponse.json(info.json)
    }

    /// `DELETE /__admin/servers/{id}`: stops the server (its port is closed once this answers) and forgets it;
    /// `{}`, or 404 if none has that id.
    func deleteServer(_ id: String) throws(AdminError) -> HTTPResponse {
        guard try registry().stop(id) else { throw Self.noServer(id) }
        return AdminResponse.empty
    }

    private func registry() throws(AdminError) -> any IsolatedServerRegistry {
        guard let isolatedServers else {
            throw AdminError(
                status: StubHTTPStatus(code: 403), code: 403, title: "Isolated server",
                detail: "this is an isolated server, which starts no servers of its own; "
                    + "call POST /__admin/servers on the server that started it", pointer: nil)
        }
        return isolatedServers
    }

    private static func text(_ value: JSONValue, field: String, limit: Int) throws(AdminError) -> String {
        guard let text = value.stringValue, !text.isEmpty else {
            throw invalidServer("'\(field)' must be a non-empty string", "/" + field)
        }
        guard text.utf8.count <= limit else {
            throw invalidServer("'\(field)' is longer than \(limit) bytes", "/" + field)
        }
        return text
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    private static func noServer(_ id: String) -> AdminError {
        .notFound("no isolated server with id '\(id)'; GET /__admin/servers lists them")
    }

    private static func invalidServer(_ detail: String, _ pointer: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid server",
            detail: detail, pointer: pointer)
    }

    private static func adminError(_ error: IsolatedServerError) -> AdminError {
        switch error.kind {
        case .limitReached:
            AdminError(
                status: StubHTTPStatus(code: 429), code: 429, title: "Too many isolated servers",
                detail: error.description, pointer: nil)
        case .notAllowed:
            AdminError(
                status: StubHTTPStatus(code: 403), code: 403, title: "No isolated servers", detail: error.description,
                pointer: nil)
        case .stopping:
            AdminError(
                status: .serviceUnavailable, code: 503, title: "Stopping", detail: error.description, pointer: nil)
        case .invalidStubs: invalidServer(error.description, "/stubs")
        case .cannotStart:
            AdminError(
                status: .internalServerError, code: 500, title: "Cannot start server", detail: error.description,
                pointer: nil)
        }
    }
}
