import Foundation
import PlaneKitTestSupport

/// Writing scratch files for tests.
enum TestFiles {
    /// Writes `bytes` to a new file called `name` in a fresh temporary directory; returns its path.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = try SharedData.temporaryDirectory("planekit-input").appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A fresh path called `name` in a temporary directory (the file does not exist yet).
    static func path(_ name: String) throws -> String {
        try SharedData.temporaryDirectory("planekit-input").appendingPathComponent(name).path
    }

    /// A zlib stream of stored (uncompressed) deflate blocks: built by hand, independently of
    /// the zlib library the decoders use.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// CRC-32 (ISO-HDLC, PNG's), bit by bit.
    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A PNG chunk with its CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// A grayscale PNG built by hand from already-filtered scanlines (filter byte first).
    static func handPNG(width: Int, height: Int, bitDepth: UInt8, filteredRows: [UInt8], interlace: UInt8 = 0) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + pngChunk("IHDR", be32(width) + be32(height) + [bitDepth, 0, 0, 0, interlace])
            + pngChunk("IDAT", storedZlib(filteredRows))
            + pngChunk("IEND", [])
    }

    /// A one-strip 16-bit grayscale TIFF with `strip` as the (possibly compressed) strip data.
    static func handTIFF(width: Int, height: Int, bigEndian: Bool, compression: Int, strip: [UInt8],
                         rowsPerStrip: Int? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let entries: [(Int, Int, Int)] = [  // tag, type, value
            (256, 4, width), (257, 4, height), (258, 3, 16), (259, 3, compression), (262, 3, 1),
            (273, 4, 8), (277, 3, 1), (278, 4, rowsPerStrip ?? height), (279, 4, strip.count),
        ]
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += u16(42) + u32(8 + strip.count) + strip
        bytes += u16(entries.count)
        for (tag, type, value) in entries {
            bytes += u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + u16(0) : u32(value))
        }
        bytes += u32(0)
        return bytes
    }

    /// 16-bit samples as bytes in the given order.
    static func samples16(_ samples: [UInt16], bigEndian: Bool) -> [UInt8] {
        samples.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }
}
