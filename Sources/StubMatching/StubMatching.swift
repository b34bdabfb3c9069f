// StubMatching: which stub answers a request: request patterns compiled once, the route table that narrows and
// decides, JSONPath, JSON and XML comparison, and the near-miss report for a request no stub matches.
