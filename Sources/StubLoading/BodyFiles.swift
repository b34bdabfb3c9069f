import StubModel

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

/// The `__files` folder of a stubs directory: where `bodyFileName` is looked up.
///
/// Names are relative paths (`users/octocat.json`). A name that is absolute, contains `..`, or
/// resolves (through symlinks) to a file outside the folder is rejected, so a stub file cannot
/// serve arbitrary files from the machine.
public struct BodyFiles: Sendable, Hashable {
    /// The `__files` folder.
    public var directory: URL
    /// How the folder is named in messages, e.g. `Stubs/__files`.
    public var displayPath: String

    public init(directory: URL, displayPath: String? = nil) {
        self.directory = directory
        self.displayPath = displayPath ?? directory.path
    }

    /// Why a body file could not be read.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        /// The name is a valid one but no file has it: a stub file can load anyway, answering 500
        /// (``StubsLoadOptions/strictBodyFiles`` refuses it instead).
        public let isMissing: Bool

        init(description: String, isMissing: Bool = false) {
            self.description = description
            self.isMissing = isMissing
        }
    }

    /// The largest body file kept in memory with its stub: 1 MiB. A larger one is read from disk each
    /// time it is served, streamed in pieces (`BodyFileSource`), so a 1 GB file costs nothing at load
    /// and a bounded buffer per connection.
    public static let cacheLimit = 1 << 20

    /// A body file: its bytes when at most ``cacheLimit``, else the file itself, read when served.
    package enum Content: Sendable, Hashable {
        case cached([UInt8])
        case streamed(StreamedBodyFile)
    }

    /// Reads the file `name` under ``directory``.
    /// - Throws: ``ReadError`` if the name escapes the folder, or the file is missing or unreadable.
    public func read(_ name: String) throws(ReadError) -> [UInt8] {
        try read(name, resolved: resolve(name))
    }

    /// The file `name`: read now if at most `cacheLimit` bytes, else opened once to check that it can
    /// be read and left on disk.
    /// - Throws: ``ReadError`` as ``read(_:)``.
    package func load(_ name: String, cacheLimit: Int = BodyFiles.cacheLimit) throws(ReadError) -> Content {
        let resolved = try resolve(name)
        let size: Int
        do throws(ReadError) {
            size = try BodyFileReader(path: resolved).size
        } catch {
            throw Self.cannotRead(name, in: displayPath, error.description)
        }
        guard size > cacheLimit else { return .cached(try read(name, resolved: resolved)) }
        return .streamed(StreamedBodyFile(name: name, path: resolved, displayPath: displayPath))
    }

    /// The real path of the regular file `name` under ``directory``.
    private func resolve(_ name: String) throws(ReadError) -> String {
        let quoted = "'\(name)'"
        guard !name.isEmpty else { throw ReadError(description: "'bodyFileName' is empty") }
        guard !name.hasPrefix("/") else {
            throw ReadError(description: "'bodyFileName' \(quoted) must be a path relative to \(displayPath)")
        }
        guard !name.split(separator: "/").contains("..") else {
            throw ReadError(description: "'bodyFileName' \(quoted) escapes \(displayPath)")
        }
        let candidate = directory.path + "/" + name
        guard let folder = Self.realPath(directory.path), let resolved = Self.realPath(candidate) else {
            throw ReadError(description: "'bodyFileName' \(quoted) not found in \(displayPath)", isMissing: true)
        }
        guard resolved.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw ReadError(description: "'bodyFileName' \(quoted) resolves to \(resolved), outside \(displayPath)")
        }
        switch PathStatus(resolved) {
        case .directory: throw ReadError(description: "'bodyFileName' \(quoted) is a directory in \(displayPath)")
        case .special(let kind):
            // Never opened: opening a FIFO would block until a writer comes.
            throw ReadError(
                description: "'bodyFileName' \(quoted) in \(displayPath) is \(kind.rawValue), not a regular file")
        case .file, .missing, .unreachable: return resolved
        }
    }

    private func read(_ name: String, resolved: String) throws(ReadError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: resolved)))
        } catch {
            throw Self.cannotRead(name, in: displayPath, FileErrorReason.describe(error))
        }
    }

    static func cannotRead(_ name: String, in displayPath: String, _ reason: String) -> ReadError {
        ReadError(description: "'bodyFileName' '\(name)' in \(displayPath) cannot be read: \(reason)")
    }

    /// `realpath(3)`: the absolute path with every symlink, `.` and `..` resolved; `nil` if it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
