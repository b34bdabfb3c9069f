import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension BodyFiles {
    /// The files a templated `bodyFileName` can name: every file under the name's literal folder (the
    /// text before the first `{{`, up to its last `/`) whose path ends with the literal text after the
    /// last `}}`. Read now, so serving reads no file.
    /// - Throws: ``ReadError`` when the folder escapes `__files`, or there are more than
    ///   ``BodyFileSet/maxFiles`` candidates or ``BodyFileSet/maxBytes`` bytes.
    func candidates(forTemplatedName name: String) throws(ReadError) -> [String: [UInt8]] {
        let quoted = "'\(name)'"
        let head = name.firstRange(of: "{{").map { String(name[..<$0.lowerBound]) } ?? name
        let folder = head.lastIndex(of: "/").map { String(head[..<$0]) } ?? ""
        let suffix = name.ranges(of: "}}").last.map { String(name[$0.upperBound...]) } ?? ""
        guard !folder.hasPrefix("/"), !folder.split(separator: "/").contains("..") else {
            throw ReadError(description: "'bodyFileName' \(quoted) escapes \(displayPath)")
        }
        let root = folder.isEmpty ? directory.path : directory.path + "/" + folder
        guard let subpaths = try? FileManager.default.subpathsOfDirectory(atPath: root) else { return [:] }
        var names: [String] = []
        for relative in subpaths {
            let candidate = folder.isEmpty ? relative : folder + "/" + relative
            guard candidate.hasSuffix(suffix) else { continue }
            guard PathStatus(root + "/" + relative) == .file else { continue }
            names.append(candidate)
            if names.count > BodyFileSet.maxFiles {
                throw ReadError(
                    description:
                        "'bodyFileName' \(quoted) could name more than \(BodyFileSet.maxFiles) files in \(displayPath)/\(folder); put them in a narrower folder"
                )
            }
        }
        var files: [String: [UInt8]] = [:]
        var total = 0
        for candidate in names {
            let bytes = try read(candidate)
            total += bytes.count
            if total > BodyFileSet.maxBytes {
                throw ReadError(
                    description:
                        "'bodyFileName' \(quoted) could name more than \(BodyFileSet.maxBytes >> 20) MiB of files in \(displayPath)/\(folder); put them in a narrower folder"
                )
            }
            files[candidate] = bytes
        }
        return files
    }
}
