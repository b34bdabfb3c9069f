/// Why an OpenAPI document cannot be used: the file, the place in it (a line and column for YAML and JSON that
/// does not parse, else the JSON pointer of the faulty member) and what is wrong.
public struct OpenAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the user named it (or `<openAPI>` for a document given as a value).
    public let file: String
    /// `line 12, column 3`, or `#/paths/~1pets/get/responses`; empty when the whole file is at fault.
    public let place: String
    public let message: String

    public init(file: String, place: String = "", message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    public var description: String {
        place.isEmpty ? "\(file): \(message)" : "\(file), \(place): \(message)"
    }
}
