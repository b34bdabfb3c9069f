import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files of persistent stubs (WireMock's `persistent`): written into the stubs directory's `mappings/` when
/// a stub is added or changed, deleted when it is removed. Only a file that holds that one stub alone, inside
/// `mappings/`, is ever rewritten or deleted; a stub file without `"persistent": true` is never touched unless a
/// call makes its stub persistent.
extension AdminAPI {
    /// `mapping` as it is kept: when persistent, written to its file first (the one `replacing` had, else a new
    /// `saved-….json`) and with that file as its ``StubMapping/source``.
    /// - Parameter replacing: the stub `mapping` replaces, if any; its file, when it was persistent and `mapping`
    ///   is not, is deleted.
    /// - Throws: ``AdminError`` 422 without a writable stubs directory, or when `replacing` comes from a file of
    ///   several stubs (which is never rewritten: the stub would be in two files); 500 when the file cannot be
    ///   written.
    func keeping(_ mapping: StubMapping, replacing: StubMapping? = nil) throws(AdminError) -> StubMapping {
        guard mapping.persistent else {
            if let replacing, replacing.persistent { deleteFile(of: replacing) }
            return mapping
        }
        if let source = replacing?.source, Self.isInFileOfSeveral(source) {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Cannot persist the stub",
                detail: "the stub \(mapping.id) comes from \(source), a file of several stubs, which stubserver does "
                    + "not rewrite; move it to a file of its own to make it persistent", pointer: "/persistent")
        }
        var kept = mapping
        kept.source = try write(mapping, over: replacing.flatMap(ownFile(of:)))
        return kept
    }

    /// Deletes the files of the persistent stubs among `mappings`, each only if it holds that stub alone;
    /// what cannot be deleted is logged.
    func deleteFiles(of mappings: [StubMapping]) {
        for mapping in mappings where mapping.persistent { deleteFile(of: mapping) }
    }

    /// Writes `mapping` (with `"persistent": true`) to `file`, or to a new `saved-….json` in `mappings/`.
    /// Returns the file's path.
    func write(_ mapping: StubMapping, over file: URL?) throws(AdminError) -> String {
        let folder = try writableMappingsFolder(for: "persist the stub \(mapping.id)")
        var persistent = mapping
        persistent.persistent = true
        var bytes = persistent.json.serializedBytes(.pretty)
        bytes.append(UInt8(ascii: "\n"))
        do {
            if let file {
                try Data(bytes).write(to: file, options: .atomic)
                return file.path
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try Self.writeNew(bytes, in: folder, stem: Self.fileStem(for: mapping))
        } catch {
            throw AdminError(
                status: .internalServerError, code: 500, title: "Cannot persist the stub",
                detail: "\((file ?? folder).path): \(FileErrorReason.describe(error))", pointer: nil)
        }
    }

    /// `mappings/` of the stubs directory, if it can be written into.
    /// - Parameter purpose: what the caller wants to do, for the error.
    /// - Throws: ``AdminError`` 422 without a stubs directory, or with one that is read-only or inside a bundle.
    func writableMappingsFolder(for purpose: String) throws(AdminError) -> URL {
        guard let stubsDirectory else {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "No stubs directory",
                detail: "cannot \(purpose): this server has no stubs directory to write mapping files into; "
                    + "start it with one", pointer: nil)
        }
        if let problem = StubsFolderWritability.problem(writingInto: stubsDirectory) {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Read-only stubs folder",
                detail: "cannot \(purpose): \(problem)", pointer: nil)
        }
        return stubsDirectory.appendingPathComponent("mappings", isDirectory: true)
    }

    private func deleteFile(of mapping: StubMapping) {
        guard let file = ownFile(of: mapping) else { return }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            log.write(
                "stubserver: warning: admin: the persistent stub \(mapping.id) is removed, but its file is not: "
                    + "\(file.path): \(FileErrorReason.describe(error))")
        }
    }

    /// The file `mapping` was loaded from or written to (its ``StubMapping/source``), if that file is inside the
    /// stubs directory's `mappings/` and holds `mapping` alone: the only file the admin API rewrites or deletes.
    /// `nil` for a stub of a file with several (`{"mappings": [...]}`), which stays as it is (as WireMock keeps
    /// such files read-only).
    func ownFile(of mapping: StubMapping) -> URL? {
        guard let source = mapping.source, !Self.isInFileOfSeveral(source), let stubsDirectory else { return nil }
        let folder = stubsDirectory.appendingPathComponent("mappings", isDirectory: true).resolvingSymlinksInPath()
        let file = URL(fileURLWithPath: source).standardizedFileURL
        guard file.resolvingSymlinksInPath().path.hasPrefix(folder.path + "/"),
            let data = try? Data(contentsOf: file), let json = try? JSONParser.parse([UInt8](data)),
            case .object(let members) = json, !members.contains(where: { $0.key == "mappings" })
        else { return nil }
        let id =
            (json["id"] ?? json["uuid"])?.stringValue
            ?? MappingDecoder.Run.derivedID(source: source, index: 0)
        return id == mapping.id ? file : nil
    }

    /// Whether a ``StubMapping/source`` names a stub of a `{"mappings": [...]}` file (`all.json [2]`).
    private static func isInFileOfSeveral(_ source: String) -> Bool {
        source.hasSuffix("]") && source.contains(" [")
    }
}
