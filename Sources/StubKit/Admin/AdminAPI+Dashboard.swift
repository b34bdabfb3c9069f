import StubHTTP

/// The dashboard (`GET /__admin/dashboard`) and what only it needs: the live feed of requests and the
/// stubs in match order with their use counts. The page and its assets are served without the admin token: on a
/// server with a token they hold no data (the page asks for the token and sends it with every call it makes); on
/// one without, the page carries the most recent requests, which `GET /__admin/requests` gives anyone anyway.
extension AdminAPI {
    /// `GET /__admin/dashboard/app.js`, `…/dashboard/style.css`: the page's script and style, from the binary.
    func dashboardAsset(_ asset: DashboardAsset) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: asset.headers, body: asset.bytes)
    }

    /// `GET /__admin/dashboard`: the page, from the binary. On a server without an admin token (whose journal
    /// `GET /__admin/requests` gives to anyone the access rules let in) it comes with the most recent requests,
    /// so the list shows them as soon as the page loads, before the live feed answers. With a token it carries
    /// none (a browser loads the page without the token) and says it is loading until the feed answers.
    func dashboardPage() -> HTTPResponse {
        let asset = DashboardAsset.page
        guard pageShowsJournal else { return HTTPResponse(status: .ok, headers: asset.headers, body: asset.bytes) }
        var data: [UInt8] = []
        DashboardPage.appendInitialData(
            journal: journalLimits, recent: journal.mostRecent(RequestFeed.initialCount).map(RequestSummary.init),
            into: &data)
        return HTTPResponse(status: .ok, headers: asset.headers, body: DashboardPage.bytes(initialData: data))
    }

    /// `GET /__admin/stubserver/requests/live`: server-sent events, a `hello` (the journal's limits),
    /// then a `request` for each recorded request (the most recent ones first, oldest first), and a
    /// `dropped` with a count when the page fell behind (see ``RequestFeed``).
    func openRequestFeed(_ request: StubHTTPRequest, responder: HTTPResponder, executor: HTTPBodyExecutor) {
        let feed = journal.feed
        guard feed.count < RequestFeed.maxSubscribers else {
            return responder.respond(
                AdminError(
                    status: .serviceUnavailable, code: 503, title: "Service unavailable",
                    detail: "\(RequestFeed.maxSubscribers) live request feeds are open already (dashboards); "
                        + "close one and reload", pointer: nil
                ).response)
        }
        let opened = LockedValue((token: Int?.none, ended: false))
        let head = HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"
            ])
        let stream = responder.startStreaming(head, probe: Array(":\n\n".utf8)) { _ in
            if let token = opened.withLock({ state -> Int? in
                state.ended = true
                return state.token
            }) {
                journal.closeFeed(token)
            }
        }
        stream.limitSendBuffer(to: RequestFeed.sendBuffer)
        guard let (token, recent) = journal.openFeed(stream, submit: executor.run) else {
            return stream.finish()
        }
        // `recent`: how many `request` events the feed starts with, so that a page can tell an empty journal
        // (0) from a first batch still on its way.
        var hello: [UInt8] = []
        RequestFeed.appendEvent(
            "hello",
            [
                "journal": journalLimits, "maxPending": JSONValue(RequestFeed.maxPending),
                "recent": JSONValue(recent)
            ], id: nil, into: &hello)
        stream.write(hello)
        let ended = opened.withLock { state in
            state.token = token
            return state.ended
        }
        if ended { journal.closeFeed(token) } else { feed.start(token) }
    }

    /// The journal's limits as the dashboard reads them: `{"enabled", "maxEntries", "maxBodyBytes"}`.
    private var journalLimits: JSONValue {
        let limits = journal.limits
        return [
            "enabled": .bool(limits.isEnabled), "maxEntries": JSONValue(limits.maxEntries),
            "maxBodyBytes": JSONValue(limits.maxBodyBytes)
        ]
    }

    /// `GET /__admin/stubserver/requests/feeds`: how many live feeds are open, the limit, and how many of
    /// their pages are behind (only counting what they miss).
    func requestFeeds() -> HTTPResponse {
        let feed = journal.feed
        return AdminResponse.json([
            "open": JSONValue(feed.count), "limit": JSONValue(RequestFeed.maxSubscribers),
            "behind": JSONValue(feed.behindCount)
        ])
    }

    /// `GET /__admin/stubserver/stubs`: every stub in the order requests try them (lowest priority first, then
    /// the most recently added), with its file, scenario and how many requests it answered since the last
    /// reset.
    func stubTable() -> HTTPResponse {
        let mappings = store.mappings
        let uses = store.useCounts
        let order = mappings.indices.sorted { a, b in
            mappings[a].priority != mappings[b].priority ? mappings[a].priority < mappings[b].priority : a > b
        }
        let stubs: [JSONValue] = order.map { index in
            let mapping = mappings[index]
            var members: [(key: String, value: JSONValue)] = [("id", .string(mapping.id))]
            if let name = mapping.name { members.append(("name", .string(name))) }
            if let source = mapping.source { members.append(("file", .string(source))) }
            members.append(("priority", JSONValue(mapping.priority)))
            members.append(("request", .string(mapping.request.summary)))
            if let scenario = mapping.scenarioName { members.append(("scenarioName", .string(scenario))) }
            if let state = mapping.requiredScenarioState {
                members.append(("requiredScenarioState", .string(state)))
            }
            if let state = mapping.newScenarioState { members.append(("newScenarioState", .string(state))) }
            members.append(("uses", JSONValue(uses[mapping.id] ?? 0)))
            return .object(members)
        }
        return AdminResponse.json(["stubs": .array(stubs), "meta": ["total": JSONValue(stubs.count)]])
    }
}
