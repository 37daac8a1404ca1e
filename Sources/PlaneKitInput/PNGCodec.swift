/// Decodes grayscale PNG images (bit depth 8 or 16, not interlaced): chunk CRCs are checked,
/// IDAT chunks concatenated and inflated with zlib, and all five row filters undone.
public enum PNGDecoder {
    /// The eight bytes every PNG file starts with.
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The image in `bytes`; `source` names the file in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> GrayImage {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw fail("not a PNG file (bad signature)") }
        func be32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var position = 8
        var header: (width: Int, height: Int, bitDepth: Int)?
        // Where the IDAT data lies in `bytes`: one chunk is inflated where it lies, several are
        // joined first.
        var idat: [Range<Int>] = []
        var sawEnd = false
        while !sawEnd {
            guard bytes.count - position >= 12 else { throw fail("truncated: file ends inside a chunk header (no IEND)") }
            let length = be32(position)
            let typeBytes = bytes[(position + 4)..<(position + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= Int(Int32.max), bytes.count - position - 12 >= length else {
                throw fail("truncated: chunk \(type) claims \(length) bytes, \(max(bytes.count - position - 12, 0)) remain")
            }
            let dataStart = position + 8
            let stored = UInt32(be32(dataStart + length))
            let computed = bytes.withUnsafeBytes { raw in
                Zlib.crc32(UnsafeRawBufferPointer(rebasing: raw[(position + 4)..<(dataStart + length)]))
            }
            guard stored == computed else { throw fail("chunk \(type) has a bad CRC (file is corrupt)") }
            let data = bytes[dataStart..<(dataStart + length)]
            position = dataStart + length + 4
            switch type {
            case "IHDR":
                guard header == nil, length == 13 else { throw fail("malformed IHDR chunk") }
                let width = be32(dataStart), height = be32(dataStart + 4)
                let bitDepth = Int(data[dataStart + 8]), colorType = Int(data[dataStart + 9])
                guard data[dataStart + 10] == 0, data[dataStart + 11] == 0 else {
                    throw fail("unknown compression or filter method in IHDR")
                }
                guard data[dataStart + 12] == 0 else {
                    throw fail("Adam7 interlaced PNG is not supported; save the depth image without interlacing")
                }
                guard colorType == 0 else {
                    throw fail("PNG colour type \(colorType) is not supported; depth images must be grayscale")
                }
                guard bitDepth == 8 || bitDepth == 16 else {
                    throw fail("grayscale bit depth \(bitDepth) is not supported (8 or 16 only)")
                }
                _ = try InputLimits.pixelCount(width: width, height: height, source: source)
                header = (width, height, bitDepth)
            case "IDAT":
                guard header != nil else { throw fail("IDAT before IHDR") }
                idat.append(dataStart..<(dataStart + length))
            case "IEND":
                sawEnd = true
            default:
                // An unknown critical chunk (upper-case first letter) changes the meaning of the data.
                if let first = typeBytes.first, first >= 0x41, first <= 0x5A, type != "PLTE" {
                    throw fail("unknown critical chunk \(type)")
                }
            }
        }
        guard let header else { throw fail("no IHDR chunk") }
        guard !idat.isEmpty, idat.contains(where: { !$0.isEmpty }) else { throw fail("no IDAT chunk") }
        let bytesPerPixel = header.bitDepth / 8
        let rowBytes = header.width * bytesPerPixel
        let expectedSize = header.height * (rowBytes + 1)
        var raw: [UInt8]
        if idat.count == 1 {
            raw = try bytes.withUnsafeBufferPointer { (file) throws(InputError) in
                try Zlib.inflate(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: file[idat[0]])), expectedSize: expectedSize, source: source)
            }
        } else {
            // Compressed data can't exceed the file, so this grows only with real bytes.
            var compressed: [UInt8] = []
            for range in idat { compressed.append(contentsOf: bytes[range]) }
            raw = try compressed.withUnsafeBufferPointer { (input) throws(InputError) in
                try Zlib.inflate(UnsafeRawBufferPointer(input), expectedSize: expectedSize, source: source)
            }
        }
        let count = header.width * header.height
        var failure: InputError?
        // Rows are unfiltered in place (each filter reads the row above, already restored, and
        // bytes to its left, already restored), then turned into samples in one pass.
        raw.withUnsafeMutableBufferPointer { raw in
            let zeros = [UInt8](repeating: 0, count: rowBytes)
            zeros.withUnsafeBufferPointer { zeros in
                for v in 0..<header.height {
                    let start = v * (rowBytes + 1)
                    let filter = raw[start]
                    guard filter <= 4 else {
                        failure = fail("row \(v) has unknown filter type \(filter)")
                        return
                    }
                    let row = UnsafeMutableBufferPointer(rebasing: raw[(start + 1)..<(start + 1 + rowBytes)])
                    let previous = v == 0 ? zeros : UnsafeBufferPointer(rebasing: raw[(start - rowBytes)..<start])
                    PNGFilter.unfilter(type: filter, row: UnsafeBufferPointer(row), previous: previous, into: row, bytesPerPixel: bytesPerPixel)
                }
            }
        }
        if let failure { throw failure }
        let samples = ContiguousArray<UInt16>(unsafeUninitializedCapacity: count) { out, initialized in
            raw.withUnsafeBufferPointer { raw in
                for v in 0..<header.height {
                    let row = raw.baseAddress! + v * (rowBytes + 1) + 1
                    let base = out.baseAddress! + v * header.width
                    if bytesPerPixel == 2 {
                        for u in 0..<header.width { base[u] = UInt16(row[2 &* u]) << 8 | UInt16(row[2 &* u &+ 1]) }
                    } else {
                        for u in 0..<header.width { base[u] = UInt16(row[u]) }
                    }
                }
            }
            initialized = count
        }
        return GrayImage(checkedWidth: header.width, height: header.height, bitDepth: header.bitDepth, samples: samples)
    }
}

