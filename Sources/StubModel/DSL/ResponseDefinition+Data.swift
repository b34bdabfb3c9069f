#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `Data` forms of the binary body, for bytes read with Foundation.
///
/// ```swift
/// let png = try Data(contentsOf: avatarURL)
/// server.stub(.get("/avatars/octocat.png"), .data(png, contentType: "image/png"))
/// ```
extension ResponseDefinition {
    /// A binary body (`base64Body`), with `Content-Type: contentType` if given.
    public static func data(_ data: Data, contentType: String? = nil, status: Int = 200) -> ResponseDefinition {
        .data([UInt8](data), contentType: contentType, status: status)
    }

    /// Sets a binary body (`base64Body`), and `Content-Type` if `contentType` is given.
    public func data(_ data: Data, contentType: String? = nil) -> ResponseDefinition {
        self.data([UInt8](data), contentType: contentType)
    }
}
