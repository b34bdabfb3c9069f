#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names a server certificate covers: `localhost`, `127.0.0.1` and `::1`, then the caller's, each once (DNS
/// names compared without case, addresses by their bytes), as subjectAltName entries.
enum ServerNames {
    /// One subjectAltName entry.
    enum Entry: Hashable {
        /// A DNS name, lowercased (`*.example.test` included).
        case dns(String)
        /// An IPv4 (4 bytes) or IPv6 (16 bytes) address.
        case address([UInt8])

        /// The GeneralName: `[2] IMPLICIT IA5String` or `[7] IMPLICIT OCTET STRING`.
        var generalName: [UInt8] {
            switch self {
            case .dns(let name): DER.implicit(2, Array(name.utf8))
            case .address(let bytes): DER.implicit(7, bytes)
            }
        }

        /// The name as written in a CN.
        var text: String {
            switch self {
            case .dns(let name): name
            case .address(let bytes): ServerNames.text(of: bytes)
            }
        }
    }

    static let always = ["localhost", "127.0.0.1", "::1"]

    /// The entries for `names` after the three that are always there; throws naming a name that is neither a DNS
    /// name nor an address.
    static func entries(_ names: [String]) throws(CertificateError) -> [Entry] {
        var entries: [Entry] = []
        for name in always + names {
            let entry = try entry(name)
            if !entries.contains(entry) { entries.append(entry) }
        }
        return entries
    }

    static func entry(_ name: String) throws(CertificateError) -> Entry {
        var text = name
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let bytes = address(text, family: AF_INET, count: 4) ?? address(text, family: AF_INET6, count: 16) {
            return .address(bytes)
        }
        let lowercased = text.lowercased()
        let labels = lowercased.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !lowercased.isEmpty && lowercased.utf8.count <= 253
            && labels.enumerated().allSatisfy { index, label in
                (label == "*" && index == 0 && labels.count > 1)
                    || (!label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                        && label.utf8.allSatisfy { isDNSByte($0) })
            }
        guard valid else {
            throw CertificateError(
                .invalidName,
                "'\(name)' is neither a DNS name (letters, digits, '-', '_', dots; '*.' first for a wildcard) nor an "
                    + "IP address")
        }
        return .dns(lowercased)
    }

    private static func isDNSByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func address(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(family, text, &bytes) == 1 else { return nil }
        return Array(bytes.prefix(count))
    }

    static func text(of address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = address.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
