import StubHTTP
import StubModel

/// The request half of a recorded stub: method, URL (with secret query parameters taken out),
/// captured headers and the request body.
extension StubWriter {
    /// What a recorded request is matched on, plus what was left out of it.
    struct RequestPlan: Hashable {
        var pattern: RequestPattern
        /// The path as sent (`/users/octocat`), for the file name.
        var path: String
        /// What tells two requests apart for merging duplicates.
        var key: String
        /// Path and query as matched, for the summary: secret query parameters left out.
        var displayURL: String
        var dropped: [RecordingSummary.Dropped]
    }

    /// Path and query from a target that may be absolute (`https://h/a?b`), without a `#fragment`.
    static func pathAndQuery(_ url: String) -> (path: String, query: String?) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let scheme = rest.firstRange(of: "://"), !rest[..<scheme.lowerBound].contains("/") {
            let afterAuthority = rest[scheme.upperBound...]
            rest = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterAuthority[$0...] } ?? ""
        }
        var path = rest, query: Substring?
        if let question = rest.firstIndex(of: "?") {
            path = rest[..<question]
            query = rest[rest.index(after: question)...]
        }
        let fullPath = path.hasPrefix("/") ? String(path) : "/" + path
        return (fullPath, query.flatMap { $0.isEmpty ? nil : String($0) })
    }

    func requestPlan(for request: RecordedExchange.Request) -> RequestPlan {
        var dropped: [RecordingSummary.Dropped] = []
        let (path, query) = Self.pathAndQuery(request.url)
        var pattern = RequestPattern(method: .exactly(request.method))
        var key = request.method + " "
        var displayURL = path
        if let host = request.host {
            pattern.host = .equalTo(host, caseInsensitive: false)
            key += "//\(host)"
        }
        let items = (query ?? "").split(separator: "&").map { pair -> (raw: Substring, name: String, value: String) in
            let eq = pair.firstIndex(of: "=")
            let name = PercentDecoding.decode(pair[..<(eq ?? pair.endIndex)], plusAsSpace: true)
            let value = eq.map { PercentDecoding.decode(pair[pair.index(after: $0)...], plusAsSpace: true) } ?? ""
            return (pair, name, value)
        }
        let secret = items.filter { options.secrets.isSecretQueryParameter($0.name) }
        if secret.isEmpty {
            let url = query.map { path + "?" + $0 } ?? path
            pattern.url = .url(url)
            key += url
            displayURL = url
        } else {
            // Match the path and the other parameters, so requests carrying any token still match.
            pattern.url = .urlPath(path)
            let kept = items.filter { !options.secrets.isSecretQueryParameter($0.name) }
            let grouped = kept.valuesByName(\.name, \.value)
            pattern.queryParameters = grouped.map { group in
                let matchers = group.values.map { StringMatcher.equalTo($0, caseInsensitive: false) }
                return NamedMatcher(group.name, matchers.count == 1 ? .single(matchers[0]) : .hasExactly(matchers))
            }
            key += path + "?" + grouped.map { "\($0.name)=\($0.values)" }.joined(separator: "&")
            if !kept.isEmpty { displayURL += "?" + kept.map { String($0.raw) }.joined(separator: "&") }
            var seen: Set<String> = []
            for item in secret where seen.insert(item.name).inserted {
                dropped.append(.init(kind: .queryParameter, name: item.name))
            }
        }
        for name in options.captureHeaders {
            let values = request.headers[name]
            guard !values.isEmpty else { continue }
            if options.secrets.isSecretHeader(name) {
                dropped.append(.init(kind: .requestHeader, name: name))
                continue
            }
            let ignoringCase = options.ignoresCase(ofHeader: name)
            let matchers = values.map { StringMatcher.equalTo($0, caseInsensitive: ignoringCase) }
            pattern.headers.append(
                NamedMatcher(name, matchers.count == 1 ? .single(matchers[0]) : .hasExactly(matchers)))
            // Values differing only in case match the same stub, so they are one request.
            key += "\n\(name.lowercased()): \(ignoringCase ? values.map { $0.lowercased() } : values)"
        }
        if options.listsUnrecordedSecretHeaders {
            for field in request.headers
            where options.secrets.isSecretHeader(field.name)
                && !options.captureHeaders.contains(where: { StubHTTPHeaders.equalsIgnoringCase($0, field.name) })
                && !dropped.contains(where: {
                    $0.kind == .requestHeader && StubHTTPHeaders.equalsIgnoringCase($0.name, field.name)
                })
            {
                dropped.append(.init(kind: .requestHeader, name: field.name))
            }
        }
        switch requestBodyMatcher(request) {
        case .none: break
        case .matcher(let matcher, let bodyKey):
            pattern.bodyPatterns = [matcher]
            key += "\n\n" + bodyKey
        case .secret(let name):
            dropped.append(.init(kind: .requestBody, name: name))
        }
        // The host leads the file name and the summary's URL, so two hosts' `GET /` are told apart.
        let hostPrefix = request.host.map { "//\($0)" } ?? ""
        return RequestPlan(
            pattern: pattern, path: request.host.map { "/\($0)\(path)" } ?? path, key: key,
            displayURL: hostPrefix + displayURL, dropped: dropped)
    }
}
