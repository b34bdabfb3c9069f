import StubHTTP

/// The admin API as the request handler reaches it: the access check runs on the event loop (a few
/// header compares), then the call itself runs on a worker thread, so listing a full journal does not
/// hold up stub traffic.
///
/// When the pool's queue is full the call is answered at once with 503 and the admin API's JSON error.
struct AdminEndpoint: Sendable {
    let api: AdminAPI
    let access: AdminAccess
    let workers: WorkerPool

    init(_ api: AdminAPI, access: AdminAccess, workers: WorkerPool) {
        self.api = api
        self.access = access
        self.workers = workers
    }

    /// Answers `request` (a target under `/__admin`) from a worker thread, unless refused. Called on the
    /// event loop.
    func serve(_ request: StubHTTPRequest, responder: HTTPResponder) {
        if let refusal = access.refusal(for: request) { return responder.respond(refusal.response) }
        let api = api, workers = workers
        // A streamed listing asks for its next piece on the same pool, never refused once started.
        let executor = HTTPBodyExecutor { job in workers.submit(continuing: true, job) }
        workers.answer(responder, busy: AdminError.busy(queueLimit: workers.queueLimit).response) { responder in
            api.answer(request, responder: responder, executor: executor)
        }
    }
}

extension AdminError {
    /// Too many admin calls are waiting for a worker thread: 503, try again.
    static func busy(queueLimit: Int) -> AdminError {
        AdminError(
            status: .serviceUnavailable, code: 503, title: "Service unavailable",
            detail: "too many admin calls in progress (\(queueLimit) waiting); try again", pointer: nil)
    }
}
