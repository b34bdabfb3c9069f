import Foundation

/// One line of the live activity list: "starred apple/swift", "pushed to octocat/hello".
public struct ActivityItem: Sendable, Equatable, Identifiable {
    /// The event's `id` (the stream's ids are unique), or a local number when the stream sent none.
    public var id: String
    /// The event's type (`star`, `push`, …; `message` when it had none).
    public var kind: String
    /// What the list shows.
    public var text: String

    public init(id: String, kind: String, text: String) {
        self.id = id
        self.kind = kind
        self.text = text
    }

    /// The item an event's data makes: `{"action": "starred", "repo": "apple/swift"}` reads as
    /// "starred apple/swift"; other data shows as it is.
    init(_ message: EventStreamMessage, fallbackID: String) {
        let text: String
        if let payload = try? JSONDecoder().decode(Payload.self, from: Data(message.data.utf8)) {
            text = "\(payload.action) \(payload.repo)"
        } else {
            text = message.data
        }
        self.init(id: message.id ?? fallbackID, kind: message.event, text: text)
    }

    private struct Payload: Decodable {
        var action: String
        var repo: String
    }
}

/// The live list's connection, for the line above it.
public enum LiveStatus: Sendable, Equatable {
    case idle
    case connecting
    case live
    case reconnecting(String)
    case ended(String)

    /// What the status line says.
    public var text: String {
        switch self {
        case .idle: ""
        case .connecting: "Connecting…"
        case .live: "Live"
        case .reconnecting(let reason): "Reconnecting (\(reason))"
        case .ended(let reason): "Live activity stopped: \(reason)"
        }
    }
}

/// A user's live activity, newest first, from the API's server-sent-events endpoint
/// `GET /users/{login}/events/live`. Main-actor isolated, as SwiftUI state is: the view runs ``run(onChange:)``
/// in a `.task` and copies ``items`` and ``status`` when told.
@MainActor
public final class LiveActivityModel {
    /// The events so far, newest first, at most ``maxItems``.
    public private(set) var items: [ActivityItem] = []
    /// The connection's state.
    public private(set) var status: LiveStatus = .idle
    /// The user whose activity this is.
    public let login: String
    private let client: EventStreamClient
    private var received = 0

    /// How many items the list keeps; older ones drop off its end.
    public static let maxItems = 50

    /// - Parameters:
    ///   - login: the user.
    ///   - configuration: where the API is (the stub server's address in a debug build's UI test).
    ///   - reconnect: how the stream reconnects when it ends or fails.
    public init(
        login: String, configuration: AppConfiguration = AppConfiguration(),
        reconnect: ReconnectPolicy = ReconnectPolicy()
    ) {
        self.login = login
        client = EventStreamClient(url: Self.url(login: login, baseURL: configuration.baseURL), reconnect: reconnect)
    }

    /// The stream's URL: `BASE/users/{login}/events/live`.
    public nonisolated static func url(login: String, baseURL: URL) -> URL {
        baseURL.appendingPathComponent("users").appendingPathComponent(login)
            .appendingPathComponent("events").appendingPathComponent("live")
    }

    /// Reads the stream until it ends for good or the calling task is cancelled (the view going away),
    /// calling `onChange` after each change of ``items`` or ``status``.
    public func run(onChange: () -> Void = {}) async {
        status = .connecting
        onChange()
        for await update in client.updates() {
            apply(update)
            onChange()
        }
        if case .ended = status {} else { status = .idle }
        onChange()
    }

    private func apply(_ update: EventStreamUpdate) {
        switch update {
        case .connected:
            status = .live
        case .message(let message):
            received += 1
            let item = ActivityItem(message, fallbackID: "local-\(received)")
            // A server that resumes from an id it does not know sends its events again: show each once.
            guard !items.contains(where: { $0.id == item.id }) else { return }
            items.insert(item, at: 0)
            if items.count > Self.maxItems { items.removeLast(items.count - Self.maxItems) }
        case .reconnecting(let reason, _, _):
            status = .reconnecting(reason)
        case .ended(let reason):
            status = .ended(reason)
        }
    }
}
