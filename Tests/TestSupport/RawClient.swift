import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response as the raw client read it: the head as received, then its parts.
public struct ClientResponse: Sendable {
    /// The status line and header lines as received, without the blank line that ends them.
    public var head: String
    public var statusLine: String
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(head: String, statusLine: String, status: Int, headers: [(String, String)], body: [UInt8]) {
        self.head = head
        self.statusLine = statusLine
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The head, the blank line and the body as text: for a response read until the server closed
    /// (``LoopbackClient/request(port:_:_:headers:body:timeoutSeconds:)``), every byte as received.
    public var whole: String { head + "\r\n\r\n" + text }
}

public struct ClientError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// The loopback client's raw-bytes mode: a blocking HTTP/1.1 client on one socket that sends exactly the bytes
/// it is given and parses what comes back (``LoopbackClient`` has the one-shot form and the URLSession mode).
/// Every read has a timeout (default 10 s), so a broken server fails a test instead of hanging it.
public final class RawClient: @unchecked Sendable {  // used by one thread at a time
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (an IPv4 or IPv6 address), `port`.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10)) throws {
        fd = try RawSocket.openConnection(host: host, port: port)
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        do { try RawSocket.sendAll(fd, bytes) } catch { throw ClientError(description: "\(error)") }
    }

    /// Shuts the sending side (the server reads end of stream).
    public func shutdownWrite() {
        RawSocket.shutdownWrite(fd)
    }

    /// Reads more bytes into the buffer; returns false at end of stream.
    private func fill() throws -> Bool {
        try RawSocket.receive(fd, appendingTo: &buffer)
    }

    private func readLine() throws -> String {
        while true {
            if let index = findCRLF() {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 2)
                return line
            }
            guard try fill() else {
                throw ClientError(
                    description: "connection closed mid-line; got \(String(decoding: buffer, as: UTF8.self))")
            }
        }
    }

    private func findCRLF() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 13 && buffer[i + 1] == 10 { return i }
        return nil
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw ClientError(description: "connection closed mid-body") }
        }
        let bytes = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads one response. `head`: the request was HEAD (no body).
    public func readResponse(head: Bool = false) throws -> ClientResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw ClientError(description: "bad status line \(statusLine)")
        }
        var headers: [(String, String)] = []
        var headText = statusLine
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            headText += "\r\n" + line
            guard let colon = line.firstIndex(of: ":") else { throw ClientError(description: "bad header \(line)") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = ClientResponse(
            head: headText, statusLine: statusLine, status: status, headers: headers, body: [])
        if head || status < 200 || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw ClientError(description: "bad chunk size \(sizeLine)")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                response.body += try readExactly(size)
                _ = try readLine()
            }
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            while try fill() {}
            response.body = buffer
            buffer.removeAll()
        }
        return response
    }

    /// Sends `request` and reads the response.
    public func roundTrip(_ request: String, head: Bool = false) throws -> ClientResponse {
        try send(request)
        return try readResponse(head: head)
    }

    /// Reads until the bytes received so far contain `marker` (not consuming them); false when the
    /// connection ends first.
    public func read(until marker: String) throws -> Bool {
        let wanted = Array(marker.utf8)
        while buffer.count < wanted.count
            || !(0...(buffer.count - wanted.count)).contains(where: {
                buffer[$0..<($0 + wanted.count)].elementsEqual(wanted)
            })
        {
            guard try fill() else { return false }
        }
        return true
    }

    /// Whether the server closed the connection (EOF or reset) without sending more, within the read timeout.
    public func waitForClose() -> Bool {
        do {
            while try fill() {}
            return true
        } catch {
            return false
        }
    }

    /// Whether the server closed the connection without sending a byte, by now: a peek that does not wait.
    public var endedWithoutAByte: Bool {
        var byte: UInt8 = 0
        return buffer.isEmpty && recv(fd, &byte, 1, Self.peekNow) == 0
    }

    #if canImport(Glibc)
        private static let peekNow = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
    #else
        /// Darwin's `MSG_PEEK | MSG_DONTWAIT` from <sys/socket.h>.
        private static let peekNow: Int32 = 0x2 | 0x80
    #endif

    /// Bytes received but not consumed by a `read…` call.
    public var unread: [UInt8] { buffer }
}
