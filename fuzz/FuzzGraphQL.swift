// libFuzzer target for the GraphQL reader of GraphQL matchers. Built by `fuzz/run.sh SECONDS graphql` together with
// Sources/StubModel/JSON and the lexer, parser, document and normaliser of Sources/StubMatching.
//
// An input is a GraphQL document. Reading it must end in a normal form or a bounded error with a message, never a
// trap; a normal form must read again to itself (it is a document GraphQL treats alike, so normalising is
// idempotent); and every prefix of a short input must read without trapping, as a truncated body does.

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

private func normalForm(_ text: String) -> String? {
    do {
        return try GraphQLNormalizer.normalize(text)
    } catch {
        check(!error.description.isEmpty, "an error without a message")
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    if let normal = normalForm(text) {
        let again = normalForm(normal)
        check(again == normal, "the normal form reads to \(again ?? "an error"), not itself: \(normal)")
    }
    if size <= 64 {
        for end in 0..<size { _ = normalForm(String(decoding: bytes[..<end], as: UTF8.self)) }
    }
    return 0
}
