import StubModel

/// Why a stubs directory, a stub file or one mapping could not be loaded.
///
/// The ``description`` is the message for the user. It always says where the problem is, with
/// paths as the user wrote them:
///
/// ```text
/// stubs directory 'Stubs' does not exist
/// Stubs/mappings/users.json:4:12: expected ',' or '}' after object member
/// Stubs/mappings/users.json: response.status: expected an integer, found "200"
/// Stubs/mappings/all.json: mappings[2].response: unknown field 'stauts' in response; did you mean 'status'?
/// ```
public struct StubsLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case missingRoot(String)
        case notADirectory(String)
        case unreadableDirectory(String, reason: String)
        case unreadableFile(file: String, reason: String)
        case invalidJSON(file: String?, JSONParseError)
        case invalidMapping(file: String?, path: String, message: String)
    }

    private let storage: Storage

    private init(_ storage: Storage) { self.storage = storage }

    /// The stubs directory (or its `mappings` folder) does not exist.
    static func missingRoot(_ display: String) -> StubsLoadError { .init(.missingRoot(display)) }
    /// A path that must be a directory is a file.
    static func notADirectory(_ display: String) -> StubsLoadError { .init(.notADirectory(display)) }
    /// The stubs directory or a folder in it exists but cannot be read (permissions, a symlink loop).
    static func unreadableDirectory(_ display: String, reason: String) -> StubsLoadError {
        .init(.unreadableDirectory(display, reason: reason))
    }
    /// A stub file exists but could not be read.
    static func unreadableFile(_ file: String, reason: String) -> StubsLoadError {
        .init(.unreadableFile(file: file, reason: reason))
    }
    /// A stub file (or an embedded JSON string) is not valid JSON.
    package static func invalidJSON(_ file: String?, _ error: JSONParseError) -> StubsLoadError {
        .init(.invalidJSON(file: file, error))
    }
    /// A mapping is well-formed JSON but not a valid stub mapping.
    static func invalidMapping(_ file: String?, path: String, _ message: String) -> StubsLoadError {
        .init(.invalidMapping(file: file, path: path, message: message))
    }

    /// A saved data collection (`--data-dir`) that does not load or fit its declaration: `file: message`.
    package static func invalidSavedData(_ file: String, _ message: String) -> StubsLoadError {
        .init(.invalidMapping(file: file, path: "", message: message))
    }

    /// The file the error is about (as displayed), if any.
    public var file: String? {
        switch storage {
        case .missingRoot, .notADirectory, .unreadableDirectory: nil
        case .unreadableFile(let file, _): file
        case .invalidJSON(let file, _), .invalidMapping(let file, _, _): file
        }
    }

    /// The JSON path inside the file (`mappings[2].response.status`; empty for the whole document),
    /// for mapping errors; `nil` for the other kinds.
    public var jsonPath: String? {
        guard case .invalidMapping(_, let path, _) = storage else { return nil }
        return path
    }

    /// The JSON syntax error, if the file is not valid JSON.
    public var parseError: JSONParseError? {
        guard case .invalidJSON(_, let error) = storage else { return nil }
        return error
    }

    /// What is wrong, without the location.
    public var message: String {
        switch storage {
        case .missingRoot(let display): "stubs directory '\(display)' does not exist"
        case .notADirectory(let display): "'\(display)' is not a directory"
        case .unreadableDirectory(let display, let reason): "cannot read stubs directory '\(display)': \(reason)"
        case .unreadableFile(_, let reason): "cannot read file: \(reason)"
        case .invalidJSON(_, let error): error.message
        case .invalidMapping(_, _, let message): message
        }
    }

    /// The full message: `file: path: message`, or `file:line:column: message` for JSON syntax errors.
    public var description: String {
        switch storage {
        case .missingRoot, .notADirectory, .unreadableDirectory:
            return message
        case .unreadableFile(let file, _):
            return "\(file): \(message)"
        case .invalidJSON(let file, let error):
            guard let file else { return error.description }
            return "\(file):\(error.line):\(error.column): \(error.message)"
        case .invalidMapping(let file, let path, let message):
            return [file, path.isEmpty ? nil : path, message].compactMap { $0 }.joined(separator: ": ")
        }
    }
}
