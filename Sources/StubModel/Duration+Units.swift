extension Duration {
    /// The duration in seconds, for Dispatch and Foundation timeouts.
    package var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The whole milliseconds of this duration (`delayMilliseconds` in stub files).
    package var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
