import StubKit

/// The version printed by `--version`.
public let stubserverVersion = StubServer.version

/// The text printed by `--help` and after a usage error.
public let usageText = """
    USAGE: stubserver [--stubs DIR] [--port N] [--host ADDR] [--verbose] [--watch]
                      [--global-delay MS] [--network edge|3g|lte|wifi] [--bandwidth BYTES]
                      [--log-unmatched full|line|none] [--journal-max-bytes SIZE]
                      [--max-request-journal-entries N] [--no-request-journal]
                      [--global-response-templating] [--disable-banner]
                      [--admin-token TOKEN] [--allowed-host NAME] [--no-admin] [--proxy-all URL] [--proxy-timeout MS]
                      [--shutdown-grace SECONDS] [--max-connections N] [--max-json-match-body SIZE]
                      [--template-max-steps N] [--template-max-output SIZE]
           stubserver SUBCOMMAND [ARGUMENTS]

    Serves canned HTTP responses from a WireMock-style stubs directory
    (DIR/mappings/**/*.json for the routes, DIR/__files/ for response bodies).

    \(Subcommands.listing)

    OPTIONS:
      --stubs DIR     The stubs directory (alias: --root-dir). Default: Stubs
      --port N        The port to listen on; 0 picks a free port. Default: 8080
      --host ADDR     The address to listen on (e.g. 127.0.0.1, ::1, 0.0.0.0; alias: --bind-address).
                      Default: 127.0.0.1
      --verbose       Log one line per request to stderr.
      --watch         Reload the stubs when a file changes; a bad edit keeps the last good routes.
      --global-delay MS  Delay every response by MS milliseconds (as POST /__admin/settings fixedDelay).
      --network NAME  Simulate a slow network for every response: edge, 3g, lte or wifi
                      (latency and bandwidth of Apple's Network Link Conditioner presets).
      --bandwidth BYTES  Send every response at most BYTES bytes per second.
      --log-unmatched full|line|none
                      What an unmatched request logs: its near-miss report (repeats of the same
                      request within a minute as one line), one line, or nothing. Default: full
      --journal-max-bytes SIZE
                      The most memory the request journal keeps (e.g. 64MiB); oldest entries go
                      first. Bodies over 1 MiB are kept cut. Default: 64MiB
      --max-request-journal-entries N
                      The most requests the journal keeps. Default: 10000
      --no-request-journal
                      Keep no journal (for load tests); /__admin/requests says so.
      --global-response-templating
                      Render every response as a Handlebars template, not only stubs with
                      "transformers": ["response-template"] (--local-response-templating, the default).
      --disable-banner
                      Accepted for WireMock's command lines; stubserver prints no banner.
      --admin-token TOKEN
                      Admin calls (/__admin) need `Authorization: Bearer TOKEN`, else 401.
                      Default: $STUBSERVER_ADMIN_TOKEN, else none (loopback clients only).
      --allowed-host NAME
                      Also answer admin calls for Host NAME (repeatable). Without a token the admin API
                      answers only IP addresses, localhost and single-label names (DNS-rebinding guard).
      --no-admin      Turn the admin API off: /__admin paths are stub traffic (404 unless stubbed).
      --proxy-all URL Forward every request no stub matches to URL (http or https) and return its
                      answer; stubs still win. Upstream errors are a 502, timeouts a 504.
      --proxy-timeout MS
                      How long a forwarded request may take before the client gets a 504. Default: 30000
      --shutdown-grace SECONDS
                      How long SIGINT/SIGTERM let in-flight (e.g. delayed) responses finish before
                      closing them; a response whose client left never holds it. Default: 5
      --max-connections N
                      The most connections open at once. Near it, connections that never sent a
                      byte are closed, oldest first, to make room; with none to close, a new
                      connection gets 503. Default: 4096
      --template-max-steps N
                      The most evaluation steps of one templated response (one per tag and per
                      #each element); beyond it the request gets a 500 naming the stub. Default: 1000000
      --template-max-output SIZE
                      The most bytes one templated response renders (escaping included); beyond
                      it the request gets a 500 naming the stub. Default: 16MiB
      --max-json-match-body SIZE
                      The largest request body parsed for equalToJson and matchesJsonPath; they do
                      not match a larger body (its near-miss report says why). Default: 4MiB
      --version       Print the version and exit.
      -h, --help      Print this help and exit.

    Options in the environment variable STUBSERVER_OPTIONS (split as a shell would, with quotes) are
    read after the arguments, so they win; WireMock's image reads WIREMOCK_OPTIONS the same way.
    A stubs directory with no stubs while /home/wiremock/mappings has some (WireMock's Docker layout)
    serves /home/wiremock instead, with a note.

    The first line on stdout is `Listening on http://HOST:PORT`. Log lines go to stderr through a
    bounded queue: if nothing reads stderr, lines are dropped (and counted), never the server blocked.
    Exit codes: 0 stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT, 2 usage error, 3 bad stubs, 4 cannot listen.
    """
