import StubHTTP

/// `/__admin/files`: the files under the stubs directory's `__files`, confined to it.
extension AdminAPI {
    /// `GET /__admin/files`: the file names relative to `__files`, sorted (`["users/octocat.json"]`).
    func listFiles() throws(AdminError) -> HTTPResponse {
        AdminResponse.json(.array(try files().list().map(JSONValue.string)))
    }

    /// The head of `GET /__admin/files/{name}`, answered by ``answer(_:responder:executor:)``: the file's
    /// bytes, streamed from disk when over ``BodyFiles/cacheLimit``; 404 if there is none.
    static let fileHeaders: StubHTTPHeaders = ["Content-Type": "application/octet-stream"]

    /// The file `name` under `__files`: its bytes if small, else the file to stream.
    func loadFile(_ name: String) throws(AdminError) -> BodyFiles.Content {
        let files = try files()
        try check(name, files)
        do {
            return try files.load(name)
        } catch {
            // A symlink leading out of the folder is bad input; anything else means there is no such file.
            if error.description.contains("outside") { throw Self.invalidFile(error.description) }
            throw .notFound(error.description)
        }
    }

    /// `PUT /__admin/files/{name}`: writes the request body to the file (folders are created). `{}`.
    func putFile(_ name: String, _ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let files = try files()
        do {
            try files.write(body, to: name)
        } catch {
            throw Self.invalidFile(error.description)
        }
        return AdminResponse.empty
    }

    /// `DELETE /__admin/files/{name}`: removes the file; 404 if there is none. `{}`.
    func deleteFile(_ name: String) throws(AdminError) -> HTTPResponse {
        let files = try files()
        let deleted: Bool
        do {
            deleted = try files.delete(name)
        } catch {
            throw Self.invalidFile(error.description)
        }
        guard deleted else { throw .notFound("no file '\(name)' in \(files.displayPath)") }
        return AdminResponse.empty
    }

    private func files() throws(AdminError) -> BodyFiles {
        guard let bodyFiles else {
            throw AdminError(
                status: .notFound, code: 404, title: "No stubs directory",
                detail: "this server has no stubs directory, so no __files; start it with one", pointer: nil)
        }
        return bodyFiles
    }

    private func check(_ name: String, _ files: BodyFiles) throws(AdminError) {
        do { try BodyFiles.checkName(name, in: files.displayPath) } catch { throw Self.invalidFile(error.description) }
    }

    private static func invalidFile(_ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid file name",
            detail: detail, pointer: nil)
    }
}
