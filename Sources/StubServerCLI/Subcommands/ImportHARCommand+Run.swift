import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ImportHARCommand {
    public func run() -> ExitCode {
        let capture: HARCapture
        do {
            capture = try HARCapture.load(URL(fileURLWithPath: file), displayPath: file)
        } catch {
            StandardStreams.error("error: \(error)\n")
            return .failure
        }
        let selected = capture.entries.filter(isSelected)
        var lines = [readLine(capture, selected: selected.count)]
        let others = Self.hostCounts(capture.entries.filter { !isSelected($0) })
        if !others.isEmpty {
            lines.append(
                "left out \(Self.plural(others.reduce(0) { $0 + $1.count }, "entry", "entries")) for other hosts: "
                    + others.map { "\($0.host) (\($0.count))" }.joined(separator: ", "))
        }
        let summary: RecordingSummary
        do {
            summary = try StubWriter(root: URL(fileURLWithPath: stubs), displayRoot: stubs, options: writerOptions)
                .write(selected.map(\.exchange))
        } catch {
            StandardStreams.output(lines.joined(separator: "\n") + "\n")
            StandardStreams.error("error: \(error)\n")
            return .failure
        }
        lines.append(
            summary.report(secretsHint: "(--keep-secret NAME records one of them; --keep-all-secrets records them all)")
        )
        let missing = selected.filter { $0.isMissingContent && (100...599).contains($0.exchange.response.status) }
        if !missing.isEmpty {
            lines.append(
                "warning: \(Self.plural(missing.count, "response", "responses")) had a body the capture does not hold "
                    + "(exported without content?); their stubs answer with an empty body:")
            lines += missing.map {
                "  log.entries[\($0.index)]: \($0.exchange.request.method) \($0.exchange.request.url)"
            }
        }
        let hosts = Self.hostCounts(selected)
        if self.hosts.isEmpty, hosts.count > 1 {
            lines.append(
                "note: the capture holds requests to \(hosts.count) hosts (\(hosts.map(\.host).joined(separator: ", "))), "
                    + "now stubbed in one folder; --host HOST imports one")
        }
        StandardStreams.output(lines.joined(separator: "\n") + "\n")
        return .success
    }

    /// `read 12 entries from capture.har (WebInspector 537.36)`, with the host filter when given.
    private func readLine(_ capture: HARCapture, selected: Int) -> String {
        var line = "read \(Self.plural(capture.entries.count, "entry", "entries")) from \(file)"
        if let creator = capture.creator { line += " (\(creator))" }
        if !hosts.isEmpty { line += "; \(selected) for \(hosts.joined(separator: ", "))" }
        return line
    }

    /// Whether `--host` selects the entry: no `--host`, or one naming its host (and port, if given).
    func isSelected(_ entry: HARCapture.Entry) -> Bool {
        selects(host: entry.host, port: entry.port)
    }

    /// Whether `--host` selects a request to `host` (lowercased) and `port` (`nil` when the URL names none).
    func selects(host: String, port: Int?) -> Bool {
        guard !hosts.isEmpty else { return true }
        return hosts.contains { given in
            let wanted = HARCaptureHost.split(given)
            return wanted.host == host && (wanted.port == nil || wanted.port == port)
        }
    }

    /// Hosts with their entry counts, most entries first.
    private static func hostCounts(_ entries: [HARCapture.Entry]) -> [(host: String, count: Int)] {
        var counts: [(host: String, count: Int)] = []
        for entry in entries {
            let host = entry.host.isEmpty ? "(no host)" : entry.host
            if let index = counts.firstIndex(where: { $0.host == host }) {
                counts[index].count += 1
            } else {
                counts.append((host, 1))
            }
        }
        return counts.sorted { $0.count > $1.count }
    }

    private static func plural(_ count: Int, _ one: String, _ many: String) -> String {
        "\(count) \(count == 1 ? one : many)"
    }
}

/// `--host` values: `api.github.com`, `localhost:8080`, `[::1]:8080`.
enum HARCaptureHost {
    static func split(_ given: String) -> (host: String, port: Int?) {
        let lower = given.lowercased()
        if lower.hasPrefix("["), let close = lower.firstIndex(of: "]") {
            return (String(lower[...close]), Int(lower[lower.index(after: close)...].dropFirst()))
        }
        if let colon = lower.lastIndex(of: ":"), lower.firstIndex(of: ":") == colon,
            let port = Int(lower[lower.index(after: colon)...])
        {
            return (String(lower[..<colon]), port)
        }
        return (lower, nil)
    }
}
