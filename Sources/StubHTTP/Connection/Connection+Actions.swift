/// Carrying out what the ``ConnectionStateMachine`` decides. Loop thread only.
extension Connection {
    /// Carries out `action`; a `.write` writes `response`, if any, with `context`.
    func perform(
        _ action: ConnectionStateMachine.Action, response: HTTPResponse? = nil,
        context: ResponseContext = ResponseContext()
    ) {
        switch action {
        case .none, .dispatch:
            break
        case .armTimer(let deadline):
            loop.scheduleTimer(token: token, at: deadline)
        case .parseNext:
            processInput()
        case .write:
            if let response {
                let dateLine = loop.dateCache.currentLine()
                enqueue { ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0) }
                flush()
            }
        case .writeTimeout:
            let timeout = HTTPResponse.text(
                "Request Timeout: the request was not received in time\n", status: .requestTimeout)
            let dateLine = loop.dateCache.currentLine()
            enqueue {
                ResponseSerializer.serialize(
                    timeout, context: ResponseContext(close: true), dateLine: dateLine, into: &$0)
            }
            flush()
        case .linger(let deadline):
            socket.shutdownWrite()
            loop.scheduleTimer(token: token, at: deadline)
        case .close:
            close()
        }
    }
}
