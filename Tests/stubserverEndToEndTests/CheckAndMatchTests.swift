// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// `stubserver check` and `stubserver match`, run as a user runs them: the built binary, its stdout,
    /// stderr and exit code.
    final class CheckAndMatchTests: XCTestCase {
        func testCheckOnTheDemoStubsExitsZeroWithNothingToReport() throws {
            let run = try StubServerProcess.run(["check"])
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertEqual(run.stdout, "Stubs: OK: 9 stubs, 0 errors, 0 warnings\n")
            XCTAssertEqual(run.stderr, "")
        }

        func testCheckReportsEveryErrorAndWarningAndExitsThree() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/a-status.json", #"{"request": {"url": "/a"}, "response": {"status": "200"}}"#)
            try temp.write("mappings/b-syntax.json", #"{"request": {"url": "/b"}, "response": {"status": 200}"#)
            try temp.write(
                "mappings/c-list.json",
                """
                {"mappings": [
                  {"request": {"url": "/c1"}, "response": {"status": 200}},
                  {"request": {"url": "/c2"}, "response": {"stauts": 200}},
                  {"request": {"url": "/c3", "method": 3}, "response": {"status": 200}}
                ]}
                """)
            try temp.write(
                "mappings/d-ok.json",
                #"{"request": {"url": "/d"}, "response": {"status": 204}, "postServeActions": []}"#)
            let run = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3), run.stdout + run.stderr)
            XCTAssertEqual(
                run.stdout.split(separator: "\n").map(String.init),
                [
                    #"error: stubs/mappings/a-status.json: response.status: expected an integer, found "200""#,
                    "error: stubs/mappings/b-syntax.json:1:55: expected ',' or '}' after object member",
                    "error: stubs/mappings/c-list.json: mappings[1].response.stauts: unknown field; did you mean 'status'?",
                    #"error: stubs/mappings/c-list.json: mappings[2].request.method: expected a string, found 3"#,
                    "warning: 'postServeActions' is not supported by stubserver and is ignored (used by stubs/mappings/d-ok.json)",
                    "stubs: FAILED: 2 stubs valid, 4 errors, 1 warning"
                ], run.stdout)
            // The server itself stops at the first of them, with the same words and exit code.
            let serve = try StubServerProcess.run(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            XCTAssertEqual(serve.termination, .exited(3))
            XCTAssertTrue(
                serve.stderr.contains(
                    #"stubserver: error: stubs/mappings/a-status.json: response.status: expected an integer, found "200""#
                ),
                serve.stderr)
            XCTAssertTrue(
                serve.stderr.contains(
                    "stubserver: `stubserver check --stubs stubs` lists every error, not only the first"),
                serve.stderr)
        }

        func testCheckRejectsATemplateNestedTooDeepWithoutCrashing() throws {
            let temp = try TemporaryStubs()
            let deep = String(repeating: "{{#if true}}", count: 1000) + "x" + String(repeating: "{{/if}}", count: 1000)
            try temp.write(
                "mappings/deep.json",
                #"""
                {"request": {"url": "/deep"}, "response": {"status": 200, "body": "\#(deep)", "transformers": ["response-template"]}}
                """#)
            let expected =
                "stubs/mappings/deep.json: response.body: template error at 1:385: blocks nested deeper than 32"
            let run = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3), run.stdout + run.stderr)
            XCTAssertTrue(run.stdout.hasPrefix("error: " + expected), run.stdout)
            let serve = try StubServerProcess.run(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            XCTAssertEqual(serve.termination, .exited(3), serve.stderr)
            XCTAssertTrue(serve.stderr.hasPrefix("stubserver: error: " + expected), serve.stderr)
        }

        func testCheckRejectsADeepOrLongJSONPathWithoutCrashing() throws {
            let temp = try TemporaryStubs()
            // The attack's 50 KB of `!(`, one 8 KB filter nested past the limit, and one in a template.
            let long =
                "$[?(" + String(repeating: "!(", count: 25_000) + "@.a" + String(repeating: ")", count: 25_000) + ")]"
            let deep =
                "$[?(" + String(repeating: "!(", count: 2_000) + "@.a" + String(repeating: ")", count: 2_000) + ")]"
            try temp.write(
                "mappings/a-long.json",
                #"""
                {"request": {"url": "/long", "bodyPatterns": [{"matchesJsonPath": "\#(long)"}]}, "response": {"status": 200}}
                """#)
            try temp.write(
                "mappings/b-deep.json",
                #"""
                {"request": {"url": "/deep", "bodyPatterns": [{"matchesJsonPath": {"expression": "\#(deep)", "equalTo": "x"}}]},
                 "response": {"status": 200}}
                """#)
            try temp.write(
                "mappings/c-template.json",
                #"""
                {"request": {"url": "/template"}, "response": {"status": 200, "body": "{{jsonPath request.body '\#(deep)'}}",
                 "transformers": ["response-template"]}}
                """#)
            // And matchers nested in matchesJsonPath as deep as JSON allows.
            let matchers =
                #"{"matchesJsonPath": "# + String(repeating: #"{"expression": "$.a", "matchesJsonPath": "#, count: 123)
                + #"{"expression": "$.a", "equalTo": "x"}"# + String(repeating: "}", count: 124)
            try temp.write(
                "mappings/d-matchers.json",
                #"{"request": {"url": "/m", "bodyPatterns": [\#(matchers)]}, "response": {"status": 200}}"#)
            let run = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3), run.stdout + run.stderr)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 5, run.stdout)
            let expected = [
                (
                    "error: stubs/mappings/a-long.json: request.bodyPatterns[0].matchesJsonPath: invalid JSONPath \"$[?(!(!(",
                    "at offset 0: longer than 16384 bytes (75009)"
                ),
                (
                    "error: stubs/mappings/b-deep.json: request.bodyPatterns[0].matchesJsonPath.expression: invalid JSONPath \"$[?(!(!(",
                    "at offset 19: filters nested deeper than 16 (each '!', '(' and '[?(' counts as one level)"
                ),
                (
                    "error: stubs/mappings/c-template.json: response.body: template error at 1:3: invalid JSONPath \"$[?(!(!(",
                    "at offset 19: filters nested deeper than 16 (each '!', '(' and '[?(' counts as one level)"
                ),
                (
                    "error: stubs/mappings/d-matchers.json: request.bodyPatterns[0]"
                        + String(repeating: ".matchesJsonPath", count: 9) + ": ",
                    "matchers nested deeper than 8 (each and, or, not, or matchesJsonPath or matchesXPath with a matcher of its own is one level)"
                )
            ]
            for (line, (prefix, suffix)) in zip(lines, expected) {
                XCTAssertTrue(line.hasPrefix(prefix), line)
                XCTAssertTrue(line.hasSuffix(suffix), line)
                XCTAssertLessThan(line.count, 400, "the message quotes the start of the path, not all of it")
                XCTAssertTrue(line.contains("matchers nested") || line.contains("invalid JSONPath"), line)
            }
            XCTAssertEqual(lines.last, "stubs: FAILED: 0 stubs valid, 4 errors, 0 warnings")
            let serve = try StubServerProcess.run(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            XCTAssertEqual(serve.termination, .exited(3), serve.stderr)
            XCTAssertTrue(
                serve.stderr.hasPrefix(
                    "stubserver: error: stubs/mappings/a-long.json: request.bodyPatterns[0].matchesJsonPath: "
                        + "invalid JSONPath"), serve.stderr)
        }

        func testCheckNamesAStubThatCanNeverAnswer() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/octocat.json", simpleMapping("/users/octocat", body: "specific", name: "octocat"))
            try temp.write(
                "mappings/users.json",
                #"""
                {"name": "every user", "priority": 1,
                 "request": {"method": "ANY", "urlPathPattern": "/users/.*"}, "response": {"status": 200}}
                """#)
            try temp.write(
                "mappings/users-again.json",
                #"""
                {"name": "every user, patterned", "priority": 1,
                 "request": {"method": "GET", "urlPathPattern": "/users/.*"}, "response": {"status": 200}}
                """#)
            let run = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            // octocat's path is one `/users/.*` accepts, and ANY covers GET; "every user" was loaded last, so
            // it beats its GET-only twin at the same priority, not the other way round.
            XCTAssertEqual(
                run.stdout.split(separator: "\n").map(String.init),
                [
                    #"warning: "octocat" (stubs/mappings/octocat.json) can never answer: "#
                        + #""every user" (stubs/mappings/users.json) always wins (priority 1 beats 5) and matches every request it matches"#,
                    #"warning: "every user, patterned" (stubs/mappings/users-again.json) can never answer: "#
                        + #""every user" (stubs/mappings/users.json) always wins (same priority 1, added later) and matches every request it matches"#,
                    "stubs: OK: 3 stubs, 0 errors, 2 warnings"
                ], run.stdout)
        }

        func testMatchNamesTheWinnerAndTheStubsItBeats() throws {
            let run = try StubServerProcess.run(["match", "GET", "/users/octocat"])
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertEqual(
                run.stdout,
                """
                GET /users/octocat → "GitHub user octocat" (Stubs/mappings/users-octocat.json [0]), priority 1
                  responds 200, body file users/octocat.json

                Also matching, but outranked:
                  "Any other GitHub user: templated profile" (Stubs/mappings/users-any.json): priority 20 loses to 1

                """)
            XCTAssertEqual(run.stderr, "")
        }

        func testMatchWithoutAWinnerPrintsTheServersNearMissReportAndExitsOne() throws {
            let run = try StubServerProcess.run([
                "match", "--stubs", "Stubs", "POST", "http://127.0.0.1:8080/hello",
                "-H", "Accept: text/plain", "-d", "hi"
            ])
            XCTAssertEqual(run.termination, .exited(1), run.stdout + run.stderr)
            XCTAssertTrue(
                run.stdout.hasPrefix(
                    """
                    No stub matched POST /hello

                    Request:
                      POST /hello HTTP/1.1
                      Accept: text/plain
                      Host: 127.0.0.1:8080
                      Content-Length: 2
                      hi

                    Closest stubs:
                      1. "Hello (liveness check)" (Stubs/mappings/hello.json) — 1 difference
                           method: expected "GET", got "POST"

                    """), run.stdout)
        }

        /// A stub waiting for another scenario state: without `--state` the report says which state it needs and
        /// lists it; with `--state` it answers.
        func testMatchTakesScenarioStatesAndNamesTheStateAStubWaitsFor() throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/profile.json",
                #"""
                {"name": "profile", "scenarioName": "Login", "requiredScenarioState": "LoggedIn",
                 "request": {"method": "GET", "url": "/profile"}, "response": {"status": 200, "body": "me"}}
                """#)
            try temp.write(
                "mappings/cart.json",
                #"""
                {"name": "cart", "scenarioName": "Cart", "requiredScenarioState": "Has item",
                 "request": {"method": "GET", "url": "/cart"}, "response": {"status": 200, "body": "1 item"}}
                """#)
            let missed = try StubServerProcess.run(
                ["match", "--stubs", "stubs", "GET", "/profile"], currentDirectory: temp.root)
            XCTAssertEqual(missed.termination, .exited(1), missed.stdout + missed.stderr)
            XCTAssertTrue(
                missed.stdout.contains(
                    #"1. "profile" (stubs/mappings/profile.json) — matches, but does not answer now: "#
                        + #"scenario "Login" needs state "LoggedIn", is "Started""#), missed.stdout)
            XCTAssertTrue(
                missed.stdout.hasSuffix(
                    """

                    Also matching, in another scenario state or after uses:
                      "profile" (stubs/mappings/profile.json): needs scenario "Login" in state "LoggedIn" (it starts in "Started"; try --state Login=LoggedIn)

                    """), missed.stdout)

            // A state with a space is suggested quoted for a shell, and the suggestion pasted into one works.
            let cart = try StubServerProcess.run(
                ["match", "--stubs", "stubs", "GET", "/cart"], currentDirectory: temp.root)
            XCTAssertTrue(cart.stdout.contains("try --state 'Cart=Has item')"), cart.stdout)
            let pasted = try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", #""$0" match --stubs stubs --state 'Cart=Has item' GET /cart"#,
                    try Paths.stubserverBinary().path
                ],
                currentDirectory: temp.root)
            XCTAssertTrue(pasted.succeeded, pasted.standardOutput + pasted.standardError)
            XCTAssertTrue(pasted.standardOutput.hasPrefix(#"GET /cart → "cart""#), pasted.standardOutput)

            let answered = try StubServerProcess.run(
                ["match", "--stubs", "stubs", "--state", "Login=LoggedIn", "GET", "/profile"],
                currentDirectory: temp.root)
            XCTAssertEqual(answered.termination, .exited(0), answered.stdout + answered.stderr)
            XCTAssertTrue(
                answered.stdout.hasPrefix(#"GET /profile → "profile" (stubs/mappings/profile.json), priority 5"#),
                answered.stdout)
        }

        func testMatchOnBadStubsPrintsTheErrorsAndExitsThree() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/a.json", #"{"request": {"url": "/a"}, "response": {"status": true}}"#)
            let run = try StubServerProcess.run(["match", "--stubs", "stubs", "GET", "/a"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3))
            XCTAssertEqual(run.stdout, "")
            XCTAssertTrue(
                run.stderr.hasPrefix(
                    "error: stubs/mappings/a.json: response.status: expected an integer, found true\n"), run.stderr)
        }

        func testMatchLoadsAStubWhoseBodyFileIsMissingAsTheServerDoes() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/a.json", #"{"request": {"url": "/a"}, "response": {"bodyFileName": "gone.json"}}"#)
            try temp.write("mappings/b.json", #"{"request": {"url": "/b"}, "response": {"body": "b"}}"#)
            let check = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(check.termination, .exited(3), check.stdout)
            let run = try StubServerProcess.run(["match", "--stubs", "stubs", "GET", "/b"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertTrue(run.stdout.hasPrefix("GET /b → "), run.stdout)
        }

        func testHelpListsSubcommandsAndEachHasItsOwnUsage() throws {
            let main = try StubServerProcess.run(["--help"])
            XCTAssertTrue(main.stdout.contains("\nSUBCOMMANDS:\n  check  "), main.stdout)
            XCTAssertTrue(main.stdout.contains("\n  match  "), main.stdout)
            for arguments in [["help", "check"], ["check", "--help"]] {
                let run = try StubServerProcess.run(arguments)
                XCTAssertEqual(run.termination, .exited(0))
                XCTAssertTrue(run.stdout.hasPrefix("USAGE: stubserver check [--stubs DIR]"), run.stdout)
            }
            let bad = try StubServerProcess.run(["match", "GET"])
            XCTAssertEqual(bad.termination, .exited(2))
            XCTAssertTrue(
                bad.stderr.hasPrefix("Error: missing URL after GET, e.g. match GET /hello\n\nUSAGE: stubserver match "),
                bad.stderr)
        }
    }
#endif
