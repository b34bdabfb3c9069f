// libFuzzer target for StubYAML's parser. Built by `fuzz/run.sh SECONDS yaml` together with Sources/StubModel/JSON
// and Sources/StubYAML.
//
// An input is YAML text. Reading it must end in a JSON value or an error with a message and a line and column
// inside the text, never a trap, a hang or a huge allocation; a value written as JSON must read again (JSON is YAML)
// to itself; and every prefix of a short input must read without trapping, as a truncated file does.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("invariant failed: \(message())\n", stderr)
        abort()
    }
}

private let limits: YAMLLimits = {
    var limits = YAMLLimits()
    limits.maxAliasExpansion = 100_000
    return limits
}()

private func read(_ text: String) -> JSONValue? {
    do throws(YAMLError) {
        return try YAML.parse(text, limits: limits)
    } catch {
        let lines = text.utf8.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
        check(!error.message.isEmpty, "an error without a message")
        check(error.line >= 1 && error.line <= lines, "an error on line \(error.line) of \(lines): \(error)")
        check(error.column >= 1 && error.column <= text.unicodeScalars.count + 1, "an error at \(error)")
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    if let value = read(text) {
        let json = value.serialized()
        do {
            let again = try YAML.parse(json, limits: .default)
            check(again == value, "its JSON \(json) reads as \(again)")
        } catch {
            check(false, "its JSON \(json) does not read: \(error)")
        }
    }
    if size <= 64 {
        for end in 0..<size { _ = read(String(decoding: bytes[..<end], as: UTF8.self)) }
    }
    return 0
}
