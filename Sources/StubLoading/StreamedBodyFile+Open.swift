import StubModel

extension StreamedBodyFile {
    /// Opens the file to serve it.
    /// - Throws: a message naming the file and the system's reason.
    package func open() throws(BodyFiles.ReadError) -> BodyFileReader {
        do throws(BodyFiles.ReadError) {
            return try BodyFileReader(path: path)
        } catch {
            throw BodyFiles.cannotRead(name, in: displayPath, error.description)
        }
    }
}
