import StubHTTP
import StubLoading
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubWriter {
    /// Creates the files of each stub under names no file has yet.
    struct FileSink {
        let root: URL
        let displayRoot: String
        /// Stems taken by this call (`get-users-octocat`), lowercased: macOS volumes ignore case.
        private var used: Set<String> = []

        init(root: URL, displayRoot: String) {
            self.root = root
            self.displayRoot = displayRoot
        }

        var mappings: URL { root.appendingPathComponent("mappings") }
        var files: URL { root.appendingPathComponent("__files") }

        func createFolders() throws(StubWriteError) {
            for (folder, name) in [(mappings, "mappings"), (files, "__files")] {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                } catch {
                    throw StubWriteError(
                        description: "\(displayRoot)/\(name): cannot be created: \(FileErrorReason.describe(error))")
                }
            }
        }

        /// Writes the body (if any, unless `inline`), then the mapping, under the first free `stem`, `stem-2`, …
        mutating func write(
            _ stub: PlannedStub, response plan: ResponsePlan, step: ScenarioStep?,
            id: String, inline: Bool
        ) throws(StubWriteError) -> WrittenStub {
            let base = StubWriter.fileStem(method: stub.method, path: stub.request.path)
            let hasBody = !plan.body.isEmpty
            let bodyFile = hasBody && !inline
            for attempt in 1...10_000 {
                let stem = attempt == 1 ? base : "\(base)-\(attempt)"
                guard !used.contains(stem.lowercased()) else { continue }
                let bodyName = "\(stem).\(plan.fileExtension)"
                let mappingName = "\(stem).json"
                if bodyFile, exists(files.appendingPathComponent(bodyName)) { continue }
                if exists(mappings.appendingPathComponent(mappingName)) { continue }
                if bodyFile,
                    try !createExclusively(
                        plan.body, at: files.appendingPathComponent(bodyName),
                        display: "__files/\(bodyName)")
                {
                    continue
                }
                let body: ResponseDefinition.Body =
                    bodyFile ? .file(name: bodyName, bytes: plan.body) : StubWriter.inlineBody(plan.body)
                var mapping = StubWriter.mapping(stub, response: plan, body: body, step: step, id: id)
                // Another stub of this call has the same method and path: its name says which one this is, as
                // its file name does, so reports never show two stubs under one name.
                if stem != base, let name = mapping.name { mapping.name = "\(name) (\(stem))" }
                var bytes = mapping.json.serializedBytes(.pretty)
                bytes.append(UInt8(ascii: "\n"))
                guard
                    try createExclusively(
                        bytes, at: mappings.appendingPathComponent(mappingName),
                        display: "mappings/\(mappingName)")
                else {
                    // Someone took the mapping name meanwhile: take back our own body file, try the next stem.
                    if bodyFile { try? FileManager.default.removeItem(at: files.appendingPathComponent(bodyName)) }
                    continue
                }
                used.insert(stem.lowercased())
                mapping.source = "\(displayRoot)/mappings/\(mappingName)"
                let summary = StubWriter.summaryStub(
                    stub, step: step, mappingFile: "mappings/\(mappingName)",
                    bodyFile: bodyFile ? "__files/\(bodyName)" : nil)
                return WrittenStub(summary: summary, mapping: mapping)
            }
            throw StubWriteError(description: "\(displayRoot)/mappings: no free name left for '\(base).json'")
        }

        /// Whether anything is at the URL, a dangling symlink included.
        private func exists(_ url: URL) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: url.path)) != nil
        }

        /// Creates the file only if nothing is there, atomically: the bytes go to a hidden temporary file
        /// beside it (`.name.N.partial`, which no loader reads), which is then hard-linked to the name
        /// (a hard link fails if the name is taken), so a stop half-way never leaves a partial stub file.
        /// `false` when the name was taken meanwhile.
        private func createExclusively(_ bytes: [UInt8], at url: URL, display: String) throws(StubWriteError) -> Bool {
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(UInt32.random(in: .min ... .max)).partial")
            do {
                try Data(bytes).write(to: temporary, options: .withoutOverwriting)
            } catch {
                throw StubWriteError(
                    description: "\(displayRoot)/\(display): cannot be written: \(FileErrorReason.describe(error))")
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            do {
                try FileManager.default.linkItem(at: temporary, to: url)
                return true
            } catch  where exists(url) {
                return false
            } catch {
                // A file system without hard links: an exclusive create, written in place (below).
            }
            do {
                try Data(bytes).write(to: url, options: .withoutOverwriting)
                return true
            } catch  where exists(url) {
                return false
            } catch {
                throw StubWriteError(
                    description: "\(displayRoot)/\(display): cannot be written: \(FileErrorReason.describe(error))")
            }
        }

        /// The URL as the summary shows it: `url` as is, `urlPath` with its matched parameters.
        private static func urlText(_ matcher: URLMatcher) -> String {
            switch matcher {
            case .url(let text), .urlPath(let text), .urlPattern(let text), .urlPathPattern(let text),
                .urlPathTemplate(let text):
                text
            }
        }
    }

    /// `get-users-octocat` for `GET /users/octocat`: lowercase ASCII letters and digits, words joined
    /// by `-`, at most 80 characters; `get-root` for `/`.
    package static func fileStem(method: String, path: String) -> String {
        var slug = ""
        for scalar in (method + " " + PercentDecoding.decode(path, plusAsSpace: false)).lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if !slug.contains("-") { slug += slug.isEmpty ? "request-root" : "-root" }
        var stem = String(slug.prefix(80))
        while stem.hasSuffix("-") { stem.removeLast() }
        return stem
    }
}
