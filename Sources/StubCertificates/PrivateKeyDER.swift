/// The three DER forms a private key file holds, and the wrappers between them (formats only: no key arithmetic).
///
/// PKCS#8 (`PRIVATE KEY`, RFC 5208): `SEQUENCE { 0, AlgorithmIdentifier, OCTET STRING { key } }`. SEC1
/// (`EC PRIVATE KEY`, RFC 5915): `SEQUENCE { 1, OCTET STRING, [0] curve, [1] public key }`. PKCS#1
/// (`RSA PRIVATE KEY`, RFC 8017): `SEQUENCE { 0, n, e, d, p, q, … }`.
enum PrivateKeyDER {
    static let ecPublicKey = "1.2.840.10045.2.1"
    static let rsaEncryption = "1.2.840.113549.1.1.1"
    static let p256 = "1.2.840.10045.3.1.7"
    static let p384 = "1.3.132.0.34"
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    static let sha256WithRSAEncryption = "1.2.840.113549.1.1.11"

    /// Which form a DER private key is in.
    enum Form: Equatable {
        /// PKCS#8 with its algorithm.
        case pkcs8(Algorithm)
        /// SEC1, with the curve's OID when the key names it.
        case sec1(curve: String?)
        /// PKCS#1 RSA.
        case pkcs1
    }

    /// A PKCS#8 key's algorithm.
    enum Algorithm: Equatable {
        /// An EC key on the curve of this OID.
        case ec(curve: String)
        case rsa
        /// Another algorithm (Ed25519, DSA, …), by OID.
        case other(String)
    }

    static func form(of der: [UInt8]) throws(DERError) -> Form {
        let parts = try DERReader.single(der).expect(DER.Tag.sequence, "a private key SEQUENCE").children()
        guard parts.count >= 2 else { throw DERError(message: "a private key SEQUENCE with too few fields") }
        let version = try parts[0].smallInteger()
        switch (version, parts[1].tag) {
        case (0, DER.Tag.sequence):
            return .pkcs8(try algorithm(parts[1]))
        case (1, DER.Tag.octetString):
            let curve = try parts.dropFirst(2).first { $0.tag == 0xA0 }.map { (tag) throws(DERError) in
                try tag.inner().oid()
            }
            return .sec1(curve: curve)
        case (0, DER.Tag.integer):
            return .pkcs1
        default:
            throw DERError(message: "not a PKCS#8, SEC1 or PKCS#1 private key")
        }
    }

    private static func algorithm(_ identifier: DERElement) throws(DERError) -> Algorithm {
        let fields = try identifier.children()
        guard let first = fields.first else { throw DERError(message: "an empty AlgorithmIdentifier") }
        let oid = try first.oid()
        switch oid {
        case ecPublicKey:
            guard fields.count == 2 else { throw DERError(message: "an EC key without its curve") }
            return .ec(curve: try fields[1].oid())
        case rsaEncryption:
            return .rsa
        default:
            return .other(oid)
        }
    }

    /// The algorithm of a PKCS#8 key.
    static func pkcs8Algorithm(_ pkcs8: [UInt8]) throws(DERError) -> Algorithm {
        guard case .pkcs8(let algorithm) = try form(of: pkcs8) else { throw DERError(message: "not a PKCS#8 key") }
        return algorithm
    }

    /// The key inside a PKCS#8 wrapper: SEC1 for EC, PKCS#1 for RSA.
    static func pkcs8Inner(_ pkcs8: [UInt8]) throws(DERError) -> [UInt8] {
        let parts = try DERReader.single(pkcs8).children()
        guard parts.count >= 3 else { throw DERError(message: "a PKCS#8 key with too few fields") }
        return Array(try parts[2].expect(DER.Tag.octetString, "the PKCS#8 key OCTET STRING").content)
    }

    /// A PKCS#1 RSA key wrapped as PKCS#8.
    static func pkcs8(wrappingRSA pkcs1: [UInt8]) -> [UInt8] {
        DER.sequence([DER.integer(0), DER.sequence([DER.oid(rsaEncryption), DER.null]), DER.octetString(pkcs1)])
    }

    /// The SubjectPublicKeyInfo of a PKCS#1 RSA private key: its modulus and public exponent.
    static func rsaPublicKeyInfo(pkcs1: [UInt8]) throws(DERError) -> [UInt8] {
        let fields = try DERReader.single(pkcs1).expect(DER.Tag.sequence, "an RSA key SEQUENCE").children()
        guard fields.count >= 3 else { throw DERError(message: "an RSA key with too few fields") }
        let modulus = try fields[1].expect(DER.Tag.integer, "the RSA modulus")
        let exponent = try fields[2].expect(DER.Tag.integer, "the RSA public exponent")
        let publicKey = DER.sequence([Array(modulus.encoded), Array(exponent.encoded)])
        return DER.sequence([DER.sequence([DER.oid(rsaEncryption), DER.null]), DER.bitString(publicKey)])
    }

    /// The signature algorithm (an AlgorithmIdentifier) a certificate signed by this PKCS#8 key carries.
    static func signatureAlgorithm(for pkcs8: [UInt8]) throws(DERError) -> [UInt8] {
        switch try pkcs8Algorithm(pkcs8) {
        case .ec: return DER.sequence([DER.oid(ecdsaWithSHA256)])
        case .rsa: return DER.sequence([DER.oid(sha256WithRSAEncryption), DER.null])
        case .other(let oid): throw DERError(message: "keys of algorithm \(oid) cannot sign certificates here")
        }
    }
}
