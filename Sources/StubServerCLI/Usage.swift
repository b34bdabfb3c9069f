import StubKit

/// The version printed by `--version`.
public let stubserverVersion = StubServer.version

/// The text printed by `--help` and after a usage error: the synopsis and the options are written from
/// the option table (``ServeOption/all``), so they cannot drift from what the parser accepts.
public let usageText = """
    USAGE: \(ServeOption.synopsis)
           stubserver SUBCOMMAND [ARGUMENTS]

    Serves canned HTTP responses from a WireMock-style stubs directory
    (DIR/mappings/**/*.json for the routes, DIR/__files/ for response bodies).

    \(Subcommands.listing)

    OPTIONS:
    \(ServeOption.optionsHelp)

    Options in the environment variables WIREMOCK_OPTIONS (as WireMock's image reads it) and then
    STUBSERVER_OPTIONS (split as a shell would, with quotes) are read after the arguments, so they win.

    The first line on stdout is `Listening on http://HOST:PORT`. Log lines go to stderr through a
    bounded queue: if nothing reads stderr, lines are dropped (and counted), never the server blocked.
    Exit codes: 0 stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT, 2 usage error, 3 bad stubs, 4 cannot listen.
    """

extension ServeOption {
    /// How the option is shown: `--port N`, `-h, --help`.
    var label: String {
        let shown = names.first?.hasPrefix("--") == true ? names[0] : names.joined(separator: ", ")
        return value.map { "\(shown) \($0)" } ?? shown
    }

    /// `stubserver [--stubs DIR] [--port N] …`, wrapped under the first option.
    static var synopsis: String {
        let head = "stubserver "
        var lines: [String] = [], line = head
        for option in all where option.names.first?.hasPrefix("--") == true && option.action.isSetting {
            let item = "[\(option.label)]"
            if line.count + item.count > 100, line != head {
                lines.append(String(line.dropLast()))
                line = String(repeating: " ", count: "USAGE: ".count + head.count)
            }
            line += item + " "
        }
        lines.append(String(line.dropLast()))
        return lines.joined(separator: "\n")
    }

    /// One entry per option: the label, then the help beside it (or under it, for a long label).
    static var optionsHelp: String {
        let column = 20
        let indent = String(repeating: " ", count: column)
        return all.map { option in
            var label = "  " + option.label
            var help = option.help
            if label.count < column - 1, let first = help.first {
                label += String(repeating: " ", count: column - label.count) + first
                help.removeFirst()
            }
            return ([label] + help.map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}

extension ServeOption.Action {
    /// Sets an option (not `--help` or `--version`).
    var isSetting: Bool {
        if case .set = self { return true }
        return false
    }
}
