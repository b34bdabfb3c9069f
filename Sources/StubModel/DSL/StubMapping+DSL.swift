#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubMapping {
    /// A stub added at run time, with a fresh lowercase UUID as its `id` (as WireMock generates).
    ///
    /// ```swift
    /// let mapping = StubMapping(.get("/health"), .ok, priority: 1)
    /// ```
    public init(
        _ request: RequestPattern, _ response: ResponseDefinition,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) {
        self.init(
            id: UUID().uuidString.lowercased(), name: name, priority: priority,
            request: request, response: response, source: nil)
    }
}
