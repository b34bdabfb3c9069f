#if canImport(Glibc)
    import Glibc
#else
    import Foundation
#endif

/// Where a template writes: bytes in memory, which a response body rendered on a render thread moves to a
/// temporary file ("spills") each time they pass ``spillThreshold``. A large render then holds one
/// bounded buffer whatever its size (up to ``TemplateLimits/maxOutputBytes``), and the response is sent
/// from the file a piece at a time, as a large body file is.
///
/// Headers, a templated file name and the text a block helper (`{{#trim}}`) transforms never spill: they
/// are read back whole.
struct TemplateOutput {
    /// The bytes not yet spilled (all of them when the output does not spill).
    var bytes: [UInt8] = []
    /// The file holding the bytes spilled so far, or `nil`.
    private(set) var spilled: TemplateSpillFile?
    /// Whether this output may spill.
    private let spills: Bool

    /// In-memory bytes past which a spilling output moves them to its file: 256 KiB. Renders on an event
    /// loop stop at 1 MiB, but never spill: only a render thread writes to disk.
    static let spillThreshold = 256 << 10

    /// - Parameter spills: whether the bytes may move to a temporary file (a body rendered off the event loops).
    init(spills: Bool = false) {
        self.spills = spills
    }

    /// The number of bytes written, spilled or not.
    var count: Int { (spilled?.size ?? 0) + bytes.count }

    /// Call after appending: spills ``bytes`` if they are past ``spillThreshold`` and the output spills.
    /// When no file can be made or written (a full or read-only disk), the bytes stay in memory, as
    /// without spilling: the output limit still bounds them.
    mutating func spillIfLarge() {
        guard spills, bytes.count >= Self.spillThreshold else { return }
        if spilled == nil {
            guard let file = TemplateSpillFile() else { return }
            spilled = file
        }
        if spilled?.write(bytes) == true { bytes.removeAll(keepingCapacity: true) }
    }

    /// Moves the in-memory rest to the file, if there is one: the whole output is then in ``spilled``.
    /// Returns `false` (and the output is unusable) if the file cannot take it.
    mutating func finishSpill() -> Bool {
        guard let spilled, !bytes.isEmpty else { return true }
        guard spilled.write(bytes) else { return false }
        bytes = []
        return true
    }
}

/// An unlinked temporary file holding a render's output: in `$TMPDIR` or `/tmp` on Linux, the app's temporary
/// folder on Apple platforms, removed from its folder as soon as it is made, so that it goes with its
/// descriptor whatever happens to the process. Written by one render, then handed on to be read
/// (`BodyFileReader(spilled:)`): `open(2)`/`write(2)` on Linux (the Slim build has no `FileHandle`),
/// `FileHandle` on Apple platforms.
package final class TemplateSpillFile: @unchecked Sendable {
    // Unchecked: used by one thread at a time, the render's, then the sender's.
    /// The bytes written.
    package private(set) var size = 0
    #if canImport(Glibc)
        /// The open descriptor, or -1 once handed on or closed.
        private var descriptor: Int32
    #else
        private var handle: FileHandle?
    #endif

    /// Makes the file, or returns `nil` if the temporary folder does not allow it.
    init?() {
        #if canImport(Glibc)
            var folder = getenv("TMPDIR").map { String(cString: $0) } ?? ""
            if folder.isEmpty { folder = "/tmp" }
            if folder.hasSuffix("/") { folder.removeLast() }
            var path = Array("\(folder)/stubserver-render-XXXXXX".utf8CString)
            let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            _ = path.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            self.descriptor = descriptor
        #else
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "stubserver-render-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                let handle = try? FileHandle(forUpdating: url)
            else { return nil }
            try? FileManager.default.removeItem(at: url)
            self.handle = handle
        #endif
    }

    /// Appends `bytes`; `false` if the file could not take them all.
    func write(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
            guard descriptor >= 0 else { return false }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written)
                }
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
        #else
            guard let handle, (try? handle.write(contentsOf: bytes)) != nil else { return false }
        #endif
        size += bytes.count
        return true
    }

    #if canImport(Glibc)
        /// The descriptor, positioned at the start, for the reader to own and close; -1 if it was handed on
        /// already or cannot be rewound.
        package func takeDescriptor() -> Int32 {
            let descriptor = self.descriptor
            self.descriptor = -1
            guard descriptor >= 0 else { return -1 }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else {
                _ = Glibc.close(descriptor)
                return -1
            }
            return descriptor
        }

        deinit {
            if descriptor >= 0 { _ = Glibc.close(descriptor) }
        }
    #else
        /// The file, positioned at the start, for the reader to own and close; `nil` if it was handed on
        /// already or cannot be rewound.
        package func takeHandle() -> FileHandle? {
            let handle = self.handle
            self.handle = nil
            guard let handle, (try? handle.seek(toOffset: 0)) != nil else { return nil }
            return handle
        }

        deinit {
            try? handle?.close()
        }
    #endif
}
