/// FIPS 180-4's preprocessing (§5.1.1, §5.2.1, §6.1.2 step 1), shared by ``SHA1`` and StubMatching's SHA-256.
package enum SHAMessageSchedule {
    /// Pads `bytes` (0x80, zeros, the bit length as 64 bits), cuts them into 64-byte blocks and calls `compress`
    /// once a block, with a schedule of `length` words whose first 16 are the block's, big-endian; `compress`
    /// fills the rest and folds the block into its hash.
    package static func forEachBlock<Bytes: Collection<UInt8>>(
        of bytes: Bytes, length: Int, _ compress: (inout [UInt32]) -> Void
    ) {
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        var w = [UInt32](repeating: 0, count: length)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] =
                    UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8
                    | UInt32(message[j + 3])
            }
            compress(&w)
        }
    }

    /// The hash words, big-endian: the digest.
    package static func digest(_ h: [UInt32]) -> [UInt8] {
        h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
    }
}
