import StubHTTP

/// `/__admin/recordings`: recording stubs from forwarded traffic, as WireMock's recorder.
extension AdminAPI {
    /// `POST /__admin/recordings/start`: forward every request to `targetBaseUrl` and keep the
    /// exchanges. `{}`; 409 naming the current target when already recording (WireMock ignores it).
    func startRecording(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let decoded = try RecordSpecDecoder(body, requireTarget: true, log: log)
        warnIgnored(decoded)
        do {
            try recordings.start(decoded.spec)
        } catch {
            throw AdminError(recording: error)
        }
        log.write(
            "stubserver: admin: recording from \(decoded.spec.source): every request is forwarded there")
        return AdminResponse.empty
    }

    /// `POST /__admin/recordings/stop`: `{"mappings": [...]}` (or `{"ids": [...]}`), the stubs recorded,
    /// now served and, unless `persist` was false, written to the stubs directory. 400 when not recording.
    func stopRecording() throws(AdminError) -> HTTPResponse {
        do {
            let (spec, result) = try recordings.stop()
            log.write("stubserver: admin: recording from \(spec.source) stopped: \(result.summary)")
            return Self.recordingResult(result, ids: false)
        } catch {
            throw AdminError(recording: error)
        }
    }

    /// `GET /__admin/recordings/status`: `{"status": "NeverStarted" | "Recording" | "Stopped"}`.
    func recordingStatus() -> HTTPResponse {
        AdminResponse.json(["status": .string(recordings.status.rawValue)])
    }

    /// `POST /__admin/recordings/snapshot`: stubs from the journal's forwarded requests, as `stop` answers.
    func snapshotRecording(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let decoded = try RecordSpecDecoder(body, requireTarget: false, log: log)
        warnIgnored(decoded)
        do {
            let result = try recordings.snapshot(
                decoded.spec, allowNonProxied: decoded.allowNonProxied, ids: decoded.ids)
            log.write("stubserver: admin: snapshot: \(result.summary)")
            return Self.recordingResult(result, ids: decoded.outputFormat == .ids)
        } catch {
            throw AdminError(recording: error)
        }
    }

    private static func recordingResult(_ result: RecordedStubs, ids: Bool) -> HTTPResponse {
        if ids { return AdminResponse.json(["ids": .array(result.mappings.map { .string($0.id) })]) }
        return AdminResponse.json([
            "mappings": .array(
                result.mappings.map { mapping in
                    var mapping = mapping
                    if !result.summary.directory.isEmpty { mapping.persistent = true }
                    return mapping.json
                })
        ])
    }

    private func warnIgnored(_ decoded: RecordSpecDecoder) {
        guard !decoded.ignored.isEmpty else { return }
        log.write("stubserver: admin: recordings: \(decoded.ignored.joined(separator: ", ")) not supported, ignored")
    }
}

extension AdminError {
    /// 409 while recording, 400 when not recording (as WireMock's "Not currently recording."),
    /// 422 for a bad target or a read-only (bundled) stubs folder, 500 when the files cannot be written.
    init(recording error: RecordingError) {
        switch error.kind {
        case .alreadyRecording:
            self.init(
                status: StubHTTPStatus(code: 409), code: 409, title: "Already recording", detail: error.description,
                pointer: nil)
        case .notRecording:
            self.init(
                status: .badRequest, code: 30, title: "Not currently recording.", detail: error.description,
                pointer: nil)
        case .badTarget:
            self.init(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid recording spec",
                detail: error.description, pointer: "/targetBaseUrl")
        case .cannotWrite:
            self.init(
                status: .internalServerError, code: 500, title: "Cannot write the recorded stubs",
                detail: error.description, pointer: nil)
        case .readOnlyFolder:
            self.init(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Read-only stubs folder",
                detail: error.description, pointer: nil)
        case .unavailable:
            self.init(
                status: StubHTTPStatus(code: 501), code: 501, title: "Recording is not in this build",
                detail: error.description, pointer: nil)
        }
    }
}
