import Foundation
import StubTestSupport

@testable import StubCertificates

/// A fresh folder under the temporary directory, removed by ``remove()``.
struct ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stubcerts-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The real tools the certificates are checked with.
enum Tools {
    /// `openssl ARGUMENTS…`, run to its end.
    static func openssl(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, timeout: .seconds(120))
    }

    /// `openssl ARGUMENTS…`, which must succeed; its stdout.
    @discardableResult
    static func opensslSucceeding(_ arguments: [String]) throws -> String {
        let outcome = try openssl(arguments)
        guard outcome.succeeded else {
            throw TestFailure(
                "openssl \(arguments.joined(separator: " ")) failed: \(outcome.standardOutput)\(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    static var available: Bool { ChildProcess.isInstalled("openssl") }
}

/// A CA made in a scratch folder, with a leaf it signed, both also written as PEM files.
struct IssuedFixture {
    let folder: ScratchFolder
    let authority: CertificateAuthority
    let leafPEM: URL
    let keyPEM: URL
    let caPEM: URL

    init(names: [String] = ["api.example.test", "192.168.7.9", "fe80::1"], now: Date = Date()) throws {
        folder = try ScratchFolder()
        authority = try CertificateAuthority.loadOrCreate(in: folder.file("ca"))
        let credentials = try authority.issueServerCredentials(for: names, now: now)
        leafPEM = try folder.write("leaf.pem", PEM.encode(credentials.certificateChain[0], label: "CERTIFICATE"))
        keyPEM = try folder.write("leaf.key", PEM.encode(credentials.privateKey, label: "PRIVATE KEY"))
        caPEM = authority.certificateURL
    }
}
