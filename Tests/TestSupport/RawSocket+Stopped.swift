import Foundation

extension RawSocket {
    /// Whether the server on 127.0.0.1:`port` lists a stub whose body contains `marker`, asked through
    /// `GET /__admin/mappings`.
    ///
    /// A stopped server's port may be given to another server at once (tests run in parallel, and
    /// each server takes a free port), and a connect to a port nobody listens on can, rarely, connect
    /// to itself. So a test that checks a server stopped asks for something only that server has (a stub
    /// with a unique body) instead of expecting the connect to fail. It asks the admin API, which does
    /// not journal, so a server of another test that now has the port sees no request of ours.
    public static func hasStub(port: Int, withBody marker: String) -> Bool {
        let request = "GET /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        guard let bytes = try? exchange(port: port, Array(request.utf8), timeoutSeconds: 2) else { return false }
        return String(decoding: bytes, as: UTF8.self).contains(marker)
    }
}
