import StubHTTP

/// Writes unmatched requests to the log as ``UnmatchedRequestLogging`` asks, summarising repeats:
/// the full near-miss report once per request shape (method and target) per ``window``, later
/// repeats as one line that counts them.
///
/// ```text
/// No stub matched GET /feed …                                   (the full report, first time)
/// stubserver: no stub matched GET /feed → 404 (2nd time in 60 s; near-miss report above)
/// ```
///
/// Remembers at most ``shapeLimit`` shapes, each key cut to ``keyLimit`` bytes, so a client sending
/// endless distinct targets cannot grow it.
final class UnmatchedRequestLog: Sendable {
    /// How long a shape's full report covers its repeats.
    static let window: Duration = .seconds(60)
    /// The most shapes remembered.
    static let shapeLimit = 1_024
    /// The longest key kept, in UTF-8 bytes.
    static let keyLimit = 512

    private struct Seen: Sendable {
        var reportedAt: ContinuousClock.Instant
        var repeats: Int
    }

    let mode: UnmatchedRequestLogging
    /// Said after each `.line`, in parentheses.
    let note: String?
    let sink: LogSink
    private let seen = LockedValue<[String: Seen]>([:])

    init(mode: UnmatchedRequestLogging, note: String? = nil, sink: LogSink) {
        self.mode = mode
        self.note = note
        self.sink = sink
    }

    /// Logs `request`, answered with `status` and its near-miss `report`.
    func log(_ request: StubHTTPRequest, status: Int, report: String) {
        switch mode {
        case .none:
            return
        case .line:
            sink.write(Self.line(request, status: status) + (note.map { " (\($0))" } ?? ""))
        case .full:
            let repeats = noteRepeat(of: request)
            if repeats == 0 {
                sink.write(report)
            } else {
                sink.write(
                    Self.line(request, status: status) + " (\(ordinal(repeats + 1)) time in "
                        + "\(Self.window.components.seconds) s; near-miss report above)")
            }
        }
    }

    /// `stubserver: no stub matched GET /nope → 404`
    static func line(_ request: StubHTTPRequest, status: Int) -> String {
        "stubserver: no stub matched \(request.method) \(Quoting.truncate(request.target, limit: NearMissReport.valueLimit)) → \(status)"
    }

    /// 0 if the request's shape has no report in the current window (and records one now), else how
    /// many times it was seen since that report.
    private func noteRepeat(of request: StubHTTPRequest) -> Int {
        var key = request.method.rawValue + " " + request.target
        if key.utf8.count > Self.keyLimit { key = String(decoding: key.utf8.prefix(Self.keyLimit), as: UTF8.self) }
        let now = ContinuousClock.now
        return seen.withLock { seen in
            if var entry = seen[key], now - entry.reportedAt < Self.window {
                entry.repeats += 1
                seen[key] = entry
                return entry.repeats
            }
            if seen.count >= Self.shapeLimit {
                seen = seen.filter { now - $0.value.reportedAt < Self.window }
                if seen.count >= Self.shapeLimit { seen.removeAll(keepingCapacity: true) }
            }
            seen[key] = Seen(reportedAt: now, repeats: 0)
            return 0
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, `1,234th`.
private func ordinal(_ number: Int) -> String {
    let suffix =
        switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
    return groupedDigits(number) + suffix
}
