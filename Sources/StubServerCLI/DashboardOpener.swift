import StubKit

#if os(macOS)
    import Foundation
#endif

/// `--open`: prints `Dashboard on http://127.0.0.1:8080/__admin/dashboard` after the listening lines and, on
/// a Mac, hands the address to `open` (the default browser), without waiting for it.
enum DashboardOpener {
    static func open(_ server: StubServer, adminAPIEnabled: Bool, log: LogSink) {
        guard adminAPIEnabled else {
            return log.write("stubserver: --open: the admin API is off (--no-admin), so there is no dashboard")
        }
        let address = server.baseURL.absoluteString.trimmingSuffix("/") + "/__admin/dashboard"
        StandardStreams.output("Dashboard on \(address)\n")
        #if os(macOS)
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            opener.arguments = [address]
            do {
                try opener.run()
            } catch {
                log.write("stubserver: --open: could not open \(address) in a browser: \(error)")
            }
        #endif
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
