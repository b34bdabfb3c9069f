/// Chainable refinements of a ``ResponseDefinition``. Each returns a modified copy.
///
/// ```swift
/// .status(404).withHeader("X-RateLimit-Remaining", "0").withDelay(milliseconds: 200)
/// .status(201).json(["id": 1])
/// ```
///
/// Naming a header again replaces every field of that name (any case), like a key of the JSON
/// `headers` object; pass an array for a header sent several times (`Set-Cookie`).
extension ResponseDefinition {
    // MARK: Status

    /// Sets the status code (`status`).
    public func withStatus(_ code: Int) -> ResponseDefinition {
        var copy = self
        copy.status = code
        return copy
    }

    /// Sets the reason phrase sent after the status code (`statusMessage`).
    public func withStatusMessage(_ message: String) -> ResponseDefinition {
        var copy = self
        copy.statusMessage = message
        return copy
    }

    // MARK: Headers

    /// Sets header `name` to `value`, replacing any fields of that name (any case).
    public func withHeader(_ name: String, _ value: String) -> ResponseDefinition {
        withHeader(name, [value])
    }

    /// Sets header `name` to several fields, one per value, replacing any fields of that name
    /// (`"headers": {"Set-Cookie": ["a=1", "b=2"]}`).
    public func withHeader(_ name: String, _ values: [String]) -> ResponseDefinition {
        var copy = self
        copy.headers.remove(name: name)
        for value in values {
            copy.headers.add(name: name, value: value)
        }
        return copy
    }

    /// Sets every header in `headers`, replacing fields of the same names; duplicates within
    /// `headers` are all kept.
    public func withHeaders(_ headers: HTTPHeaders) -> ResponseDefinition {
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

    /// Delays the response by `milliseconds` (`fixedDelayMilliseconds`).
    public func withDelay(milliseconds: Int) -> ResponseDefinition {
        var copy = self
        copy.fixedDelayMilliseconds = milliseconds
        return copy
    }

    // MARK: Private

    private func withBody(_ body: Body, contentType: String?) -> ResponseDefinition {
        var copy = contentType.map { withHeader("Content-Type", $0) } ?? self
        copy.body = body
        return copy
    }
}
