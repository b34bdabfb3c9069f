import Foundation
import StubTestSupport
import StubWebSockets
import Testing

@testable import StubHTTP

/// A real client, Python's `websockets` (sync API), against the server: the handshake it sends (it offers
/// `permessage-deflate`, which the server must not accept), echoes, a ping, and its closing handshake. Needs an
/// interpreter with `websockets` (see ``PythonWebSockets``); skipped, saying so, without one. The same
/// conversation with `StubWebSocketClient` runs everywhere.
@Suite("WebSocket: Python websockets client")
struct WebSocketPythonClientTests {
    @Test("StubWebSocketClient: echo text and binary, ping, close 1000 with a reason")
    func swiftClient() async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/swift?x=1"))
        let socket = try await StubWebSocketClient.connect(to: url, subprotocols: ["chat"], timeout: .seconds(60))
        #expect(socket.subprotocol == "chat")
        #expect(socket.responseHeader("Sec-WebSocket-Extensions") == nil)
        #expect(socket.responseHeader("X-Stub") == "1")
        try await socket.send(text: "hello, wörld")
        #expect(try await socket.receive(timeout: .seconds(30)) == .text("hello, wörld"))
        let bytes = Array(repeating: [UInt8]([0, 1, 2, 255]), count: 20_000).flatMap { $0 }
        try await socket.send(binary: bytes)
        #expect(try await socket.receive(timeout: .seconds(30)) == .binary(bytes))
        try await socket.ping(timeout: .seconds(30))
        let close = try await socket.close(code: 1000, reason: "done", timeout: .seconds(30))
        #expect(
            close == StubWebSocketClient.Close(code: 1000, reason: ""), "the server echoes the code, not the reason")
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes == ["closed 1000 done"])
        #expect(recorder.events.withLock { $0.first } == "open /swift chat")
    }

    static let script = """
        import json, sys
        from websockets.sync.client import connect
        seen = {}
        with connect(sys.argv[1], subprotocols=["chat"], open_timeout=10, close_timeout=10) as ws:
            seen["subprotocol"] = ws.subprotocol
            seen["extensions"] = ws.response.headers.get("Sec-WebSocket-Extensions")
            ws.send("hello, w\\u00f6rld")
            seen["text"] = ws.recv(timeout=10)
            ws.send(bytes([0, 1, 2, 255]) * 20000)
            reply = ws.recv(timeout=10)
            seen["binary"] = [len(reply), list(reply[:4])]
            seen["pong"] = ws.ping(b"abc").wait(10)
            ws.close(1000, "done")
            received = ws.protocol.close_rcvd
            seen["close"] = [received.code, received.reason] if received else None
        print(json.dumps(seen))
        """

    @Test(
        "Python websockets: echo text and binary, ping, close 1000 with a reason",
        .enabled(
            if: PythonWebSockets.interpreter != nil,
            "no Python with `websockets`: set STUBSERVER_PYTHON_WEBSOCKETS to one (pip install websockets)"))
    func pythonClient() async throws {
        let recorder = WebSocketRecorder()
        let server = try startWebSocketServer(recorder: recorder)
        defer { server.stop() }
        let url = "ws://127.0.0.1:\(server.port)/python?x=1"
        let output = try await offPool { try PythonWebSockets.run(Self.script, [url]) }
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "python printed: \(output)")
        #expect(seen["subprotocol"] as? String == "chat")
        #expect(seen["extensions"] is NSNull, "permessage-deflate must not be negotiated")
        #expect(seen["text"] as? String == "hello, wörld")
        let binary = seen["binary"] as? [Any]
        #expect(binary?.first as? Int == 80_000 && binary?.last as? [Int] == [0, 1, 2, 255])
        #expect(seen["pong"] as? Bool == true)
        #expect(seen["close"] as? [AnyHashable] == [1000, ""], "the server echoes the code, not the reason")
        #expect(await eventually { recorder.closes.count == 1 })
        #expect(recorder.closes == ["closed 1000 done"])
        #expect(recorder.events.withLock { $0.first } == "open /python chat")
    }
}
