/// Readiness events from the selector. Loop thread only.
extension Connection {
    func handle(_ event: SelectorEvent) {
        if event.hangup && (!event.readable || inputDone) {
            // Both directions are gone (or reset): nothing can be delivered any more. After the EOF was
            // read, a hang-up means the peer reset the connection (our write side is still open).
            close()
            return
        }
        // A hang-up with bytes readable is Darwin's poll reporting the peer's FIN (POLLHUP with POLLIN)
        // before the request is read: read to end of stream, and let `inputEnded` decide.

        if event.writable && watchingWritable { flush() }
        if event.readable && !isClosed { readAvailable() }
    }
}
