import Testing

@testable import StubServerCLI

@Suite("stubserver health: arguments, URLs and the server it finds")
struct HealthCommandTests {
    @Test("The subcommand is dispatched, with a URL and --timeout")
    func parse() throws {
        #expect(try CommandParser.parse(["health"]) == .subcommand(HealthCommand()))
        #expect(
            try CommandParser.parse(["health", "http://127.0.0.1:9090", "--timeout", "0.5"])
                == .subcommand(HealthCommand(url: HealthURL(host: "127.0.0.1", port: 9090), timeoutMilliseconds: 500)))
        #expect(
            try CommandParser.parse(["health", "--timeout=3", "http://[::1]:1"])
                == .subcommand(HealthCommand(url: HealthURL(host: "::1", port: 1), timeoutMilliseconds: 3000)))
        #expect(try CommandParser.parse(["health", "--help"]) == .subcommandHelp(HealthCommand.self))
    }

    @Test(
        "Bad arguments say what is wrong",
        arguments: [
            (["--timeout", "0"], "--timeout expects seconds from 0.05 to 600, got '0'"),
            (["--timeout", "soon"], "--timeout expects seconds from 0.05 to 600, got 'soon'"),
            (["--timout", "1"], "unknown option '--timout'; did you mean '--timeout'?"),
            (["http://a:1", "http://b:2"], "unexpected argument 'http://b:2'"),
            (["127.0.0.1:8080"], "health: expected a URL such as http://127.0.0.1:8080, got '127.0.0.1:8080'"),
            (
                ["https://host"],
                "health: expected a URL such as http://127.0.0.1:8080, got 'https://host' (https is not supported: stubserver serves plain HTTP)"
            ),
            (
                ["http://host:http"],
                "health: the port in 'http://host:http' must be a number from 1 to 65535, got 'http'"
            ),
            (["http://:80"], "health: 'http://:80' has no host"),
            (["http://[::1:80"], "health: 'http://[::1:80' has an IPv6 address without its closing ']'")
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CLIError(message, subcommand: "health")) { try CommandParser.parse(["health"] + arguments) }
    }

    @Test(
        "URLs: the health path is appended to a base URL or a prefix, kept when given",
        arguments: [
            ("http://127.0.0.1:8080", "127.0.0.1", 8080, "/__admin/health"),
            ("http://127.0.0.1:8080/", "127.0.0.1", 8080, "/__admin/health"),
            ("http://stubs", "stubs", 80, "/__admin/health"),
            ("http://[::1]:9000/mock/", "::1", 9000, "/mock/__admin/health"),
            ("http://localhost:1/__admin/health", "localhost", 1, "/__admin/health"),
            ("http://h:2/x?y=1#z", "h", 2, "/x/__admin/health")
        ])
    func urls(text: String, host: String, port: Int, path: String) throws {
        let url = try HealthURL(text)
        #expect(url == HealthURL(host: host, port: port, path: path))
    }

    @Test("A running server is probed where it listens: wildcards on loopback, STUBSERVER_OPTIONS included")
    func target() {
        #expect(
            HealthTarget.url(
                serverArguments: ["--stubs", "/stubs", "--host", "0.0.0.0", "--port", "8080"], environment: [:])
                == HealthURL(host: "127.0.0.1", port: 8080))
        #expect(
            HealthTarget.url(
                serverArguments: ["--host", "0.0.0.0", "--port", "8080", "--port", "9090"], environment: [:])?.port
                == 9090)
        #expect(
            HealthTarget.url(
                serverArguments: ["--host=::", "--port=8080"], environment: ["STUBSERVER_OPTIONS": "--port 7070"])
                == HealthURL(host: "::1", port: 7070))
        #expect(
            HealthTarget.url(serverArguments: ["--bind-address", "10.0.0.5"], environment: [:])
                == HealthURL(host: "10.0.0.5", port: 8080))
        // Not serving, or on a port only the server knows: no answer.
        #expect(HealthTarget.url(serverArguments: ["--port", "0"], environment: [:]) == nil)
        #expect(HealthTarget.url(serverArguments: ["health"], environment: [:]) == nil)
        #expect(HealthTarget.url(serverArguments: ["--frobnicate"], environment: [:]) == nil)
        #expect(HealthURL(host: "::1", port: 1).description == "http://[::1]:1/__admin/health")
    }

    @Test(
        "Only a 200 status line is healthy",
        arguments: [
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", HealthProbe.Outcome.healthy),
            ("HTTP/1.0 200 OK\r\n", .healthy),
            ("HTTP/1.1 503 Service Unavailable\r\n\r\n", .unhealthy("HTTP 503 Service Unavailable")),
            ("HTTP/1.1 404 Not Found\r\n\r\n", .unhealthy("HTTP 404 Not Found")),
            ("SSH-2.0-OpenSSH_9.2\r\n", .unhealthy("not an HTTP answer: 'SSH-2.0-OpenSSH_9.2'")),
            ("", .unhealthy("the connection closed without an answer"))
        ])
    func evaluate(answer: String, outcome: HealthProbe.Outcome) {
        #expect(HealthProbe.evaluate(.success(Array(answer.utf8))) == outcome)
    }
}
