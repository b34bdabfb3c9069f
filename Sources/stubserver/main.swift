import StubServerCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(Runner.main(Array(CommandLine.arguments.dropFirst())).rawValue)
