#if os(Linux)
    import Glibc
#endif

/// Test-only: makes a Linux test run behave like macOS where the engine's code paths differ, so the
/// Darwin branches are exercised without a Mac.
///
/// With `STUBSERVER_EMULATE_DARWIN=1` in the environment, every server created in the process uses
/// ``SelectorBackend/darwinEmulation``:
/// - poll(2) reporting hang-up as soon as the peer's FIN arrives (POLLRDHUP), together with readability and
///   before the bytes are read, as Darwin's poll sets POLLHUP;
/// - descriptors registered with no events are not polled at all (Darwin reports nothing for them, not even
///   a hang-up), and POLLOUT is dropped when POLLHUP is set;
/// - the pipe-based waker instead of an eventfd;
/// - 512 KiB event-loop thread stacks, Darwin's size for secondary threads.
///
/// `.ci/run` runs the server test suites a second time with it. It is not meant for production use and has
/// no effect on Darwin itself.
enum DarwinEmulation {
    /// The environment variable that turns the emulation on (value `1`).
    static let environmentVariable = "STUBSERVER_EMULATE_DARWIN"

    /// Whether the emulation was requested (Linux only); read once per process.
    static let isRequested: Bool = {
        #if os(Linux)
            guard let value = getenv(environmentVariable) else { return false }
            return String(cString: value) == "1"
        #else
            return false
        #endif
    }()
}
