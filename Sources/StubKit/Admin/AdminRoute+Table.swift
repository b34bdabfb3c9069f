import StubHTTP

extension AdminRoute {
    /// Every admin endpoint (as WireMock's `/__admin`, plus stubserver's own), grouped by resource.
    static let table: [AdminRoute] = [
        // The root (`/__admin` and `/__admin/`): the stubs, as WireMock's `/__admin/` (its `/__admin` redirects
        // there); the Testcontainers module for Go waits on it.
        AdminRoute("GET", "", listMappings),

        // Stubs
        AdminRoute("GET", "mappings", listMappings),
        AdminRoute("POST", "mappings", .body(AdminAPI.createMapping)),
        AdminRoute("DELETE", "mappings", .plain(AdminAPI.deleteAllMappings)),
        AdminRoute("POST", "mappings/reset", .plain(AdminAPI.resetMappings)),
        AdminRoute("POST", "mappings/import", .body(AdminAPI.importMappings)),
        AdminRoute("POST", "mappings/find-by-metadata", .body(AdminAPI.findMappingsByMetadata)),
        AdminRoute("POST", "mappings/remove-by-metadata", .body(AdminAPI.removeMappingsByMetadata)),
        AdminRoute("POST", "mappings/save", .plain(AdminAPI.saveMappings)),
        AdminRoute("POST", "mappings/edit", .body(AdminAPI.editMapping)),
        AdminRoute("POST", "mappings/remove", .body(AdminAPI.removeMatchingMapping)),
        AdminRoute("GET", "mappings/unmatched", .plain(AdminAPI.unusedMappings)),
        AdminRoute("DELETE", "mappings/unmatched", .plain(AdminAPI.removeUnusedMappings)),
        AdminRoute("GET", "mappings/{id}", .parameter(AdminAPI.getMapping)),
        AdminRoute("PUT", "mappings/{id}", .parameterAndBody(AdminAPI.updateMapping)),
        AdminRoute("DELETE", "mappings/{id}", .parameter(AdminAPI.deleteMapping)),

        // The request journal
        AdminRoute("GET", "requests", .listing { api, request, _ throws(AdminError) in try api.listRequests(request) }),
        AdminRoute("DELETE", "requests", .plain(AdminAPI.deleteRequests)),
        AdminRoute("POST", "requests/reset", .plain(AdminAPI.deleteRequests)),
        AdminRoute("POST", "requests/count", .body(AdminAPI.countRequests)),
        AdminRoute(
            "POST", "requests/find",
            .listing { api, request, _ throws(AdminError) in try api.findRequests(request.body) }),
        AdminRoute("POST", "requests/remove", .body(AdminAPI.removeRequests)),
        AdminRoute("POST", "requests/remove-by-metadata", .body(AdminAPI.removeRequestsByMetadata)),
        AdminRoute("GET", "requests/unmatched", .listing { api, _, _ in api.unmatchedRequests() }),
        AdminRoute("GET", "requests/unmatched/near-misses", .request(AdminAPI.unmatchedNearMisses)),
        AdminRoute(
            "GET", "requests/{id}",
            .response { api, request, id throws(AdminError) in try api.getRequest(id[0], request) }),
        AdminRoute("DELETE", "requests/{id}", .parameter(AdminAPI.deleteRequest)),
        AdminRoute("POST", "near-misses/request-pattern", .request(AdminAPI.nearMisses)),
        AdminRoute("POST", "near-misses/request", .request(AdminAPI.nearMissesForRequest)),

        // Files under __files
        AdminRoute("GET", "files", .plain(AdminAPI.listFiles)),
        AdminRoute("GET", "files/{name...}", .file),
        AdminRoute("PUT", "files/{name...}", .parameterAndBody(AdminAPI.putFile)),
        AdminRoute("DELETE", "files/{name...}", .parameter(AdminAPI.deleteFile)),

        // Scenarios
        AdminRoute("GET", "scenarios", .plain(AdminAPI.listScenarios)),
        AdminRoute("POST", "scenarios/reset", .plain(AdminAPI.resetScenarios)),
        AdminRoute("PUT", "scenarios/{name}/state", .parameterAndBody(AdminAPI.setScenarioState)),

        // Recording
        AdminRoute("POST", "recordings/start", .body(AdminAPI.startRecording)),
        AdminRoute("POST", "recordings/stop", .plain(AdminAPI.stopRecording)),
        AdminRoute("GET", "recordings/status", .plain(AdminAPI.recordingStatus)),
        AdminRoute("POST", "recordings/snapshot", .body(AdminAPI.snapshotRecording)),

        // Isolated servers
        AdminRoute("POST", "servers", .body(AdminAPI.createServer)),
        AdminRoute("GET", "servers", .plain(AdminAPI.listServers)),
        AdminRoute("GET", "servers/{id}", .parameter(AdminAPI.getServer)),
        AdminRoute("DELETE", "servers/{id}", .parameter(AdminAPI.deleteServer)),

        // The server
        AdminRoute("POST", "reset", .plain(AdminAPI.reset)),
        AdminRoute("GET", "health", .plain(AdminAPI.health)),
        AdminRoute("GET", "version", .plain(AdminAPI.version)),
        AdminRoute("GET", "hosts", .plain(AdminAPI.listHosts)),
        AdminRoute("GET", "certs/ca.crt", .plain(AdminAPI.caCertificate)),
        AdminRoute("GET", "certs/wiremock-ca.crt", .plain(AdminAPI.caCertificate)),
        AdminRoute("GET", "settings", .plain(AdminAPI.getSettings)),
        AdminRoute("POST", "settings", .body(AdminAPI.updateSettings)),
        AdminRoute("PUT", "settings", .body(AdminAPI.updateSettings)),
        AdminRoute("POST", "shutdown", .plain(AdminAPI.shutdown)),
        AdminRoute("GET", "stubserver/stubs", .plain(AdminAPI.stubTable)),
        AdminRoute(
            "GET", "stubserver/requests/live",
            .live { api, request, responder, executor in
                api.openRequestFeed(request, responder: responder, executor: executor)
            }),
        AdminRoute("GET", "stubserver/requests/feeds", .plain(AdminAPI.requestFeeds)),
        AdminRoute("GET", "dashboard", .plain(AdminAPI.dashboardPage)),
        AdminRoute("GET", "dashboard/app.js", .response { api, _, _ in api.dashboardAsset(.script) }),
        AdminRoute("GET", "dashboard/style.css", .response { api, _, _ in api.dashboardAsset(.style) }),
        AdminRoute("GET", "stubserver/availability", .plain(AdminAPI.availability)),
        AdminRoute("PUT", "stubserver/availability", .body(AdminAPI.setAvailability)),
        AdminRoute("GET", "stubserver/streams", .plain(AdminAPI.listStreams)),
        AdminRoute("POST", "stubserver/streams/send", .body(AdminAPI.sendToStreams)),
        AdminRoute(
            "POST", "stubserver/streams/finish",
            .response { api, request, _ throws(AdminError) in try api.endStreams(request.body, abort: false) }),
        AdminRoute(
            "POST", "stubserver/streams/abort",
            .response { api, request, _ throws(AdminError) in try api.endStreams(request.body, abort: true) }),
        AdminRoute("GET", "stubserver/data", .plain(AdminAPI.listDataCollections)),
        AdminRoute("POST", "stubserver/data", .body(AdminAPI.declareDataCollection)),
        AdminRoute("GET", "stubserver/data/{name}", .parameter(AdminAPI.getDataCollection)),
        AdminRoute("PUT", "stubserver/data/{name}", .parameterAndBody(AdminAPI.replaceDataItems)),
        AdminRoute("DELETE", "stubserver/data/{name}", .parameter(AdminAPI.resetDataCollection)),
        AdminRoute("GET", "stubserver/websockets", .plain(AdminAPI.listWebSockets)),
        AdminRoute("POST", "stubserver/websockets/send", .body(AdminAPI.sendToWebSockets)),
        AdminRoute("POST", "stubserver/websockets/close", .body(AdminAPI.closeWebSockets))
    ]

    /// `GET /__admin/mappings` (and the root): the stubs, a page at a time (`offset`, `limit`).
    private static let listMappings = Answer.listing { api, request, _ throws(AdminError) in
        api.listMappings(page: try AdminAPI.page(request))
    }
}