/// PNG's five scanline filters (none, sub, up, average, Paeth).
public enum PNGFilter: UInt8, Sendable, CaseIterable {
    /// The row as it is.
    case none = 0
    /// Difference from the byte one pixel to the left.
    case sub = 1
    /// Difference from the byte above.
    case up = 2
    /// Difference from the mean of left and above.
    case average = 3
    /// Difference from the Paeth predictor of left, above and upper-left.
    case paeth = 4

    @inline(__always) static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Reconstructs a row: `into[i] = row[i] + predictor(into[i - bpp], previous[i], previous[i - bpp])`.
    /// `row` and `into` may be the same memory (each byte is read before it is written).
    ///
    /// Each byte depends on the one a pixel to its left, just restored: the filters that use it
    /// carry that byte in a register instead of reading it back from memory (a store's
    /// round trip was most of a depth image's decoding time), the two bytes of a 16-bit sample
    /// as two chains side by side. The Paeth predictor is chosen without branches, which a
    /// depth image's bytes would mispredict.
    static func unfilter(type: UInt8, row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                         into out: UnsafeMutableBufferPointer<UInt8>, bytesPerPixel bpp: Int) {
        let n = row.count
        guard n > 0, bpp > 0, let input = row.baseAddress, let above = previous.baseAddress, let output = out.baseAddress else { return }
        switch type {
        case 1:
            unfilterFromLeft(input, above, output, count: n, bytesPerPixel: bpp) { a, _, _ in a }
        case 2:
            for i in 0..<n { output[i] = input[i] &+ above[i] }
        case 3:
            unfilterFromLeft(input, above, output, count: n, bytesPerPixel: bpp) { a, b, _ in (a &+ b) >> 1 }
        case 4:
            unfilterFromLeft(input, above, output, count: n, bytesPerPixel: bpp) { a, b, c in
                // |p − a|, |p − b| and |p − c| for p = a + b − c.
                let pa = magnitude(b &- c), pb = magnitude(a &- c), pc = magnitude(a &+ b &- c &- c)
                return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            }
        default:
            for i in 0..<n { output[i] = input[i] }
        }
    }

    /// Undoes a filter whose predictor takes the restored byte a pixel to the left (`a`), the
    /// byte above (`b`) and the one above `a` (`c`); left of the first pixel, `a` and `c` are 0.
    @inline(__always)
    private static func unfilterFromLeft(_ input: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>,
                                         _ output: UnsafeMutablePointer<UInt8>, count n: Int, bytesPerPixel bpp: Int,
                                         predictor: (_ a: Int32, _ b: Int32, _ c: Int32) -> Int32) {
        @inline(__always) func restore(_ i: Int, _ a: Int32, _ c: Int32) -> Int32 {
            Int32(input[i] &+ UInt8(truncatingIfNeeded: predictor(a, Int32(above[i]), c)))
        }
        if bpp == 2, n >= 2 {
            var a0 = restore(0, 0, 0), a1 = restore(1, 0, 0)
            var c0 = Int32(above[0]), c1 = Int32(above[1])
            output[0] = UInt8(truncatingIfNeeded: a0)
            output[1] = UInt8(truncatingIfNeeded: a1)
            var i = 2
            while i &+ 1 < n {
                a0 = restore(i, a0, c0)
                a1 = restore(i &+ 1, a1, c1)
                c0 = Int32(above[i])
                c1 = Int32(above[i &+ 1])
                output[i] = UInt8(truncatingIfNeeded: a0)
                output[i &+ 1] = UInt8(truncatingIfNeeded: a1)
                i &+= 2
            }
            if i < n { output[i] = UInt8(truncatingIfNeeded: restore(i, a0, c0)) }
            return
        }
        // One chain per byte of the pixel, each along the row.
        for lane in 0..<min(bpp, n) {
            var a: Int32 = 0, c: Int32 = 0
            var i = lane
            while i < n {
                a = restore(i, a, c)
                c = Int32(above[i])
                output[i] = UInt8(truncatingIfNeeded: a)
                i &+= bpp
            }
        }
    }

