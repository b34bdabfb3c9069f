import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Journal entries as WireMock's admin API shows them.
extension LoggedRequest {
    /// The entry's id as a UUID string, as WireMock's clients expect: the sequence number in the last
    /// twelve hex digits (`00000000-0000-4000-8000-00000000002a` for request 42).
    var adminID: String {
        let digits = String(id, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    /// The sequence number of an ``adminID``, or `nil` if `text` is not one.
    package static func sequenceNumber(fromAdminID text: String) -> Int? {
        let prefix = "00000000-0000-4000-8000-"
        guard text.count == prefix.count + 12, text.lowercased().hasPrefix(prefix) else { return nil }
        return Int(text.dropFirst(prefix.count), radix: 16)
    }

    /// The request as WireMock's `LoggedRequest` JSON (what `/__admin/requests/find` lists).
    var requestJSON: JSONValue {
        // As matching reads them (and WireMock logs them): on a virtual host's port, that host and the port the
        // connection was accepted on, whatever `Host` says; else the target's authority, the Host field, or the
        // address the connection was accepted on.
        let (host, port): (String?, Int?) =
            virtualHost.map { ($0, request.endpoints?.localPort ?? 80) } ?? RequestContext.authority(of: request)
        let millis = Int64((receivedAt.timeIntervalSince1970 * 1000).rounded(.down))
        let virtualAuthority = virtualHost.map { "\($0):\(request.endpoints?.localPort ?? 80)" }
        let authority = virtualAuthority ?? request.headers.first(name: "Host") ?? "localhost"
        let scheme = request.endpoints?.isSecure == true ? "https" : "http"
        let absoluteURL = request.target.hasPrefix("/") ? "\(scheme)://\(authority)\(request.target)" : request.target
        var members: [(key: String, value: JSONValue)] = [
            // As WireMock logs it: the path and query, also of a request in absolute form (sent to a proxy).
            ("url", .string(request.target.hasPrefix("/") ? request.target : String(request.pathAndQuery))),
            ("absoluteUrl", .string(absoluteURL)),
            ("method", .string(request.method.rawValue))
        ]
        // As WireMock logs it: the first X-Forwarded-For field's whole value, else the client's address.
        if let clientIp = RequestContext.clientIp(of: request) { members.append(("clientIp", .string(clientIp))) }
        members += [
            ("headers", Self.grouped(request.headers.map { ($0.name, $0.value) })),
            ("cookies", cookiesJSON),
            ("browserProxyRequest", .bool(RequestContext.isProxied(request))),
            ("loggedDate", JSONValue(millis)),
            ("bodyAsBase64", .string(Base64.encode(request.body))),
            ("body", .string(String(decoding: request.body, as: UTF8.self))),
            ("protocol", .string(request.version == .http1_0 ? "HTTP/1.0" : "HTTP/1.1")),
            ("scheme", .string(RequestContext.scheme(of: request))),
            ("host", .string(host ?? "localhost")),
            ("port", JSONValue(port ?? 80)),
            ("loggedDateString", .string(receivedAt.formatted(.iso8601))),
            ("queryParams", queryJSON)
        ]
        if let virtualHost {
            // Not in WireMock: the virtual host whose port the request came in on (`--host-alias`).
            members.append(("virtualHost", .string(virtualHost)))
        }
        if bodyTruncated {
            // Not in WireMock: the journal kept only the first bytes of the body.
            members.append(("bodyTruncated", true))
            members.append(("originalBodyLength", JSONValue(originalBodyLength)))
        }
        return .object(members)
    }

    /// The serve event (`GET /__admin/requests`): the request, what answered it and how.
    /// - Parameters:
    ///   - mapping: the stub that answered, if it still exists.
    ///   - detail: whether to add what WireMock's Java client cannot read (``AdminCall/detailQuery``): a
    ///     truncated response body's `bodyTruncated` and `originalBodyLength`.
    func serveEventJSON(mapping: StubMapping?, detail: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(adminID)), ("request", requestJSON)]
        if let mapping {
            members.append(("responseDefinition", mapping.response.json))
        } else if wasMatched {
            members.append(("responseDefinition", ["status": JSONValue(responseStatus)]))
        } else {
            members.append(("responseDefinition", ["status": JSONValue(responseStatus), "fromConfiguredStub": false]))
        }
        members.append(("response", responseJSON(detail: detail)))
        members.append(("wasMatched", .bool(wasMatched)))
        members.append(("timing", timingJSON))
        if let matchedStub {
            members.append(("stubMapping", mapping?.json ?? Self.removedStubJSON(matchedStub)))
        } else {
            members.append(("stubMapping", Self.notConfiguredStubJSON))
        }
        return .object(members)
    }

