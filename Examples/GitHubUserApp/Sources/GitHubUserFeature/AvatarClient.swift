import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches avatar images from the avatar CDN (``AppConfiguration/avatarsBaseURL``): `GET /u/{id}?s=SIZE`.
public struct AvatarClient: Sendable {
    /// The avatar host's base URL (the real CDN, or the stub server's virtual host in tests).
    public let baseURL: URL
    private let session: URLSession

    /// A client for `baseURL`.
    public init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The URL of user `id`'s avatar, `size` points square: `BASE/u/{id}?s={size}`.
    public func url(forUser id: Int, size: Int) -> URL {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("u").appendingPathComponent(String(id)), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "s", value: String(size))]
        return components?.url ?? baseURL
    }

    /// The PNG bytes of user `id`'s avatar.
    /// - Throws: ``AvatarError``, or URLSession's errors.
    public func avatar(forUser id: Int, size: Int = 120) async throws -> Data {
        let (data, response) = try await session.data(from: url(forUser: id, size: size))
        guard let http = response as? HTTPURLResponse else { throw AvatarError.notHTTP }
        guard http.statusCode == 200 else { throw AvatarError.unexpectedStatus(http.statusCode) }
        guard data.starts(with: Self.pngSignature) else { throw AvatarError.notPNG(byteCount: data.count) }
        return data
    }

    /// The 8 bytes every PNG file starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

/// Why ``AvatarClient/avatar(forUser:size:)`` failed.
public enum AvatarError: Error, Equatable, Sendable, CustomStringConvertible {
    case unexpectedStatus(Int)
    case notPNG(byteCount: Int)
    case notHTTP

    public var description: String {
        switch self {
        case .unexpectedStatus(let status): "The avatar host answered HTTP \(status)"
        case .notPNG(let count): "The avatar host sent \(count) bytes that are not a PNG image"
        case .notHTTP: "The avatar host's answer was not HTTP"
        }
    }
}
