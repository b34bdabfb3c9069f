/// Why a response template could not be parsed: what was wrong and where, as a 1-based line and
/// column inside the template text.
///
/// ```swift
/// do { _ = try Template("{{#if x}}open") } catch { print(error) }   // 1:1: {{#if}} is never closed ...
/// ```
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the problem in the template.
    public let line: Int
    /// 1-based column (in characters) of the problem in the template.
    public let column: Int
    /// What was wrong, e.g. `unknown helper 'ne'`.
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(line):\(column): \(message)" }
}
