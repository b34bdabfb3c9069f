/// Grouping exchanges into distinct stubs: skipping what cannot be replayed, merging duplicates,
/// counting what was left out.
extension StubWriter {
    /// One stub to write: the first exchange's request and response, and its duplicates.
    struct PlannedStub {
        var method: String
        var request: RequestPlan
        var response: ResponsePlan
        /// The first exchange's response, as received, to tell differing duplicates apart.
        var received: RecordedExchange.Response
        var duplicates = 0
        var duplicatesDiffered = false
        /// With ``Options/recordsSequences``: each later response that differed from the one before,
        /// in order (the stub becomes a scenario answering them in turn).
        var later: [ResponsePlan] = []
        /// The last response kept, as received: what the next repeat is compared with for sequences.
        var lastReceived: RecordedExchange.Response
    }

    func plan(_ exchanges: [RecordedExchange], into summary: inout RecordingSummary) -> [PlannedStub] {
        var planned: [PlannedStub] = []
        var positions: [String: Int] = [:]
        for exchange in exchanges {
            let method = exchange.request.method
            if let reason = Self.unreplayableReason(exchange) {
                let (path, query) = Self.pathAndQuery(exchange.request.url)
                summary.skipped.append(
                    .init(
                        request: "\(method.isEmpty ? "?" : method) \(path)\(query.map { "?" + $0 } ?? "")",
                        reason: reason))
                continue
            }
            let request = requestPlan(for: exchange.request)
            request.dropped.forEach { summary.noteDropped($0) }
            if let position = positions[request.key] {
                let repeated = responsePlan(for: exchange.response)
                repeated.dropped.forEach { summary.noteDropped($0) }
                let last = planned[position].lastReceived
                let differs = last.status != exchange.response.status || last.body != exchange.response.body
                if options.recordsSequences, differs {
                    planned[position].later.append(repeated)
                    planned[position].lastReceived = exchange.response
                    continue
                }
                planned[position].duplicates += 1
                let first = planned[position].received
                if first.status != exchange.response.status || first.body != exchange.response.body {
                    planned[position].duplicatesDiffered = true
                }
                continue
            }
            let response = responsePlan(for: exchange.response)
            response.dropped.forEach { summary.noteDropped($0) }
            positions[request.key] = planned.count
            planned.append(
                PlannedStub(
                    method: method, request: request, response: response, received: exchange.response,
                    lastReceived: exchange.response))
        }
        return planned
    }

    /// Why the exchange cannot become a stub, or `nil`.
    static func unreplayableReason(_ exchange: RecordedExchange) -> String? {
        let method = exchange.request.method
        if method.isEmpty || method.contains(where: { $0 == " " || $0 == "\t" || $0.isNewline }) {
            return "the method '\(method)' is not an HTTP method"
        }
        let status = exchange.response.status
        if status == 0 { return "status 0 (the request got no response)" }
        if !(100...599).contains(status) { return "status \(status) is not an HTTP status" }
        return nil
    }
}
