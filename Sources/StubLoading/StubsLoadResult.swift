import StubMatching
import StubModel

/// What ``StubsDirectory/load(_:displayRoot:options:)`` found.
public struct StubsLoadResult: Sendable {
    /// Every mapping, in load order: files sorted by their path under `mappings/` (byte order), then
    /// the order inside each file. Matching prefers the most recently added stub among equal
    /// priorities, so at equal priority a later file wins over an earlier one.
    public var mappings: [StubMapping]
    /// One line per ignored field, listing the files that use it:
    /// `warning: 'scenarioName' is not supported by stubserver and is ignored (used by Stubs/mappings/login.json)`.
    public var warnings: [String]
    /// The same warnings, one per occurrence, for tools that want them structured.
    public var warningDetails: [MappingWarning]
    /// The matchers the loader compiled to check the stubs: a route table built from ``mappings`` takes their
    /// compiled operands (regexes, JSONPaths, XML documents, XPaths, schemas) instead of compiling them again.
    package var compiled = CompiledMatchers()
    /// The data collections declared under `collections/` (``DataCollection``), in file order.
    public var collections: [DataCollection] = []

    /// - Parameters:
    ///   - mappings: the stubs, in load order.
    ///   - warningDetails: one warning per occurrence; ``warnings`` groups them.
    ///   - layoutWarnings: warnings about the directory itself (no `mappings/` folder, …),
    ///     listed before the grouped mapping warnings.
    public init(mappings: [StubMapping], warningDetails: [MappingWarning], layoutWarnings: [String] = []) {
        self.mappings = mappings
        self.warningDetails = warningDetails
        self.warnings = layoutWarnings + Self.group(warningDetails)
    }

    /// Groups warnings by message, in order of first appearance, listing each file once.
    static func group(_ details: [MappingWarning]) -> [String] {
        var groups: [(message: String, files: [String])] = []
        for warning in details {
            let message = warning.description
            let position =
                groups.firstIndex { $0.message == message }
                ?? {
                    groups.append((message, []))
                    return groups.count - 1
                }()
            if let file = warning.file, !groups[position].files.contains(file) {
                groups[position].files.append(file)
            }
        }
        return groups.map { group in
            group.files.isEmpty
                ? "warning: \(group.message)"
                : "warning: \(group.message) (used by \(group.files.joined(separator: ", ")))"
        }
    }
}
