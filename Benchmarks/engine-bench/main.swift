// engine-bench: the StubHTTP engine alone, answering every request with one fixed ~300-byte JSON body.
//
//   engine-bench [--port N] [--threads N]   serve until SIGINT or SIGTERM (port 0 = a free port)
//   engine-bench --print-body               print the body and exit (bench-engine.sh gives nginx the same bytes)
//
// Prints "Listening on http://127.0.0.1:PORT" once the socket is bound. Benchmarks/bench-engine.sh drives it.

import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The body both servers send: a GitHub-like user, 298 bytes, no `$`, `'` or `\` (nginx's `return` keeps it as is).
let body =
    #"{"login":"octocat","id":583231,"node_id":"MDQ6VXNlcjU4MzIzMQ==","type":"User","#
    + #""name":"The Octocat","company":"@github","blog":"https://github.blog","location":"San Francisco","#
    + #""public_repos":8,"public_gists":8,"followers":9999,"#
    + #""created_at":"2011-01-25T18:44:36Z","updated_at":"2024-01-22T12:13:54Z"}"#

struct Options {
    var port = 0
    var threads = 1
    var printBody = false
}

/// Writes straight to a descriptor: unbuffered, so the line is out before anyone reads it.
func emit(_ text: String, to fd: Int32 = 1) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
    }
}

func fail(_ message: String) -> Never {
    emit("engine-bench: \(message)\nusage: engine-bench [--port N] [--threads N] | --print-body\n", to: 2)
    exit(2)
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var remaining = arguments[...]
    func number(after flag: String, atLeast minimum: Int) -> Int {
        guard let text = remaining.popFirst() else { fail("\(flag) needs a value") }
        guard let value = Int(text), value >= minimum else {
            fail("\(flag) must be a whole number >= \(minimum), not '\(text)'")
        }
        return value
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--port": options.port = number(after: argument, atLeast: 0)
        case "--threads": options.threads = number(after: argument, atLeast: 1)
        case "--print-body": options.printBody = true
        case "-h", "--help": emit("usage: engine-bench [--port N] [--threads N] | --print-body\n"); exit(0)
        default: fail("unknown argument '\(argument)'")
        }
    }
    guard options.port <= 65_535 else { fail("--port must be at most 65535") }
    return options
}

let options = parseOptions(Array(CommandLine.arguments.dropFirst()))
if options.printBody {
    emit(body)
    exit(0)
}

// Block the stop signals before any event-loop thread exists, so every thread inherits the mask and
// only sigwait below ever sees them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let response = PreparedResponse(
    HTTPResponse(
        status: .ok,
        headers: ["Content-Type": "application/json"],
        body: Array(body.utf8)
    ))
let server = HTTPServer(
    configuration: HTTPServerConfiguration(host: "127.0.0.1", port: options.port, eventLoopCount: options.threads)
) { _, responder in
    responder.respond(response)
}
do {
    try server.start()
} catch {
    emit("engine-bench: could not start the server: \(error)\n", to: 2)
    exit(1)
}
emit("Listening on http://127.0.0.1:\(server.port)\n")

var received: Int32 = 0
while sigwait(&stopSignals, &received) != 0 {}
server.stop()
