import StubHTTP
import StubKit

#if os(macOS) || os(Linux)
    import Foundation

    /// Reads a child's stdout or stderr on its own thread until EOF, so the child never blocks on a full
    /// pipe, and keeps the last ``limit`` bytes for messages. The first line is handed to a waiter.
    final class OutputDrain: Sendable {
        /// Most bytes kept: the tail of the output.
        static let limit = 64 * 1024

        let pipe = Pipe()
        private struct State {
            var tail: [UInt8] = []
            var firstLine: String?
            var ended = false
        }
        private let state = LockedValue(State())
        private let firstLineReady = DispatchSemaphore(value: 0)
        private let ended = DispatchSemaphore(value: 0)

        /// The last bytes read, as text.
        var text: String { state.withLock { String(decoding: $0.tail, as: UTF8.self) } }

        /// Closes the parent's copy of the write end and starts reading.
        func start() {
            try? pipe.fileHandleForWriting.close()
            let reader = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                var firstLineBuffer: [UInt8] = []
                var waitingForFirstLine = true
                while true {
                    let chunk = reader.availableData
                    // Kept before the first line is handed over, so `text` holds it when the waiter wakes.
                    state.withLock { state in
                        state.tail += chunk
                        if state.tail.count > Self.limit { state.tail.removeFirst(state.tail.count - Self.limit) }
                        if chunk.isEmpty { state.ended = true }
                    }
                    if waitingForFirstLine {
                        firstLineBuffer += chunk
                        if let newline = firstLineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                            let line = String(decoding: firstLineBuffer[..<newline], as: UTF8.self)
                            state.withLock { $0.firstLine = line }
                            waitingForFirstLine = false
                            firstLineReady.signal()
                        } else if chunk.isEmpty || firstLineBuffer.count > Self.limit {
                            waitingForFirstLine = false
                            firstLineReady.signal()
                        }
                    }
                    if chunk.isEmpty { break }
                }
                try? reader.close()
                ended.signal()
            }
        }

        /// Waits up to `timeout` for the first line; `nil` on EOF or timeout without one.
        func waitForFirstLine(timeout: Duration) -> String? {
            guard firstLineReady.wait(timeout: .now() + timeout.timeInterval) == .success else { return nil }
            firstLineReady.signal()
            return state.withLock { $0.firstLine }
        }

        /// Waits up to `timeout` for EOF (the child and everything it started have closed the pipe).
        func waitForEnd(timeout: Duration) {
            if ended.wait(timeout: .now() + timeout.timeInterval) == .success { ended.signal() }
        }
    }
#endif
