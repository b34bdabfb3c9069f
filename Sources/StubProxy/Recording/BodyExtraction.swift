/// Which recorded bodies go to files in `__files/` and which stay in the mapping: WireMock's
/// `extractBodyCriteria`. A body larger than its threshold (text: UTF-8 without NUL bytes; binary:
/// anything else) goes to a file.
///
/// ```swift
/// var options = StubWriter.Options()
/// options.inlineBodies = BodyExtraction(textSizeThreshold: 2048, binarySizeThreshold: 10240)
/// ```
public struct BodyExtraction: Sendable, Hashable {
    /// The largest text body kept inline, in bytes.
    public var textSizeThreshold: Int
    /// The largest binary body kept inline, in bytes.
    public var binarySizeThreshold: Int

    public init(textSizeThreshold: Int, binarySizeThreshold: Int) {
        self.textSizeThreshold = textSizeThreshold
        self.binarySizeThreshold = binarySizeThreshold
    }

    /// Whether `body` stays in the mapping.
    func keepsInline(_ body: [UInt8]) -> Bool {
        let threshold = StubWriter.text(body) == nil ? binarySizeThreshold : textSizeThreshold
        return body.count <= threshold
    }
}
