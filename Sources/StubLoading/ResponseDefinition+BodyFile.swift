import StubModel

/// Body files named in Swift (``ResponseDefinition/file(_:contentType:status:)``) are read by the
/// server, which knows where `__files` is, when the stub is added.
///
/// Until then the body is `.file(name: name, bytes: [])`. The model needs no extra state for this:
/// a file body with no bytes is (re)read, and re-reading a file that really is empty changes nothing.
///
/// ```swift
/// // In the server, when a stub is added:
/// let response = try mapping.response.loadingBodyFile { name in try files.read(name) }
/// ```
extension ResponseDefinition {
    /// The `__files` name of a body file not read yet, else `nil`.
    public var bodyFileToLoad: String? {
        guard case let .file(name, bytes) = body, bytes.isEmpty, streamedBodyFile == nil else { return nil }
        return name
    }

    /// This definition with its body file read through `read`, or unchanged if there is none to read.
    /// - Parameter read: Returns the bytes of a file named relative to `__files`.
    /// - Throws: What `read` throws.
    public func loadingBodyFile<Failure: Error>(
        _ read: (String) throws(Failure) -> [UInt8]
    ) throws(Failure) -> ResponseDefinition {
        guard let name = bodyFileToLoad else { return self }
        var copy = self
        copy.body = .file(name: name, bytes: try read(name))
        return copy
    }

    /// This definition with its body file loaded from `files`: read if at most ``BodyFiles/cacheLimit``
    /// bytes or the response is a template (`templated`), else left on disk to be streamed when served.
    func loadingBodyFile(from files: BodyFiles, templated: Bool) throws(BodyFiles.ReadError) -> ResponseDefinition {
        guard let name = bodyFileToLoad else { return self }
        var copy = self
        switch try files.load(name, cacheLimit: templated ? .max : BodyFiles.cacheLimit) {
        case .cached(let bytes): copy.body = .file(name: name, bytes: bytes)
        case .streamed(let file): copy.streamedBodyFile = file
        }
        return copy
    }
}
