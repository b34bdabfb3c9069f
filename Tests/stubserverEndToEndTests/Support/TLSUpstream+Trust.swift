// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    extension TLSUpstream {
        /// Launches `stubserver arguments` trusting this upstream's CA the way a Linux machine does, through
        /// its system trust store, without changing the machine's: in a mount namespace of its own
        /// (`unshare --mount`, private propagation) whose `/etc/ssl/certs` is a folder holding only this CA as
        /// `ca-certificates.crt`, the CA bundle libcurl (URLSession's transport on Linux) reads on Debian and
        /// Ubuntu. Linux's URLSession has no per-session trust setting (swift-corelibs-foundation reads
        /// `URLSessionCertificateAuthorityInfoFile` only on Android), so this is the one way to test a
        /// verified HTTPS upstream. Throws `XCTSkip` where the machine allows no mount namespace.
        func launchTrusting(_ arguments: [String], currentDirectory: URL) throws -> StubServerProcess {
            #if os(Linux)
                let trust = folder.appendingPathComponent("trust", isDirectory: true)
                try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: caCertificate, to: trust.appendingPathComponent("ca-certificates.crt"))
                let probe = try ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    ["unshare", "--mount", "sh", "-c", #"mount --bind "$0" /etc/ssl/certs"#, trust.path],
                    timeout: .seconds(60))
                guard probe.succeeded else {
                    throw XCTSkip(
                        "this machine allows no private mount namespace (`unshare --mount` then `mount --bind`: "
                            + "\(probe.standardError.trimmingCharacters(in: .whitespacesAndNewlines))), which the test "
                            + "needs to give the proxy a trust store of its own")
                }
                let launcher = folder.appendingPathComponent("trusting-stubserver")
                try Data(
                    """
                    #!/bin/sh
                    exec unshare --mount sh -c 'mount --bind "$TRUST_DIR" /etc/ssl/certs && exec "$STUBSERVER_BINARY" "$@"' sh "$@"

                    """.utf8
                ).write(to: launcher)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: launcher.path)
                return try StubServerProcess.launch(
                    executable: launcher, arguments: arguments, currentDirectory: currentDirectory,
                    environment: [
                        "TRUST_DIR": trust.path,
                        "STUBSERVER_BINARY": try Paths.stubserverBinary().path
                    ])
            #else
                throw XCTSkip(
                    "URLSession on this system trusts its keychain; the test gives the proxy a trust store of its own "
                        + "only on Linux, with a mount namespace")
            #endif
        }
    }
#endif
