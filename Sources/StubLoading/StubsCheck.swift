import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything wrong with a stubs directory at once, as `stubserver check` reports it: every invalid
/// file and mapping (where the server stops at the first), every warning, and the stubs that can never
/// answer. Loads with the server's own loader and path rules (`--stubs Stubs/mappings` means `Stubs`).
///
/// ```swift
/// let check = StubsCheck(stubs: URL(fileURLWithPath: "Stubs"))
/// check.errors.forEach { print("error: \($0)") }
/// check.warnings.forEach { print($0) }
/// check.shadowed.forEach { print("warning: \($0.description)") }
/// ```
public struct StubsCheck: Sendable {
    /// The directory as messages write it (`Stubs`).
    public var directory: String
    /// A note when the directory given was a `mappings` folder, as the server logs it.
    public var note: String?
    /// The valid mappings, in load order.
    public var mappings: [StubMapping]
    /// Every error: the directory's own (then nothing else is checked), or one per unreadable or invalid
    /// file, or per invalid mapping of a `{"mappings": [...]}` list.
    public var errors: [StubsLoadError]
    /// The loader's warnings, grouped as the server logs them (`warning: … (used by FILE, …)`).
    public var warnings: [String]
    /// Stubs another stub always beats (see ``Shadowing``).
    public var shadowed: [Shadowing]

    /// Whether the server would load this directory (warnings allowed).
    public var isValid: Bool { errors.isEmpty }

    /// Checks `stubs` as `StubServer(stubs:configuration:)` would load it.
    /// - Parameters:
    ///   - stubs: the stubs directory.
    ///   - options: the settings that change what a stub means, as the server's configuration gives them
    ///     (``StubServer/Configuration/globalResponseTemplating``). A missing body file is an error here
    ///     whatever ``StubsLoadOptions/strictBodyFiles`` says: the server would load it, but the stub
    ///     answers 500.
    public init(stubs: URL, options: StubsLoadOptions = StubsLoadOptions()) {
        var options = options
        options.strictBodyFiles = true
        let (root, note) = StubsLayout.resolvedRoot(stubs)
        self.note = note
        directory = StubsDirectory.displayPath(of: root)
        var errors: [StubsLoadError]? = []
        var loaded = StubsLoadResult(mappings: [], warningDetails: [])
        do {
            loaded = try StubsDirectory.scan(
                root, displayRoot: directory,
                options: options, errors: &errors)
        } catch {
            errors = [error]
        }
        self.errors = errors ?? []
        mappings = loaded.mappings
        warnings = loaded.warnings
        shadowed = Shadowing.find(in: loaded.mappings)
    }

    /// Checks `stubs` with ``StubsLoadOptions/globalResponseTemplating`` set.
    public init(stubs: URL, globalResponseTemplating: Bool) {
        self.init(stubs: stubs, options: StubsLoadOptions(globalResponseTemplating: globalResponseTemplating))
    }
}
