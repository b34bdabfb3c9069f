#if canImport(Testing)
    import Testing

    /// Warnings recorded in the running Swift Testing test: a stub added with `server.stub(...)` that can
    /// never answer (see ``Shadowing``) is reported at that call as well as logged.
    enum TestWarnings {
        /// From now on, a shadowed stub added to `server` records a warning issue (Swift 6.3 and later,
        /// where issues have a severity; before, the server's log line is the warning) at the `stub(...)`
        /// call, or at `fallback` for a stub without a call site.
        static func observeShadowedStubs(of server: StubServer, fallback: SourceLocation) {
            #if compiler(>=6.3)
                server.failureLedger.observeShadowedStubs { shadow in
                    guard Test.current != nil else { return }
                    let location =
                        shadow.hidden.callSite.map {
                            SourceLocation(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: $0.column)
                        } ?? fallback
                    Issue.record(
                        Comment(rawValue: "stubserver: \(shadow.warning)"), severity: .warning, sourceLocation: location
                    )
                }
            #endif
        }
    }
#endif
