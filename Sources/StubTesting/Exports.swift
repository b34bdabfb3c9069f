@_exported import StubKit
