/// What the loader made of a part of a stub when it checked it (a request's compiled matchers, a response's parsed
/// templates), kept with the stub so that the server takes it instead of making it again
/// (``RequestPattern/loaded``, ``ResponseDefinition/loaded``).
///
/// Not part of what the stub says: it never makes two stubs unequal. Whoever takes it uses it only for what the
/// stub still says (compiled matchers are looked up by their source; templates are checked against theirs).
package struct LoadedParts: Sendable, Hashable {
    /// What the loader made, or `nil`: an object, so that a stub holds one reference to it.
    package let value: (any AnyObject & Sendable)?

    package init(_ value: (any AnyObject & Sendable)? = nil) { self.value = value }

    package static func == (lhs: Self, rhs: Self) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
