import Foundation
import StubTestSupport
import Testing

@testable import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Taking a server's listener offline, making it hang and bringing it back, over real sockets.
@Suite("Listener availability")
struct ListenerAvailabilityTests {
    /// Whether reading a response on `client` times out (off the cooperative pool: it blocks until then).
    private func timesOut(_ client: RawClient) async -> Bool {
        await offPool { () -> Bool in
            do {
                _ = try client.readResponse()
                return false
            } catch {
                return true
            }
        }
    }

    #if canImport(Glibc)
        static let connectionRefused = ECONNREFUSED
    #else
        static let connectionRefused: Int32 = 61  // Darwin's ECONNREFUSED, from <sys/errno.h>
    #endif

    /// Whether connecting to `port` is refused now.
    private func connectionRefused(port: Int) -> Bool {
        do {
            let fd = try RawSocket.connectLoopback(port: port)
            RawSocket.closeSocket(fd)
            return false
        } catch {
            return "\(error)".contains("errno \(Self.connectionRefused)")
        }
    }

    @Test(
        "Offline refuses connections, keeps the port and closes idle keep-alive ones; online again serves on the same port"
    )
    func offlineThenOnline() async throws {
        let server = try startServer()
        defer { server.stop() }
        let port = server.port
        let kept = try RawClient(port: port)
        #expect(try kept.roundTrip("GET /before HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)

        try server.setAvailability(.offline)
        #expect(server.availability() == .offline)
        #expect(server.isRunning)
        #expect(connectionRefused(port: port))
        #expect(!RawSocket.canBind(port: port), "offline keeps the port bound, so no other server is given it")
        #expect(kept.waitForClose(), "the idle keep-alive connection is closed")

        try server.setAvailability(.online)
        #expect(server.port == port)
        let again = try RawClient(port: port)
        let response = try again.roundTrip("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(response.status == 200 && response.text == "GET /after ")
    }

    @Test("Going offline lets the response in progress finish, then closes its connection")
    func offlineFinishesTheResponseInProgress() async throws {
        let pending = LockedValue<HTTPResponder?>(nil)
        let server = try startServer { _, responder in pending.withLock { $0 = responder } }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { pending.withLock { $0 != nil } })

        try server.setAvailability(.offline)
        #expect(connectionRefused(port: server.port))
        pending.withLock { $0 }?.respond(.text("finished"))
        let response = try client.readResponse()
        #expect(response.status == 200 && response.text == "finished")
        #expect(response.header("Connection") == "close")
        #expect(client.waitForClose())
    }

