// StubModel: what users write, as values: JSON, stub mappings, request patterns and matchers, responses,
// faults and delays, and the Swift DSL that builds them. No matching, loading or serving here.
