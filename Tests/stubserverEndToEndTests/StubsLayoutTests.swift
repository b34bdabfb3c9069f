// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import XCTest

    /// What a stubs directory may contain, served end to end: nested folders, `{"mappings": [...]}` files,
    /// binary bodies, priorities and recency across files, unsupported WireMock fields, no stubs at all.
    final class StubsLayoutTests: XCTestCase {
        private func launch(_ temp: TemporaryStubs) throws -> (StubServerProcess, URL) {
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            return (server, server.baseURL)
        }

        func testLayoutOrderingBinaryBodiesAndWarnings() async throws {
            let temp = try TemporaryStubs()
            // Files load in path byte order; at equal priority the most recently loaded stub wins.
            try temp.write(
                "mappings/a-first.json",
                #"{"mappings": [\#(simpleMapping("/ordered", body: "a-first")), \#(simpleMapping("/in-array", body: "second of two"))]}"#
            )
            try temp.write("mappings/b-later.json", simpleMapping("/ordered", body: "b-later"))
            // A lower priority number wins over more recent stubs.
            try temp.write(
                "mappings/nested/deep/priority.json",
                simpleMapping("/prio/[a-z]+", body: "priority 1", urlField: "urlPathPattern", priority: 1))
            try temp.write("mappings/z-recent.json", simpleMapping("/prio/x", body: "priority 9", priority: 9))
            // Binary body from a nested __files folder, every byte value.
            let bytes = Data((0..<1024).map { UInt8($0 % 256) })
            try temp.write("__files/bin/all-bytes.bin", data: bytes)
            try temp.write(
                "mappings/nested/binary.json",
                #"{"request": {"method": "GET", "url": "/bytes"}, "response": {"status": 200, "bodyFileName": "bin/all-bytes.bin", "headers": {"Content-Type": "application/octet-stream"}}}"#
            )
            // Unsupported WireMock fields: loaded, with a warning that lists the files.
            let scenario = #""postServeActions": {}, "serveEventListeners": []"#
            try temp.write("mappings/scenario-1.json", simpleMapping("/scenario/1", body: "one", extra: scenario))
            try temp.write(
                "mappings/nested/scenario-2.json",
                simpleMapping("/scenario/2", body: "two", extra: #""postServeActions": {}"#))
            // Not a .json file: ignored.
            try temp.write("mappings/README.md", "not a mapping")

            let (server, baseURL) = try launch(temp)
            let expectations: [(path: String, body: String)] = [
                ("/ordered", "b-later"),
                ("/in-array", "second of two"),
                ("/prio/x", "priority 1"),
                ("/scenario/1", "one"),
                ("/scenario/2", "two")
            ]
            for (path, body) in expectations {
                let response = try await LoopbackClient.send("GET", baseURL.appendingPathComponent(path))
                XCTAssertEqual(response.status, 200, path)
                XCTAssertEqual(response.text, body, path)
            }
            let binary = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("bytes"))
            XCTAssertEqual(binary.header("Content-Type"), "application/octet-stream")
            XCTAssertEqual(binary.body, bytes)

            // The warnings come before `Listening on`, the count right after it.
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: serving 8 stubs from stubs\n"),
                server.standardError)
            let stderr = server.standardError
            XCTAssertTrue(
                stderr.contains(
                    "stubserver: warning: 'postServeActions' is not supported by stubserver and is ignored (used by stubs/mappings/nested/scenario-2.json, stubs/mappings/scenario-1.json)\n"
                ), stderr)
            XCTAssertTrue(
                stderr.contains(
                    "stubserver: warning: 'serveEventListeners' is not supported by stubserver and is ignored (used by stubs/mappings/scenario-1.json)\n"
                ), stderr)
        }

        func testAnEmptyMappingsFolderServesTheNoStubsReport() async throws {
            let temp = try TemporaryStubs()
            let (server, baseURL) = try launch(temp)
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: serving 0 stubs from stubs\n"),
                server.standardError)
            let response = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("anything"))
            XCTAssertEqual(response.status, 404)
            XCTAssertTrue(response.text.hasPrefix("No stub matched GET /anything\n"), response.text)
            XCTAssertTrue(response.text.hasSuffix("No stubs are loaded.\n"), response.text)
            XCTAssertTrue(server.waitForStandardError(containing: "No stubs are loaded."), server.standardError)
        }
    }
#endif
