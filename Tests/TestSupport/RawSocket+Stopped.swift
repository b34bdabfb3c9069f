import Foundation

extension RawSocket {
    /// Whether something on 127.0.0.1:`port` answers `GET path` with a body containing `marker`.
    ///
    /// A stopped server's port may be given to another server at once (tests run in parallel, and
    /// each server takes a free port), and a connect to a port nobody listens on can, rarely, connect
    /// to itself. So a test that checks a server stopped asks for something only that server answered
    /// (a stub with a unique body) instead of expecting the connect to fail.
    public static func answers(port: Int, path: String, with marker: String) -> Bool {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        guard let bytes = try? exchange(port: port, Array(request.utf8), timeoutSeconds: 2) else { return false }
        return String(decoding: bytes, as: UTF8.self).contains(marker)
    }
}
