import Testing

@testable import StubHTTP

@Suite("WebSocket SHA-1 and handshake")
struct WebSocketHandshakeTests {
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    @Test(
        "SHA-1 matches the FIPS 180 vectors",
        arguments: [
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                    + "mnopqrstnopqrstu",
                "a49b2446a02c645bf419f995b67091253a04a259"
            ),
            ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12")
        ])
    func sha1Vectors(input: String, digest: String) {
        #expect(Self.hex(SHA1.digest(Array(input.utf8))) == digest)
    }

    @Test("SHA-1 of one million 'a' (many blocks)")
    func sha1MillionA() {
        let input = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Self.hex(SHA1.digest(input)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("SHA-1 at every padding boundary agrees with itself fed as a slice")
    func sha1PaddingBoundaries() {
        // 55, 56 and 64 bytes straddle the length field's block; a slice must hash as its copy does.
        let bytes = [UInt8](repeating: 0x61, count: 130)
        for count in [55, 56, 57, 63, 64, 65, 119, 120, 128] {
            #expect(SHA1.digest(bytes[0..<count]) == SHA1.digest(Array(bytes[0..<count])))
            #expect(SHA1.digest(bytes[0..<count]).count == 20)
        }
        #expect(Self.hex(SHA1.digest(bytes[0..<64])) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    @Test("the accept value of RFC 6455 §1.3's example key")
    func acceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    private static func upgrade(
        method: HTTPMethod = .get, version: HTTPVersion = .http1_1, removing: String? = nil,
        _ extra: [(String, String)] = []
    ) -> HTTPRequest {
        var headers = HTTPHeaders([
            ("Host", "example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")
        ])
        if let removing { headers.remove(name: removing) }
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return HTTPRequest(method: method, target: "/chat", version: version, headers: headers)
    }

    @Test("a valid upgrade gets 101 with the accept value")
    func accepts() throws {
        let request = Self.upgrade()
        #expect(WebSocketHandshake.isUpgradeRequest(request))
        guard case .accept(let response, let subprotocol) = WebSocketHandshake.answer(request) else {
            Issue.record("not accepted")
            return
        }
        #expect(response.status.code == 101)
        #expect(response.status.reasonPhrase == "Switching Protocols")
        #expect(response.headers.first(name: "Upgrade") == "websocket")
        #expect(response.headers.first(name: "Connection") == "Upgrade")
        #expect(response.headers.first(name: "Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(!response.headers.contains(name: "Sec-WebSocket-Protocol"))
        #expect(response.body.isEmpty)
        #expect(subprotocol == nil)
    }

    @Test("Upgrade and Connection are case-insensitive token lists; the key's surrounding spaces are ignored")
    func tokenLists() {
        let request = Self.upgrade([
            ("Upgrade", "foo/2, WebSocket"), ("Connection", "keep-alive, UPGRADE"),
            ("Sec-WebSocket-Key", " dGhlIHNhbXBsZSBub25jZQ== ")
        ])
        guard case .accept = WebSocketHandshake.answer(request) else {
            Issue.record("not accepted")
            return
        }
    }

    @Test(
        "malformed upgrades get 400 with the reason",
        arguments: [
            (upgrade(method: .post), "GET"),
            (upgrade(version: .http1_0), "HTTP/1.1"),
            (upgrade(removing: "Upgrade"), "Upgrade: websocket"),
            (upgrade([("Upgrade", "h2c")]), "Upgrade: websocket"),
            (upgrade(removing: "Connection"), "Connection: Upgrade"),
            (upgrade([("Connection", "keep-alive")]), "Connection: Upgrade"),
            (upgrade(removing: "Sec-WebSocket-Key"), "exactly one Sec-WebSocket-Key"),
            (upgrade([("Sec-WebSocket-Key", "c2hvcnQ=")]), "16 bytes"),
            (upgrade([("Sec-WebSocket-Key", "not base64!")]), "16 bytes"),
            (upgrade([("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAAAAAA==")]), "16 bytes"),
            (upgrade([("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ")]), "16 bytes"),
            (upgrade([("Sec-WebSocket-Key", "dGhlIHNhbX BsZSBub25jZQ==")]), "16 bytes")
        ])
    func rejects(request: HTTPRequest, fragment: String) {
        guard case .reject(let response, let reason) = WebSocketHandshake.answer(request) else {
            Issue.record("accepted")
            return
        }
        #expect(response.status.code == 400)
        #expect(reason.contains(fragment), "\(reason)")
        #expect(String(decoding: response.body, as: UTF8.self) == reason + "\n")
    }

    @Test("two Sec-WebSocket-Key fields are refused")
    func twoKeys() {
        var request = Self.upgrade()
        request.headers.add(name: "Sec-WebSocket-Key", value: "dGhlIHNhbXBsZSBub25jZQ==")
        guard case .reject(let response, _) = WebSocketHandshake.answer(request) else {
            Issue.record("accepted")
            return
        }
        #expect(response.status.code == 400)
    }

    @Test("a version other than 13 gets 426 with Sec-WebSocket-Version: 13", arguments: ["8", "12", "14", "", nil])
    func wrongVersion(version: String?) {
        let request =
            version.map { Self.upgrade([("Sec-WebSocket-Version", $0)]) }
            ?? Self.upgrade(removing: "Sec-WebSocket-Version")
        guard case .reject(let response, let reason) = WebSocketHandshake.answer(request) else {
            Issue.record("accepted")
            return
        }
        #expect(response.status.code == 426)
        #expect(response.status.reasonPhrase == "Upgrade Required")
        #expect(response.headers.first(name: "Sec-WebSocket-Version") == "13")
        #expect(reason.contains("13"))
    }

    @Test(
        "the first of the server's subprotocols the client offers is selected",
        arguments: [
            (["chat, superchat"], ["superchat", "chat"], "superchat"),
            (["chat", "superchat"], ["superchat", "chat"], "superchat"),
            (["chat,superchat"], ["chat"], "chat"),
            (["v2.json"], ["v1.json"], nil),
            ([], ["chat"], nil),
            (["chat"], [], nil),
            (["Chat"], ["chat"], nil)
        ] as [([String], [String], String?)])
    func subprotocols(offered: [String], supported: [String], selected: String?) {
        var request = Self.upgrade()
        for value in offered { request.headers.add(name: "Sec-WebSocket-Protocol", value: value) }
        guard case .accept(let response, let subprotocol) = WebSocketHandshake.answer(request, subprotocols: supported)
        else {
            Issue.record("not accepted")
            return
        }
        #expect(subprotocol == selected)
        #expect(response.headers.first(name: "Sec-WebSocket-Protocol") == selected)
    }

    @Test("a request without Upgrade: websocket is not an upgrade request")
    func notUpgrade() {
        #expect(!WebSocketHandshake.isUpgradeRequest(HTTPRequest(method: .get, target: "/", headers: ["Host": "a"])))
        #expect(!WebSocketHandshake.isUpgradeRequest(Self.upgrade([("Upgrade", "h2c")])))
    }
}
