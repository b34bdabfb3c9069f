extension StubServer {
    /// Calls `attempt` every 5 milliseconds until it says it is done, or `timeout` passes; returns its last
    /// answer. For the waits on open streams and WebSockets, whose changes come from the event loops.
    static func polling<Answer>(
        timeout: Duration, _ attempt: () -> (answer: Answer, done: Bool)
    ) async throws -> Answer {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (answer, done) = attempt()
            if done || ContinuousClock.now >= deadline { return answer }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
