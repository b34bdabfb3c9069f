import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// The GraphQL parser and normal form. Which documents are alike comes from the WireMock GraphQL extension's
/// docs (docs/MatchStrategy.md) and end-to-end fixtures (e2e/fixtures/*), version 0.9.0.
@Suite("GraphQL documents")
struct GraphQLDocumentTests {
    static func normal(_ text: String) -> String? { try? GraphQLNormalizer.normalize(text) }

    static func same(_ a: String, _ b: String) -> Bool {
        guard let left = normal(a), let right = normal(b) else { return false }
        return left == right
    }

    static let document = """
        # A comment, then an operation with everything.
        query GetUser($id: ID!, $sizes: [Int!] = [1, 2], $flag: Boolean = false) @live {
          user(id: $id, filter: {name: "a\\u00e9\\n", tags: [A, B], nested: {x: null}}) {
            id, name
            avatar: picture(size: 64, ratio: -1.5e3) @include(if: $flag)
            ...UserParts
            ... on Admin { level }
            ... @skip(if: true) { hidden }
            bio(format: \"\"\"
                Hello
                  world
            \"\"\")
          }
        }
        fragment UserParts on User { email friends { ...Friend } }
        fragment Friend on User { id }
        """

    @Test("The extension's matching pairs have one normal form")
    func matchingPairs() {
        // docs/MatchStrategy.md: sibling fields in any order.
        #expect(
            Self.same(
                "{ hero { name friends { name age } } }", "{ hero { friends { age name } name } }"))
        // e2e/fixtures/order-match, fragment-match, multiple-fragments-match (fragment names do not matter).
        #expect(Self.same("query { hero { id name }}", "query { hero { name id }}"))
        #expect(
            Self.same(
                "fragment heroDetails on Hero { name } { hero { ...heroDetails } }",
                "fragment heroDetails on Hero { name } { hero { ...heroDetails } }"))
        #expect(
            Self.same(
                "fragment heroDetails on Hero { name } fragment sidekickDetails on Sidekick { name age } "
                    + "{ hero { ...heroDetails }, sidekick { ...sidekickDetails } }",
                "fragment heroInfo on Hero { name } fragment sidekickInfo on Sidekick { name age } "
                    + "{ hero { ...heroInfo }, sidekick { ...sidekickInfo } }"))
    }

    @Test("The extension's non-matching pairs have different normal forms")
    func differingPairs() {
        #expect(!Self.same("{ hero { name friends { name age } } }", "{ hero { name friends { name } } }"))
        #expect(!Self.same("{ mainHero: hero { name } }", "{ main_hero: hero { name } }"))
        #expect(!Self.same("{ hero(episode: NEWHOPE) { name } }", "{ hero(episode: EMPIRE) { name } }"))
        #expect(
            !Self.same(
                "fragment heroDetails on Hero { name } { hero { ...heroDetails } }",
                "fragment heroDetails on Hero { name age } { hero { ...heroDetails } }"))
    }

    @Test("Whitespace, commas, comments and argument order do not matter; the full grammar parses")
    func fullGrammar() throws {
        let normal = try GraphQLNormalizer.normalize(Self.document)
        let reordered = Self.document.replacingOccurrences(of: "id, name", with: "name # the name\n id")
            .replacingOccurrences(of: "size: 64, ratio: -1.5e3", with: "ratio: -1.5e3 size: 64")
        #expect(try GraphQLNormalizer.normalize(reordered) == normal)
        #expect(normal.contains("bio(format: \"Hello\\n  world\")"))
        #expect(normal.contains("... on User { email friends { ... on User { id } } }"))
        #expect(normal.hasPrefix("query GetUser($flag: Boolean = false, $id: ID!, $sizes: [Int!] = [1, 2]) @live {"))
    }

    @Test("Every prefix of a document is an error or the same document, never a crash")
    func prefixes() {
        let full = Self.normal(Self.document)
        #expect(full != nil)
        let bytes = Array(Self.document.utf8)
        for end in 0..<bytes.count {
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            if let normal = Self.normal(prefix) { #expect(normal == full, "prefix of \(end) bytes") }
        }
    }

    @Test("Seeded mutations of a document never crash")
    func mutations() {
        var generator = SplitMix64(seed: 23)
        let bytes = Array(Self.document.utf8)
        let alphabet = Array("{}()[]:$@!.=\"#,\\ \nabc0-e".utf8)
        for _ in 0..<3000 {
            var mutated = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mutated.remove(at: index)
                case 1: mutated.insert(alphabet.randomElement(using: &generator)!, at: index)
                default: mutated[index] = alphabet.randomElement(using: &generator)!
                }
            }
            _ = Self.normal(String(decoding: mutated, as: UTF8.self))
        }
    }

    @Test("Nesting is bounded on a 512 KiB stack: at the limit it parses, beyond it is an error")
    func nesting() {
        let outcome: @Sendable (Int) -> String = { levels in
            SmallStackThread.run(stackSize: SmallStackThread.darwinDefaultStackSize) {
                let text = String(repeating: "{ a ", count: levels) + String(repeating: "}", count: levels)
                let values =
                    "{ f(a: " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
                    + ") }"
                do throws(GraphQLNormalizationError) {
                    _ = try GraphQLNormalizer.normalize(text)
                    _ = try GraphQLNormalizer.normalize(values)
                    return "ok"
                } catch {
                    return error.description
                }
            }
        }
        #expect(outcome(GraphQLParser.maxDepth - 1) == "ok")
        #expect(outcome(100_000).contains("nested more than 64 levels deep"))
    }

    @Test("Tokens are bounded: a flat document of more than maxTokens tokens is an error, below it parses")
    func tokenBound() {
        func outcome(_ fields: Int) -> String {
            do throws(GraphQLNormalizationError) {
                _ = try GraphQLNormalizer.normalize("{ " + String(repeating: "a ", count: fields) + "}")
                return "ok"
            } catch {
                return error.description
            }
        }
        #expect(outcome(GraphQLParser.maxTokens - 10) == "ok")
        #expect(outcome(GraphQLParser.maxTokens).contains("more than 100000 tokens"))
    }

    @Test("Fragment cycles, unknown fragments and exponential inlining are errors naming the cause")
    func fragmentErrors() {
        func error(_ text: String) -> String {
            do throws(GraphQLNormalizationError) {
                return try GraphQLNormalizer.normalize(text)
            } catch {
                return error.description
            }
        }
        #expect(
            error("{ ...A } fragment A on T { ...B } fragment B on T { ...A }")
                == "fragments spread each other in a cycle: A -> B -> A")
        #expect(error("{ ...A }") == "fragment 'A' is used but not defined")
        let doubling = (0..<30).map { "fragment F\($0) on T { x { ...F\($0 + 1) } y { ...F\($0 + 1) } }" }
        #expect(
            error("{ ...F0 } " + doubling.joined(separator: " ") + " fragment F30 on T { z }")
                .contains("more than 100000 selections"))
        #expect(error("{ a(x: \"open) }").hasPrefix("GraphQL syntax error at byte 7: unterminated string"))
        #expect(
            error("fragment A on T { a }")
                == "GraphQL syntax error at byte 0: expected an operation, found only fragments")
    }
}
