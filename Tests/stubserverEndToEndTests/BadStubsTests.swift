// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// Stub directories that must not start a server: exit 3, one message on stderr naming the file and field.
    final class BadStubsTests: XCTestCase {
        private struct Row: Sendable {
            var label: String
            /// Builds the stubs directory.
            var setUp: @Sendable (TemporaryStubs) throws -> Void
            /// The `--stubs` argument, relative to the temporary folder.
            var stubsArgument = "stubs"
            /// More arguments for `stubserver`.
            var arguments: [String] = []
            /// The expected stderr, after `stubserver: error: `, up to the end of the line (or a prefix of it).
            var message: String
        }

        private static let ok = #""response": {"status": 200}"#

        private static let rows: [Row] = [
            Row(
                label: "invalid JSON",
                setUp: {
                    try $0.write(
                        "mappings/m.json", "{\"request\": {\"url\": \"/a\"},\n  \"response\": {\"status\": 200,}}")
                }, message: "stubs/mappings/m.json:2:30: expected a string key, found '}'"),
            Row(
                label: "wrong type",
                setUp: {
                    try $0.write("mappings/m.json", #"{"request": {"url": "/a"}, "response": {"status": "200"}}"#)
                }, message: #"stubs/mappings/m.json: response.status: expected an integer, found "200""#),
            Row(
                label: "wrong type in a mappings array",
                setUp: {
                    try $0.write(
                        "mappings/all.json",
                        #"{"mappings": [{"request": {"url": "/a"}, \#(ok)}, {"request": {"url": "/b"}, "response": {"status": true}}]}"#
                    )
                }, message: "stubs/mappings/all.json: mappings[1].response.status: expected an integer"),
            Row(
                label: "bodyFileName missing",
                setUp: {
                    try $0.write(
                        "mappings/m.json",
                        #"{"request": {"url": "/a"}, "response": {"status": 200, "bodyFileName": "nope.json"}}"#)
                },
                arguments: ["--strict"],
                message:
                    "stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'nope.json' not found in stubs/__files"
            ),
            Row(
                label: "bodyFileName escaping with ..",
                setUp: {
                    try $0.write(
                        "mappings/m.json",
                        #"{"request": {"url": "/a"}, "response": {"status": 200, "bodyFileName": "../mappings/m.json"}}"#
                    )
                },
                arguments: ["--strict"],
                message:
                    "stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' '../mappings/m.json' escapes stubs/__files"
            ),
            Row(
                label: "bodyFileName escaping through a symlink",
                setUp: {
                    let secret = try $0.writeOutside("secret.txt", "not for stubs")
                    try $0.symlink("__files/link.txt", to: secret)
                    try $0.write(
                        "mappings/m.json",
                        #"{"request": {"url": "/a"}, "response": {"status": 200, "bodyFileName": "link.txt"}}"#)
                }, arguments: ["--strict"],
                message: "stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'link.txt' resolves to "),
            Row(
                label: "typo'd field",
                setUp: {
                    try $0.write("mappings/m.json", #"{"request": {"url": "/a"}, "response": {"stauts": 200}}"#)
                }, message: "stubs/mappings/m.json: response.stauts: unknown field; did you mean 'status'?"),
            Row(
                label: "bad regex",
                setUp: {
                    try $0.write("mappings/m.json", #"{"request": {"urlPathPattern": "/a/[0-9"}, \#(ok)}"#)
                }, message: #"stubs/mappings/m.json: request.urlPathPattern: invalid regular expression "/a/[0-9""#),
            Row(
                label: "two URL fields",
                setUp: {
                    try $0.write("mappings/m.json", #"{"request": {"url": "/a", "urlPath": "/a"}, \#(ok)}"#)
                }, message: "stubs/mappings/m.json: request: both 'url' and 'urlPath' are set"),
            Row(
                label: "error in a nested folder",
                setUp: {
                    try $0.write("mappings/a.json", #"{"request": {"url": "/a"}, \#(ok)}"#)
                    try $0.write("mappings/team/b/c.json", #"{"request": {"url": "/c", "method": 7}, \#(ok)}"#)
                }, message: "stubs/mappings/team/b/c.json: request.method: "),
            Row(
                label: "a matcher stubserver does not implement",
                setUp: {
                    try $0.write(
                        "mappings/m.json", #"{"request": {"url": "/a", "customMatcher": {"name": "x"}}, \#(ok)}"#)
                },
                message:
                    "stubs/mappings/m.json: request.customMatcher: 'customMatcher' is not supported by stubserver; use method, url, "
            ),
            Row(
                label: "nonexistent stubs directory", setUp: { _ in }, stubsArgument: "nowhere",
                message: "stubs directory 'nowhere' does not exist")
        ]

        func testEachBadStubsDirectoryExitsThreeNamingTheFile() throws {
            for row in Self.rows {
                let temp = try TemporaryStubs()
                try row.setUp(temp)
                let run = try StubServerProcess.run(
                    ["--stubs", row.stubsArgument, "--port", "0"] + row.arguments, currentDirectory: temp.root)
                XCTAssertEqual(run.termination, .exited(3), row.label)
                XCTAssertEqual(run.stdout, "", "\(row.label): nothing listens, so no Listening line")
                XCTAssertTrue(run.stderr.hasPrefix("stubserver: error: " + row.message), "\(row.label): \(run.stderr)")
                // The error, then (for an error in a file) where to see them all.
                let lines = run.stderr.split(separator: "\n")
                let hint = "stubserver: `stubserver check --stubs stubs` lists every error, not only the first"
                XCTAssertEqual(
                    Array(lines.dropFirst()), row.stubsArgument == "stubs" ? [Substring(hint)] : [],
                    "\(row.label): \(run.stderr)")
            }
            // The symlinked file must not be named as if it were inside __files, and must not be served.
            let temp = try TemporaryStubs()
            try Self.rows.first { $0.label == "bodyFileName escaping through a symlink" }!.setUp(temp)
            let run = try StubServerProcess.run(
                ["--stubs", "stubs", "--port", "0", "--strict"], currentDirectory: temp.root)
            XCTAssertTrue(run.stderr.contains("secret.txt, outside stubs/__files\n"), run.stderr)
        }

        /// With `--lenient`, a stub using a matcher stubserver does not implement loads with a warning and
        /// matches nothing; the other stubs serve, and `check --lenient` calls it a warning.
        func testLenientLoadsAStubWithAnUnsupportedMatcherThatNeverMatches() async throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/m.json", #"{"request": {"url": "/a", "customMatcher": {"name": "x"}}, \#(Self.ok)}"#)
            try temp.write("mappings/ok.json", #"{"request": {"url": "/b"}, "response": {"body": "fine"}}"#)
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--lenient"], currentDirectory: temp.root)
            defer { server.stop() }
            let never = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("a"))
            XCTAssertEqual(never.status, 404)
            XCTAssertTrue(String(decoding: never.body, as: UTF8.self).contains("customMatcher"))
            let fine = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("b"))
            XCTAssertEqual(String(decoding: fine.body, as: UTF8.self), "fine")
            XCTAssertTrue(
                server.waitForStandardError(
                    containing:
                        "stubserver: warning: 'customMatcher' in request is not supported by stubserver: the stub never matches (used by stubs/mappings/m.json)"
                ),
                server.standardError)
            let strict = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(strict.termination, .exited(3), strict.stdout)
            let lenient = try StubServerProcess.run(
                ["check", "--stubs", "stubs", "--lenient"], currentDirectory: temp.root)
            XCTAssertEqual(lenient.termination, .exited(0), lenient.stdout)
            XCTAssertTrue(lenient.stdout.contains("'customMatcher' in request is not supported"), lenient.stdout)
        }

        /// Without `--strict`, a missing body file is what WireMock makes of it: the server starts, the other
        /// stubs answer, and that stub answers 500 naming the file; `check` still calls it an error.
        func testAMissingBodyFileStartsTheServerAndThatStubAnswers500() async throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/m.json",
                #"{"request": {"url": "/a"}, "response": {"status": 200, "bodyFileName": "nope.json"}}"#)
            try temp.write("mappings/ok.json", #"{"request": {"url": "/b"}, "response": {"body": "fine"}}"#)
            let server = try StubServerProcess.launch(["--stubs", "stubs"], currentDirectory: temp.root)
            defer { server.stop() }
            let broken = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("a"))
            XCTAssertEqual(broken.status, 500)
            XCTAssertEqual(
                String(decoding: broken.body, as: UTF8.self),
                "stubserver: stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'nope.json' not found in stubs/__files\n"
            )
            let fine = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("b"))
            XCTAssertEqual(String(decoding: fine.body, as: UTF8.self), "fine")
            XCTAssertTrue(
                server.waitForStandardError(
                    containing:
                        "stubserver: warning: response.bodyFileName: 'bodyFileName' 'nope.json' not found in stubs/__files; the stub answers 500 (--strict makes this an error) (used by stubs/mappings/m.json)"
                ),
                server.standardError)

            let check = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(check.termination, .exited(3), check.stdout)
            XCTAssertTrue(check.stdout.contains("'bodyFileName' 'nope.json' not found in stubs/__files"), check.stdout)
        }
    }
#endif
