import StubModel

/// What ``StubWriter/write(_:)`` wrote, merged, left out and skipped. Its ``description`` is the
/// report printed when recording stops or an import finishes:
///
/// ```text
/// wrote 3 stubs to Stubs (3 mappings, 2 body files); merged 4 duplicate requests
///   mappings/get-users-octocat.json  GET /users/octocat  (+4 duplicates)
///   mappings/post-graphql.json  POST /graphql
///   mappings/get-search-users.json  GET /search/users?q=octocat
/// left out as secrets:
///   request header Authorization (5 requests)
///   query parameter access_token (1 request)
/// skipped 1 request:
///   GET /favicon.ico: status 0 (the request got no response)
/// ```
public struct RecordingSummary: Sendable, Hashable, CustomStringConvertible {
    /// One stub written.
    public struct Stub: Sendable, Hashable {
        /// The request method.
        public var method: String
        /// Path and query as matched (secret query parameters left out).
        public var url: String
        /// The mapping file, relative to the stubs directory: `mappings/get-users-octocat.json`.
        public var mappingFile: String
        /// The body file, relative to the stubs directory (`__files/get-users-octocat.json`); `nil` for no body.
        public var bodyFile: String?
        /// How many more requests this stub stands for (merged as duplicates).
        public var duplicates: Int
        /// Whether a merged duplicate got a different status or body (the first one was kept).
        public var duplicatesDiffered: Bool
        /// For a recorded sequence: the scenario the stub belongs to (`GET /users/octocat`).
        public var scenario: String? = nil
        /// For a recorded sequence: the state the stub answers in (`Started`, `2`, …).
        public var scenarioState: String? = nil
    }

    /// One kind of secret left out, and how many requests carried it.
    public struct Dropped: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable {
            case requestHeader = "request header"
            case responseHeader = "response header"
            case queryParameter = "query parameter"
            /// A request body holding a secret field: the stub does not match on the body.
            case requestBody = "request body field"
        }
        public var kind: Kind
        /// The field, header or parameter name as first seen.
        public var name: String
        /// How many requests (or responses) carried it.
        public var count: Int

        public init(kind: Kind, name: String, count: Int = 1) {
            self.kind = kind
            self.name = name
            self.count = count
        }
    }

    /// A request that got no stub.
    public struct Skipped: Sendable, Hashable {
        /// `GET /favicon.ico`
        public var request: String
        /// Why: `status 0 (the request got no response)`.
        public var reason: String

        package init(request: String, reason: String) {
            self.request = request
            self.reason = reason
        }
    }

    /// The stubs directory, as given to the writer for messages.
    public var directory: String
    public var stubs: [Stub] = []
    public var dropped: [Dropped] = []
    public var skipped: [Skipped] = []

    /// How many body files were written.
    public var bodyFileCount: Int { stubs.filter { $0.bodyFile != nil }.count }
    /// How many requests were merged into another's stub.
    public var duplicateCount: Int { stubs.reduce(0) { $0 + $1.duplicates } }

    /// Adds `count` to the entry of the same kind and name (any case), or appends one.
    mutating func noteDropped(_ item: Dropped) {
        if let index = dropped.firstIndex(where: {
            $0.kind == item.kind && $0.name.lowercased() == item.name.lowercased()
        }) {
            dropped[index].count += item.count
        } else {
            dropped.append(item)
        }
    }

    public var description: String { report() }

    /// The report, with `secretsHint` (how to record a secret anyway, e.g. a command-line option)
    /// after the list of secrets left out, when there are some.
    public func report(secretsHint: String? = nil) -> String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        let merged = duplicateCount > 0 ? "; merged \(plural(duplicateCount, "duplicate request"))" : ""
        // An empty directory: stubs made in memory (StubWriter.stubs(_:)), no file written.
        var lines = [
            directory.isEmpty
                ? "recorded \(plural(stubs.count, "stub")) in memory (no file written)" + merged
                : "wrote \(plural(stubs.count, "stub")) to \(directory) (\(plural(stubs.count, "mapping")), "
                    + "\(plural(bodyFileCount, "body file")))" + merged
        ]
        for stub in stubs {
            var line =
                stub.mappingFile.isEmpty
                ? "  \(stub.method) \(stub.url)" : "  \(stub.mappingFile)  \(stub.method) \(stub.url)"
            if let scenario = stub.scenario, let state = stub.scenarioState {
                line += "  (scenario \(JSONValue.escapedString(scenario)), state \(state))"
            }
            if stub.duplicates > 0 {
                line +=
                    "  (+\(plural(stub.duplicates, "duplicate"))\(stub.duplicatesDiffered ? "; their responses differed, kept the first" : ""))"
            }
            lines.append(line)
        }
        if !dropped.isEmpty {
            lines.append("left out as secrets:")
            for item in dropped {
                let unit = item.kind == .responseHeader ? "response" : "request"
                lines.append("  \(item.kind.rawValue) \(item.name) (\(plural(item.count, unit)))")
            }
            if let secretsHint { lines.append("  " + secretsHint) }
        }
        if !skipped.isEmpty {
            lines.append("skipped \(plural(skipped.count, "request")):")
            lines.append(contentsOf: skipped.map { "  \($0.request): \($0.reason)" })
        }
        return lines.joined(separator: "\n")
    }
}
