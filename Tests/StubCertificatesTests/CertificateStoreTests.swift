import Foundation
import StubTestSupport
import Testing

@testable import StubCertificates

/// The CA on disk: made once with owner-only permissions, the same on every load, one CA when processes race to
/// make it, refused when others can read it.
@Suite("The CA store: permissions, reloading, concurrent creation, refusals")
struct CertificateStoreTests {
    @Test("A new CA folder is 0700 with ca.key 0600 and ca.crt 0644, in folders made as needed")
    func permissions() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let directory = scratch.file("deeper/stubserver/ca")
        let authority = try CertificateAuthority.loadOrCreate(in: directory)
        #expect(authority.directory == directory)
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(directory.appendingPathComponent("ca.key").path) == 0o600)
        #expect(try mode(directory.appendingPathComponent("ca.crt").path) == 0o644)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.file("deeper/stubserver").path)
        #expect(leftovers == ["ca"])
        let pem = try String(contentsOf: authority.certificateURL, encoding: .utf8)
        #expect(pem == authority.certificatePEM)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(pem.split(separator: "\n").dropFirst().dropLast().dropLast().allSatisfy { $0.count == 64 })
        let key = try String(contentsOf: directory.appendingPathComponent("ca.key"), encoding: .utf8)
        #expect(key.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    }

    @Test("Loading again gives the same CA, and its leaves carry the CA's key identifier")
    func reload() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let first = try CertificateAuthority.loadOrCreate(in: scratch.file("ca"))
        let second = try CertificateAuthority.loadOrCreate(in: scratch.file("ca"))
        #expect(first.certificateDER == second.certificateDER)
        #expect(first.privateKey == second.privateKey)
        let one = try first.issueServerCredentials(for: [])
        let two = try second.issueServerCredentials(for: [])
        #expect(one.certificateChain != two.certificateChain)
        #expect(one.privateKey != two.privateKey)
        #expect(one.certificateChain.count == 1)
    }

    @Test("Eight threads creating the CA at once end with one CA, every one of them holding it")
    func concurrentCreation() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let directory = scratch.file("ca")
        let results = Results()
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                results.add(
                    Result { () throws(CertificateError) in try CertificateAuthority.loadOrCreate(in: directory) })
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        let authorities = try results.all.map { try $0.get() }
        #expect(authorities.count == 8)
        #expect(Set(authorities.map(\.certificateDER)).count == 1)
        let onDisk = try CertificateAuthority.loadOrCreate(in: directory)
        #expect(onDisk.certificateDER == authorities[0].certificateDER)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(leftovers == ["ca"])
    }

    @Test("A folder or key others can read is refused, with the chmod to run")
    func insecure() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let directory = scratch.file("ca")
        _ = try CertificateAuthority.loadOrCreate(in: directory)
        let key = directory.appendingPathComponent("ca.key").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: key)
        let keyError = #expect(throws: CertificateError.self) { try CertificateAuthority.loadOrCreate(in: directory) }
        #expect(keyError?.kind == .insecurePermissions)
        #expect(keyError?.message.contains("run chmod 600 '\(key)'") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let folderError = #expect(throws: CertificateError.self) {
            try CertificateAuthority.loadOrCreate(in: directory)
        }
        #expect(folderError?.kind == .insecurePermissions)
        #expect(folderError?.message.contains("run chmod 700 '\(directory.path)'") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        _ = try CertificateAuthority.loadOrCreate(in: directory)
    }

    @Test("A corrupt or missing file is named, with what to do")
    func corrupt() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let directory = scratch.file("ca")
        _ = try CertificateAuthority.loadOrCreate(in: directory)
        let certificate = directory.appendingPathComponent("ca.crt")
        try Data("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n".utf8).write(to: certificate)
        let badPEM = #expect(throws: CertificateError.self) { try CertificateAuthority.loadOrCreate(in: directory) }
        #expect(badPEM?.kind == .corrupt)
        #expect(badPEM?.message.hasPrefix("\(certificate.path):1: the CERTIFICATE block is not valid base64") == true)
        try FileManager.default.removeItem(at: certificate)
        let missing = #expect(throws: CertificateError.self) { try CertificateAuthority.loadOrCreate(in: directory) }
        #expect(missing?.kind == .unreadable)
        #expect(missing?.message.contains(certificate.path) == true)
    }

    @Test("A ca.key that is not ca.crt's key is refused, naming both")
    func swappedKey() throws {
        let scratch = try ScratchFolder()
        defer { scratch.remove() }
        let one = try CertificateAuthority.loadOrCreate(in: scratch.file("one"))
        _ = try CertificateAuthority.loadOrCreate(in: scratch.file("two"))
        let key = one.directory.appendingPathComponent("ca.key")
        try FileManager.default.removeItem(at: key)
        try FileManager.default.copyItem(at: scratch.file("two/ca.key"), to: key)
        let error = #expect(throws: CertificateError.self) { try CertificateAuthority.loadOrCreate(in: one.directory) }
        #expect(error?.kind == .keyMismatch)
        #expect(error?.message.hasPrefix("\(key.path) is not the key of \(one.certificateURL.path)") == true)
    }

    @Test("The default folder: XDG_DATA_HOME, ~/.local/share, and the Mac's folder inside a simulator")
    func defaultDirectory() {
        #expect(
            CertificateAuthority.defaultDirectory(environment: ["SIMULATOR_HOST_HOME": "/Users/me", "HOME": "/x"]).path
                == "/Users/me/Library/Application Support/stubserver/ca")
        #if canImport(Darwin)
            #expect(
                CertificateAuthority.defaultDirectory(environment: ["HOME": "/Users/me"]).path
                    == "/Users/me/Library/Application Support/stubserver/ca")
        #else
            #expect(
                CertificateAuthority.defaultDirectory(environment: ["HOME": "/home/me"]).path
                    == "/home/me/.local/share/stubserver/ca")
            #expect(
                CertificateAuthority.defaultDirectory(environment: ["HOME": "/home/me", "XDG_DATA_HOME": "/data"]).path
                    == "/data/stubserver/ca")
        #endif
    }

    @Test("Server names: always localhost, 127.0.0.1 and ::1; deduplicated without case; bad names refused")
    func names() throws {
        let entries = try ServerNames.entries(["API.Example.test", "api.example.test", "[::1]", "0:0::1", "10.0.0.1"])
        #expect(entries.map(\.text) == ["localhost", "127.0.0.1", "::1", "api.example.test", "10.0.0.1"])
        let error = #expect(throws: CertificateError.self) { try ServerNames.entries(["bad name"]) }
        #expect(error?.kind == .invalidName)
        #expect(error?.message.hasPrefix("'bad name' is neither a DNS name") == true)
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }
}

/// What the threads of ``CertificateStoreTests/concurrentCreation()`` got.
private final class Results: @unchecked Sendable {  // behind `lock`
    private let lock = NSLock()
    private var results: [Result<CertificateAuthority, CertificateError>] = []
    func add(_ result: Result<CertificateAuthority, CertificateError>) { lock.withLock { results.append(result) } }
    var all: [Result<CertificateAuthority, CertificateError>] { lock.withLock { results } }
}
