import Foundation

/// Writes to stdout and stderr, unbuffered, so tools reading the first line see it at once.
enum StandardStreams {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// `1 stub`, `7 stubs`.
func stubCount(_ count: Int) -> String {
    count == 1 ? "1 stub" : "\(count) stubs"
}
