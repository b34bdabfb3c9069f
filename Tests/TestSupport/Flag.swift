import Foundation

/// A flag one thread raises and others read, with no task or actor in between: for tests that must see the order
/// in which threads of their own got their answers, whatever Swift's cooperative threads are doing meanwhile.
public final class Flag: @unchecked Sendable {  // every access holds the lock
    private let lock = NSLock()
    private var raised = false

    public init() {}

    public func raise() { lock.withLock { raised = true } }

    public var isRaised: Bool { lock.withLock { raised } }
}
