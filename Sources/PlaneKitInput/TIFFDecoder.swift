/// Decodes baseline grayscale TIFF images: `II` or `MM` byte order, one 8- or 16-bit unsigned
/// sample per pixel, in strips, uncompressed, PackBits or Deflate (zlib), with or without
/// horizontal-differencing prediction. Anything else is a clear error.
public enum TIFFDecoder {
    /// The first image in `bytes`; `source` names the file in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> GrayImage {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }
        guard bytes.count >= 8 else { throw fail("truncated: too short for a TIFF header") }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw fail("not a TIFF file (byte order mark is not II or MM)")
        }
        func u16(_ at: Int) -> Int {
            bigEndian ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
        }
        func u32(_ at: Int) -> Int {
            bigEndian ? u16(at) << 16 | u16(at + 2) : u16(at + 2) << 16 | u16(at)
        }
        let magic = u16(2)
        guard magic == 42 else {
            throw fail(magic == 43 ? "BigTIFF is not supported" : "not a TIFF file (magic \(magic), expected 42)")
        }
        let ifd = u32(4)
        guard ifd >= 8, bytes.count - ifd >= 2 else { throw fail("truncated: image directory at \(ifd) lies outside the file") }
        let entryCount = u16(ifd)
        guard bytes.count - ifd - 2 >= entryCount * 12 else {
            throw fail("truncated: image directory of \(entryCount) entries does not fit in the file")
        }

        /// The integer values of a SHORT or LONG (or BYTE) tag.
        var tags: [Int: [Int]] = [:]
        for e in 0..<entryCount {
            let entry = ifd + 2 + e * 12
            let tag = u16(entry), type = u16(entry + 2), count = u32(entry + 4)
            let size: Int
            switch type {
            case 1: size = 1
            case 3: size = 2
            case 4: size = 4
            default: continue  // rationals, strings, floats: no baseline tag we use has them
            }
            guard count <= bytes.count / size else { throw fail("tag \(tag) claims \(count) values, more than the file holds") }
            let total = count * size
            let start = total <= 4 ? entry + 8 : u32(entry + 8)
            guard start >= 0, bytes.count - start >= total else {
                throw fail("truncated: tag \(tag)'s \(count) values lie outside the file")
            }
            var values: [Int] = []
            values.reserveCapacity(count)
            for i in 0..<count {
                switch size {
                case 1: values.append(Int(bytes[start + i]))
                case 2: values.append(u16(start + 2 * i))
                default: values.append(u32(start + 4 * i))
                }
            }
            tags[tag] = values
        }
        func single(_ tag: Int, _ name: String, default value: Int? = nil) throws(InputError) -> Int {
            guard let values = tags[tag] else {
                if let value { return value }
                throw fail("missing \(name) tag (\(tag))")
            }
            guard values.count >= 1 else { throw fail("\(name) tag has no value") }
            return values[0]
        }

        if tags[322] != nil || tags[324] != nil { throw fail("tiled TIFF is not supported (strips only)") }
        let width = try single(256, "ImageWidth")
        let height = try single(257, "ImageLength")
        let count = try InputLimits.pixelCount(width: width, height: height, source: source)
        let samplesPerPixel = try single(277, "SamplesPerPixel", default: 1)
        guard samplesPerPixel == 1 else { throw fail("\(samplesPerPixel) samples per pixel: only single-channel (grayscale) TIFF is supported") }
        let bitDepth = try single(258, "BitsPerSample", default: 1)
        guard bitDepth == 16 || bitDepth == 8 else { throw fail("\(bitDepth) bits per sample: only 16-bit (or 8-bit) grayscale is supported") }
        let sampleFormat = try single(339, "SampleFormat", default: 1)
        guard sampleFormat == 1 else { throw fail("sample format \(sampleFormat): only unsigned integer samples are supported") }
        let photometric = try single(262, "PhotometricInterpretation", default: 1)
        guard photometric == 1 else { throw fail("photometric interpretation \(photometric): only BlackIsZero grayscale (1) is supported") }
        let planar = try single(284, "PlanarConfiguration", default: 1)
        guard planar == 1 else { throw fail("planar configuration \(planar) is not supported") }
        let predictor = try single(317, "Predictor", default: 1)
        guard predictor == 1 || predictor == 2 else { throw fail("predictor \(predictor) is not supported (none or horizontal only)") }
        let compression = try single(259, "Compression", default: 1)
        switch compression {
        case 1, 8, 32946, 32773: break
        case 5: throw fail("LZW compression (5) is not supported; use none, PackBits or Deflate")
        case 6, 7: throw fail("JPEG compression (\(compression)) is not supported; use none, PackBits or Deflate")
        default: throw fail("compression \(compression) is not supported; use none (1), PackBits (32773) or Deflate (8)")
        }
        let rowsPerStrip = min(max(try single(278, "RowsPerStrip", default: height), 1), height)
        guard let offsets = tags[273] else { throw fail("missing StripOffsets tag (273)") }
        guard let byteCounts = tags[279] else { throw fail("missing StripByteCounts tag (279)") }
        let stripCount = (height + rowsPerStrip - 1) / rowsPerStrip
        guard offsets.count >= stripCount, byteCounts.count >= stripCount else {
            throw fail("\(offsets.count) strip offsets and \(byteCounts.count) byte counts for \(stripCount) strips")
        }

        let bytesPerSample = bitDepth / 8
        let rowBytes = width * bytesPerSample
        var raw = [UInt8](repeating: 0, count: count * bytesPerSample)
        for strip in 0..<stripCount {
            let offset = offsets[strip], length = byteCounts[strip]
            guard offset >= 0, length >= 0, offset <= bytes.count, bytes.count - offset >= length else {
                throw fail("truncated: strip \(strip) (\(length) bytes at \(offset)) lies outside the file")
            }
            let rows = min(rowsPerStrip, height - strip * rowsPerStrip)
            let expected = rows * rowBytes
            let destination = strip * rowsPerStrip * rowBytes
            try bytes.withUnsafeBufferPointer { (file) throws(InputError) in
                let input = UnsafeBufferPointer(rebasing: file[offset..<(offset + length)])
                switch compression {
                case 1:
                    guard length >= expected else { throw fail("truncated: strip \(strip) has \(length) bytes, \(expected) expected") }
                    for i in 0..<expected { raw[destination + i] = input[i] }
                case 32773:
                    try raw.withUnsafeMutableBufferPointer { (out) throws(InputError) in
                        try PackBits.decode(input, into: UnsafeMutableBufferPointer(rebasing: out[destination..<(destination + expected)]),
                                            source: "\(source) strip \(strip)")
                    }
                default:
                    let inflated = try Zlib.inflate(UnsafeRawBufferPointer(input), expectedSize: expected, allowExcess: true,
                                                    source: "\(source) strip \(strip)")
                    raw.replaceSubrange(destination..<(destination + expected), with: inflated)
                }
            }
        }

        var samples = ContiguousArray<UInt16>(repeating: 0, count: count)
        raw.withUnsafeBufferPointer { raw in
            samples.withUnsafeMutableBufferPointer { out in
                if bytesPerSample == 2 {
                    for i in 0..<count {
                        let (a, b) = (UInt16(raw[2 * i]), UInt16(raw[2 * i + 1]))
                        out[i] = bigEndian ? a << 8 | b : b << 8 | a
                    }
                } else {
                    for i in 0..<count { out[i] = UInt16(raw[i]) }
                }
                if predictor == 2 {  // each sample was stored as the difference from its left neighbour
                    let mask: UInt16 = bytesPerSample == 2 ? 0xFFFF : 0xFF
                    for v in 0..<height {
                        for u in 1..<max(width, 1) { out[v * width + u] = (out[v * width + u] &+ out[v * width + u - 1]) & mask }
                    }
                }
            }
        }
        return GrayImage(checkedWidth: width, height: height, bitDepth: bitDepth, samples: samples)
    }
}

