@_exported import StubClient
@_exported import StubKit
@_exported import StubWebSockets
