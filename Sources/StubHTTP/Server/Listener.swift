/// The listening socket, on loop 0: accepts until `EAGAIN` and hands connections to the loops in turn.
final class Listener: EventLoopChannel, @unchecked Sendable {
    private let socket: Socket
    private let loops: [EventLoop]
    private let server: ServerContext
    private var token: UInt64 = 0
    private var next = 0
    private var isClosed = false

    init(socket: Socket, loops: [EventLoop], server: ServerContext) {
        self.socket = socket
        self.loops = loops
        self.server = server
    }

    /// Registers with loop 0. Call before the loop thread runs, or on it.
    func register() throws(SocketError) {
        token = try loops[0].register(self, fd: socket.fd, interest: .readable)
    }

    func handle(_ event: SelectorEvent) {
        while !isClosed {
            let accepted: Socket?
            do {
                accepted = try socket.accept()
            } catch {
                // ECONNABORTED, EMFILE, ENFILE...: leave the rest for the next readiness event.
                return
            }
            guard let accepted else { return }
            hand(accepted)
        }
    }

    private func hand(_ socket: Socket) {
        let limit = server.configuration.maxConnections
        let before = server.connectionOpened()
        if before >= limit + 64 {
            // Far over the limit: do not even spend a buffer on an answer.
            socket.close()
            server.connectionClosed()
            return
        }
        let overloaded = before >= limit
        let loop = loops[next]
        next = (next + 1) % loops.count
        let server = server
        let start: @Sendable () -> Void = {
            let connection = Connection(socket: socket, loop: loop, server: server)
            connection.start(rejecting: overloaded ? Listener.overloadedResponse : nil)
        }
        if loop.inEventLoop { start() } else { loop.execute(start) }
    }

    static let overloadedResponse = HTTPResponse.text(
        "Service Unavailable: too many open connections\n", status: .serviceUnavailable)

    func timerFired() {}

    func shutdown(graceful: Bool) { close() }

    /// Stops accepting and closes the socket.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loops[0].deregister(fd: socket.fd, token: token)
        socket.close()
    }
}