    /// WireMock's `response`: status, headers and body (as text and base64).
    private func responseJSON(detail: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", JSONValue(responseStatus))]
        if let response {
            if !response.headers.isEmpty {
                members.append(("headers", Self.grouped(response.headers.map { ($0.name, $0.value) })))
            }
            members.append(("bodyAsBase64", .string(Base64.encode(response.body))))
            members.append(("body", .string(String(decoding: response.body, as: UTF8.self))))
            if detail, responseBodyTruncated {
                // Not in WireMock, whose Java client rejects it: the journal kept only the first bytes of the body.
                members.append(("bodyTruncated", true))
                members.append(("originalBodyLength", JSONValue(originalResponseBodyLength)))
            }
        }
        if let fault { members.append(("fault", .string(fault.rawValue))) }  // as WireMock logs a fault
        return .object(members)
    }

    /// WireMock's `timing`, in whole milliseconds: `serveTime` is matching and preparing the answer,
    /// `totalTime` adds the stub's delay. This server does not time the write itself (`responseSendTime` 0).
    private var timingJSON: JSONValue {
        func millis(_ duration: Duration) -> JSONValue {
            JSONValue(Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
        }
        return .object([
            ("addedDelay", millis(timing.addedDelay)), ("processTime", millis(timing.processTime)),
            ("responseSendTime", 0), ("serveTime", millis(timing.processTime)), ("totalTime", millis(timing.totalTime))
        ])
    }

    /// The id of ``notConfiguredStubJSON``.
    static let notConfiguredStubID = "00000000-0000-0000-0000-000000000000"

    /// The stub of an unmatched serve event: WireMock's `StubMapping.NOT_CONFIGURED`, which its clients read as
    /// any other stub (`getStubMapping()` is never null). WireMock's id is random per process; this one is fixed.
    static let notConfiguredStubJSON: JSONValue = .object([
        ("id", .string(notConfiguredStubID)), ("request", ["method": "ANY"]),
        ("response", .object([("status", 404), ("fromConfiguredStub", false)])), ("uuid", .string(notConfiguredStubID))
    ])

    /// A stub that answered but has been removed since: what is still known of it.
    private static func removedStubJSON(_ stub: MatchedStub) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(stub.id))]
        if let name = stub.name { members.append(("name", .string(name))) }
        members.append(("uuid", .string(stub.id)))
        return .object(members)
    }

    /// `{"a": ["1", "3"], "b": "2"}`: one value as a string, several as an array, by name.
    private var cookiesJSON: JSONValue {
        let cookies = RequestContext.parseCookies(request.headers["Cookie"])
        return Self.grouped(cookies.keys.sorted().flatMap { name in cookies[name, default: []].map { (name, $0) } })
    }

    /// `{"q": {"key": "q", "values": ["1"]}}`, in order of first appearance.
    private var queryJSON: JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for item in request.queryItems {
            if values[item.name] == nil { order.append(item.name) }
            values[item.name, default: []].append(item.value)
        }
        return .object(
            order.map { name in
                (name, ["key": .string(name), "values": .array(values[name, default: []].map(JSONValue.string))])
            })
    }

    /// Fields grouped by case-insensitive name at the first one's position (and spelling); one value
    /// as a string, several as an array, as WireMock writes headers and cookies.
    private static func grouped(_ fields: [(String, String)]) -> JSONValue {
        var groups: [(name: String, values: [String])] = []
        var positions: [String: Int] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            if let position = positions[key] {
                groups[position].values.append(value)
            } else {
                positions[key] = groups.count
                groups.append((name, [value]))
            }
        }
        return .object(
            groups.map { group in
                (
                    group.name,
                    group.values.count == 1 ? .string(group.values[0]) : .array(group.values.map(JSONValue.string))
                )
            })
    }
}
