import StubHTTP

extension AdminRoute {
    /// Every admin endpoint (as WireMock's `/__admin`, plus stubserver's own), grouped by resource.
    static let table: [AdminRoute] = [
        // Stubs
        AdminRoute(
            "GET", "mappings",
            .listing { api, request, _ throws(AdminError) in
                api.listMappings(page: try AdminAPI.page(request))
            }),
        AdminRoute(
            "POST", "mappings", .response { api, request, _ throws(AdminError) in try api.createMapping(request.body) }),
        AdminRoute("DELETE", "mappings", .response { api, _, _ in api.deleteAllMappings() }),
        AdminRoute("POST", "mappings/reset", .response { api, _, _ in api.resetMappings() }),
        AdminRoute(
            "POST", "mappings/import",
            .response { api, request, _ throws(AdminError) in try api.importMappings(request.body) }),
        AdminRoute(
            "POST", "mappings/find-by-metadata",
            .response { api, request, _ throws(AdminError) in
                try api.findMappingsByMetadata(request.body)
            }),
        AdminRoute(
            "POST", "mappings/remove-by-metadata",
            .response { api, request, _ throws(AdminError) in
                try api.removeMappingsByMetadata(request.body)
            }),
        AdminRoute("POST", "mappings/save", .response { api, _, _ throws(AdminError) in try api.saveMappings() }),
        AdminRoute(
            "POST", "mappings/edit",
            .response { api, request, _ throws(AdminError) in try api.editMapping(request.body) }),
        AdminRoute(
            "POST", "mappings/remove",
            .response { api, request, _ throws(AdminError) in try api.removeMatchingMapping(request.body) }),
        AdminRoute("GET", "mappings/unmatched", .response { api, _, _ in api.unusedMappings() }),
        AdminRoute("DELETE", "mappings/unmatched", .response { api, _, _ in api.removeUnusedMappings() }),
        AdminRoute("GET", "mappings/{id}", .response { api, _, id throws(AdminError) in try api.getMapping(id[0]) }),
        AdminRoute(
            "PUT", "mappings/{id}",
            .response { api, request, id throws(AdminError) in
                try api.updateMapping(id[0], request.body)
            }),
        AdminRoute(
            "DELETE", "mappings/{id}", .response { api, _, id throws(AdminError) in try api.deleteMapping(id[0]) }),

        // The request journal
        AdminRoute("GET", "requests", .listing { api, request, _ throws(AdminError) in try api.listRequests(request) }),
        AdminRoute("DELETE", "requests", .response { api, _, _ in api.deleteRequests() }),
        AdminRoute("POST", "requests/reset", .response { api, _, _ in api.deleteRequests() }),
        AdminRoute(
            "POST", "requests/count",
            .response { api, request, _ throws(AdminError) in try api.countRequests(request.body) }),
        AdminRoute(
            "POST", "requests/find",
            .listing { api, request, _ throws(AdminError) in try api.findRequests(request.body) }),
        AdminRoute(
            "POST", "requests/remove",
            .response { api, request, _ throws(AdminError) in try api.removeRequests(request.body) }),
        AdminRoute(
            "POST", "requests/remove-by-metadata",
            .response { api, request, _ throws(AdminError) in try api.removeRequestsByMetadata(request.body) }),
        AdminRoute("GET", "requests/unmatched", .listing { api, _, _ in api.unmatchedRequests() }),
        AdminRoute(
            "GET", "requests/unmatched/near-misses", .response { api, request, _ in api.unmatchedNearMisses(request) }),
        AdminRoute(
            "GET", "requests/{id}",
            .response { api, request, id throws(AdminError) in try api.getRequest(id[0], request) }),
        AdminRoute(
            "DELETE", "requests/{id}", .response { api, _, id throws(AdminError) in try api.deleteRequest(id[0]) }),
        AdminRoute(
            "POST", "near-misses/request-pattern",
            .response { api, request, _ throws(AdminError) in
                try api.nearMisses(request)
            }),
        AdminRoute(
            "POST", "near-misses/request",
            .response { api, request, _ throws(AdminError) in
                try api.nearMissesForRequest(request)
            }),

        // Files under __files
        AdminRoute("GET", "files", .response { api, _, _ throws(AdminError) in try api.listFiles() }),
        AdminRoute("GET", "files/{name...}", .file),
        AdminRoute(
            "PUT", "files/{name...}",
            .response { api, request, name throws(AdminError) in
                try api.putFile(name[0], request.body)
            }),
        AdminRoute(
            "DELETE", "files/{name...}", .response { api, _, name throws(AdminError) in try api.deleteFile(name[0]) }),

        // Scenarios
        AdminRoute("GET", "scenarios", .response { api, _, _ in api.listScenarios() }),
        AdminRoute("POST", "scenarios/reset", .response { api, _, _ in api.resetScenarios() }),
        AdminRoute(
            "PUT", "scenarios/{name}/state",
            .response { api, request, name throws(AdminError) in
                try api.setScenarioState(name[0], request.body)
            }),

        // Recording
        AdminRoute(
            "POST", "recordings/start",
            .response { api, request, _ throws(AdminError) in
                try api.startRecording(request.body)
            }),
        AdminRoute("POST", "recordings/stop", .response { api, _, _ throws(AdminError) in try api.stopRecording() }),
        AdminRoute("GET", "recordings/status", .response { api, _, _ in api.recordingStatus() }),
        AdminRoute(
            "POST", "recordings/snapshot",
            .response { api, request, _ throws(AdminError) in
                try api.snapshotRecording(request.body)
            }),

        // Isolated servers
        AdminRoute(
            "POST", "servers", .response { api, request, _ throws(AdminError) in try api.createServer(request.body) }),
        AdminRoute("GET", "servers", .response { api, _, _ in api.listServers() }),
        AdminRoute("GET", "servers/{id}", .response { api, _, id throws(AdminError) in try api.getServer(id[0]) }),
        AdminRoute(
            "DELETE", "servers/{id}", .response { api, _, id throws(AdminError) in try api.deleteServer(id[0]) }),

        // The server
        AdminRoute("POST", "reset", .response { api, _, _ in api.reset() }),
        AdminRoute("GET", "health", .response { api, _, _ in api.health() }),
        AdminRoute("GET", "version", .response { api, _, _ in api.version() }),
        AdminRoute("GET", "hosts", .response { api, _, _ in api.listHosts() }),
        AdminRoute("GET", "settings", .response { api, _, _ in api.getSettings() }),
        AdminRoute(
            "POST", "settings", .response { api, request, _ throws(AdminError) in try api.updateSettings(request.body) }
        ),
        AdminRoute(
            "PUT", "settings", .response { api, request, _ throws(AdminError) in try api.updateSettings(request.body) }),
        AdminRoute("POST", "shutdown", .response { api, _, _ in api.shutdown() }),
        AdminRoute("GET", "stubserver/stubs", .response { api, _, _ in api.stubTable() }),
        AdminRoute(
            "GET", "stubserver/requests/live",
            .live { api, request, responder, executor in
                api.openRequestFeed(request, responder: responder, executor: executor)
            }),
        AdminRoute("GET", "stubserver/requests/feeds", .response { api, _, _ in api.requestFeeds() }),
        AdminRoute("GET", "dashboard", .response { api, _, _ in api.dashboardPage() }),
        AdminRoute("GET", "dashboard/app.js", .response { api, _, _ in api.dashboardAsset(.script) }),
        AdminRoute("GET", "dashboard/style.css", .response { api, _, _ in api.dashboardAsset(.style) }),
        AdminRoute("GET", "stubserver/availability", .response { api, _, _ in api.availability() }),
        AdminRoute(
            "PUT", "stubserver/availability",
            .response { api, request, _ throws(AdminError) in try api.setAvailability(request.body) }),
        AdminRoute("GET", "stubserver/streams", .response { api, _, _ in api.listStreams() }),
        AdminRoute(
            "POST", "stubserver/streams/send",
            .response { api, request, _ throws(AdminError) in try api.sendToStreams(request.body) }),
        AdminRoute(
            "POST", "stubserver/streams/finish",
            .response { api, request, _ throws(AdminError) in try api.endStreams(request.body, abort: false) }),
        AdminRoute(
            "POST", "stubserver/streams/abort",
            .response { api, request, _ throws(AdminError) in try api.endStreams(request.body, abort: true) }),
        AdminRoute("GET", "stubserver/websockets", .response { api, _, _ in api.listWebSockets() }),
        AdminRoute(
            "POST", "stubserver/websockets/send",
            .response { api, request, _ throws(AdminError) in try api.sendToWebSockets(request.body) }),
        AdminRoute(
            "POST", "stubserver/websockets/close",
            .response { api, request, _ throws(AdminError) in try api.closeWebSockets(request.body) })
    ]
}
