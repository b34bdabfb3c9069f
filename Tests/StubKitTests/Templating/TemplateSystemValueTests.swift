import Testing

@testable import StubKit
@testable import StubTemplating

/// systemValue: WireMock 2.35.1's output (the jar, without `--permitted-system-keys`, started with
/// `WIREMOCK_T1=hello WIREMOCK_T2='<a&b>'` and `-Dwiremock.p=prop`).
@Suite("Response templates: systemValue")
struct TemplateSystemValueTests {
    // The variables WireMock's own run had set (WIREMOCK_T1, WIREMOCK_T2) are read by the binary's end-to-end
    // test, started with them: setting them here with setenv would race every other test thread that reads the
    // environment (Foundation's Process.run copies it), which crashed a CI run.
    @Test("systemValue denies names outside wiremock.*, and renders an unset permitted one empty, as WireMock 2.35.1")
    func environment() throws {
        let row = TemplateRow(
            "C[{{systemValue key='PATH'}}]D[{{systemValue key='WIREMOCK_NONE'}}]E[{{systemValue key=''}}]F[{{systemValue}}]H[{{systemValue type='PROPERTY' key='java.version'}}]I[{{systemValue type='OTHER' key='WIREMOCK_T1'}}]K[{{#if (systemValue key='WIREMOCK_NONE')}}y{{else}}n{{/if}}]L[{{systemValue key='xWIREMOCK_T1'}}]",
            "C[[ERROR: Access to PATH is denied]]D[]E[[ERROR: The key cannot be empty]]F[[ERROR: The key cannot be empty]]H[[ERROR: Access to java.version is denied]]I[]K[n]L[[ERROR: Access to xWIREMOCK_T1 is denied]]"
        )
        #expect(try row.render() == row.expected)
    }

    @Test("A permitted PROPERTY key renders empty: a Swift process has no Java system properties")
    func property() throws {
        #expect(try TemplateRow("[{{systemValue type='PROPERTY' key='wiremock.p'}}]", "[]").render() == "[]")
    }

    @Test("The permitted pattern is wiremock.* without DOTALL, case-insensitive")
    func pattern() {
        #expect(TemplateEvaluator.isPermittedSystemKey("WireMock"))
        #expect(TemplateEvaluator.isPermittedSystemKey("wiremock.anything here"))
        #expect(!TemplateEvaluator.isPermittedSystemKey("wiremoc"))
        #expect(!TemplateEvaluator.isPermittedSystemKey("wiremock\nPATH"))
        #expect(!TemplateEvaluator.isPermittedSystemKey("HOME"))
    }
}
