/// Server-wide settings, as WireMock's `GET|POST /__admin/settings` holds them.
///
/// ```swift
/// server.settings = StubServerSettings(fixedDelayMilliseconds: 250)   // every response 250 ms later
/// ```
public struct StubServerSettings: Sendable, Hashable {
    /// Added to every stubbed response, on top of the stub's own `fixedDelayMilliseconds`
    /// (WireMock's `fixedDelay`). Default `nil`: none.
    public var fixedDelayMilliseconds: Int?
    /// WireMock's `delayDistribution` object, kept as given (random delays are not applied by this
    /// server unless a delay-distribution feature is present). Default `nil`.
    public var delayDistribution: JSONValue?
    /// WireMock's free-form `extended` object, kept for clients and extensions. Default `nil`.
    public var extended: JSONValue?
    /// WireMock's `proxyPassThrough`, kept for clients (this server does not proxy). Default `nil`.
    public var proxyPassThrough: Bool?

    public init(
        fixedDelayMilliseconds: Int? = nil, delayDistribution: JSONValue? = nil,
        extended: JSONValue? = nil, proxyPassThrough: Bool? = nil
    ) {
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
        self.delayDistribution = delayDistribution
        self.extended = extended
        self.proxyPassThrough = proxyPassThrough
    }

    /// The global delay as a duration, if any.
    var fixedDelay: Duration? {
        guard let fixedDelayMilliseconds, fixedDelayMilliseconds > 0 else { return nil }
        return .milliseconds(fixedDelayMilliseconds)
    }
}

extension StubServerSettings {
    /// The most a global delay may be: one hour, so a typo cannot park every response for days.
    static let maximumDelayMilliseconds = 3_600_000

    /// The settings as WireMock writes them (`{"fixedDelay": 250, "extended": {...}}`).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let fixedDelayMilliseconds { members.append(("fixedDelay", JSONValue(fixedDelayMilliseconds))) }
        if let delayDistribution { members.append(("delayDistribution", delayDistribution)) }
        if let proxyPassThrough { members.append(("proxyPassThrough", .bool(proxyPassThrough))) }
        if let extended { members.append(("extended", extended)) }
        return .object(members)
    }

    /// Reads WireMock settings JSON; `null` fields count as absent.
    /// - Throws: ``SettingsError`` naming the field at fault.
    public init(json: JSONValue) throws(SettingsError) {
        guard case .object(let members) = json else {
            throw SettingsError(field: "", message: "expected a settings object, found \(json.foundDescription)")
        }
        self.init()
        let known = ["fixedDelay", "delayDistribution", "extended", "proxyPassThrough"]
        for (key, value) in members {
            if case .null = value { continue }
            switch key {
            case "fixedDelay":
                guard let number = value.intValue, (0...Self.maximumDelayMilliseconds).contains(number) else {
                    throw SettingsError(
                        field: key,
                        message:
                            "expected milliseconds from 0 to \(Self.maximumDelayMilliseconds), found \(value.foundDescription)"
                    )
                }
                fixedDelayMilliseconds = number
            case "delayDistribution", "extended":
                guard case .object = value else {
                    throw SettingsError(field: key, message: "expected an object, found \(value.foundDescription)")
                }
                if key == "extended" { extended = value } else { delayDistribution = value }
            case "proxyPassThrough":
                guard case .bool(let flag) = value else {
                    throw SettingsError(field: key, message: "expected true or false, found \(value.foundDescription)")
                }
                proxyPassThrough = flag
            default:
                let hint = FieldSuggestion.closest(to: key, among: known).map { "; did you mean '\($0)'?" } ?? ""
                throw SettingsError(field: key, message: "unknown field\(hint)")
            }
        }
    }
}

/// Settings JSON that is not valid: which field and why.
public struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field at fault (`fixedDelay`), empty for the whole object.
    public let field: String
    public let message: String

    /// `fixedDelay: expected milliseconds from 0 to 3600000, found "x"`
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
