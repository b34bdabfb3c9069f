import StubHTTP
import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stubserver match [--stubs DIR] METHOD URL [-H 'Name: value']... [-d BODY]`: which stub the server
/// would answer a request with and why, or the near-miss report when none. Nothing listens.
public struct MatchCommand: Subcommand {
    public static let name = "match"
    public static let summary = "Show which stub answers a request and why, or the closest stubs when none does."
    public static let usage = """
        USAGE: stubserver match [--stubs DIR] [--state SCENARIO=STATE]... METHOD URL [-H 'Name: value']... [-d BODY]

        Loads DIR as the server does and runs the request through the server's matcher, as a freshly
        started server would see it (every scenario in Started unless --state says otherwise): prints the
        stub that answers (name, file, priority, status), the other stubs that match but lose or wait for
        another state and why, or, when none matches, the near-miss report the server logs with its 404,
        which names the state a matching stub waits for. Nothing listens; no request is sent.

        ARGUMENTS:
          METHOD          The request method (GET, POST, ...; lowercase is uppercased).
          URL             A path with its query (/users/octocat?tab=repos), or a full http:// URL whose
                          path and query are matched and whose host:port is sent as Host.

        OPTIONS:
          --stubs DIR     The stubs directory (alias: --root-dir). Default: Stubs
          -H, --header 'Name: value'
                          A request header; repeat for more. Only the headers given are sent (plus Host
                          for a full URL and Content-Length for a body).
          -d, --data BODY The request body; @FILE reads it from FILE.
          --state SCENARIO=STATE
                          Match as if the scenario were in STATE; repeat for more scenarios.
          -h, --help      Print this help and exit.

        Exit codes: 0 a stub answers, 1 no stub matches (the server would answer 404),
        2 usage error, 3 bad stubs (the errors are printed as by `stubserver check`).
        """

    /// Where the body comes from.
    public enum Body: Sendable, Equatable {
        /// `-d TEXT`.
        case text(String)
        /// `-d @FILE`.
        case file(String)
    }

    /// A request header given with `-H`: a field as the server's headers hold it.
    public typealias Header = HTTPHeaders.Field

    public var stubs: String = "Stubs"
    public var method: String
    /// The request target (path and query), as sent.
    public var target: String
    /// `-H` headers in order, then `Host` for a full URL.
    public var headers: [Header]
    public var body: Body?
    /// `--state SCENARIO=STATE`: scenarios not in `Started`.
    public var scenarioStates: [String: String]

    public init(
        stubs: String = "Stubs", method: String, target: String,
        headers: [Header] = [], body: Body? = nil, scenarioStates: [String: String] = [:]
    ) {
        self.stubs = stubs
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.scenarioStates = scenarioStates
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> MatchCommand {
        var stubs = "Stubs"
        var headers: [Header] = []
        var body: Body?
        var states: [String: String] = [:]
        var words: [String] = []
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case .option("--stubs"), .option("--root-dir"):
                stubs = try reader.stubsDirectory()
            case .option("-H"), .option("--header"):
                headers.append(try header(reader.value(for: "-H")))
            case .option("-d"), .option("--data"):
                if body != nil { throw CLIError("-d is given twice; give the whole body once") }
                let text = try reader.value(for: "-d")
                body = text.hasPrefix("@") ? .file(String(text.dropFirst())) : .text(text)
            case .option("--state"):
                let (scenario, state) = try Self.scenarioState(reader.value(for: "--state"))
                states[scenario] = state
            case .positional(let word):
                words.append(word)
            default:
                throw reader.unexpected(argument, options: ["--stubs", "--root-dir", "--header", "--data", "--state"])
            }
        }
        guard words.count == 2 else {
            if words.count > 2 {
                throw CLIError("unexpected argument '\(words[2])'; quote a header as -H 'Name: value'")
            }
            throw CLIError(
                words.isEmpty
                    ? "missing METHOD and URL, e.g. match GET /hello"
                    : "missing URL after \(words[0]), e.g. match \(words[0]) /hello")
        }
        let method = try Self.method(words[0])
        let (target, host) = try Self.target(words[1])
        if let host, !headers.contains(where: { $0.name.lowercased() == "host" }) {
            headers.append(Header(name: "Host", value: host))
        }
        return MatchCommand(
            stubs: stubs, method: method, target: target, headers: headers, body: body,
            scenarioStates: states)
    }

    /// `Login=LoggedIn` → the scenario and its state (the scenario name is everything before the last `=`).
    static func scenarioState(_ text: String) throws(CLIError) -> (scenario: String, state: String) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
            text.index(after: equals) != text.endIndex
        else {
            throw CLIError("--state expects SCENARIO=STATE, e.g. --state Login=LoggedIn, got '\(text)'")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `Name: value` → a header field.
    static func header(_ text: String) throws(CLIError) -> Header {
        guard let colon = text.firstIndex(of: ":") else {
            throw CLIError("-H expects 'Name: value', got '\(text)'")
        }
        let name = trimmed(text[..<colon])
        guard !name.isEmpty, !name.contains(" ") else { throw CLIError("-H expects 'Name: value', got '\(text)'") }
        return Header(name: name, value: trimmed(text[text.index(after: colon)...]))
    }

    /// Without leading and trailing white space.
    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }

    /// An HTTP method token, lowercase uppercased.
    static func method(_ text: String) throws(CLIError) -> String {
        let token = text == text.lowercased() ? text.uppercased() : text
        guard !token.isEmpty, token.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw CLIError("METHOD must be a method name such as GET or POST, got '\(text)'")
        }
        return token
    }

    /// The request target and, for a full URL, its `host[:port]`.
    static func target(_ text: String) throws(CLIError) -> (target: String, host: String?) {
        if text.hasPrefix("/") || text == "*" { return (text, nil) }
        guard let scheme = text.firstRange(of: "://"),
            ["http", "https"].contains(text[..<scheme.lowerBound].lowercased())
        else {
            throw CLIError("URL must be a path starting with / or an http:// URL, got '\(text)'")
        }
        let rest = text[scheme.upperBound...]
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = String(rest[..<slash])
        guard !authority.isEmpty else { throw CLIError("URL has no host: '\(text)'") }
        let path = rest[slash...]
        return (path.hasPrefix("/") ? String(path) : "/" + path, authority)
    }
}
