/// PNG chunks with their CRCs recomputed, for the png fuzz target (Fuzz/Targets/png.swift, which
/// compiles this file in) and the tests that replay its findings.
///
/// A mutated PNG almost always fails its chunk CRC, so without the repair the fuzzer would spend
/// its time on the CRC check and seldom reach the header, zlib and filter code behind it.
public enum PNGChecksumRepair {
    /// `bytes` with the CRC of every whole chunk after the signature set to match its type and
    /// data; the walk stops at the first chunk whose length runs past the end (left as it is).
    public static func repaired(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var position = 8
        while out.count - position >= 12 {
            let length = Int(out[position]) << 24 | Int(out[position + 1]) << 16 | Int(out[position + 2]) << 8 | Int(out[position + 3])
            guard length <= out.count - position - 12 else { break }
            let crc = crc32(out[(position + 4)..<(position + 8 + length)])
            let at = position + 8 + length
            for k in 0..<4 { out[at + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
            position = at + 4
        }
        return out
    }

    /// CRC-32 (ISO-HDLC, PNG's), bit by bit: slow, but fuzz inputs are a few KB.
    public static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
