// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import XCTest

    /// A ``TLSUpstream`` and a `stubserver` proxying every request to it (`--stubs stubs --proxy-all UPSTREAM`),
    /// as the HTTPS upstream tests set them up; both stop at the test's teardown.
    struct TLSUpstreamProxy {
        let upstream: TLSUpstream
        let proxy: StubServerProcess
        /// The proxy's stubs folder, kept for as long as the test holds this.
        let stubs: TemporaryStubs

        /// Starts the upstream, lets `prepare` write stubs (it may name the upstream), then launches the proxy:
        /// trusting the upstream's CA (``TLSUpstream/launchTrusting(_:currentDirectory:)``), or, with
        /// `trusting: false`, as usual, so the machine's trust store, which lacks this run's CA, decides.
        static func start(
            for test: XCTestCase, trusting: Bool = true,
            prepare: (TLSUpstream, TemporaryStubs) throws -> Void = { _, _ in }
        ) async throws -> TLSUpstreamProxy {
            let upstream = try await offPool { try TLSUpstream() }
            test.addTeardownBlock { upstream.stop() }
            let stubs = try TemporaryStubs()
            try prepare(upstream, stubs)
            let arguments = ["--stubs", "stubs", "--proxy-all", upstream.baseURL.absoluteString]
            let proxy = try await offPool {
                if trusting { return try upstream.launchTrusting(arguments, currentDirectory: stubs.root) }
                return try StubServerProcess.launch(arguments, currentDirectory: stubs.root)
            }
            test.addTeardownBlock {
                proxy.stop()
                withExtendedLifetime(stubs) {}
            }
            return TLSUpstreamProxy(upstream: upstream, proxy: proxy, stubs: stubs)
        }
    }
#endif
