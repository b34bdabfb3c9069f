import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Loads a WireMock-layout stubs directory:
///
/// ```text
/// Stubs/
///   mappings/       *.json, searched recursively: one mapping object or {"mappings": [...]} per file
///   __files/        bodies named by "bodyFileName": read at load time, or when served if over 1 MiB
/// ```
///
/// ```swift
/// let result = try StubsDirectory.load(URL(fileURLWithPath: "Stubs"))
/// result.warnings.forEach { print($0) }
/// let mappings = result.mappings
/// ```
public enum StubsDirectory {
    /// Loads every mapping under `root/mappings` and the bodies they name under `root/__files`.
    ///
    /// Only files ending in `.json` (lowercase, as WireMock) are read, except macOS AppleDouble files
    /// (`._name.json`, which Finder writes on non-APFS volumes), in byte order of their path
    /// under `mappings/`, symlinked folders included once. A missing `mappings` folder gives no
    /// mappings and a warning saying what was expected (use `StubsLayout.resolvedRoot(_:)` first to accept a
    /// `mappings` folder given as the root). Mappings without an `id`/`uuid` get a UUID-shaped id derived from their file and
    /// index, stable across runs.
    /// - Parameters:
    ///   - root: The stubs directory.
    ///   - displayRoot: How the directory is written in messages (e.g. `Stubs`); defaults to `root`
    ///     as given.
    ///   - options: The settings that change what a stub means; with
    ///     ``StubsLoadOptions/globalResponseTemplating`` every template is checked now.
    /// - Returns: The mappings in load order and the grouped warnings.
    /// - Throws: ``StubsLoadError`` for a missing or unreadable directory (naming the path and the
    ///   system's reason), an unreadable or invalid file, or an invalid mapping; the message names the
    ///   file and the JSON path.
    public static func load(
        _ root: URL, displayRoot: String? = nil,
        options: StubsLoadOptions = StubsLoadOptions()
    ) throws(StubsLoadError) -> StubsLoadResult {
        var stopAtFirstError: [StubsLoadError]? = nil
        return try scan(root, displayRoot: displayRoot, options: options, errors: &stopAtFirstError)
    }

    /// ``load(_:displayRoot:options:)`` with ``StubsLoadOptions/globalResponseTemplating`` set.
    public static func load(
        _ root: URL, displayRoot: String? = nil,
        globalResponseTemplating: Bool
    ) throws(StubsLoadError) -> StubsLoadResult {
        try load(
            root, displayRoot: displayRoot,
            options: StubsLoadOptions(globalResponseTemplating: globalResponseTemplating))
    }

    /// ``load(_:displayRoot:options:)`` that goes on after an invalid file or mapping when
    /// `errors` is given: each error is appended and the rest still loads (``StubsCheck``). Errors about
    /// the directory itself are thrown either way.
    static func scan(
        _ root: URL, displayRoot: String?, options: StubsLoadOptions,
        errors: inout [StubsLoadError]?
    ) throws(StubsLoadError) -> StubsLoadResult {
        var display = displayRoot ?? root.relativePath
        while display.count > 1, display.hasSuffix("/") { display.removeLast() }
        switch PathStatus(root.path) {
        case .directory: break
        case .file, .special: throw .notADirectory(display)
        case .missing: throw .missingRoot(display)
        case .unreachable(let reason): throw .unreadableDirectory(display, reason: reason)
        }
        if let reason = PathStatus.unreadableDirectoryReason(root.path) {
            throw .unreadableDirectory(display, reason: reason)
        }

        let bodyFiles = BodyFiles(
            directory: root.appendingPathComponent("__files", isDirectory: true),
            displayPath: display + "/__files")
        let collections = try loadCollections(root, display: display, bodyFiles: bodyFiles, errors: &errors)
        let mappingsURL = root.appendingPathComponent("mappings", isDirectory: true)
        let mappingsDisplay = display + "/mappings"
        switch PathStatus(mappingsURL.path) {
        case .directory: break
        case .file, .special: throw .notADirectory(mappingsDisplay)
        case .unreachable(let reason): throw .unreadableDirectory(mappingsDisplay, reason: reason)
        case .missing:
            var result = StubsLoadResult(
                mappings: [], warningDetails: [],
                layoutWarnings: collections.isEmpty
                    ? [StubsLayout.missingMappingsWarning(root: root, display: display)] : [])
            result.collections = collections
            return result
        }
        if let reason = PathStatus.unreadableDirectoryReason(mappingsURL.path) {
            throw .unreadableDirectory(mappingsDisplay, reason: reason)
        }

        let decoder = MappingDecoder(bodyFiles: bodyFiles, options: options)
        var mappings: [StubMapping] = []
        var warnings: [MappingWarning] = []
        let listing = try jsonFiles(under: mappingsURL, display: mappingsDisplay)
        for relative in listing.files {
            let file = mappingsDisplay + "/" + relative
            do throws(StubsLoadError) {
                let json = try readJSON(mappingsURL.appendingPathComponent(relative), file: file)
                let result = try decoder.decodeDocument(json, file: file, errors: &errors)
                warnings += result.warnings
                guard let host = virtualHost(ofMappingFile: relative, among: options.virtualHosts) else {
                    mappings += result.mappings
                    continue
                }
                for (index, mapping) in result.mappings.enumerated() {
                    do throws(StubsLoadError) {
                        let listIndex = json["mappings"] == nil ? nil : index
                        mappings.append(try scope(mapping, toHost: host, file: file, index: listIndex))
                    } catch {
                        guard errors != nil else { throw error }
                        errors?.append(error)
                    }
                }
            } catch {
                guard errors != nil else { throw error }
                errors?.append(error)
            }
        }
        let layout = listing.skipped + (mappings.isEmpty ? StubsLayout.noStubsHint(root: root).map { [$0] } ?? [] : [])
        var result = StubsLoadResult(mappings: mappings, warningDetails: warnings, layoutWarnings: layout)
        result.compiled = decoder.compiled
        result.collections = collections
        return result
    }

