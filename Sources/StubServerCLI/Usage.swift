/// The version printed by `--version`.
public let stubserverVersion = "0.1.0"

/// The text printed by `--help` and after a usage error.
public let usageText = """
    USAGE: stubserver [--stubs DIR] [--port N] [--host ADDR] [--verbose] [--watch]

    Serves canned HTTP responses from a WireMock-style stubs directory
    (DIR/mappings/**/*.json for the routes, DIR/__files/ for response bodies).

    OPTIONS:
      --stubs DIR     The stubs directory (alias: --root-dir). Default: Stubs
      --port N        The port to listen on; 0 picks a free port. Default: 8080
      --host ADDR     The address to listen on (e.g. 127.0.0.1, ::1, 0.0.0.0). Default: 127.0.0.1
      --verbose       Log one line per request to stderr.
      --watch         Reload the stubs when a file changes; a bad edit keeps the last good routes.
      --version       Print the version and exit.
      -h, --help      Print this help and exit.

    The first line on stdout is `Listening on http://HOST:PORT`.
    Exit codes: 0 stopped by SIGINT/SIGTERM, 2 usage error, 3 bad stubs, 4 cannot listen.
    """
