// StubLoading: stubs from files and back: the stubs directory (WireMock's `mappings/` and `__files/`), stub
// files decoded with located errors and warnings, stubs encoded to WireMock's JSON, body files, `check`.
