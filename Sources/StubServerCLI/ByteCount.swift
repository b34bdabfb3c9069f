/// Sizes on the command line: `67108864`, `64MiB`, `64M`, `512KiB`, `1GiB` (binary units; `KB`, `MB`
/// and `GB` are read as binary too, as most tools do).
enum ByteCount {
    /// The number of bytes `text` means, or `nil` if it is not a size.
    static func parse(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let unit = text.dropFirst(digits.count).lowercased()
        let multiplier: Int
        switch unit {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1 << 10
        case "m", "mb", "mib": multiplier = 1 << 20
        case "g", "gb", "gib": multiplier = 1 << 30
        default: return nil
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}
