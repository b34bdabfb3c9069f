/// A broken response instead of a real one (WireMock's `fault`), for testing how a client copes.
///
/// ```swift
/// server.stub(.get("/feed"), .fault(.connectionReset))
/// ```
/// ```json
/// "response": {"fault": "CONNECTION_RESET_BY_PEER"}
/// ```
public enum ResponseFault: String, Sendable, Hashable, CaseIterable {
    /// `CONNECTION_RESET_BY_PEER`: the connection is reset (TCP RST). curl exits 56; URLSession reports
    /// `networkConnectionLost` (-1005).
    case connectionReset = "CONNECTION_RESET_BY_PEER"
    /// `EMPTY_RESPONSE`: the connection closes without a byte sent. curl exits 52 ("Empty reply from server").
    case emptyResponse = "EMPTY_RESPONSE"
    /// `MALFORMED_RESPONSE_CHUNK`: a `200` with a chunked body whose first chunk is garbage, then close.
    /// curl exits 56 (bad chunk).
    case malformedResponseChunk = "MALFORMED_RESPONSE_CHUNK"
    /// `RANDOM_DATA_THEN_CLOSE`: bytes that are not HTTP, then close. curl exits 1 or 8 (not an HTTP reply).
    case randomDataThenClose = "RANDOM_DATA_THEN_CLOSE"
}
