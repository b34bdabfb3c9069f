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
