import StubHTTP

/// The modifiers as entry points, so a response can start with any of them: each applies to an empty
/// `200 OK`, as ``status(_:)`` starts from an empty response with its code.
///
/// ```swift
/// server.stub(.get("/slow"), .delay(.seconds(1)))                  // 200, empty, after a second
/// server.stub(.get("/etag"), .header("ETag", "\"v1\"").status(304))
/// server.stub(.post("/repos"), .withStatus(201).withHeader("Location", "/repos/1"))
/// ```
///
/// A static and an instance member share each name; a leading dot picks the static one, and everything
/// chained after it (`.header("X", "y").delay(.seconds(2))`) the instance one.
extension ResponseDefinition {
    /// An empty `200 OK` with reason phrase `message`; see ``statusMessage(_:)``.
    public static func statusMessage(_ message: String) -> ResponseDefinition { ok.statusMessage(message) }

    /// An empty `200 OK` with header `name: value`; see `header(_:_:)`.
    public static func header(_ name: String, _ value: String) -> ResponseDefinition { ok.header(name, value) }

    /// An empty `200 OK` with header `name` sent once per value; see `header(_:_:)`.
    public static func header(_ name: String, _ values: [String]) -> ResponseDefinition { ok.header(name, values) }

    /// An empty `200 OK` with `headers`; see ``headers(_:)``.
    public static func headers(_ headers: StubHTTPHeaders) -> ResponseDefinition { ok.headers(headers) }

    /// An empty `200 OK` sent after `duration`; see ``delay(_:)``.
    public static func delay(_ duration: Duration) -> ResponseDefinition { ok.delay(duration) }

    // MARK: WireMock's names

    /// Alias of ``status(_:)-type.method`` (WireMock's `withStatus`): an empty response with `code`.
    public static func withStatus(_ code: Int) -> ResponseDefinition { status(code) }

    /// Alias of ``statusMessage(_:)-type.method`` (WireMock's `withStatusMessage`).
    public static func withStatusMessage(_ message: String) -> ResponseDefinition { statusMessage(message) }

    /// Alias of `header(_:_:)` (WireMock's `withHeader`).
    public static func withHeader(_ name: String, _ value: String) -> ResponseDefinition { header(name, value) }

    /// Alias of `header(_:_:)` (WireMock's `withHeader(name, values...)`).
    public static func withHeader(_ name: String, _ values: [String]) -> ResponseDefinition { header(name, values) }

    /// Alias of ``headers(_:)-type.method`` (WireMock's `withHeaders`).
    public static func withHeaders(_ headers: StubHTTPHeaders) -> ResponseDefinition { self.headers(headers) }

    /// Alias of ``text(_:status:)`` (WireMock's `withBody`); also sets `Content-Type: text/plain; charset=utf-8`.
    public static func withBody(_ text: String) -> ResponseDefinition { self.text(text) }

    /// Alias of ``json(_:status:)-(JSONValue,_)`` (WireMock's `withJsonBody`).
    public static func withJsonBody(_ value: JSONValue) -> ResponseDefinition { json(value) }

    /// Alias of ``file(_:contentType:status:)`` (WireMock's `withBodyFile`).
    public static func withBodyFile(_ name: String) -> ResponseDefinition { file(name) }

    /// An empty `200 OK` delayed by `milliseconds` (WireMock's `withFixedDelay`); see ``delay(_:)-type.method``.
    public static func withFixedDelay(_ milliseconds: Int) -> ResponseDefinition { delay(.milliseconds(milliseconds)) }

    /// An empty `200 OK` delayed by `milliseconds`; see ``withDelay(milliseconds:)-method``.
    public static func withDelay(milliseconds: Int) -> ResponseDefinition { ok.withDelay(milliseconds: milliseconds) }

    /// An empty `200 OK` delayed by a uniformly random number of milliseconds in `milliseconds`; see
    /// ``withDelay(uniform:)-method``.
    public static func withDelay(uniform milliseconds: ClosedRange<Int>) -> ResponseDefinition {
        ok.withDelay(uniform: milliseconds)
    }

    /// An empty `200 OK` delayed by a log-normal random time; see ``withDelay(lognormalMedian:sigma:)-method``.
    public static func withDelay(lognormalMedian median: Double, sigma: Double) -> ResponseDefinition {
        ok.withDelay(lognormalMedian: median, sigma: sigma)
    }

    /// An empty `200 OK` delayed by a random time drawn from `distribution`; see ``withDelayDistribution(_:)-method``.
    public static func withDelayDistribution(_ distribution: DelayDistribution) -> ResponseDefinition {
        ok.withDelayDistribution(distribution)
    }

    /// An empty `200 OK` sent in `chunks` pieces over `totalMilliseconds`; see
    /// ``withChunkedDribble(chunks:totalMilliseconds:)-method``.
    public static func withChunkedDribble(chunks: Int, totalMilliseconds: Int) -> ResponseDefinition {
        ok.withChunkedDribble(chunks: chunks, totalMilliseconds: totalMilliseconds)
    }

    /// An empty `200 OK` sent at `bytesPerSecond`; see ``withBandwidth(bytesPerSecond:)-method``.
    public static func withBandwidth(bytesPerSecond: Int) -> ResponseDefinition {
        ok.withBandwidth(bytesPerSecond: bytesPerSecond)
    }

    /// Alias of ``fault(_:)`` (WireMock's `withFault`): no response, the connection fails as `fault` says.
    public static func withFault(_ fault: ResponseFault) -> ResponseDefinition { self.fault(fault) }
}
