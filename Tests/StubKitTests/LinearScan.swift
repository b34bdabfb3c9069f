import StubHTTP
import StubKit

/// The reference the route table is checked against: every stub in turn, the lowest priority winning,
/// then the most recently added.
enum LinearScan {
    static func winner(
        _ mappings: [StubMapping], _ compiled: [CompiledRequestPattern],
        _ request: HTTPRequest
    ) -> (index: Int, parameters: [String: String])? {
        var best: (index: Int, parameters: [String: String])?
        for (i, mapping) in mappings.enumerated() {
            let result = compiled[i].match(request)
            guard result.isMatch else { continue }
            if let b = best, mappings[b.index].priority < mapping.priority { continue }
            best = (i, result.pathParameters)
        }
        return best
    }
}

/// What a randomized cross-check against a linear scan found.
struct CrossCheckOutcome: Sendable {
    /// One line per request the table answered differently from the scan.
    var mismatches: [String] = []
    /// Requests some stub matched.
    var matched = 0
}
