import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

@Suite("Many servers and many threads")
struct ConcurrencyTests {
    /// 50, or fewer under a low open-files limit: each server holds 3 descriptors (listener, selector,
    /// waker) and each exchange in flight 2 more (client and accepted socket), and the tests running beside
    /// this one need theirs. Under `ulimit -n 256` (a Mac's default) that is 16 servers.
    static let serverCount = min(50, max(8, OpenFileLimit.soft / 16))
    static let repetitions = 20

    @Test(
        "Up to 50 servers started at once each get their own port and see only their own stubs and requests",
        .timeLimit(.minutes(2)))
    func fiftyConcurrentServers() async throws {
        for repetition in 0..<Self.repetitions {
            // 50 threads, waited for off the pool
            let servers = try await offPool { try Self.startConcurrently(Self.serverCount) }
            try await shuttingDown(all: servers) {
                let ports = servers.map(\.port)
                #expect(
                    Set(ports).count == Self.serverCount,
                    "port collision in repetition \(repetition): \(ports.sorted())")

                for (index, server) in servers.enumerated() {
                    server.stub(.get("/server/\(index)"), .text("server \(index)"), name: "own stub \(index)")
                }
                // Each server is asked for its own path and for its neighbour's, concurrently.
                let answers = try await withThrowingTaskGroup(of: (Int, Fetched, Fetched).self) { group in
                    for (index, server) in servers.enumerated() {
                        group.addTask {
                            let own = try await HTTP.get(server, "/server/\(index)")
                            let neighbour = try await HTTP.get(server, "/server/\((index + 1) % Self.serverCount)")
                            return (index, own, neighbour)
                        }
                    }
                    return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
                }
                for (index, server) in servers.enumerated() {
                    let (own, neighbour) = try #require(answers[index])
                    #expect(own.status == 200 && own.text == "server \(index)")
                    #expect(neighbour.status == 404, "server \(index) answered another server's stub")
                    #expect(
                        server.requests.map(\.request.target) == [
                            "/server/\(index)", "/server/\((index + 1) % Self.serverCount)"
                        ])
                    #expect(server.requests.first?.matchedStub?.name == "own stub \(index)")
                    #expect(server.mappings.count == 1)
                }
            }
        }
    }

    @Test(
        "Requests from many tasks while stubs are added and removed and the journal is read",
        .timeLimit(.minutes(1)))
    func requestsStubsAndJournalConcurrently() async throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let stubs = try StubsDirectory.locate(from: #filePath)
        let server = try StubServer(stubs: stubs, configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            let clients = 4, requestsPerClient = 40
            let churn = Thread.run {
                // Adds and removes runtime stubs, and reads the journal, while requests arrive.
                for iteration in 0..<200 {
                    let handle = server.stub(.get("/churn/\(iteration % 10)"), .text("churn"))
                    let entries = server.requests
                    precondition(zip(entries, entries.dropFirst()).allSatisfy { $0.id < $1.id }, "journal out of order")
                    _ = server.received(.get("/users/octocat"))
                    _ = server.nearMisses(for: .get("/hello"), limit: 1)
                    if iteration % 2 == 0 { handle.remove() }
                }
            }
            let statuses = try await withThrowingTaskGroup(of: [String: Int].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var counts: [String: Int] = [:]
                        for index in 0..<requestsPerClient {
                            let path = ["/users/octocat", "/hello", "/churn/\(index % 10)", "/users/x\(client)"][
                                index % 4]
                            let response = try await HTTP.get(server, path)
                            if path == "/users/octocat" {
                                #expect(try response.json()["login"] as? String == "octocat")
                            }
                            counts["\(path.hasPrefix("/churn") ? "/churn" : path) \(response.status)", default: 0] += 1
                        }
                        return counts
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0.merge($1, uniquingKeysWith: +) }
            }
            await churn.value

            let perPath = clients * requestsPerClient / 4
            #expect(statuses["/users/octocat 200"] == perPath)
            #expect(statuses["/hello 200"] == perPath)
            #expect((statuses["/churn 200"] ?? 0) + (statuses["/churn 404"] ?? 0) == perPath)
            #expect(server.requests.count == clients * requestsPerClient)
            #expect(server.received(.get("/hello")) == perPath)
            let ids = server.requests.map(\.id)
            #expect(ids == Array(1...(clients * requestsPerClient)))
        }
    }

    @Test("Stubs added from many threads at once are all kept")
    func stubsFromManyThreads() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            await offPool {
                DispatchQueue.concurrentPerform(iterations: 200) { index in
                    server.stub(.get("/many/\(index)"), .text("\(index)"))
                }
            }
            #expect(server.mappings.count == 200)
            for index in [0, 99, 199] {
                let response = try await HTTP.get(server, "/many/\(index)")
                #expect(response.text == "\(index)")
            }
        }
    }

    /// Starts `count` servers, each on its own thread, released together.
    static func startConcurrently(_ count: Int) throws -> [StubServer] {
        let results = ResultSlots(count)
        let ready = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for index in 0..<count {
            ready.enter()
            done.enter()
            Thread.detachNewThread {
                ready.leave()
                go.wait()
                results.set(index, Result<StubServer, any Error> { try StubServer.start() })
                done.leave()
            }
        }
        ready.wait()
        for _ in 0..<count { go.signal() }
        done.wait()
        return try results.values.map { try $0.get() }
    }
}

/// Results written by index from several threads.
private final class ResultSlots: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var slots: [Result<StubServer, any Error>?]

    init(_ count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<StubServer, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = result
    }

    var values: [Result<StubServer, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? .failure(HTTPTestError("a server thread did not finish")) }
    }
}

extension Thread {
    /// Runs `body` on a new thread; await the returned task for it to finish.
    static func run(_ body: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    body()
                    continuation.resume()
                }
            }
        }
    }
}
