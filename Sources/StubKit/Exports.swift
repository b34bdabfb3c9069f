@_exported import StubHTTP
