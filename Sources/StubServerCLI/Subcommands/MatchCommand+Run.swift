import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension MatchCommand {
    public func run() -> ExitCode {
        let directory = URL(fileURLWithPath: stubs)
        let configuration = StubServer.Configuration()
        // Loaded as the server loads it (a stub whose body file is missing loads and answers 500); any other
        // error stops both, and is reported as by `stubserver check`.
        let root = StubsLayout.resolvedRoot(directory).root
        guard
            let loaded = try? StubsDirectory.load(
                root, displayRoot: StubsDirectory.displayPath(of: root), options: configuration.loadOptions)
        else {
            StandardStreams.error(CheckCommand.report(StubsCheck(stubs: directory)))
            return .badStubs
        }
        let request: StubHTTPRequest
        do {
            request = try self.request()
        } catch {
            StandardStreams.error("Error: \(error)\n")
            return .usage
        }
        let explanation = MatchExplanation(
            request: request, loaded: loaded, configuration: configuration, scenarioStates: scenarioStates)
        StandardStreams.output(Self.report(explanation))
        return explanation.winner == nil ? .failure : .success
    }

    /// The request as the server would receive it; reads the `-d @FILE` body.
    func request() throws(CLIError) -> StubHTTPRequest {
        var fields = headers
        var bytes: [UInt8] = []
        switch body {
        case nil: break
        case .text(let text): bytes = Array(text.utf8)
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("-d @\(path): cannot read the file")
            }
            bytes = [UInt8](data)
        }
        if body != nil, !fields.contains(where: { $0.name.lowercased() == "content-length" }) {
            fields.append(Header(name: "Content-Length", value: String(bytes.count)))
        }
        return StubHTTPRequest(
            method: StubHTTPMethod(method), target: target,
            headers: StubHTTPHeaders(fields.map { ($0.name, $0.value) }), body: bytes)
    }

    /// What `stubserver match` prints: the winner and the runners-up, or the near-miss report.
    static func report(_ explanation: MatchExplanation) -> String {
        let request = "\(explanation.request.method) \(explanation.request.target)"
        guard let winner = explanation.winner else {
            return explanation.nearMissReport + waitingList(explanation)
        }
        var out = "\(request) → \(title(winner.mapping)), priority \(winner.mapping.priority)\n"
        out += "  responds \(responseSummary(winner.mapping))\n"
        if !winner.pathParameters.isEmpty {
            let parameters = winner.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            out += "  path parameters: \(parameters.joined(separator: ", "))\n"
        }
        if !explanation.outranked.isEmpty {
            out += "\nAlso matching, but outranked:\n"
            for other in explanation.outranked {
                let why =
                    other.mapping.priority > winner.mapping.priority
                    ? "priority \(other.mapping.priority) loses to \(winner.mapping.priority)"
                    : "same priority \(other.mapping.priority), loaded earlier"
                out += "  \(title(other.mapping)): \(why)\n"
            }
        }
        out += waitingList(explanation)
        return out
    }

    /// The stubs that match but wait for another scenario state, if any.
    static func waitingList(_ explanation: MatchExplanation) -> String {
        guard !explanation.waiting.isEmpty else { return "" }
        var out = "\nAlso matching, in another scenario state or after uses:\n"
        for other in explanation.waiting {
            out += "  \(title(other.mapping)): \(waitReason(other.mapping, states: explanation.scenarioStates))\n"
        }
        return out
    }

    /// The stub as the near-miss report names it.
    static func title(_ mapping: StubMapping) -> String { mapping.reportTitle }

    /// `200 with body file users/octocat.json after 250 ms`, `a connection reset`.
    static func responseSummary(_ mapping: StubMapping) -> String {
        let response = mapping.response
        if let fault = response.fault { return "with the fault \(fault.rawValue)" }
        var text = "\(response.status)"
        switch response.body {
        case .none: break
        case .text(let body): text += ", \(body.utf8.count)-byte body"
        case .json: text += ", JSON body"
        case .bytes(let bytes): text += ", \(bytes.count)-byte body"
        case .file(let name, _): text += ", body file \(name)"
        }
        if !response.transformers.isEmpty { text += " (templated)" }
        if let delay = response.fixedDelayMilliseconds { text += " after \(delay) ms" }
        return text
    }

    /// Why a matching stub does not answer a fresh server with these scenario states.
    static func waitReason(_ mapping: StubMapping, states: [String: String]) -> String {
        if let scenario = mapping.scenarioName, let state = mapping.requiredScenarioState {
            let current = states[scenario].map { "it is \"\($0)\" (--state)" } ?? "it starts in \"Started\""
            let suggestion = "--state " + ShellWord.quoted("\(scenario)=\(state)")
            return "needs scenario \"\(scenario)\" in state \"\(state)\" (\(current); try \(suggestion))"
        }
        return "not available on a fresh server"
    }
}
