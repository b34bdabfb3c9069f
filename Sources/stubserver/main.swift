#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StubServerCLI

exit(Runner.main(Array(CommandLine.arguments.dropFirst())).rawValue)