    /// |x| for the small differences of the Paeth predictor, without a branch.
    @inline(__always) private static func magnitude(_ x: Int32) -> Int32 {
        let sign = x >> 31
        return (x ^ sign) &- sign
    }

    /// Filters a row (the inverse of ``unfilter``): `out[i] = row[i] − predictor(row, previous)`.
    func filter(row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                into out: UnsafeMutableBufferPointer<UInt8>, bytesPerPixel bpp: Int) {
        for i in 0..<row.count {
            let a = i >= bpp ? row[i - bpp] : 0, b = previous[i], c = i >= bpp ? previous[i - bpp] : 0
            let predicted: UInt8
            switch self {
            case .none: predicted = 0
            case .sub: predicted = a
            case .up: predicted = b
            case .average: predicted = UInt8((Int(a) + Int(b)) / 2)
            case .paeth: predicted = Self.paethPredictor(a, b, c)
            }
            out[i] = row[i] &- predicted
        }
    }
}

/// Writes PNG images: 8-bit RGB and 16-bit grayscale, deflated with zlib, with a chosen row filter.
public enum PNGWriter {
    /// The PNG file's bytes for a 16-bit grayscale image.
    public static func encode(_ image: GrayImage, filter: PNGFilter = .up) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: image.samples.count * 2)
        for (i, s) in image.samples.enumerated() {
            raw[2 * i] = UInt8(s >> 8)
            raw[2 * i + 1] = UInt8(s & 0xFF)
        }
        return encode(raw: raw, width: image.width, height: image.height, bitDepth: 16, colorType: 0, bytesPerPixel: 2, filter: filter)
    }

    /// The PNG file's bytes for an 8-bit RGB image.
    public static func encode(_ image: RGBImage, filter: PNGFilter = .up) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: image.pixels.count * 3)
        for (i, p) in image.pixels.enumerated() {
            raw[3 * i] = p.x
            raw[3 * i + 1] = p.y
            raw[3 * i + 2] = p.z
        }
        return encode(raw: raw, width: image.width, height: image.height, bitDepth: 8, colorType: 2, bytesPerPixel: 3, filter: filter)
    }

    /// Writes a 16-bit grayscale image to `path`.
    public static func write(_ image: GrayImage, to path: String, filter: PNGFilter = .up) throws(InputError) {
        try FileBytes.write(encode(image, filter: filter), to: path)
    }

    /// Writes an 8-bit RGB image to `path`.
    public static func write(_ image: RGBImage, to path: String, filter: PNGFilter = .up) throws(InputError) {
        try FileBytes.write(encode(image, filter: filter), to: path)
    }

    private static func encode(raw: [UInt8], width: Int, height: Int, bitDepth: UInt8, colorType: UInt8,
                               bytesPerPixel: Int, filter: PNGFilter) -> [UInt8] {
        let rowBytes = width * bytesPerPixel
        var filtered = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        raw.withUnsafeBufferPointer { raw in
            filtered.withUnsafeMutableBufferPointer { out in
                zeros.withUnsafeBufferPointer { zeros in
                    for v in 0..<height {
                        let row = UnsafeBufferPointer(rebasing: raw[(v * rowBytes)..<((v + 1) * rowBytes)])
                        let previous = v == 0 ? zeros : UnsafeBufferPointer(rebasing: raw[((v - 1) * rowBytes)..<(v * rowBytes)])
                        let start = v * (rowBytes + 1)
                        out[start] = filter.rawValue
                        filter.filter(row: row, previous: previous,
                                      into: UnsafeMutableBufferPointer(rebasing: out[(start + 1)..<(start + 1 + rowBytes)]),
                                      bytesPerPixel: bytesPerPixel)
                    }
                }
            }
        }
        var png = PNGDecoder.signature
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            png += be32(data.count) + body
            png += be32(Int(body.withUnsafeBytes { Zlib.crc32($0) }))
        }
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
        // zlib's fastest level: a VGA depth image deflates in about 10 ms instead of 60 ms at the
        // default level, for a file about a fifth larger. What PlaneKit writes as PNG is generated
        // frames and per-frame pictures, where a stream's time matters more than the bytes.
        let compressed = Zlib.deflate(filtered, level: 1)
        var offset = 0
        repeat {  // IDAT chunks of at most 1 MiB keep every chunk length small
            let end = min(offset + (1 << 20), compressed.count)
            chunk("IDAT", Array(compressed[offset..<end]))
            offset = end
        } while offset < compressed.count
        chunk("IEND", [])
        return png
    }
}
