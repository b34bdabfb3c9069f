@_exported import StubCertificates
@_exported import StubLoading
@_exported import StubMatching
// StubKit: the server: StubServer and its isolated servers, the request handler, the store of current stubs,
// the journal, the admin API and closure stubs. It re-exports the stub domain below it, so `import StubKit` is
// all a user writes.
@_exported import StubModel
@_exported import StubOpenAPI
@_exported import StubProxy
@_exported import StubTemplating
