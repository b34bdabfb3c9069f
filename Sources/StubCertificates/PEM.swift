import StubHTTP

/// PEM text (RFC 7468): `-----BEGIN LABEL-----`, base64, `-----END LABEL-----`, any number of blocks, with
/// anything between them ignored (OpenSSL's "Bag Attributes", comments).
enum PEM {
    /// One block: its label (`CERTIFICATE`, `PRIVATE KEY`, …), its DER bytes and the line its BEGIN is on.
    struct Block: Equatable {
        let label: String
        let der: [UInt8]
        let line: Int
    }

    /// The blocks of `text`, in order; `file` names the file in errors, with the line.
    static func decode(_ text: String, file: String) throws(CertificateError) -> [Block] {
        var blocks: [Block] = []
        var open: (label: String, line: Int, body: String)?
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingSpaces
            if let label = line.boundary("BEGIN") {
                if let open {
                    throw CertificateError(
                        .corrupt, "\(file):\(number): BEGIN \(label) inside the \(open.label) block begun on line "
                            + "\(open.line), which has no END line")
                }
                open = (label, number, "")
            } else if let label = line.boundary("END") {
                guard let block = open else {
                    throw CertificateError(.corrupt, "\(file):\(number): END \(label) without a BEGIN line")
                }
                guard label == block.label else {
                    throw CertificateError(
                        .corrupt, "\(file):\(number): END \(label) closes the \(block.label) block begun on line "
                            + "\(block.line)")
                }
                do {
                    blocks.append(Block(label: label, der: try Base64.decode(block.body), line: block.line))
                } catch {
                    throw CertificateError(
                        .corrupt, "\(file):\(block.line): the \(label) block is not valid base64: \(error)")
                }
                open = nil
            } else if open != nil {
                // RFC 1421 headers (Proc-Type, DEK-Info) mark an encrypted key: said below; other lines are data.
                if line.hasPrefix("Proc-Type:") || line.hasPrefix("DEK-Info:") {
                    throw CertificateError(
                        .corrupt, "\(file):\(number): the key is encrypted; give an unencrypted one "
                            + "(openssl pkey -in \(file) -out key.pem)")
                }
                open?.body += line
            }
        }
        if let open {
            throw CertificateError(.corrupt, "\(file):\(open.line): BEGIN \(open.label) has no END line")
        }
        return blocks
    }

    /// The PEM text of one block: base64 in lines of 64 characters.
    static func encode(_ der: [UInt8], label: String) -> String {
        let base64 = Array(Base64.encode(der))
        var text = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < base64.count {
            let end = min(start + 64, base64.count)
            text += String(base64[start..<end]) + "\n"
            start = end
        }
        return text + "-----END \(label)-----\n"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        var text = self
        while let first = text.first, isSpace(first) { text = text.dropFirst() }
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        return text
    }

    /// The label of a `-----BEGIN LABEL-----` (or END) line.
    fileprivate func boundary(_ word: String) -> String? {
        let prefix = "-----\(word) "
        guard hasPrefix(prefix), hasSuffix("-----"), count >= prefix.count + 5 else { return nil }
        return String(dropFirst(prefix.count).dropLast(5))
    }
}
