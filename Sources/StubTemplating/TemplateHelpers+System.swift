#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WireMock 2.35.1's `systemValue key='WIREMOCK_NAME' [type='ENVIRONMENT']`: an environment variable, if
/// its name is permitted. The rule is WireMock's default (`--permitted-system-keys` not given): names
/// matching `wiremock.*`, case-insensitively; the lookup itself is case-sensitive. Any other name writes
/// `[ERROR: Access to NAME is denied]`. `type='PROPERTY'` reads Java system properties, which a Swift
/// process does not have: a permitted key renders empty, as an unset property does in WireMock.
extension TemplateEvaluator {
    @inline(never)
    mutating func systemValue(_ call: TemplateCall) -> TemplateValue {
        let key = call.option("key").map { evaluate($0).text } ?? ""
        let type = call.option("type").map { evaluate($0).text } ?? "ENVIRONMENT"
        guard !key.isEmpty else { return .string("[ERROR: The key cannot be empty]") }
        guard Self.isPermittedSystemKey(key) else { return .string("[ERROR: Access to \(key) is denied]") }
        guard type == "ENVIRONMENT" else { return .string("") }
        return .string(ProcessInfo.processInfo.environment[key] ?? "")
    }

    /// Whether `key` matches WireMock's default permitted pattern, `wiremock.*` compiled with Java's
    /// `CASE_INSENSITIVE` (ASCII letters) and without `DOTALL` (`.` stops at a line terminator).
    static func isPermittedSystemKey(_ key: String) -> Bool {
        let prefix = "wiremock"
        guard key.utf8.count >= prefix.utf8.count,
            zip(key.utf8, prefix.utf8).allSatisfy({ ($0 | 0x20) == $1 })
        else { return false }
        let lineTerminators: Set<Unicode.Scalar> = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        return !key.unicodeScalars.dropFirst(prefix.count).contains { lineTerminators.contains($0) }
    }
}

/// WireMock 2.35.1's environment helper.
enum SystemHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case systemValue

    /// How many arguments the helper takes inline.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .systemValue: 0...Int.max
        }
    }
}
