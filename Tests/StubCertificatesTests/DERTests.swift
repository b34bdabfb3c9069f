import Testing

@testable import StubCertificates

@Suite("DER and PEM: encodings read back")
struct DERTests {
    @Test("Integers are minimal and positive; OIDs, times and named bits encode as X.690 says")
    func encodings() throws {
        #expect(DER.integer(0) == [0x02, 0x01, 0x00])
        #expect(DER.integer(128) == [0x02, 0x02, 0x00, 0x80])
        #expect(DER.integer(unsigned: [0, 0, 0x7F]) == [0x02, 0x01, 0x7F])
        #expect(DER.oid("1.2.840.10045.2.1") == [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01])
        #expect(try DERReader.single(DER.oid("1.3.6.1.5.5.7.3.1")).oid() == "1.3.6.1.5.5.7.3.1")
        #expect(DER.namedBits([0]) == [0x03, 0x02, 0x07, 0x80])
        #expect(DER.namedBits([5, 6]) == [0x03, 0x02, 0x01, 0x06])
        #expect(DER.time(secondsSince1970: 0) == DER.element(DER.Tag.utcTime, Array("700101000000Z".utf8)))
        let in2050 = CivilTime(year: 2050, month: 1, day: 1, hour: 0, minute: 0, second: 0).secondsSince1970
        #expect(DER.time(secondsSince1970: in2050) == DER.element(0x18, Array("20500101000000Z".utf8)))
        #expect(try DERReader.single(DER.time(secondsSince1970: in2050 - 1)).time() == in2050 - 1)
        #expect(try DERReader.single(DER.time(secondsSince1970: 1_796_601_600)).time() == 1_796_601_600)
        let long = DER.octetString([UInt8](repeating: 7, count: 300))
        #expect(Array(long.prefix(4)) == [0x04, 0x82, 0x01, 0x2C])
        #expect(try DERReader.single(long).content.count == 300)
        #expect(throws: DERError.self) { try DERReader.single(Array(long.dropLast())) }
    }

    @Test("PEM: several blocks, 64 columns, errors naming the file and line")
    func pem() throws {
        let bytes = (0..<100).map { UInt8($0) }
        let text = PEM.encode(bytes, label: "CERTIFICATE")
        #expect(text.split(separator: "\n").map(\.count) == [27, 64, 64, 8, 25])
        let blocks = try PEM.decode("junk\r\n" + text + "Bag Attributes\n" + PEM.encode([1], label: "X"), file: "f")
        #expect(
            blocks == [PEM.Block(label: "CERTIFICATE", der: bytes, line: 2), PEM.Block(label: "X", der: [1], line: 8)])
        let unclosed = #expect(throws: CertificateError.self) {
            try PEM.decode("\n-----BEGIN CERTIFICATE-----\nAAAA\n", file: "chain.pem")
        }
        #expect(unclosed?.message == "chain.pem:2: BEGIN CERTIFICATE has no END line")
        let mismatched = #expect(throws: CertificateError.self) {
            try PEM.decode("-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----\n", file: "a.pem")
        }
        #expect(mismatched?.message == "a.pem:3: END PRIVATE KEY closes the CERTIFICATE block begun on line 1")
    }
}
