/// Why a HAR file could not be read, naming the file and the entry:
///
/// ```text
/// capture.har: log.entries[3].response.status: expected an integer, found "200"
/// capture.har:12:5: expected ',' or '}' after object member
/// capture.har: cannot read file: No such file or directory
/// ```
public struct HARError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public let file: String
    /// Where in the document (`log.entries[3].response.status`); empty for the file as a whole.
    public let path: String
    /// What is wrong.
    public let message: String
    /// For JSON syntax errors, `line:column` in the file.
    public let position: (line: Int, column: Int)?

    init(file: String, path: String, _ message: String, position: (line: Int, column: Int)? = nil) {
        self.file = file
        self.path = path
        self.message = message
        self.position = position
    }

    public var description: String {
        if let position { return "\(file):\(position.line):\(position.column): \(message)" }
        return [file, path.isEmpty ? nil : path, message].compactMap { $0 }.joined(separator: ": ")
    }

    public static func == (lhs: HARError, rhs: HARError) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
