// startup-bench: how long a test waits for a StubServer.
//
// Measures, over N runs (default 100), the median, p90, min and max of:
//   start+hello+stop  StubServer.start(stubs: DIR) + the first response to GET /hello on a new raw
//                     TCP connection (read to the end) + stop()
//   start             StubServer.start(stubs: DIR) alone (stop() is not timed)
//   start (no stubs)  StubServer.start() with no stubs directory
//   stop              stop() of a started server
//   start (HTTPS)     StubServer(stubs: DIR) with HTTPS from a local CA made beforehand (a key and a leaf made per
//                     start) + start()
// The very first start in the process (cold: code paging, first thread) is reported separately.
//
// Usage: startup-bench [--stubs DIR] [--runs N]     (DIR defaults to ./Stubs)
import Foundation
import StubKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct Options {
    var stubs = URL(fileURLWithPath: "Stubs")
    var runs = 100

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--stubs": if let value = iterator.next() { stubs = URL(fileURLWithPath: value) }
            case "--runs": if let value = iterator.next().flatMap(Int.init), value > 0 { runs = value }
            default: fail("unknown option '\(argument)' (usage: startup-bench [--stubs DIR] [--runs N])")
            }
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("startup-bench: \(message)\n".utf8))
    exit(1)
}

/// GET /hello on a new connection to 127.0.0.1:port with `Connection: close`; returns the whole response.
func getHello(port: Int) -> String {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { fail("socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { fail("connect: errno \(errno)") }
    let request = Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { fail("send") }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[..<count]
    }
    return String(decoding: response, as: UTF8.self)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func report(_ label: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    func percentile(_ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
    let figures = String(
        format: "median %7.3f ms   p90 %7.3f ms   min %7.3f ms   max %7.3f ms   (%d runs)",
        percentile(0.5), percentile(0.9), sorted[0], sorted[sorted.count - 1], sorted.count)
    print(label.padding(toLength: 19, withPad: " ", startingAt: 0) + figures)
}

let options = Options(CommandLine.arguments)
let clock = ContinuousClock()
let mappingCount: Int
do {
    mappingCount = try StubsDirectory.load(options.stubs).mappings.count
} catch {
    fail("\(error)")
}
print("startup-bench: \(options.stubs.path) (\(mappingCount) stubs), \(options.runs) runs each")

func startServer(_ stubs: URL?) -> StubServer {
    do { return try StubServer.start(stubs: stubs) } catch { fail("\(error)") }
}

// Cold: the first server of the process.
var cold = clock.now
let first = startServer(options.stubs)
let coldStart = milliseconds(clock.now - cold)
guard getHello(port: first.port).contains("Hello, stubserver") else { fail("unexpected /hello response") }
first.stop()
print(String(format: "cold first start   %7.3f ms", coldStart))

var full: [Double] = [], startOnly: [Double] = [], startEmpty: [Double] = [], stopOnly: [Double] = []
for _ in 0..<options.runs {
    let begin = clock.now
    let server = startServer(options.stubs)
    let response = getHello(port: server.port)
    server.stop()
    full.append(milliseconds(clock.now - begin))
    guard response.hasPrefix("HTTP/1.1 200"), response.hasSuffix("Hello, stubserver") else {
        fail("unexpected /hello response: \(response)")
    }
}
for _ in 0..<options.runs {
    let begin = clock.now
    let server = startServer(options.stubs)
    startOnly.append(milliseconds(clock.now - begin))
    let stopBegin = clock.now
    server.stop()
    stopOnly.append(milliseconds(clock.now - stopBegin))
}
for _ in 0..<options.runs {
    let begin = clock.now
    let server = startServer(nil)
    startEmpty.append(milliseconds(clock.now - begin))
    server.stop()
}
// HTTPS: the CA is made once (by the first start); each start makes a key and a leaf signed by it.
let authority = FileManager.default.temporaryDirectory.appendingPathComponent("startup-bench-ca-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: authority) }
var startHTTPS: [Double] = []
for run in 0...options.runs {
    var configuration = StubServer.Configuration()
    configuration.https = .init(certificate: .localAuthority(directory: authority))
    configuration.log = LogSink(.handler { _ in })
    let begin = clock.now
    let server: StubServer
    do {
        server = try StubServer(stubs: options.stubs, configuration: configuration)
        try server.start()
    } catch {
        fail("\(error)")
    }
    if run > 0 { startHTTPS.append(milliseconds(clock.now - begin)) }  // run 0 made the CA
    server.stop()
}
report("start+hello+stop", full)
report("start", startOnly)
report("start (no stubs)", startEmpty)
report("stop", stopOnly)
report("start (HTTPS)", startHTTPS)
