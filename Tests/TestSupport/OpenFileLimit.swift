#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-files limit (`RLIMIT_NOFILE`). CI runs the server suites under `ulimit -n 256`, a
/// Mac's default soft limit, where tests that open many sockets at once must size themselves to leave
/// descriptors for the tests running beside them.
public enum OpenFileLimit {
    /// The soft limit, or `Int.max` when unlimited or unknown.
    public static var soft: Int {
        guard let limit = current() else { return Int.max }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Raises the soft limit as far as allowed: to the hard limit, but on Darwin to at most `OPEN_MAX`
    /// (its hard limit is usually `RLIM_INFINITY`, which setrlimit rejects with EINVAL). Returns the soft
    /// limit in force afterwards, or -1 when it cannot be read.
    @discardableResult
    public static func raise() -> Int {
        guard var limit = current() else { return -1 }
        var wanted = limit.rlim_max
        #if canImport(Darwin)
            // OPEN_MAX from <sys/syslimits.h> (10240); the darwin-check stand-in SDK does not declare it.
            wanted = min(wanted, 10240)
        #endif
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    #if canImport(Glibc)
        private static let resource = Int32(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif

    private static func current() -> rlimit? {
        var limit = rlimit()
        return getrlimit(resource, &limit) == 0 ? limit : nil
    }
}
