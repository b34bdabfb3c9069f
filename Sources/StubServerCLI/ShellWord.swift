/// A word as a POSIX shell reads it back: left as it is when every character is one a shell takes literally,
/// otherwise in single quotes (a `'` inside written `'\''`). For commands the CLI suggests, so that they can be
/// pasted as printed: `--state 'Cart=Has item'`.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        guard word.isEmpty || !word.unicodeScalars.allSatisfy(isLiteral) else { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// Letters, digits and `_ @ % + = : , . / -`: no shell gives them a meaning in a word.
    private static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": true
        default: false
        }
    }
}
