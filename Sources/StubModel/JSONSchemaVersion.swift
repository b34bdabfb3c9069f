/// The JSON Schema draft a `matchesJsonSchema` matcher validates with (`schemaVersion`, WireMock 3's names).
public enum JSONSchemaVersion: String, Sendable, Hashable, CaseIterable {
    case v4 = "V4", v6 = "V6", v7 = "V7", v201909 = "V201909", v202012 = "V202012"
}
