/// A ``StubServerAdmin`` whose operations are all awaited: ``StubServerClient``, `StubServerProcess` and
/// ``AnyStubServer``. The assertion helpers take it as a generic `async` overload beside the synchronous
/// ``StubServer`` ones, so `XCTAssertRequested(server, …)` on an in-process server needs no `await`.
public protocol AsyncStubServerAdmin: StubServerAdmin {}

extension StubServerClient: AsyncStubServerAdmin {}
#if os(macOS) || os(Linux)
    extension StubServerProcess: AsyncStubServerAdmin {}
#endif
