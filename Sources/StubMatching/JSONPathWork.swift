/// The work one JSONPath evaluation may do: a step per value visited, filtered or selected. Shared by the
/// filters of the evaluation; not to be shared between threads.
package final class JSONPathWork {
    /// The most steps (a JSON document of `n` bytes gets ``budget(forLength:)``).
    let limit: Int
    private(set) var steps = 0

    package init(limit: Int) { self.limit = limit }

    /// Steps every evaluation may take.
    static let baseSteps = 200_000
    /// Steps each byte of the document adds: a deep scan or a filter over every element takes a few per value.
    static let stepsPerByte = 8

    /// The steps an evaluation over a document of `length` bytes may take.
    package static func budget(forLength length: Int) -> Int {
        baseSteps + length.multipliedReportingOverflow(by: stepsPerByte).partialValue
    }

    /// The budget is spent: evaluation stops, and its result is not used.
    package var exhausted: Bool { steps > limit }

    package func spend(_ count: Int) { steps = steps.addingReportingOverflow(count).partialValue }
}

@available(*, unavailable)
extension JSONPathWork: Sendable {}
