extension StubServer.Configuration {
    /// ``network`` with ``bytesPerSecond`` folded in (the lower rate wins); `nil` when neither is set.
    var effectiveNetwork: NetworkProfile? {
        guard network != nil || bytesPerSecond != nil else { return nil }
        var profile = network ?? NetworkProfile()
        if let bytesPerSecond { profile.bytesPerSecond = min(profile.bytesPerSecond ?? .max, bytesPerSecond) }
        return profile
    }
}
