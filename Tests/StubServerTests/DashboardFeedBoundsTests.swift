import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The live feed's bounds: a page that stops reading is not buffered for (what it could not take is counted and
/// told in a `dropped` event, and its connection stays open), at most 16 feeds are open at once, and a page that
/// goes frees its feed.
@Suite("Dashboard feed bounds")
struct DashboardFeedBoundsTests {
    static func feedCount(_ server: StubServer, _ field: String = "open") async throws -> Int {
        let fetched = try await HTTP.get(server, "/__admin/stubserver/requests/feeds")
        let json = try JSONSerialization.jsonObject(with: fetched.body) as? [String: Any]
        return try #require(json?[field] as? Int)
    }

    @Test("At most 16 feeds are open; the 17th is refused with 503, and closing one frees its place")
    func feedLimit() async throws {
        let server = try DashboardTests.server()
        try await shuttingDown(server) {
            let port = server.port
            var feeds: [RawClient] = []
            for _ in 0..<16 {
                let client = try await offPool { try DashboardTests.openFeed(port) }
                #expect(try await offPool { try client.read(until: "event: hello") })
                feeds.append(client)
            }
            #expect(try await Self.feedCount(server) == 16)
            let refused = try await offPool { try DashboardTests.get(port, "/__admin/stubserver/requests/live") }
            #expect(refused.status == 503)
            #expect(refused.text.contains("16 live request feeds are open already"))
            feeds.removeAll()  // closes the sockets
            try await waitUntil("the server counts no open feed", every: .milliseconds(50)) {
                try await Self.feedCount(server) == 0
            }
            let again = try await offPool { try DashboardTests.openFeed(port) }
            #expect(try await offPool { try again.read(until: "event: hello") })
        }
    }

    @Test("Requests from 8 connections at once each reach the feed once, none missed however they interleave")
    func concurrentRequests() async throws {
        let server = try DashboardTests.server()
        try await shuttingDown(server) {
            let port = server.port
            let page = try await offPool { try DashboardTests.openFeed(port) }
            #expect(try await offPool { try page.read(until: "event: hello") })
            let clients = 8, each = 50
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        try await offPool {
                            let connection = try RawClient(port: port)
                            for index in 0..<each {
                                _ = try connection.roundTrip("GET /c/\(client)/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Every request above was recorded before it was answered, so before this one: it comes last.
            _ = try await HTTP.get(server, "/done")
            #expect(try await offPool { try page.read(until: "\"url\":\"/done\"") })
            let text = String(decoding: page.unread, as: UTF8.self)
            let ids = text.components(separatedBy: "event: request\nid: ").dropFirst().compactMap {
                Int($0.prefix { $0.isNumber })
            }
            #expect(ids.count == clients * each + 1, "each request once")
            #expect(Set(ids) == Set(1...(clients * each + 1)))
            #expect(!text.contains("event: dropped"))
        }
    }

    @Test("A page that stops reading is not cut: the requests it could not take are counted in a dropped event")
    func slowPage() async throws {
        let server = try DashboardTests.server()
        try await shuttingDown(server) {
            server.stub(.get(pathPattern: "/long/.*"), .status(204))
            let port = server.port
            let page = try await offPool { try DashboardTests.openFeed(port) }
            #expect(try await offPool { try page.read(until: "event: hello") })
            // About 2 KiB per event, 4,000 of them: twice what the socket buffers hold while the page does not
            // read (4 MiB of send buffer on Linux, the receive window), far more than the feed's backlog.
            let segment = String(repeating: "x", count: 2_000)
            let flood = 4_000
            try await offPool {
                let client = try RawClient(port: port, timeout: .seconds(60))
                for index in 0..<flood {
                    let response = try client.roundTrip("GET /long/\(index)/\(segment) HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(response.status == 204)
                }
            }
            // The page reads again. It is sent a marker request now and then until one arrives: the feed is open,
            // and every request before it was either sent or counted in a `dropped` event.
            let (text, markers) = try await offPool {
                var wait = timeval(tv_sec: 0, tv_usec: 500_000)
                setsockopt(page.fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                var received = Array(page.unread)
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let sender = try RawClient(port: port)
                var markers = 0, searchedTo = 0
                while markers < 200 {
                    markers += 1
                    let marker = Array("\"url\":\"/marker/\(markers)\"".utf8)
                    #expect(try sender.roundTrip("GET /marker/\(markers) HTTP/1.1\r\nHost: x\r\n\r\n").status == 404)
                    while true {  // read until the marker, or until nothing came for half a second
                        if received[max(0, searchedTo - marker.count)...].firstRange(of: marker) != nil {
                            return (String(decoding: received, as: UTF8.self), markers)
                        }
                        searchedTo = received.count
                        let count = recv(page.fd, &chunk, chunk.count, 0)
                        guard count > 0 else { break }
                        received.append(contentsOf: chunk[0..<count])
                    }
                }
                Issue.record("no marker request reached the page: the feed was cut or stalled")
                return (String(decoding: received, as: UTF8.self), markers)
            }
            let dropped = text.components(separatedBy: "event: dropped\ndata: {\"count\":").dropFirst()
                .compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
            let received = text.components(separatedBy: "event: request\n").count - 1
            #expect(dropped > 0, "nothing was dropped: the page was never behind")
            #expect(received + dropped == flood + markers, "every request is either sent or counted as dropped")
            try await waitUntil("the page caught up (no feed behind)", every: .milliseconds(50)) {
                try await Self.feedCount(server, "behind") == 0
            }
        }
    }
}
