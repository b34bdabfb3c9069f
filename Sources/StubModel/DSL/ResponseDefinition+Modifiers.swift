import StubHTTP

/// Chainable refinements of a ``ResponseDefinition``. Each returns a modified copy, and every entry
/// point (`.json`, `.text`, `.status`, …) chains with every modifier, in any order:
///
/// ```swift
/// .json(["id": 1]).status(201).header("Location", "/repos/1").delay(.seconds(2))
/// .status(404).header("X-RateLimit-Remaining", "0")
/// .text("maintenance").status(503).statusMessage("Back Soon")
/// ```
///
/// Naming a header again replaces every field of that name (any case), like a key of the JSON
/// `headers` object; pass an array for a header sent several times (`Set-Cookie`). WireMock's names
/// (`withStatus`, `withHeader`, `withFixedDelay`, …) are aliases of these; see
/// `ResponseDefinition+WireMockNames.swift`.
extension ResponseDefinition {
    // MARK: Status

    /// Sets the status code (`status`).
    public func status(_ code: Int) -> ResponseDefinition {
        changing { $0.status = code }
    }

    /// Sets the reason phrase sent after the status code (`statusMessage`).
    public func statusMessage(_ message: String) -> ResponseDefinition {
        changing { $0.statusMessage = message }
    }

    // MARK: Headers

    /// Sets header `name` to `value`, replacing any fields of that name (any case).
    public func header(_ name: String, _ value: String) -> ResponseDefinition {
        header(name, [value])
    }

    /// Sets header `name` to several fields, one per value, replacing any fields of that name
    /// (`"headers": {"Set-Cookie": ["a=1", "b=2"]}`).
    public func header(_ name: String, _ values: [String]) -> ResponseDefinition {
        var copy = self
        copy.headers.remove(name: name)
        for value in values {
            copy.headers.add(name: name, value: value)
        }
        return copy
    }

    /// Sets every header in `headers` (a dictionary literal), replacing fields of the same names;
    /// duplicates within `headers` are all kept.
    public func headers(_ headers: StubHTTPHeaders) -> ResponseDefinition {
        var copy = self
        for field in headers {
            copy.headers.remove(name: field.name)
        }
        for field in headers {
            copy.headers.add(name: field.name, value: field.value)
        }
        return copy
    }

    // MARK: Body

    /// Sets a JSON body (`jsonBody`) and `Content-Type: application/json`, keeping the status.
    public func json(_ value: JSONValue) -> ResponseDefinition {
        withBody(.json(value), contentType: Self.jsonContentType)
    }

    /// Sets a text body (`body`) and `Content-Type: text/plain; charset=utf-8`, keeping the status.
    public func text(_ text: String) -> ResponseDefinition {
        withBody(.text(text), contentType: Self.textContentType)
    }

    /// Sets a binary body (`base64Body`), and `Content-Type` if `contentType` is given.
    public func data(_ bytes: [UInt8], contentType: String? = nil) -> ResponseDefinition {
        withBody(.bytes(bytes), contentType: contentType)
    }

    /// Sets a body to be read from `name` under `__files` (`bodyFileName`), and `Content-Type` if
    /// `contentType` is given. See ``loadingBodyFile(_:)``.
    public func file(_ name: String, contentType: String? = nil) -> ResponseDefinition {
        withBody(.file(name: name, bytes: []), contentType: contentType)
    }

    // MARK: Delay

    /// Sends the response after `duration` (`fixedDelayMilliseconds`, so rounded up to whole
    /// milliseconds; negative means none). Other requests are answered meanwhile.
    ///
    /// ```swift
    /// server.stub(.get("/slow"), .json(["ok": true]).delay(.seconds(2)))
    /// ```
    public func delay(_ duration: Duration) -> ResponseDefinition {
        changing { $0.fixedDelayMilliseconds = Self.milliseconds(roundingUp: duration) }
    }

    // MARK: Private

    func withBody(_ body: Body, contentType: String?) -> ResponseDefinition {
        var copy = contentType.map { header("Content-Type", $0) } ?? self
        copy.body = body
        return copy
    }

    /// Whole milliseconds, rounded up, clamped to `0...Int.max`.
    static func milliseconds(roundingUp duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return .max }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let (total, overflow2) = whole.addingReportingOverflow((attoseconds + perMillisecond - 1) / perMillisecond)
        return overflow2 ? .max : Int(total)
    }
}
