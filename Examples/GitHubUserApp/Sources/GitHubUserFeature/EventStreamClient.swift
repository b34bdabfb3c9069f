import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How ``EventStreamClient`` reconnects after a stream ends or fails.
public struct ReconnectPolicy: Sendable, Equatable {
    /// How many reconnections in a row may bring no event before the client gives up.
    public var maxAttempts: Int
    /// The wait before reconnecting, until the server sends `retry:`.
    public var delay: Duration
    /// The longest wait a server's `retry:` may ask for.
    public var maxDelay: Duration

    public init(maxAttempts: Int = 5, delay: Duration = .seconds(1), maxDelay: Duration = .seconds(30)) {
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.maxDelay = maxDelay
    }
}

/// What an ``EventStreamClient`` reports while it reads a stream.
public enum EventStreamUpdate: Sendable, Equatable {
    /// The server answered `200`: events follow.
    case connected
    /// An event.
    case message(EventStreamMessage)
    /// The stream ended or failed (`reason`); the client reconnects after `retryIn`, reconnection `attempt`
    /// of ``ReconnectPolicy/maxAttempts``.
    case reconnecting(reason: String, retryIn: Duration, attempt: Int)
    /// The client stopped for good: an answer other than `200`, or too many reconnections without an event.
    case ended(String)
}

/// Reads a server-sent-events endpoint (`GET`, `Accept: text/event-stream`) with `URLSession` and a data
/// delegate (which Linux Foundation has, unlike `URLSession.bytes(for:)`), and reconnects when the stream
/// ends or fails, sending `Last-Event-ID` so the server resumes after the last event seen.
public struct EventStreamClient: Sendable {
    /// The stream's URL.
    public let url: URL
    /// When and how often to reconnect.
    public let reconnect: ReconnectPolicy

    public init(url: URL, reconnect: ReconnectPolicy = ReconnectPolicy()) {
        self.url = url
        self.reconnect = reconnect
    }

    /// The stream's events and connection changes, until it ends for good (``EventStreamUpdate/ended(_:)``)
    /// or the consumer stops iterating, which closes the connection.
    public func updates() -> AsyncStream<EventStreamUpdate> {
        AsyncStream { continuation in
            let task = Task {
                await run { continuation.yield($0) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ report: (EventStreamUpdate) -> Void) async {
        var lastEventID: String?
        var retry = reconnect.delay
        var attempt = 0
        while !Task.isCancelled {
            var parser = EventStreamParser(lastEventID: lastEventID)
            var sawEvent = false
            let ending = await connect(lastEventID: lastEventID) { chunk throws(EventStreamError) in
                for message in try parser.feed(chunk) {
                    sawEvent = true
                    report(.message(message))
                }
            } connected: {
                report(.connected)
            }
            lastEventID = parser.lastEventID
            if let milliseconds = parser.retryMilliseconds { retry = .milliseconds(milliseconds) }
            guard !Task.isCancelled else { return }
            switch ending {
            case .final(let reason):
                report(.ended(reason))
                return
            case .dropped(let reason):
                attempt = sawEvent ? 1 : attempt + 1
                guard attempt <= reconnect.maxAttempts else {
                    report(.ended("\(reason); gave up after \(reconnect.maxAttempts) reconnections without an event"))
                    return
                }
                let wait = min(retry, reconnect.maxDelay)
                report(.reconnecting(reason: reason, retryIn: wait, attempt: attempt))
                do { try await Task.sleep(for: wait) } catch { return }
            }
        }
    }

    /// How one connection ended.
    private enum Ending {
        /// Reconnect: the stream ended, failed, or sent what the parser refused.
        case dropped(String)
        /// Do not: the server's answer says there is no stream here.
        case final(String)
    }

    /// One connection: reads its body into `received` until it ends, fails, or the task is cancelled.
    private func connect(
        lastEventID: String?, received: (Data) throws(EventStreamError) -> Void, connected: () -> Void
    ) async -> Ending {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 300)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let lastEventID, !lastEventID.isEmpty { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let (chunks, continuation) = AsyncStream.makeStream(of: StreamDelegate.Chunk.self)
        let session = URLSession(
            configuration: .ephemeral, delegate: StreamDelegate(continuation), delegateQueue: nil)
        let task = session.dataTask(with: request)
        defer {
            task.cancel()
            session.invalidateAndCancel()  // a session keeps its delegate until invalidated
        }
        task.resume()
        return await withTaskCancellationHandler {
            for await chunk in chunks {
                switch chunk {
                case .response(let status):
                    guard status == 200 else { return .final("The server answered HTTP \(status), not a stream") }
                    connected()
                case .data(let data):
                    do throws(EventStreamError) {
                        try received(data)
                    } catch {
                        return .dropped(error.description)
                    }
                case .completed(let error):
                    return .dropped(error ?? "The server ended the stream")
                }
            }
            return .dropped("Cancelled")
        } onCancel: {
            continuation.finish()
        }
    }
}

/// Passes a data task's response, bytes and end into an `AsyncStream`, from URLSession's delegate queue.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    enum Chunk: Sendable {
        case response(status: Int)
        case data(Data)
        /// The task ended: `nil` when the server ended the response, else the failure, readable.
        case completed(String?)
    }

    private let continuation: AsyncStream<Chunk>.Continuation

    init(_ continuation: AsyncStream<Chunk>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        continuation.yield(.response(status: (response as? HTTPURLResponse)?.statusCode ?? 0))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.yield(.completed(error.map { "The stream failed: \($0.localizedDescription)" }))
        continuation.finish()
    }
}
