// dynamic-bench: an in-process StubServer for Benchmarks/bench-dynamic.sh, answering the same JSON body
//   GET /static    from a static stub (prepared bytes)
//   GET /closure   from a synchronous Swift closure stub (worker thread, response built per request)
//   GET /async     from an async Swift closure stub (a task per request)
// plus the stubs of --stubs DIR, if given (e.g. a templated file stub). Prints `Listening on http://HOST:PORT`,
// then serves until killed.
//
// Usage: dynamic-bench [--port N] [--stubs DIR] [--print-body]
import Foundation
import StubKit

let body: JSONValue = [
    "login": "octocat", "id": 583231, "name": "The Octocat", "company": "@github", "location": "San Francisco",
    "public_repos": 8, "followers": 20, "following": 9, "site_admin": false
]

var port = 0
var stubs: URL?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = arguments.next().flatMap(Int.init) ?? 0
    case "--stubs": stubs = arguments.next().map { URL(fileURLWithPath: $0) }
    case "--print-body":
        FileHandle.standardOutput.write(Data((body.serialized(.compact) + "\n").utf8))
        exit(0)
    default:
        FileHandle.standardError.write(Data("dynamic-bench: unknown option '\(argument)'\n".utf8))
        exit(2)
    }
}

// The default configuration (journal on, 10,000 entries), as `StubServer.start()` gives a test: the benchmarks
// measure what users run (issue 17: a smaller journal here hid a journal whose appends grew with its size).
let configuration = StubServer.Configuration(port: port)
let server: StubServer
do {
    server = try StubServer(stubs: stubs, configuration: configuration)
    try server.start()
} catch {
    FileHandle.standardError.write(Data("dynamic-bench: \(error)\n".utf8))
    exit(1)
}
server.stub(.get("/static"), .json(body))
server.stub(.get("/closure")) { _ in .json(body) }
server.stub(.get("/async")) { _ async in .json(body) }
FileHandle.standardOutput.write(Data("Listening on \(server.baseURL.absoluteString)\n".utf8))
while true { Thread.sleep(forTimeInterval: 3_600) }