    @Test("Hanging reads requests and never answers; online again answers the held ones")
    func hangingHoldsThenAnswers() async throws {
        let handled = LockedValue(0)
        var configuration = HTTPServerConfiguration()
        // Far shorter than the wait below: neither may answer a held request with a 408 or close it.
        configuration.headerReadTimeout = .milliseconds(50)
        configuration.idleTimeout = .milliseconds(50)
        let server = try startServer(configuration) { request, responder in
            handled.withLock { $0 += 1 }
            echoHandler(request, responder)
        }
        defer { server.stop() }
        try server.setAvailability(.hanging)
        #expect(server.availability() == .hanging)

        let client = try RawClient(port: server.port, timeout: .seconds(1))
        try client.send("POST /held HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        #expect(await eventually { server.heldRequests()?.requests == 1 })
        #expect(await timesOut(client))
        #expect(client.unread.isEmpty, "nothing was sent, not even a 408")
        #expect(handled.withLock { $0 } == 0)
        #expect(server.heldRequests()?.requests == 1)

        try server.setAvailability(.online)
        let response = try client.readResponse()
        #expect(response.status == 200 && response.text == "POST /held hello")
        #expect(server.heldRequests()?.requests == 0 && server.heldRequests()?.bytes == 0)
    }

    @Test("A held request whose client leaves is forgotten at once")
    func hangingClientLeaves() async throws {
        let server = try startServer()
        defer { server.stop() }
        try server.setAvailability(.hanging)
        do {
            let client = try RawClient(port: server.port)
            try client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.heldRequests()?.requests == 1 })
        }  // the client closes its socket
        #expect(await eventually { server.heldRequests()?.requests == 0 })
        #expect(await eventually { server.context.openConnections.withLock { $0 } == 0 })
    }

    @Test("Offline closes held connections without an answer; stopping does not wait for held requests")
    func heldRequestsCloseOfflineAndAtStop() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = .seconds(600)
        let server = try startServer(configuration)
        try server.setAvailability(.hanging)
        let first = try RawClient(port: server.port)
        try first.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.heldRequests()?.requests == 1 })
        try server.setAvailability(.offline)
        #expect(first.waitForClose() && first.unread.isEmpty)
        #expect(await eventually { server.heldRequests()?.requests == 0 })

        try server.setAvailability(.hanging)  // listens again, and holds
        let second = try RawClient(port: server.port)
        try second.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await eventually { server.heldRequests()?.requests == 1 })
        let stopped = ContinuousClock().measure { server.stop() }
        #expect(stopped < .seconds(200), "stop() waited for a held request")
        #expect(second.waitForClose() && second.unread.isEmpty)
    }

    @Test("A handler's hang() holds its request until the client leaves; stopping does not wait for it")
    func handlerHang() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = .seconds(600)
        configuration.idleTimeout = .milliseconds(50)
        let server = try startServer(configuration) { request, responder in
            if request.target == "/hang" { responder.hang() } else { echoHandler(request, responder) }
        }
        let hung = try RawClient(port: server.port, timeout: .seconds(1))
        try hung.send("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await timesOut(hung))
        #expect(hung.unread.isEmpty)
        let other = try RawClient(port: server.port)
        #expect(try other.roundTrip("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").status == 200)
        do {
            let leaving = try RawClient(port: server.port)
            try leaving.send("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await eventually { server.context.openConnections.withLock { $0 } == 2 })
        }
        #expect(await eventually { server.context.openConnections.withLock { $0 } == 1 }, "the one left is freed")
        let stopped = ContinuousClock().measure { server.stop() }
        #expect(stopped < .seconds(200), "stop() waited for a hung request")
        #expect(hung.waitForClose())
    }

    @Test("Held requests are bounded in count and bytes; released ones make room")
    func gateBounds() {
        let gate = ListenerGate(maxRequests: 2, maxBytes: 100)
        #expect(gate.admit(bytes: 60) == .dispatch)  // online: nothing is held
        #expect(gate.held.requests == 0)
        gate.set(.hanging)
        #expect(gate.admit(bytes: 60) == .hold)
        #expect(gate.admit(bytes: 50) == .refuse)  // 110 bytes
        #expect(gate.admit(bytes: 40) == .hold)
        #expect(gate.admit(bytes: 0) == .refuse)  // a third request
        gate.release(bytes: 60)
        #expect(gate.held == (1, 40))
        #expect(gate.admit(bytes: 50) == .hold)
        gate.set(.offline)
        #expect(gate.admit(bytes: 0) == .refuse)
    }

    @Test("A request completed after going offline is not answered: its connection closes")
    func requestCompletedOffline() async throws {
        // The body waits as long as the test may be held up: under load a test task waited over a minute between
        // two sends, past the default 60 s idle timeout, and its connection got a 408 instead of closing.
        var configuration = HTTPServerConfiguration()
        configuration.idleTimeout = .seconds(600)
        let server = try startServer(configuration)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /late HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel")
        #expect(await eventually { server.context.openConnections.withLock { $0 } == 1 })
        try server.setAvailability(.offline)
        try client.send("lo")
        #expect(client.waitForClose() && client.unread.isEmpty)
    }

    @Test("A timed spell offline ends by itself")
    func revertsAfterDuration() async throws {
        let server = try startServer()
        defer { server.stop() }
        try server.setAvailability(.offline, revertingAfter: .milliseconds(100))
        #expect(await eventually { server.availability() == .online })
        #expect(try RawClient(port: server.port).roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        // A later change cancels the return.
        try server.setAvailability(.offline, revertingAfter: .milliseconds(100))
        try server.setAvailability(.hanging)
        try server.setAvailabilityOfAllListeners(.online)
        #expect(server.availability() == .online)
    }

    @Test("Errors: not running, unknown listener")
    func errors() throws {
        let server = HTTPServer(handler: ClosureHandler(body: echoHandler))
        #expect(throws: ServerError.self) { try server.setAvailability(.offline) }
        #expect(server.availability() == nil)
        try server.start()
        defer { server.stop() }
        do {
            try server.setAvailability(.offline, forListener: "api.example.com")
            Issue.record("an unknown label was accepted")
        } catch {
            #expect(error.kind == .unknownListener)
        }
        server.stop()
        do {
            try server.setAvailability(.online)
            Issue.record("a stopped server changed its availability")
        } catch {
            #expect(error.kind == .notRunning)
            #expect(error.message.contains("not running"))
        }
    }
}
