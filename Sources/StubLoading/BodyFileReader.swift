import StubTemplating

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open body file, read front to back in pieces: `open(2)`, `fstat(2)` and `read(2)` on Linux
/// (the Slim build has no `FileHandle`), `FileHandle` on Apple platforms.
///
/// Not thread-safe: its owner (``BodyFileSource``) never lets two calls overlap.
package final class BodyFileReader {
    /// The file's size when it was opened.
    package let size: Int
    #if canImport(Glibc)
        private var descriptor: Int32
    #else
        private var handle: FileHandle?
    #endif

    /// Opens the regular file at `path` (already resolved and confined to `__files`).
    /// - Throws: the system's reason, e.g. `No such file or directory`.
    init(path: String) throws(BodyFiles.ReadError) {
        #if canImport(Glibc)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw BodyFiles.ReadError(description: String(cString: strerror(errno))) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = Glibc.close(descriptor)
                throw BodyFiles.ReadError(description: reason)
            }
            self.descriptor = descriptor
            size = Int(info.st_size)
        #else
            do {
                let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                size = Int(try handle.seekToEnd())
                try handle.seek(toOffset: 0)
                self.handle = handle
            } catch {
                throw BodyFiles.ReadError(description: FileErrorReason.describe(error))
            }
        #endif
    }

    /// Reads a render's output that spilled to `file` (``TemplateOutput``), from its start, and owns its
    /// descriptor from then on.
    package init(spilled file: TemplateSpillFile) throws(BodyFiles.ReadError) {
        let unreadable = BodyFiles.ReadError(description: "the rendered body's temporary file could not be read back")
        size = file.size
        #if canImport(Glibc)
            descriptor = file.takeDescriptor()
            guard descriptor >= 0 else { throw unreadable }
        #else
            handle = file.takeHandle()
            guard handle != nil else { throw unreadable }
        #endif
    }

    /// The next at most `maxBytes` bytes (at least 1 asked): empty at the end of the file, `nil` if
    /// reading failed or the reader was closed.
    package func read(maxBytes: Int) -> [UInt8]? {
        #if canImport(Glibc)
            guard descriptor >= 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: max(1, maxBytes))
            while true {
                let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count >= 0 {
                    bytes.removeLast(bytes.count - count)
                    return bytes
                }
                guard errno == EINTR else { return nil }
            }
        #else
            guard let handle else { return nil }
            do {
                return (try handle.read(upToCount: max(1, maxBytes))).map { [UInt8]($0) } ?? []
            } catch {
                return nil
            }
        #endif
    }

    /// Closes the file; later reads give `nil`.
    package func close() {
        #if canImport(Glibc)
            guard descriptor >= 0 else { return }
            _ = Glibc.close(descriptor)
            descriptor = -1
        #else
            try? handle?.close()
            handle = nil
        #endif
    }

    deinit { close() }
}
