/// A slow network to simulate for every response: a latency before the first byte and a cap on the
/// bytes per second. A stub's own `bytesPerSecond` applies when it is lower.
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.network = .edge                                   // --network edge
/// configuration.network = NetworkProfile(latency: .milliseconds(150), bytesPerSecond: 64_000)
/// ```
/// The named profiles follow Apple's Network Link Conditioner presets (download direction).
public struct NetworkProfile: Sendable, Hashable {
    /// Added before every response.
    public var latency: Duration
    /// The most bytes per second of every response; `nil`: no cap.
    public var bytesPerSecond: Int?

    public init(latency: Duration = .zero, bytesPerSecond: Int? = nil) {
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
    }

    /// EDGE: 240 kbit/s, 400 ms.
    public static let edge = NetworkProfile(latency: .milliseconds(400), bytesPerSecond: 30_000)
    /// 3G: 780 kbit/s, 100 ms.
    public static let threeG = NetworkProfile(latency: .milliseconds(100), bytesPerSecond: 97_500)
    /// LTE: 50 Mbit/s, 50 ms.
    public static let lte = NetworkProfile(latency: .milliseconds(50), bytesPerSecond: 6_250_000)
    /// Wi-Fi: 40 Mbit/s, 1 ms.
    public static let wifi = NetworkProfile(latency: .milliseconds(1), bytesPerSecond: 5_000_000)

    /// The profiles by their command-line names: `edge`, `3g`, `lte`, `wifi`.
    public static let named: [(name: String, profile: NetworkProfile)] = [
        ("edge", .edge), ("3g", .threeG), ("lte", .lte), ("wifi", .wifi)
    ]

    /// The profile called `name` (`edge`, `3g`, `lte`, `wifi`; any case), if there is one.
    public init?(named name: String) {
        guard let found = Self.named.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = found.profile
    }
}
