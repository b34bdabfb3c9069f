/// A certificate's fields that this target reads back: from the authority's `ca.crt`, and from the user's own
/// certificate (to compare its public key with the key file's).
struct ParsedCertificate {
    /// The whole certificate, DER.
    let der: [UInt8]
    /// The subject Name, as encoded: the issuer of the certificates it signs, byte for byte.
    let subject: [UInt8]
    let notBefore: Int64
    let notAfter: Int64
    /// The SubjectPublicKeyInfo, as encoded.
    let publicKeyInfo: [UInt8]
    /// The subjectKeyIdentifier extension's key identifier, if there is one.
    let subjectKeyIdentifier: [UInt8]?

    init(der: [UInt8]) throws(DERError) {
        self.der = der
        let certificate = try DERReader.single(der).expect(DER.Tag.sequence, "a certificate SEQUENCE").children()
        guard certificate.count == 3 else { throw DERError(message: "a certificate has 3 fields") }
        var fields = try certificate[0].expect(DER.Tag.sequence, "the TBSCertificate").children()[...]
        if fields.first?.tag == 0xA0 { fields = fields.dropFirst() }  // [0] version
        guard fields.count >= 6 else { throw DERError(message: "a TBSCertificate with too few fields") }
        let tbs = Array(fields)
        _ = try tbs[0].expect(DER.Tag.integer, "the serial number")
        let validity = try tbs[3].expect(DER.Tag.sequence, "the validity").children()
        guard validity.count == 2 else { throw DERError(message: "a validity of 2 times") }
        notBefore = try validity[0].time()
        notAfter = try validity[1].time()
        subject = Array(try tbs[4].expect(DER.Tag.sequence, "the subject Name").encoded)
        publicKeyInfo = Array(try tbs[5].expect(DER.Tag.sequence, "the SubjectPublicKeyInfo").encoded)
        var keyIdentifier: [UInt8]?
        if let extensions = tbs.dropFirst(6).first(where: { $0.tag == 0xA3 }) {
            for field in try extensions.inner().children() {
                let parts = try field.children()
                guard let oid = try parts.first?.oid(), oid == X509.subjectKeyIdentifier, let value = parts.last
                else { continue }
                keyIdentifier = Array(try value.inner().expect(DER.Tag.octetString, "a key identifier").content)
            }
        }
        subjectKeyIdentifier = keyIdentifier
    }
}

/// Building and signing X.509 v3 certificates (RFC 5280) through ``Crypto``.
enum X509 {
    static let commonName = "2.5.4.3"
    static let organization = "2.5.4.10"
    static let subjectKeyIdentifier = "2.5.29.14"
    static let keyUsage = "2.5.29.15"
    static let subjectAltName = "2.5.29.17"
    static let basicConstraints = "2.5.29.19"
    static let authorityKeyIdentifier = "2.5.29.35"
    static let extendedKeyUsage = "2.5.29.37"
    static let serverAuth = "1.3.6.1.5.5.7.3.1"

    /// A Name of one CN (when given; cut to the 64 characters X.520 allows) and one O, as UTF8Strings.
    static func name(commonName: String?, organization: String) -> [UInt8] {
        func attribute(_ oid: String, _ value: String) -> [UInt8] {
            DER.set([DER.sequence([DER.oid(oid), DER.utf8String(value)])])
        }
        var attributes = [attribute(Self.organization, organization)]
        if let commonName { attributes.append(attribute(Self.commonName, String(commonName.prefix(64)))) }
        return DER.sequence(attributes)
    }

    /// One Extension: its OID, `critical` when true, and its DER value wrapped in an OCTET STRING.
    static func extensionField(_ oid: String, critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        DER.sequence([DER.oid(oid)] + (critical ? [DER.boolean(true)] : []) + [DER.octetString(value)])
    }

    /// A key identifier (RFC 7093 §2, method 1): the leftmost 160 bits of the SHA-256 of the subjectPublicKey bits.
    static func keyIdentifier(publicKeyInfo: [UInt8]) throws(CertificateError) -> [UInt8] {
        let bits: ArraySlice<UInt8>
        do throws(DERError) {
            let fields = try DERReader.single(publicKeyInfo).children()
            guard fields.count == 2 else { throw DERError(message: "a SubjectPublicKeyInfo has 2 fields") }
            bits = try fields[1].bitStringBytes()
        } catch {
            throw CertificateError(.corrupt, "not a SubjectPublicKeyInfo: \(error.message)")
        }
        return Array(try Crypto.sha256(Array(bits)).prefix(20))
    }

    /// 16 random bytes with the top bit clear: a positive serial number of at most 128 bits.
    static func serialNumber() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = bytes[0] & 0x7F | 0x40  // positive, and 16 bytes long once encoded
        return bytes
    }

    /// A v3 certificate, its TBSCertificate signed with SHA-256 by `issuerKey` (PKCS#8).
    static func certificate(
        issuer: [UInt8], subject: [UInt8], notBefore: Int64, notAfter: Int64, publicKeyInfo: [UInt8],
        extensions: [[UInt8]], issuerKey: [UInt8]
    ) throws(CertificateError) -> [UInt8] {
        let algorithm: [UInt8]
        do {
            algorithm = try PrivateKeyDER.signatureAlgorithm(for: issuerKey)
        } catch {
            throw CertificateError(.corrupt, "the signing key: \(error.message)")
        }
        let tbs = DER.sequence([
            DER.explicit(0, DER.integer(2)),
            DER.integer(unsigned: serialNumber()),
            algorithm,
            issuer,
            DER.sequence([DER.time(secondsSince1970: notBefore), DER.time(secondsSince1970: notAfter)]),
            subject,
            publicKeyInfo,
            DER.explicit(3, DER.sequence(extensions))
        ])
        let signature = try Crypto.signSHA256(tbs, with: issuerKey)
        return DER.sequence([tbs, algorithm, DER.bitString(signature)])
    }
}
