import Foundation
import StubKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Security)
    import Security
#endif

/// HTTPS to a stub server whose certificate a local certificate authority signed (`--https-port`): the client
/// trusts that authority besides the system's, never turning validation off.
extension StubServerClient {
    /// The certificate authority a client of `baseURL` trusts besides the system's: `given`, else for an
    /// `https` URL the local one in `CertificateAuthority.defaultDirectory(environment:)` if it
    /// exists (the one a CLI on this machine signs with); `nil` for `http`.
    static func authorityToTrust(_ given: [UInt8]?, for baseURL: URL) -> [UInt8]? {
        guard baseURL.scheme?.lowercased() == "https" else { return nil }
        return given ?? CertificateAuthority.certificate(in: CertificateAuthority.defaultDirectory())
    }

    /// What to do when an `https` admin call failed on the certificate: said after the transport's error.
    static func trustHint(for baseURL: URL, error: any Error) -> String {
        guard baseURL.scheme?.lowercased() == "https" else { return "" }
        let text = "\(error)".lowercased()
        guard text.contains("certificate") || text.contains("ssl") || text.contains("tls") || text.contains("trust")
        else { return "" }
        #if canImport(Security)
            return " (pass the server's CA: StubServerClient(baseURL:certificateAuthority:), from "
                + "`stubserver ca export --der` or GET /__admin/certs/ca.crt)"
        #else
            return " (on Linux, URLSession trusts only the system's CAs: add the server's CA, `stubserver ca path`, "
                + "to /usr/local/share/ca-certificates and run update-ca-certificates, or use the server's http:// port)"
        #endif
    }
}

#if canImport(Security)
    /// Accepts a server certificate that chains to ``authority`` or to a root the system trusts, as evaluated by
    /// Security (names and dates included).
    final class AuthorityTrustDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
        /// DER; immutable.
        let authority: [UInt8]

        init(authority: [UInt8]) {
            self.authority = authority
        }

        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust,
                let anchor = SecCertificateCreateWithData(nil, Data(authority) as CFData)
            else {
                return completionHandler(.performDefaultHandling, nil)
            }
            SecTrustSetAnchorCertificates(trust, [anchor] as CFArray)
            SecTrustSetAnchorCertificatesOnly(trust, false)
            var error: CFError?
            if SecTrustEvaluateWithError(trust, &error) {
                completionHandler(.useCredential, URLCredential(trust: trust))
            } else {
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
        }
    }
#endif
