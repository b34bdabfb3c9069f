import StubModel
import StubTemplating

/// Reads the body file a response names, for a stub that does not come from a stubs file: one added in
/// Swift, or a closure's answer. The stub exists already, so a file that cannot be had does not throw: the
/// response becomes a 500 saying why, and the warning is the caller's to log. (A stub file's body files are
/// read by ``MappingDecoder``, which refuses the file instead.)
package struct BodyFileResolver: Sendable {
    /// `Stubs/__files`; `nil` when the server has no stubs directory.
    let bodyFiles: BodyFiles?
    let options: StubsLoadOptions

    package init(bodyFiles: BodyFiles?, options: StubsLoadOptions) {
        self.bodyFiles = bodyFiles
        self.options = options
    }

    /// A response with its body file read, or the 500 that replaces it and the warning saying why.
    package struct Resolved {
        package var response: ResponseDefinition
        /// `stubserver: warning: …; it answers 500`, for the log.
        package var warning: String?
    }

    /// `response` with its body file read now: the file, or, for a templated name
    /// (`users/{{request.path.[1]}}.json`), every file it can name, so serving reads none.
    /// - Parameter stub: how the warning names the stub.
    package func resolve(_ response: ResponseDefinition, stub: @autoclosure () -> String) -> Resolved {
        guard let name = response.bodyFileToLoad else { return Resolved(response: response) }
        guard let bodyFiles else {
            return Self.failure(
                "body file '\(name)' needs a stubs directory; start the server with stubs:", stub: stub())
        }
        let templated = response.isTemplated(under: options)
        do {
            guard templated, Template.hasTags(name.utf8) else {
                return Resolved(response: try response.loadingBodyFile(from: bodyFiles, templated: templated))
            }
            var resolved = response
            let set = BodyFileSet(
                files: try bodyFiles.candidates(forTemplatedName: name), displayPath: bodyFiles.displayPath)
            _ = try TemplatedBodyFiles(set)  // a file that is not a valid template is reported now, not when served
            resolved.bodyFileSet = set
            return Resolved(response: resolved)
        } catch let error as BodyFiles.ReadError {
            return Self.failure(error.description, stub: stub())
        } catch let error as ResponseTemplate.Failure {
            return Self.failure(error.message, stub: stub())
        } catch {
            return Self.failure("\(error)", stub: stub())
        }
    }

    /// The 500 a stub answers with when its body cannot be had, `reason` saying why.
    private static func failure(_ reason: String, stub: String) -> Resolved {
        Resolved(
            response: ResponseDefinition(
                status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                body: .text("stubserver: \(stub): \(reason)\n")),
            warning: "stubserver: warning: \(stub): \(reason); it answers 500")
    }
}
