/// Waits (polling every 10 ms, up to 30 s and 3,000 checks) until `condition` holds; returns whether it did.
/// For state a server changes on its own thread (a client that left is forgotten), never for timing.
public func eventually(_ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    for _ in 0..<3_000 where ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return await condition()
}
