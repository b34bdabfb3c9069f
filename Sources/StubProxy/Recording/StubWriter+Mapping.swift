import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Building the mapping of a planned stub, for files and for memory alike.
extension StubWriter {
    /// One stub as written: its line in the summary and the mapping itself (a file body's bytes
    /// included, so it can be served without reading the file back).
    struct WrittenStub {
        var summary: RecordingSummary.Stub
        var mapping: StubMapping
    }

    /// The mapping for `stub` answering with `plan` and `body`, in scenario `step` if any.
    static func mapping(
        _ stub: PlannedStub, response plan: ResponsePlan, body: ResponseDefinition.Body,
        step: ScenarioStep?, id: String
    ) -> StubMapping {
        let response = ResponseDefinition(status: plan.status, headers: plan.headers, body: body)
        var mapping = StubMapping(
            id: id, name: "\(stub.method) \(stub.request.path)",
            request: stub.request.pattern, response: response)
        mapping.scenarioName = step?.name
        mapping.requiredScenarioState = step?.required
        mapping.newScenarioState = step?.next
        return mapping
    }

    /// A body kept in the mapping: `body` for UTF-8 text, `base64Body` for other bytes.
    static func inlineBody(_ bytes: [UInt8]) -> ResponseDefinition.Body {
        if bytes.isEmpty { return .none }
        if let text = text(bytes) { return .text(text) }
        return .bytes(bytes)
    }

    static func summaryStub(
        _ stub: PlannedStub, step: ScenarioStep?, mappingFile: String,
        bodyFile: String?
    ) -> RecordingSummary.Stub {
        RecordingSummary.Stub(
            method: stub.method, url: stub.request.displayURL, mappingFile: mappingFile,
            bodyFile: bodyFile,
            duplicates: step == nil || step?.required == "Started" ? stub.duplicates : 0,
            duplicatesDiffered: stub.duplicatesDiffered,
            scenario: step?.name, scenarioState: step?.required)
    }

    /// Each stub of `stub`: one, or one per response of a recorded sequence (see
    /// ``Options/recordsSequences``), each made by `make` with its scenario step and a new id.
    static func expand<E: Error>(
        _ stub: PlannedStub, scenarioNames: inout Set<String>,
        _ make: (ResponsePlan, ScenarioStep?, String) throws(E) -> WrittenStub
    ) throws(E) -> [WrittenStub] {
        func newID() -> String { UUID().uuidString.lowercased() }
        guard !stub.later.isEmpty else { return [try make(stub.response, nil, newID())] }
        let base = "\(stub.method) \(stub.request.displayURL)"
        var name = base, attempt = 1
        while !scenarioNames.insert(name).inserted {
            attempt += 1
            name = "\(base) #\(attempt)"
        }
        let responses = [stub.response] + stub.later
        var written: [WrittenStub] = []
        for (position, response) in responses.enumerated() {
            let step = ScenarioStep(
                name: name, required: position == 0 ? "Started" : "\(position + 1)",
                next: position == responses.count - 1 ? nil : "\(position + 2)")
            written.append(try make(response, step, newID()))
        }
        return written
    }
}
