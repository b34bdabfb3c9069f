/// A body file too big to keep with its stub (over `BodyFiles.cacheLimit`): it is opened each time it is
/// served and streamed from disk (`open()`), so every connection reads the current file through its own
/// bounded buffer, and a file that has gone or changed is reported then.
package struct StreamedBodyFile: Sendable, Hashable {
    /// The name under `__files`, as in the stub (`videos/big.mp4`).
    package let name: String
    /// The real path, checked to be inside `__files` when the stub was loaded.
    package let path: String
    /// How `__files` is named in messages, e.g. `Stubs/__files`.
    package let displayPath: String

    package init(name: String, path: String, displayPath: String) {
        self.name = name
        self.path = path
        self.displayPath = displayPath
    }
}
