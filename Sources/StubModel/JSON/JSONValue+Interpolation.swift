/// String interpolation in JSON literals: `"Hello, \(name)"` is a JSON string.
///
/// ```swift
/// server.stub(.get("/greeting"), .json(["message": "Hello, \(login)", "avatar": "\(base)/u/\(id)"]))
/// ```
extension JSONValue: ExpressibleByStringInterpolation {
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }
}
