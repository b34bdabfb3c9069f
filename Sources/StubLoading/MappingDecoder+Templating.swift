import StubModel
import StubTemplating

/// Decoding of `transformers` and the load-time check of response templates.
extension MappingDecoder.Run {
    func decodeTransformers(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> [String] {
        guard case let .array(elements) = json else {
            throw failure(
                path, "expected an array of strings such as [\"response-template\"], found \(json.foundDescription)")
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            names.append(try string(element, at: path.index(index)))
        }
        return names
    }

    /// Parses every template of a templated response now, so a syntax error stops loading with the
    /// field and position (`response.body: template error at 1:9: unknown helper 'ne'`); reads the
    /// candidate files of a templated `bodyFileName`.
    /// A helper no WireMock core has (a custom `{{uuidv7}}`) loads with a warning naming it; a
    /// response that reaches it answers 500 naming it. So does a `fake` / `random` key that names no fake data.
    ///
    /// The parse is kept in the response (``ResponseDefinition/parseTemplates(bodyFileName:)``) and serving takes
    /// it: each template is parsed once per load. A stream's or WebSocket's templates (under `metadata.stubserver`)
    /// are parsed with the rest, so the main response is checked once its metadata is decoded: `mapping` is the
    /// stub's path, for those.
    mutating func checkTemplates(
        _ response: inout ResponseDefinition, at path: MappingPath, mapping: MappingPath? = nil
    ) throws(StubsLoadError) {
        // A templated file name is parsed first, so that a syntax error in it reads no file; the response's
        // template uses that parse.
        var fileName: Template?
        if case let .file(name, _) = response.body, Template.hasTags(name.utf8), let bodyFiles {
            let fieldPath = path.key("bodyFileName")
            do {
                fileName = try Template(name)
            } catch {
                throw failure(
                    fieldPath, ResponseTemplate.Failure(field: ["bodyFileName"], bodyFile: nil, error: error).message)
            }
            let files: [String: [UInt8]]
            do {
                files = try bodyFiles.candidates(forTemplatedName: name)
            } catch {
                throw failure(fieldPath, error.description)
            }
            // The files are parsed as templates below, with the rest of the response.
            response.bodyFileSet = BodyFileSet(files: files, displayPath: bodyFiles.displayPath)
        }
        let metadata = (mapping ?? path).key("metadata").key("stubserver")
        do {
            let template = try response.parseTemplates(bodyFileName: fileName)
            for (field, helper) in template.unknownHelpers {
                if field.hasPrefix("metadata.") {
                    warn(.unknownHelper(helper), "metadata.stubserver", at: metadata)
                } else {
                    warn(.unknownHelper(helper), field, at: path)
                }
            }
            for (field, key) in template.unknownFakeDataKeys { warn(.unknownFakeDataKey(key), field, at: path) }
        } catch {
            throw failure(error, at: error.field.first == "metadata" ? mapping ?? path : path)
        }
    }

    /// The load error for a template problem in the response (or `metadata.stubserver`) at `path`, naming the
    /// field as in the stub file (`body`, `events[0].data`).
    func failure(_ problem: ResponseTemplate.Failure, at path: MappingPath) -> StubsLoadError {
        var fieldPath = path
        for part in problem.field {
            if part.hasPrefix("["), let index = Int(part.dropFirst().dropLast()) {
                fieldPath = fieldPath.index(index)
            } else {
                fieldPath = fieldPath.key(part)
            }
        }
        return failure(fieldPath, problem.message)
    }
}