    /// The JSON of the stub file at `url` (`file` as displayed).
    /// - Throws: ``StubsLoadError`` when it cannot be read or is not JSON.
    private static func readJSON(_ url: URL, file: String) throws(StubsLoadError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw StubsLoadError.unreadableFile(file, reason: FileErrorReason.describe(error))
        }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw StubsLoadError.invalidJSON(file, error)
        }
    }

    /// The data collections declared under `root/collections` (``DataCollection/init(json:file:path:bodyFiles:)``),
    /// in file order; none when the folder does not exist. Two collections may not share a name or a base path.
    static func loadCollections(
        _ root: URL, display: String, bodyFiles: BodyFiles, errors: inout [StubsLoadError]?
    ) throws(StubsLoadError) -> [DataCollection] {
        let folder = root.appendingPathComponent("collections", isDirectory: true)
        let folderDisplay = display + "/collections"
        switch PathStatus(folder.path) {
        case .directory: break
        case .missing: return []
        case .file, .special: throw .notADirectory(folderDisplay)
        case .unreachable(let reason): throw .unreadableDirectory(folderDisplay, reason: reason)
        }
        var collections: [DataCollection] = []
        for relative in try jsonFiles(under: folder, display: folderDisplay).files {
            let file = folderDisplay + "/" + relative
            do throws(StubsLoadError) {
                let json = try readJSON(folder.appendingPathComponent(relative), file: file)
                let declared: [(JSONValue, String)]
                if case .array(let list)? = json["collections"] {
                    declared = list.enumerated().map { ($1, "collections[\($0)]") }
                } else {
                    declared = [(json, "")]
                }
                for (object, path) in declared {
                    let collection = try DataCollection(json: object, file: file, path: path, bodyFiles: bodyFiles)
                    if let other = collections.first(where: {
                        $0.name == collection.name || $0.basePath == collection.basePath
                    }) {
                        let what =
                            other.name == collection.name ? "name \"\(other.name)\"" : "basePath \(other.basePath)"
                        throw StubsLoadError.invalidMapping(
                            file, path: path.isEmpty ? "name" : path + ".name",
                            "a second data collection with the \(what) (the first is in \(other.source ?? "?"))")
                    }
                    collections.append(collection)
                }
            } catch {
                guard errors != nil else { throw error }
                errors?.append(error)
            }
        }
        return collections
    }

    /// Relative paths of the `.json` files under `directory`, recursively, sorted by UTF-8 bytes, and a
    /// warning for each `.json` name that is not a regular file (a FIFO, a device, a socket: never
    /// opened, since opening a FIFO blocks), sorted the same way.
    static func jsonFiles(under directory: URL, display: String) throws(StubsLoadError) -> (
        files: [String], skipped: [String]
    ) {
        var found: [String] = []
        var skipped: [String] = []
        var visited: Set<String> = []
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? directory.path : directory.path + "/" + relative
            // Follow symlinked folders, but each real folder only once (no loops).
            guard let real = BodyFiles.realPath(path), visited.insert(real).inserted else { continue }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                let reason = PathStatus.unreadableDirectoryReason(path) ?? FileErrorReason.describe(error)
                throw .unreadableDirectory(relative.isEmpty ? display : display + "/" + relative, reason: reason)
            }
            // `..data` and `..2026_…`: the folders Kubernetes writes a mounted ConfigMap or Secret into, beside links
            // to their files; read, they would load every stub twice.
            for name in names where !name.hasPrefix("..") {
                let child = relative.isEmpty ? name : relative + "/" + name
                let status = PathStatus(path + "/" + name)
                if status == .directory {
                    pending.append(child)
                } else if name.hasSuffix(".json"), !name.hasPrefix("._") {
                    // `._name.json`: an AppleDouble file Finder writes beside `name.json` on non-APFS volumes.
                    if status == .file {
                        found.append(child)
                    } else if case .special(let kind) = status {
                        skipped.append(PathStatus.skippedWarning(display + "/" + child, kind))
                    }
                }
            }
        }
        let byteOrder = { (a: String, b: String) in a.utf8.lexicographicallyPrecedes(b.utf8) }
        return (found.sorted(by: byteOrder), skipped.sorted(by: byteOrder))
    }
}
