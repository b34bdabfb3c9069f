/// `stubserver health [URL] [--timeout SECONDS]`: one `GET /__admin/health`; exit 0 when the server
/// answers `200`, 1 when not. What the Docker image's `HEALTHCHECK` runs: no shell or curl needed.
public struct HealthCommand: Subcommand {
    public static let name = "health"
    public static let summary = "Exit 0 when a stubserver answers GET /__admin/health, 1 when not."
    public static let usage = """
        USAGE: stubserver health [URL] [--timeout SECONDS]

        Sends one GET /__admin/health over a plain socket and exits 0 on a 200 answer, 1 otherwise
        (refused, no answer in time, another status). Admin requests are not journaled or logged, so
        probing every second leaves no trace. Works against WireMock 3 too.

        ARGUMENTS:
          URL             http://HOST:PORT of the server (a path prefix is kept; /__admin/health is
                          appended unless the URL ends with it). Default: the address of the stubserver
                          running on this machine or in this container, read from its command line and
                          STUBSERVER_OPTIONS (Linux), else http://127.0.0.1:8080.

        OPTIONS:
          --timeout SECONDS
                          The most time for resolving, connecting and the answer. Default: 2
          -h, --help      Print this help and exit.

        Prints `healthy: URL` on stdout, or `unhealthy: URL: REASON` on stderr.
        Exit codes: 0 healthy, 1 not healthy, 2 usage error.
        """

    /// Where to probe; `nil` finds the running server (``HealthTarget/defaultURL()``).
    public var url: HealthURL?
    /// The probe's time bound, in milliseconds.
    public var timeoutMilliseconds: Int = 2000

    public init(url: HealthURL? = nil, timeoutMilliseconds: Int = 2000) {
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> HealthCommand {
        var command = HealthCommand()
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case .option("--timeout"):
                let text = try reader.value(for: "--timeout")
                guard let seconds = Double(text), seconds >= 0.05, seconds <= 600 else {
                    throw CLIError("--timeout expects seconds from 0.05 to 600, got '\(text)'")
                }
                command.timeoutMilliseconds = Int((seconds * 1000).rounded())
            case let .positional(text) where command.url == nil:
                command.url = try HealthURL(text)
            default:
                throw reader.unexpected(argument, options: ["--timeout"])
            }
        }
        return command
    }

    public func run() -> ExitCode {
        let target = url ?? HealthTarget.defaultURL()
        switch HealthProbe.check(target, timeout: .milliseconds(timeoutMilliseconds)) {
        case .healthy:
            StandardStreams.output("healthy: \(target)\n")
            return .success
        case let .unhealthy(reason):
            StandardStreams.error("unhealthy: \(target): \(reason)\n")
            return .failure
        }
    }
}
