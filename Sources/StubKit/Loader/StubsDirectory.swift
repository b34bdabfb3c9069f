import Foundation

/// Loads a WireMock-layout stubs directory:
///
/// ```text
/// Stubs/
///   mappings/       *.json, searched recursively: one mapping object or {"mappings": [...]} per file
///   __files/        bodies named by "bodyFileName", read at load time
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
    /// Only files ending in `.json` (lowercase, as WireMock) are read, in byte order of their path
    /// under `mappings/`, symlinked folders included once. A missing `mappings` folder gives no
    /// mappings. Mappings without an `id`/`uuid` get a UUID-shaped id derived from their file and
    /// index, stable across runs.
    /// - Parameters:
    ///   - root: The stubs directory.
    ///   - displayRoot: How the directory is written in messages (e.g. `Stubs`); defaults to `root`
    ///     as given.
    /// - Returns: The mappings in load order and the grouped warnings.
    /// - Throws: ``StubsLoadError`` for a missing directory, an unreadable or invalid file, or an
    ///   invalid mapping; the message names the file and the JSON path.
    public static func load(_ root: URL, displayRoot: String? = nil) throws(StubsLoadError) -> StubsLoadResult {
        var display = displayRoot ?? root.relativePath
        while display.count > 1, display.hasSuffix("/") { display.removeLast() }
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root.path, isDirectory: &isDirectory) else { throw .missingRoot(display) }
        guard isDirectory.boolValue else { throw .notADirectory(display) }

        let mappingsURL = root.appendingPathComponent("mappings", isDirectory: true)
        let mappingsDisplay = display + "/mappings"
        guard fileManager.fileExists(atPath: mappingsURL.path, isDirectory: &isDirectory) else {
            return StubsLoadResult(mappings: [], warningDetails: [])
        }
        guard isDirectory.boolValue else { throw .notADirectory(mappingsDisplay) }

        let bodyFiles = BodyFiles(directory: root.appendingPathComponent("__files", isDirectory: true),
                                  displayPath: display + "/__files")
        let decoder = MappingDecoder(bodyFiles: bodyFiles)
        var mappings: [StubMapping] = []
        var warnings: [MappingWarning] = []
        for relative in try jsonFiles(under: mappingsURL, display: mappingsDisplay) {
            let file = mappingsDisplay + "/" + relative
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try Data(contentsOf: mappingsURL.appendingPathComponent(relative)))
            } catch {
                throw .unreadableFile(file, reason: error.localizedDescription)
            }
            let json: JSONValue
            do {
                json = try JSONParser.parse(bytes)
            } catch {
                throw .invalidJSON(file, error)
            }
            let result = try decoder.decodeDocument(json, file: file)
            mappings += result.mappings
            warnings += result.warnings
        }
        return StubsLoadResult(mappings: mappings, warningDetails: warnings)
    }

    /// Relative paths of the `.json` files under `directory`, recursively, sorted by UTF-8 bytes.
    static func jsonFiles(under directory: URL, display: String) throws(StubsLoadError) -> [String] {
        var found: [String] = []
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
                throw .unreadableFile(relative.isEmpty ? display : display + "/" + relative, reason: error.localizedDescription)
            }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    pending.append(child)
                } else if name.hasSuffix(".json") {
                    found.append(child)
                }
            }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
