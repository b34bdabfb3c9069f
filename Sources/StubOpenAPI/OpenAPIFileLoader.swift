import StubHTTP
import StubLoading
import StubModel
import StubYAML

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a document and the files its `$ref`s name, and puts those files' parts in place of the references.
///
/// Bounded: at most ``maxFiles`` files and ``OpenAPIDocument/maxBytes`` bytes in all, at most ``maxCopied`` nodes
/// copied in place of references, and a cycle of references across files is an error naming it.
final class OpenAPIFileLoader {
    static let maxFiles = 128
    static let maxCopied = 4_000_000
    static let maxNesting = 512

    let mainFile: String
    let directory: String
    private var files: [String: JSONValue] = [:]
    private var bytesRead = 0
    private var copied = 0

    init(mainFile: String, directory: String? = nil) {
        self.mainFile = mainFile
        self.directory = directory ?? Self.directory(of: mainFile)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// YAML, or JSON (which YAML also reads; JSON's own parser is quicker).
    static func parse(_ text: String, file: String) throws(OpenAPIError) -> JSONValue {
        let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if first == UInt8(ascii: "{") {
            do {
                return try JSONParser.parse(text)
            } catch {
                throw OpenAPIError(
                    file: file, place: "line \(error.line), column \(error.column)", message: error.message)
            }
        }
        return try OpenAPIYAML.parse(text, file: file)
    }

    func readRoot() throws(OpenAPIError) -> JSONValue {
        let root = try read(mainFile, shownAs: mainFile)
        files[Self.canonical(mainFile)] = root
        return root
    }

    private func read(_ path: String, shownAs name: String) throws(OpenAPIError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw OpenAPIError(file: name, message: "cannot read the file: \(Self.reason(error))")
        }
        bytesRead += bytes.count
        guard bytesRead <= OpenAPIDocument.maxBytes else {
            throw OpenAPIError(
                file: name, message: "the document and its referenced files pass \(OpenAPIDocument.maxBytes >> 20) MiB")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw OpenAPIError(file: name, message: "the file is not UTF-8 text")
        }
        return try Self.parse(text, file: name)
    }

    private static func reason(_ error: any Error) -> String { FileErrorReason.describe(error) }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A reference's place: the file it was found in, and the JSON pointer there.
    private struct Place: Hashable {
        let file: String
        let pointer: String
        var text: String { "\(file)#\(pointer)" }
    }

    /// `root` with every `$ref` to another file replaced by what it names (whose own references are resolved
    /// the same way, including those within that file).
    func inlineExternalReferences(_ root: JSONValue) throws(OpenAPIError) -> JSONValue {
        guard Self.hasExternalReference(root) else { return root }
        var stack: [Place] = []
        return try inline(root, file: mainFile, directory: directory, at: "", isMain: true, stack: &stack)
    }

    private func inline(
        _ node: JSONValue, file: String, directory: String, at pointer: String, isMain: Bool, stack: inout [Place]
    ) throws(OpenAPIError) -> JSONValue {
        func fail(_ message: String) -> OpenAPIError {
            OpenAPIError(file: file, place: "#" + pointer, message: message)
        }
        guard stack.count + pointer.utf8.count(where: { $0 == UInt8(ascii: "/") }) < Self.maxNesting else {
            throw fail("references nest deeper than \(Self.maxNesting) levels")
        }
        switch node {
        case .object(let members):
            if case .string(let reference)? = node["$ref"] {
                if reference.hasPrefix("#") {
                    // Within the main document: left for the validator and the operations to follow.
                    if isMain { return node }
                    return try follow(
                        Place(file: file, pointer: String(reference.dropFirst())), from: pointer, in: file,
                        stack: &stack)
                }
                let (target, fragment) = Self.split(reference)
                let path = target.hasPrefix("/") ? target : directory + "/" + target
                guard !target.contains("://") else {
                    throw fail("$ref \(Quoting.quote(reference)): only files beside the document can be referenced")
                }
                return try follow(
                    Place(file: Self.canonical(path), pointer: fragment), from: pointer, in: file, stack: &stack)
            }
            var result: [(key: String, value: JSONValue)] = []
            result.reserveCapacity(members.count)
            for (key, value) in members {
                let child = try inline(
                    value, file: file, directory: directory, at: pointer + "/" + OpenAPIPointer.escape(key),
                    isMain: isMain, stack: &stack)
                result.append((key, child))
            }
            return .object(result)
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                result.append(
                    try inline(
                        item, file: file, directory: directory, at: pointer + "/\(index)", isMain: isMain,
                        stack: &stack))
            }
            return .array(result)
        case .null, .bool, .number, .string:
            return node
        }
    }

    /// What `place` names, its references resolved in its own file.
    private func follow(_ place: Place, from pointer: String, in file: String, stack: inout [Place])
        throws(OpenAPIError) -> JSONValue
    {
        func fail(_ message: String) -> OpenAPIError {
            OpenAPIError(file: file, place: "#" + pointer + "/$ref", message: message)
        }
        if stack.contains(place) {
            let cycle = (stack.drop { $0 != place } + [place]).map(\.text).joined(separator: " → ")
            throw fail("a cycle of $refs across files: \(cycle)")
        }
        let document: JSONValue
        if let loaded = files[place.file] {
            document = loaded
        } else {
            guard files.count < Self.maxFiles else { throw fail("more than \(Self.maxFiles) files are referenced") }
            document = try read(place.file, shownAs: place.file)
            files[place.file] = document
        }
        guard let target = OpenAPIPointer.resolve(Substring(place.pointer), in: document) else {
            throw fail("$ref \(Quoting.quote(place.text)): no such place in \(place.file)")
        }
        copied += Self.size(of: target)
        guard copied <= Self.maxCopied else {
            throw fail("$refs to other files copy more than \(Self.maxCopied) values (repeated references?)")
        }
        stack.append(place)
        defer { stack.removeLast() }
        return try inline(
            target, file: place.file, directory: Self.directory(of: place.file), at: place.pointer, isMain: false,
            stack: &stack)
    }

    /// Whether any `$ref` names another file (most documents have none: they are then not copied).
    private static func hasExternalReference(_ node: JSONValue) -> Bool {
        var pending = [node]
        while let next = pending.popLast() {
            switch next {
            case .object(let members):
                for (key, value) in members {
                    if key == "$ref", case .string(let reference) = value, !reference.hasPrefix("#") { return true }
                    pending.append(value)
                }
            case .array(let items): pending.append(contentsOf: items)
            case .null, .bool, .number, .string: break
            }
        }
        return false
    }

    private static func split(_ reference: String) -> (file: String, fragment: String) {
        guard let hash = reference.firstIndex(of: "#") else { return (reference, "") }
        return (String(reference[..<hash]), String(reference[reference.index(after: hash)...]))
    }

    private static func size(of node: JSONValue) -> Int {
        var count = 0
        var pending = [node]
        while let next = pending.popLast() {
            count += 1
            switch next {
            case .object(let members): pending.append(contentsOf: members.map(\.value))
            case .array(let items): pending.append(contentsOf: items)
            case .null, .bool, .number, .string: break
            }
        }
        return count
    }
}

/// YAML documents, read with StubYAML.
enum OpenAPIYAML {
    static func parse(_ text: String, file: String) throws(OpenAPIError) -> JSONValue {
        do {
            return try YAML.parse(text)
        } catch {
            throw OpenAPIError(file: file, place: "line \(error.line), column \(error.column)", message: error.message)
        }
    }
}
