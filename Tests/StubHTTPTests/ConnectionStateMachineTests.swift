import XCTest

@testable import StubHTTP

/// The connection state machine driven by made-up instants: no sockets, no sleeping.
final class ConnectionStateMachineTests: XCTestCase {
    typealias Machine = ConnectionStateMachine
    let timeouts = Machine.Timeouts(
        headerReadTimeout: .seconds(10), idleTimeout: .seconds(60), lingerTimeout: .seconds(2))

    func at(_ seconds: Int64) -> Instant { Instant(nanoseconds: seconds * 1_000_000_000) }

    func testKeepAliveCycleServesOneRequestAtATime() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        XCTAssertEqual(machine.start(), .armTimer(at(60)))
        XCTAssertEqual(machine.requestParsed(keepAlive: true), .dispatch)
        XCTAssertFalse(machine.acceptsInput, "a pipelined request waits for the response")
        XCTAssertEqual(machine.requestParsed(keepAlive: true), .none)
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(1)), .write(close: false))
        XCTAssertFalse(machine.acceptsInput, "not before the response is flushed")
        XCTAssertEqual(machine.outputFlushed(now: at(1), inputPending: false), .parseNext)
        XCTAssertTrue(machine.acceptsInput)
        XCTAssertEqual(machine.state, .idle(since: at(1)))
        // The idle timer armed at 60 s is still earlier than the new deadline: no new timer.
        XCTAssertEqual(machine.needsMoreInput(parserIdle: true, now: at(1)), .none)
    }

    func testIdleTimeoutRearmsThenCloses() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.responseReady(requestedClose: false, now: at(30))
        _ = machine.outputFlushed(now: at(30), inputPending: false)
        XCTAssertEqual(machine.timerFired(now: at(60)), .armTimer(at(90)), "activity moved the deadline")
        XCTAssertEqual(machine.timerFired(now: at(90)), .close)
        XCTAssertEqual(machine.state, .closed)
    }

    func testStalledHalfRequestTimesOutWith408() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        XCTAssertEqual(machine.needsMoreInput(parserIdle: false, now: at(5)), .armTimer(at(15)))
        XCTAssertEqual(machine.needsMoreInput(parserIdle: false, now: at(8)), .none, "trickling bytes do not extend it")
        XCTAssertEqual(machine.timerFired(now: at(15)), .writeTimeout)
        XCTAssertEqual(machine.outputFlushed(now: at(15), inputPending: false), .linger(until: at(17)))
        XCTAssertEqual(machine.timerFired(now: at(17)), .close)
    }

    func testConnectionCloseAndHTTP10WithoutKeepAliveCloseAfterTheResponse() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: false)
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(0)), .write(close: true))
        XCTAssertEqual(machine.outputFlushed(now: at(1), inputPending: false), .close)

        var other = Machine(timeouts: timeouts, now: at(0))
        _ = other.requestParsed(keepAlive: true)
        XCTAssertEqual(other.responseReady(requestedClose: true, now: at(0)), .write(close: true))
    }

    func testCleanCloseDoesNotLingerButCloseWithBufferedInputDoes() {
        var clean = Machine(timeouts: timeouts, now: at(0))
        _ = clean.start()
        _ = clean.requestParsed(keepAlive: false)
        XCTAssertEqual(clean.responseReady(requestedClose: false, now: at(1)), .write(close: true))
        XCTAssertEqual(clean.outputFlushed(now: at(1), inputPending: false), .close, "nothing more is expected")
        XCTAssertEqual(clean.state, .closed)
        XCTAssertNil(clean.armedDeadline)

        var pipelined = Machine(timeouts: timeouts, now: at(0))
        _ = pipelined.requestParsed(keepAlive: true)
        XCTAssertEqual(pipelined.responseReady(requestedClose: true, now: at(1)), .write(close: true))
        XCTAssertEqual(
            pipelined.outputFlushed(now: at(1), inputPending: true), .linger(until: at(3)),
            "the client is still sending: a close now could reset the response away")
        XCTAssertFalse(pipelined.acceptsInput)
        XCTAssertEqual(pipelined.inputEnded(), .close)

        var lingering = Machine(timeouts: timeouts, now: at(0))
        _ = lingering.requestParsed(keepAlive: false)
        _ = lingering.responseReady(requestedClose: false, now: at(0))
        _ = lingering.outputFlushed(now: at(0), inputPending: true)
        XCTAssertEqual(lingering.timerFired(now: at(1)), .armTimer(at(2)), "too early")
        XCTAssertEqual(lingering.timerFired(now: at(2)), .close)
    }

    func testCloseAfterThePeersEndOfInputDoesNotLinger() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: true)
        XCTAssertEqual(machine.inputEnded(), .none)
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(0)), .write(close: true))
        XCTAssertEqual(machine.outputFlushed(now: at(0), inputPending: true), .close, "nothing more can arrive")

        var failed = Machine(timeouts: timeouts, now: at(0))
        XCTAssertEqual(failed.needsMoreInput(parserIdle: false, now: at(0)), .armTimer(at(10)))
        XCTAssertEqual(failed.inputEnded(), .close, "a half request then EOF: nothing to answer")
    }

    func testParseErrorWritesThenLingers() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        XCTAssertEqual(machine.requestFailed(now: at(0)), .write(close: true))
        XCTAssertFalse(machine.acceptsInput)
        XCTAssertEqual(
            machine.outputFlushed(now: at(0), inputPending: false), .linger(until: at(2)),
            "the rest of the refused request may still be on its way, even with nothing buffered")
    }

    func testStalledReaderIsClosedAfterTheIdleTimeout() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.responseReady(requestedClose: false, now: at(10))
        XCTAssertEqual(
            machine.outputBlocked(progressed: false, now: at(10)), .none,
            "the idle timer at 60 s is earlier than 70 s")
        XCTAssertEqual(machine.timerFired(now: at(60)), .armTimer(at(70)))
        XCTAssertEqual(machine.timerFired(now: at(70)), .close)
    }

    func testSlowButSteadyReaderIsNeverCutOff() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.responseReady(requestedClose: false, now: at(10))
        _ = machine.outputBlocked(progressed: true, now: at(10))
        // The client reads a little every 50 s, for far longer than the idle timeout.
        for second in stride(from: Int64(50), through: 500, by: 50) {
            _ = machine.outputBlocked(progressed: true, now: at(second))
            let action = machine.timerFired(now: at(second + 5))
            XCTAssertEqual(action, .armTimer(at(second + 60)), "progress at \(second) s moved the deadline")
        }
        XCTAssertEqual(machine.outputFlushed(now: at(520), inputPending: false), .parseNext)
        XCTAssertEqual(machine.state, .idle(since: at(520)))
        XCTAssertEqual(machine.timerFired(now: at(580)), .close, "then idle for the timeout")
    }

    func testBlockedWritesWithoutProgressDoNotExtendTheDeadline() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.responseReady(requestedClose: false, now: at(0))
        _ = machine.outputBlocked(progressed: true, now: at(1))
        _ = machine.outputBlocked(progressed: false, now: at(30))
        XCTAssertEqual(machine.deadline, at(61))
        XCTAssertEqual(machine.timerFired(now: at(61)), .close)
    }

    func testStreamedResponseToAReaderThatStopsIsClosedAfterTheIdleTimeout() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.streamStarted(requestedClose: false, framingCloses: false)
        XCTAssertNil(machine.deadline, "a stream the client keeps up with has no deadline")
        XCTAssertEqual(machine.outputBlocked(progressed: true, now: at(5)), .armTimer(at(65)))
        XCTAssertEqual(machine.outputFlushed(now: at(6), inputPending: false), .none)
        XCTAssertNil(machine.deadline, "caught up again")
        XCTAssertEqual(machine.timerFired(now: at(65)), .none)
        _ = machine.outputBlocked(progressed: false, now: at(100))
        _ = machine.outputBlocked(progressed: false, now: at(150))
        XCTAssertEqual(machine.timerFired(now: at(160)), .close, "no byte taken since 100 s")
    }

    func testSlowButSteadyUploadIsTimedByInactivityOnceTheHeadIsIn() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        XCTAssertEqual(
            machine.needsMoreInput(parserIdle: false, now: at(1)), .armTimer(at(11)), "head: from its first byte")
        XCTAssertEqual(machine.needsMoreInput(parserIdle: false, inBody: true, now: at(2)), .none)
        XCTAssertEqual(machine.state, .receivingBody(since: at(2)))
        for second in stride(from: Int64(30), through: 300, by: 30) {
            _ = machine.needsMoreInput(parserIdle: false, inBody: true, now: at(second))
            XCTAssertNotEqual(machine.timerFired(now: at(second + 1)), .writeTimeout)
        }
        XCTAssertEqual(machine.timerFired(now: at(360)), .writeTimeout, "60 s without a byte of the body")
    }

    func testStalledHeadStillTimesOutFromItsFirstByte() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.start()
        XCTAssertEqual(machine.needsMoreInput(parserIdle: false, now: at(1)), .armTimer(at(11)))
        _ = machine.needsMoreInput(parserIdle: false, now: at(9))
        XCTAssertEqual(machine.timerFired(now: at(11)), .writeTimeout)
    }

    func testShutdownClosesIdleConnectionsAndDrainsBusyOnes() {
        var idle = Machine(timeouts: timeouts, now: at(0))
        XCTAssertEqual(idle.shutdown(), .close)

        var busy = Machine(timeouts: timeouts, now: at(0))
        _ = busy.requestParsed(keepAlive: true)
        XCTAssertEqual(busy.shutdown(), .none)
        XCTAssertEqual(busy.responseReady(requestedClose: false, now: at(1)), .write(close: true))
        XCTAssertEqual(busy.outputFlushed(now: at(1), inputPending: false), .close, "no lingering while stopping")
    }

    func testPeerHalfCloseStillGetsItsAnswer() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: true)
        XCTAssertEqual(machine.inputEnded(), .none)
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(0)), .write(close: true))
    }

    func testStreamingKeepsTheRequestInFlightUntilFinished() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        _ = machine.requestParsed(keepAlive: true)
        XCTAssertEqual(machine.streamStarted(requestedClose: false, framingCloses: false), .write(close: false))
        XCTAssertEqual(
            machine.outputFlushed(now: at(1), inputPending: false), .none, "partial flushes do not end the response")
        XCTAssertEqual(machine.streamFinished(now: at(2)), .none)
        XCTAssertEqual(machine.outputFlushed(now: at(2), inputPending: false), .parseNext)

        var legacy = Machine(timeouts: timeouts, now: at(0))
        _ = legacy.requestParsed(keepAlive: true)
        XCTAssertEqual(legacy.streamStarted(requestedClose: false, framingCloses: true), .write(close: true))
    }

    func testLateResponsesAreIgnored() {
        var machine = Machine(timeouts: timeouts, now: at(0))
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(0)), .none)
        _ = machine.requestParsed(keepAlive: true)
        _ = machine.responseReady(requestedClose: false, now: at(0))
        XCTAssertEqual(machine.responseReady(requestedClose: false, now: at(0)), .none)
        XCTAssertEqual(machine.failed(), .close)
        XCTAssertEqual(machine.failed(), .none)
    }
}
