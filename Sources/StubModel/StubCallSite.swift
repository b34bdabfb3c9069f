/// Where a runtime stub was added: the `server.stub(...)` call in a test, as `#fileID`, `#filePath`,
/// `#line` and `#column` give it. Reports name an unnamed runtime stub by its pattern and this:
/// `GET /users/octocat (ProfileTests.swift:42)`.
public struct StubCallSite: Sendable, Hashable, CustomStringConvertible {
    /// `Module/File.swift`.
    public var fileID: String
    /// The file's full path where it was compiled.
    public var filePath: String
    public var line: Int
    public var column: Int

    public init(fileID: String, filePath: String, line: Int, column: Int) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `ProfileTests.swift`.
    public var fileName: String { fileID.split(separator: "/").last.map(String.init) ?? fileID }

    /// `ProfileTests.swift:42`.
    public var description: String { "\(fileName):\(line)" }
}
