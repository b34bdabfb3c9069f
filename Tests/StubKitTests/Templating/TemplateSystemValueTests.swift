import Testing

@testable import StubKit

#if canImport(Glibc)
    import Glibc
#endif

/// systemValue: WireMock 2.35.1's output (the jar, without `--permitted-system-keys`, started with
/// `WIREMOCK_T1=hello WIREMOCK_T2='<a&b>'` and `-Dwiremock.p=prop`).
@Suite("Response templates: systemValue")
struct TemplateSystemValueTests {
    // Setting the environment needs libc's setenv, which the Darwin type-check's stand-in SDK lacks: this test
    // runs where Glibc is (Linux, and CI); the rest of the suite runs everywhere.
    #if canImport(Glibc)
        @Test("systemValue reads permitted environment variables and denies the others, as WireMock 2.35.1")
        func environment() throws {
            setenv("WIREMOCK_T1", "hello", 1)
            setenv("WIREMOCK_T2", "<a&b>", 1)
            let row = TemplateRow(
                "A[{{systemValue key='WIREMOCK_T1'}}]B[{{systemValue type='ENVIRONMENT' key='wiremock_t1'}}]C[{{systemValue key='PATH'}}]D[{{systemValue key='WIREMOCK_NONE'}}]E[{{systemValue key=''}}]F[{{systemValue}}]H[{{systemValue type='PROPERTY' key='java.version'}}]I[{{systemValue type='OTHER' key='WIREMOCK_T1'}}]J[{{systemValue key='WIREMOCK_T2'}}]K[{{#if (systemValue key='WIREMOCK_NONE')}}y{{else}}n{{/if}}]L[{{systemValue key='xWIREMOCK_T1'}}]",
                "A[hello]B[]C[[ERROR: Access to PATH is denied]]D[]E[[ERROR: The key cannot be empty]]F[[ERROR: The key cannot be empty]]H[[ERROR: Access to java.version is denied]]I[]J[&lt;a&amp;b&gt;]K[n]L[[ERROR: Access to xWIREMOCK_T1 is denied]]"
            )
            #expect(try row.render() == row.expected)
        }
    #endif

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
