/// A body file too big to keep with its stub (over ``BodyFiles/cacheLimit``): it is opened each time
/// it is served and streamed from disk, so every connection reads the current file through its own
/// bounded buffer, and a file that has gone or changed is reported then.
struct StreamedBodyFile: Sendable, Hashable {
    /// The name under `__files`, as in the stub (`videos/big.mp4`).
    let name: String
    /// The real path, checked to be inside `__files` when the stub was loaded.
    let path: String
    /// How `__files` is named in messages, e.g. `Stubs/__files`.
    let displayPath: String

    /// Opens the file to serve it.
    /// - Throws: a message naming the file and the system's reason.
    func open() throws(BodyFiles.ReadError) -> BodyFileReader {
        do throws(BodyFiles.ReadError) {
            return try BodyFileReader(path: path)
        } catch {
            throw BodyFiles.cannotRead(name, in: displayPath, error.description)
        }
    }
}
