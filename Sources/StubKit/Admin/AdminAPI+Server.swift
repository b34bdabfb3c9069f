import StubHTTP

/// `/__admin/shutdown`, `/__admin/settings`, `/__admin/hosts` and `/__admin/version`.
extension AdminAPI {
    /// The version `GET /__admin/version` reports.
    static let version = "0.1.0"

    /// `POST /__admin/shutdown`: answers `{}`, then stops the server gracefully (the CLI exits 0).
    func shutdown() -> HTTPResponse {
        state.requestShutdown()
        return AdminResponse.empty
    }

    /// `GET /__admin/settings`: `{"settings": {"fixedDelay": 250, ...}}`.
    func getSettings() -> HTTPResponse {
        AdminResponse.json(["settings": store.settings.json])
    }

    /// `POST /__admin/settings` (and `PUT`) with WireMock settings: replaces them all, as WireMock does.
    func updateSettings(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        // WireMock's clients send either the settings or {"settings": {...}} (the GET shape).
        let settingsJSON: JSONValue
        if case .object(let members) = json, members.count == 1, let inner = json["settings"] {
            settingsJSON = inner
        } else {
            settingsJSON = json
        }
        do {
            store.settings = try StubServerSettings(json: settingsJSON)
        } catch {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid settings",
                detail: error.description, pointer: "/" + error.field)
        }
        return AdminResponse.empty
    }

    /// `GET /__admin/hosts`: `{"hosts": [{"name": null, "port": 8080, "baseUrl": "http://127.0.0.1:8080"},
    /// {"name": "api.example.com", …}]}`, the primary port first (``StubServerHost``).
    func listHosts() -> HTTPResponse {
        AdminResponse.json(["hosts": .array(hosts.all.map(\.json))])
    }

    /// `GET /__admin/certs/ca.crt` (and WireMock's `/__admin/certs/wiremock-ca.crt`): the certificate of the local
    /// authority that signed the HTTPS certificate, PEM, for a client or device to trust. Never a key. 404 when the
    /// server serves no HTTPS or presents a certificate of the user's own.
    func caCertificate() throws(AdminError) -> HTTPResponse {
        guard let pem = caCertificatePEM else {
            throw AdminError.notFound(
                "no local certificate authority signed this server's certificate: it serves no HTTPS "
                    + "(--https-port), or presents a certificate of its own (--https-cert, --https-pkcs12)")
        }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "application/x-pem-file",
                "Content-Disposition": "attachment; filename=\"stubserver-ca.crt\""
            ],
            body: Array(pem.utf8))
    }

    /// `GET /__admin/version`: `{"version": "0.1.0"}`.
    func version() -> HTTPResponse {
        AdminResponse.json(["version": .string(Self.version)])
    }
}
