#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension CertificateAuthority {
    /// The certificate (DER) of the local authority in `directory`, without its key and without making one: what
    /// a client on this machine trusts to reach a server signed by it. `nil` when there is none or it cannot be
    /// read.
    public static func certificate(in directory: URL) -> [UInt8]? {
        let file = directory.appendingPathComponent(certificateFile)
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            let blocks = try? PEM.decode(text, file: file.path)
        else { return nil }
        return blocks.first { $0.label == "CERTIFICATE" }?.der
    }
}
