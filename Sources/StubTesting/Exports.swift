@_exported import StubClient
@_exported import StubKit
