#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file operations the certificate store needs, on POSIX calls: modes set at creation, permission checks,
/// rename(2) of a whole folder.
enum Files {
    /// The text of `errno`.
    static var reason: String { String(cString: strerror(errno)) }

    /// The whole file at `path`.
    static func contents(of path: String) throws(CertificateError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CertificateError(.unreadable, "cannot read \(path): \(reason)") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CertificateError(.unreadable, "cannot read \(path): \(reason)")
            }
            if count == 0 { return bytes }
            bytes += chunk.prefix(count)
        }
    }

    /// Creates `path` (which must not exist) with `mode` and writes `bytes` to it.
    static func createFile(_ path: String, _ bytes: [UInt8], mode: mode_t) throws(CertificateError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw CertificateError(.unwritable, "cannot create \(path): \(reason)") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CertificateError(.unwritable, "cannot write \(path): \(reason)")
            }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw CertificateError(.unwritable, "cannot write \(path): \(reason)") }
    }

    /// The permission bits of `path`, or nil when it does not exist.
    static func mode(_ path: String) throws(CertificateError) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw CertificateError(.unreadable, "cannot read \(path): \(reason)")
        }
        return status.st_mode & 0o7777
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` and the folders above it that are missing, each with `mode`.
    static func makeDirectories(_ path: String, mode: mode_t) throws(CertificateError) {
        if isDirectory(path) { return }
        let parent = parentPath(path)
        if parent != path, !parent.isEmpty { try makeDirectories(parent, mode: mode) }
        guard mkdir(path, mode) == 0 || errno == EEXIST else {
            throw CertificateError(.unwritable, "cannot create the folder \(path): \(reason)")
        }
    }

    /// A new empty folder beside `path`, mode 0700.
    static func makeTemporaryDirectory(beside path: String) throws(CertificateError) -> String {
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw CertificateError(.unwritable, "cannot create a folder beside \(path): \(reason)")
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Deletes the files of `directory` (not recursive), then the folder; errors are ignored.
    static func removeDirectory(_ directory: String, files: [String]) {
        for file in files { unlink(directory + "/" + file) }
        rmdir(directory)
    }

    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
