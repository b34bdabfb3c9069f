import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `POST /__admin/mappings/save`: runtime stubs written as mapping files.
extension AdminAPI {
    /// Writes every stub added at run time that is not persistent yet to `mappings/` in the stubs directory,
    /// one file each, named after the stub (`saved-get-users-octocat-5d1a3c1e.json`), and makes it persistent
    /// (``StubMapping/persistent``): it keeps its place, survives resets, and removing it deletes its file.
    /// An existing file is never overwritten (the name gets `-2`, `-3`, …) and no file is deleted; stubs loaded
    /// from files are not written (WireMock rewrites those it changed). `{}`; 422 when the server has no stubs
    /// directory or it is read-only or inside a bundle (``StubsFolderWritability``).
    func saveMappings() throws(AdminError) -> HTTPResponse {
        _ = try writableMappingsFolder(for: "save mappings")
        var written: [String: String] = [:]
        do {
            for mapping in store.runtimeMappings where !(mapping.persistent && mapping.source != nil) {
                written[mapping.id] = try write(mapping, over: nil)
            }
        } catch {
            store.markPersisted(written)
            throw error
        }
        store.markPersisted(written)
        return AdminResponse.empty
    }

    /// `saved-` + the stub's name (or method and URL) in lowercase words + the id's first 8 characters.
    static func fileStem(for mapping: StubMapping) -> String {
        var title = mapping.name ?? ""
        if title.isEmpty {
            let method =
                switch mapping.request.method {
                case .any: "any"
                case .exactly(let name): name
                }
            title = method + " " + (mapping.request.url.map(\.description) ?? "")
        }
        var slug = ""
        for character in title.lowercased().unicodeScalars {
            if character.isASCIIAlphanumeric {
                slug.unicodeScalars.append(character)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let id = mapping.id.unicodeScalars.filter(\.isASCIIAlphanumeric)
        return "saved-" + String(slug.prefix(60)) + "-" + String(String.UnicodeScalarView(id).prefix(8))
    }

    /// Writes `bytes` to `stem.json`, or `stem-2.json`, … — the first name not taken. Returns the path.
    static func writeNew(_ bytes: [UInt8], in folder: URL, stem: String) throws -> String {
        for attempt in 1...1000 {
            let name = attempt == 1 ? "\(stem).json" : "\(stem)-\(attempt).json"
            let url = folder.appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: url.path) else { continue }
            do {
                try Data(bytes).write(to: url, options: .withoutOverwriting)
                return url.path
            } catch  where FileManager.default.fileExists(atPath: url.path) {
                continue  // created meanwhile by someone else: take the next name
            }
        }
        throw CocoaError(.fileWriteFileExists)
    }
}

private extension Unicode.Scalar {
    /// `a`–`z`, `A`–`Z`, `0`–`9`.
    var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}