/// PackBits run-length coding (TIFF compression 32773, Apple's scheme).
public enum PackBits {
    /// Decodes `input` until `output` is full: a header byte `n` in 0…127 copies the next
    /// `n + 1` bytes, −127…−1 repeats the next byte `1 − n` times, −128 is skipped. Runs that
    /// would overflow `output` and input that ends early are errors.
    public static func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>,
                              source: String) throws(InputError) {
        var i = 0, o = 0
        while o < output.count {
            guard i < input.count else {
                throw InputError(source: source, problem: "truncated PackBits data: \(o) of \(output.count) bytes decoded")
            }
            let n = Int(Int8(bitPattern: input[i]))
            i += 1
            if n >= 0 {
                let run = n + 1
                guard input.count - i >= run else { throw InputError(source: source, problem: "truncated PackBits literal run") }
                guard output.count - o >= run else { throw InputError(source: source, problem: "PackBits literal run overflows the strip") }
                for k in 0..<run { output[o + k] = input[i + k] }
                i += run
                o += run
            } else if n != -128 {
                let run = 1 - n
                guard i < input.count else { throw InputError(source: source, problem: "truncated PackBits repeat run") }
                guard output.count - o >= run else { throw InputError(source: source, problem: "PackBits repeat run overflows the strip") }
                for k in 0..<run { output[o + k] = input[i] }
                i += 1
                o += run
            }
        }
    }

    /// `input` encoded with PackBits: runs of 3 or more equal bytes as repeat runs, the rest as
    /// literal runs of at most 128 bytes.
    public static func encode(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        var literalStart = 0
        func flushLiterals(upTo end: Int) {
            var s = literalStart
            while s < end {
                let n = min(128, end - s)
                out.append(UInt8(n - 1))
                out.append(contentsOf: input[s..<(s + n)])
                s += n
            }
        }
        while i < input.count {
            var run = 1
            while i + run < input.count, run < 128, input[i + run] == input[i] { run += 1 }
            if run >= 3 {
                flushLiterals(upTo: i)
                out.append(UInt8(bitPattern: Int8(1 - run)))
                out.append(input[i])
                i += run
                literalStart = i
            } else {
                i += run
            }
        }
        flushLiterals(upTo: input.count)
        return out
    }
}
