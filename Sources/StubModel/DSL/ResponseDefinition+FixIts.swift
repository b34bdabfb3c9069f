/// Names people reach for that are spelled differently here: each is unavailable with a fix-it, so
/// the compiler suggests the right one instead of "no member".
extension ResponseDefinition {
    @available(*, unavailable, renamed: "status(_:)")
    public static func statusCode(_ code: Int) -> ResponseDefinition { ResponseDefinition(status: code) }

    @available(*, unavailable, renamed: "status(_:)")
    public func statusCode(_ code: Int) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "status(_:)")
    public func withStatusCode(_ code: Int) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "json(_:status:)")
    public static func jsonBody(_ value: JSONValue, status: Int = 200) -> ResponseDefinition { ResponseDefinition() }

    @available(*, unavailable, renamed: "json(_:)")
    public func jsonBody(_ value: JSONValue) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "json(_:)")
    public func withJSON(_ value: JSONValue) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "text(_:status:)")
    public static func body(_ text: String, status: Int = 200) -> ResponseDefinition { ResponseDefinition() }

    @available(*, unavailable, renamed: "text(_:)")
    public func body(_ text: String) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "text(_:status:)")
    public static func string(_ text: String, status: Int = 200) -> ResponseDefinition { ResponseDefinition() }

    @available(*, unavailable, renamed: "file(_:contentType:status:)")
    public static func bodyFile(_ name: String) -> ResponseDefinition { ResponseDefinition() }

    @available(*, unavailable, renamed: "header(_:_:)")
    public func addingHeader(_ name: String, _ value: String) -> ResponseDefinition { self }

    @available(*, unavailable, message: "use .delay(.milliseconds(n))")
    public func delay(milliseconds: Int) -> ResponseDefinition { self }

    @available(*, unavailable, message: "use .delay(.seconds(n))")
    public func delay(seconds: Double) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "delay(_:)")
    public func withDelay(_ duration: Duration) -> ResponseDefinition { self }

    @available(*, unavailable, renamed: "delay(_:)")
    public func withFixedDelay(_ duration: Duration) -> ResponseDefinition { self }
}
