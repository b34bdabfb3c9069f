#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CertificateAuthority {
    /// The CA in `directory`, made there first when the folder does not exist (or is empty).
    ///
    /// A new CA is written into a fresh temporary folder beside `directory` (mode 0700; `ca.key` 0600, `ca.crt`
    /// 0644) that is then renamed into place in one step, so processes that start at once (parallel test runs)
    /// agree: one rename wins, and the others read the winner's files. Reading an existing CA takes a few
    /// milliseconds.
    ///
    /// - Parameter directory: the CA's folder, usually ``defaultDirectory(environment:)``; the folders above it
    ///   are created when missing.
    /// - Throws: ``CertificateError``: ``CertificateError/Kind/insecurePermissions`` when the folder or the key
    ///   can be read by group or others (the message gives the `chmod` to run), ``CertificateError/Kind/unreadable``
    ///   or ``CertificateError/Kind/corrupt`` for a file that cannot be read or is not what it should be (naming
    ///   it), ``CertificateError/Kind/unwritable`` when the CA cannot be created, or a cryptography error.
    public static func loadOrCreate(in directory: URL) throws(CertificateError) -> CertificateAuthority {
        let path = directory.path
        let keyPath = directory.appendingPathComponent(keyFile).path
        let certificatePath = directory.appendingPathComponent(certificateFile).path
        if Files.isDirectory(path) {
            let hasKey = try Files.mode(keyPath) != nil
            let hasCertificate = try Files.mode(certificatePath) != nil
            if hasKey || hasCertificate { return try load(from: directory) }
        }
        let parent = Files.parentPath(path)
        try Files.makeDirectories(parent, mode: 0o700)
        let made = try make(in: directory)
        let temporary = try Files.makeTemporaryDirectory(beside: path)
        let files = [keyFile, certificateFile]
        do {
            try Files.createFile(
                temporary + "/" + keyFile, Array(PEM.encode(made.privateKey, label: "PRIVATE KEY").utf8), mode: 0o600)
            try Files.createFile(temporary + "/" + certificateFile, Array(made.certificatePEM.utf8), mode: 0o644)
        } catch {
            Files.removeDirectory(temporary, files: files)
            throw error
        }
        // An empty folder in the way is replaced; one with files (another process's CA) makes the rename fail.
        if rename(temporary, path) == 0 { return made }
        let failure = errno
        Files.removeDirectory(temporary, files: files)
        guard failure == EEXIST || failure == ENOTEMPTY else {
            throw CertificateError(.unwritable, "cannot create the CA folder \(path): \(String(cString: strerror(failure)))")
        }
        return try load(from: directory)
    }

    /// The CA whose files are in `directory`, after checking who may read them.
    static func load(from directory: URL) throws(CertificateError) -> CertificateAuthority {
        let path = directory.path
        let keyPath = directory.appendingPathComponent(keyFile).path
        let certificatePath = directory.appendingPathComponent(certificateFile).path
        if let mode = try Files.mode(path), mode & 0o077 != 0 {
            throw CertificateError(
                .insecurePermissions,
                "the CA folder \(path) can be read by other users (mode \(octal(mode))); its key signs certificates "
                    + "your machine trusts: run chmod 700 '\(path)'")
        }
        guard let keyMode = try Files.mode(keyPath) else {
            throw CertificateError(
                .unreadable, "\(keyPath) is missing: delete the folder \(path) to make a new CA, then trust the new one")
        }
        if keyMode & 0o077 != 0 {
            throw CertificateError(
                .insecurePermissions,
                "the CA key \(keyPath) can be read by other users (mode \(octal(keyMode))): run chmod 600 '\(keyPath)'")
        }
        let key = try privateKey(pem: Files.contents(of: keyPath), file: keyPath)
        let certificates = try PEM.decode(text(try Files.contents(of: certificatePath), certificatePath), file: certificatePath)
            .filter { $0.label == "CERTIFICATE" }
        guard let certificate = certificates.first else {
            throw CertificateError(
                .corrupt, "\(certificatePath) holds no CERTIFICATE block: delete the folder \(path) to make a new CA")
        }
        let authority = try CertificateAuthority(directory: directory, certificateDER: certificate.der, privateKey: key)
        let publicKey = try Crypto.publicKey(of: key)
        guard publicKey == (try? ParsedCertificate(der: certificate.der))?.publicKeyInfo else {
            throw CertificateError(
                .keyMismatch, "\(keyPath) is not the key of \(certificatePath): delete the folder \(path) to make a "
                    + "new CA, then trust the new one")
        }
        return authority
    }

    /// The PKCS#8 key of the CA's `ca.key`.
    private static func privateKey(pem bytes: [UInt8], file: String) throws(CertificateError) -> [UInt8] {
        let blocks = try PEM.decode(text(bytes, file), file: file)
        guard let block = blocks.first(where: { $0.label.hasSuffix("PRIVATE KEY") }) else {
            throw CertificateError(.corrupt, "\(file) holds no PRIVATE KEY block")
        }
        do {
            return try Crypto.pkcs8(block.der)
        } catch {
            throw CertificateError(error.kind, "\(file):\(block.line): \(error.message)")
        }
    }

    static func text(_ bytes: [UInt8], _ file: String) throws(CertificateError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CertificateError(.corrupt, "\(file) is not PEM text (not UTF-8)")
        }
        return text
    }

    private static func octal(_ mode: mode_t) -> String { "0" + String(mode, radix: 8) }
}
