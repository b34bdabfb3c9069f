// Parses a YAML file N times with StubYAML and prints the best and median time (see Benchmarks/bench-yaml.sh).
// Usage: yaml-bench FILE [ROUNDS]      yaml-bench --json FILE (prints the parsed document as JSON, for comparisons)
import Foundation
import StubModel
import StubYAML

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: yaml-bench FILE [ROUNDS] | yaml-bench --json FILE\n".utf8))
    exit(2)
}
if arguments[1] == "--json" {
    guard arguments.count == 3, let data = FileManager.default.contents(atPath: arguments[2]) else {
        FileHandle.standardError.write(Data("yaml-bench: cannot read \(arguments.dropFirst(2).first ?? "")\n".utf8))
        exit(2)
    }
    do {
        let value = try YAML.parse(String(decoding: data, as: UTF8.self))
        FileHandle.standardOutput.write(Data(value.serializedBytes()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(arguments[2]): \(error)\n".utf8))
        exit(1)
    }
}
guard let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("yaml-bench: cannot read \(arguments[1])\n".utf8))
    exit(2)
}
let text = String(decoding: data, as: UTF8.self)
let rounds = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 5) : 5
var times: [Double] = []
let clock = ContinuousClock()
for _ in 0..<rounds {
    let start = clock.now
    do {
        _ = try YAML.parse(text)
    } catch {
        FileHandle.standardError.write(Data("\(arguments[1]): \(error)\n".utf8))
        exit(1)
    }
    let elapsed = clock.now - start
    times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
times.sort()
print(
    String(
        format: "stubyaml: %d bytes, %d rounds, best %.3f s, median %.3f s, %.1f MB/s", data.count, rounds, times[0],
        times[times.count / 2], Double(data.count) / times[0] / 1e6))
