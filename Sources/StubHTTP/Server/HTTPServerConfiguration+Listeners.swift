extension HTTPServerConfiguration {
    /// One more socket an ``HTTPServer`` listens on besides its primary one (``HTTPServerConfiguration/host`` and
    /// ``HTTPServerConfiguration/port``), served by the same event loops and handler.
    ///
    /// ```swift
    /// var configuration = HTTPServerConfiguration()
    /// configuration.additionalListeners = [.init(label: "admin", port: 0)]
    /// let server = HTTPServer(configuration: configuration) { request, responder in
    ///     responder.respond(.text(request.endpoints?.listenerLabel ?? "primary"))
    /// }
    /// try server.start()
    /// print(server.port(ofListener: "admin") ?? 0)
    /// ```
    ///
    /// Every request accepted on it carries its ``label`` in ``HTTPEndpoints/listenerLabel``.
    public struct AdditionalListener: Sendable, Hashable {
        /// Names the listener: on its requests (``HTTPEndpoints/listenerLabel``), in
        /// ``HTTPServer/port(ofListener:)`` and in start errors. Not empty, unique within a configuration.
        public var label: String
        /// The address to listen on, as ``HTTPServerConfiguration/host`` reads it. Default `127.0.0.1`.
        public var host: String
        /// The port; `0` lets the kernel pick one (read it from ``HTTPServer/port(ofListener:)`` after start).
        /// Default `0`.
        public var port: Int

        /// Creates a listener description.
        public init(label: String, host: String = "127.0.0.1", port: Int = 0) {
            self.label = label
            self.host = host
            self.port = port
        }
    }
}
