import Foundation
import StubTestSupport

@testable import StubHTTP

/// Starts a server for a test; the caller stops it.
func startServer(
    _ configuration: HTTPServerConfiguration = .init(),
    handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void = echoHandler
) throws -> HTTPServer {
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    return server
}

/// Runs `body` on `loop` and waits (up to 10 s) for its answer: for state only the loop's thread may read.
func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T) -> T? {
    let result = ConditionLock<T?>(nil)
    loop.execute { result.withLock { $0 = body() } }
    guard result.wait(timeout: .seconds(10), until: { $0 != nil }) else { return nil }
    return result.withLock { $0 }
}

/// Answers `METHOD target body` with a few request facts in headers.
let echoHandler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
    var response = HTTPResponse.text(
        "\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))")
    response.headers.add(name: "X-Body-Length", value: String(request.body.count))
    responder.respond(response)
}

/// Raises the soft open-files limit as far as allowed (see `OpenFileLimit.raise()`).
@discardableResult
func raiseOpenFileLimit() -> Int { OpenFileLimit.raise() }

/// The number of open file descriptors of this process, from `/dev/fd` (macOS has no `/proc`), or -1.
func openFileDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count) ?? -1
}
