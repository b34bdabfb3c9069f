import Foundation
import StubHTTP
import Testing

@testable import StubKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Log sink: bounded, never blocks the writer")
struct LogSinkTests {
    /// A pipe; the read end is read only when the test asks.
    private final class TestPipe: @unchecked Sendable {
        let readEnd: Int32
        let writeEnd: Int32
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private let end = DispatchSemaphore(value: 0)

        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw CocoaError(.fileWriteUnknown) }
            readEnd = fds[0]
            writeEnd = fds[1]
        }

        /// Reads on a thread until the write end is closed.
        func startReading() {
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(readEnd, &buffer, buffer.count)
                    if count <= 0 { break }
                    lock.withLock { bytes += buffer[..<count] }
                }
                close(readEnd)
                end.signal()
            }
        }

        /// Closes the write end and waits until the reader has read everything.
        func finish() {
            close(writeEnd)
            _ = end.wait(timeout: .now() + 30)
        }

        var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    }

    @Test("Writes return at once when the reader never reads; the drop count is printed once it drains")
    func dropsAndReports() throws {
        let pipe = try TestPipe()
        let sink = LogSink(.fileDescriptor(pipe.writeEnd), capacity: 4_096)
        let line = String(repeating: "x", count: 99)
        for _ in 0..<10_000 { sink.write(line) }  // 1 MB into a 64 KiB pipe: would block without the queue
        let dropped = sink.droppedLineCount
        #expect(dropped > 0)
        #expect(dropped < 10_000)

        pipe.startReading()
        #expect(sink.flush(timeout: .seconds(30)))
        pipe.finish()
        let text = pipe.text
        let written = text.split(separator: "\n").filter { $0 == line[...] }.count
        #expect(written + dropped == 10_000)
        // One notice each time the queue drained after drops; together they count every dropped line.
        let notices = text.split(separator: "\n").filter { $0.hasPrefix("stubserver: ") }
        #expect(!notices.isEmpty)
        #expect(notices.allSatisfy { $0.hasSuffix(" log lines dropped (descriptor \(pipe.writeEnd) not keeping up)") })
        let reported = notices.compactMap {
            Int($0.dropFirst("stubserver: ".count).prefix { $0 != " " }.filter { $0 != "," })
        }
        #expect(reported.reduce(0, +) == dropped)
    }

    @Test("flush gives up at its deadline while the destination stays blocked")
    func boundedFlush() throws {
        let pipe = try TestPipe()
        let sink = LogSink(.fileDescriptor(pipe.writeEnd), capacity: 1 << 20)
        let chunk = String(repeating: "y", count: 1_023)
        for _ in 0..<256 { sink.write(chunk) }  // 256 KiB: more than the pipe holds
        #expect(!sink.flush(timeout: .milliseconds(50)))
        pipe.startReading()  // drain it before closing, so no write ever meets a closed pipe
        #expect(sink.flush(timeout: .seconds(30)))
        #expect(sink.droppedLineCount == 0)
        pipe.finish()
    }

    @Test("A handler gets every line, in order, on the sink's thread")
    func handlerOrder() {
        let received = LockedValue<[String]>([])
        let sink = LogSink(
            .handler { text in received.withLock { $0 += text.split(separator: "\n").map(String.init) } })
        for n in 0..<500 { sink.write("line \(n)") }
        #expect(sink.flush(timeout: .seconds(30)))
        #expect(received.withLock { $0 } == (0..<500).map { "line \($0)" })
    }

    @Test("A closed stderr pipe never kills the process: the write fails with EPIPE and the lines are counted")
    func closedPipe() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw CocoaError(.fileWriteUnknown) }
        close(fds[0])  // no reader: a write raises SIGPIPE unless the writing thread blocks it
        defer { close(fds[1]) }
        let sink = LogSink(.fileDescriptor(fds[1]))
        sink.write("one")
        #expect(sink.flush(timeout: .seconds(30)))
        sink.write("two")  // the sink has stopped trying: dropped at once
        #expect(sink.flush(timeout: .seconds(30)))
        #expect(sink.droppedLineCount == 2)
    }

    @Test("The sink's thread has SIGPIPE blocked, whatever the process does with it")
    func drainThreadBlocksSIGPIPE() {
        let blocked = LockedValue<Bool?>(nil)
        let sink = LogSink(
            .handler { _ in
                var current = sigset_t()
                pthread_sigmask(SIG_BLOCK, nil, &current)
                #if canImport(Glibc)
                    let isBlocked = sigismember(&current, SIGPIPE) == 1
                #else
                    let isBlocked = current & (1 << UInt32(SIGPIPE - 1)) != 0  // Darwin: sigset_t is a 32-bit mask
                #endif
                blocked.withLock { $0 = isBlocked }
            })
        sink.write("probe")
        #expect(sink.flush(timeout: .seconds(30)))
        #expect(blocked.withLock { $0 } == true)
    }

    @Test(
        "Counts read with thousands separators",
        arguments: [
            (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (1_234, "1,234"), (1_234_567, "1,234,567")
        ])
    func grouping(number: Int, text: String) {
        #expect(groupedDigits(number) == text)
    }
}
