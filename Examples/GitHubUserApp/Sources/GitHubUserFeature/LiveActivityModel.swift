import Foundation

/// One line of the live activity list: "starred apple/swift", "pushed to octocat/hello".
public struct ActivityItem: Sendable, Equatable, Identifiable {
    /// Unique in the model's list: the order the model received the events in (the list's identity).
    public var id: Int
    /// The stream's last event ID when the event arrived (its own `id:`, or one carried from an event before
    /// it); `nil` when the stream has none.
    public var eventID: String?
    /// The event's type (`star`, `push`, …; `message` when it had none).
    public var kind: String
    /// What the list shows.
    public var text: String

    public init(id: Int, eventID: String?, kind: String, text: String) {
        self.id = id
        self.eventID = eventID
        self.kind = kind
        self.text = text
    }

    /// The item an event's data makes: `{"action": "starred", "repo": "apple/swift"}` reads as
    /// "starred apple/swift"; other data shows as it is.
    init(_ message: EventStreamMessage, number: Int) {
        let text: String
        if let payload = try? JSONDecoder().decode(Payload.self, from: Data(message.data.utf8)) {
            text = "\(payload.action) \(payload.repo)"
        } else {
            text = message.data
        }
        // An empty id is the stream resetting it: no id.
        let eventID = message.id.flatMap { $0.isEmpty ? nil : $0 }
        self.init(id: number, eventID: eventID, kind: message.event, text: text)
    }

    /// Whether `other` is this event again: the same event ID (not `nil`), type and text.
    func isSameEvent(as other: ActivityItem) -> Bool {
        eventID != nil && eventID == other.eventID && kind == other.kind && text == other.text
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
    /// The events so far, newest first, at most ``maxItems``; an event sent again (the same id, type and text, as
    /// after a reconnection the server could not resume) shows once.
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
            let item = ActivityItem(message, number: received)
            // A server that resumes from an id it does not know sends its events again: show each once.
            guard !items.contains(where: item.isSameEvent(as:)) else { return }
            items.insert(item, at: 0)
            if items.count > Self.maxItems { items.removeLast(items.count - Self.maxItems) }
        case .reconnecting(let reason, _, _):
            status = .reconnecting(reason)
        case .ended(let reason):
            status = .ended(reason)
        }
    }
}
