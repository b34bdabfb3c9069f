// StubTemplating: response templates (WireMock's Handlebars helpers): parsed and checked once when a stub is
// loaded, rendered per request from the request's values within step and byte limits.
