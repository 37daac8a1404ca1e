/// Decodes PGM images: binary `P5` (8-bit, or 16-bit big-endian when maxval > 255) and ascii `P2`.
public enum PGMDecoder {
    /// The image in `bytes`; `source` names the file in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws(InputError) -> GrayImage {
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: problem) }
        guard bytes.count >= 2, bytes[0] == 0x50, bytes[1] == 0x35 || bytes[1] == 0x32 else {
            throw fail("not a PGM file (expected P5 or P2)")
        }
        let isBinary = bytes[1] == 0x35
        return try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> GrayImage in
            var position = 2
            /// The next header integer, skipping white space and `#` comments.
            func headerNumber(_ what: String) throws(InputError) -> Int {
                while position < buffer.count {
                    let byte = buffer[position]
                    if byte == 0x23 {
                        while position < buffer.count, buffer[position] != 0x0A { position += 1 }
                    } else if NumberParsing.isBlank(byte) || byte == 0x0A {
                        position += 1
                    } else {
                        break
                    }
                }
                let start = position
                while position < buffer.count, buffer[position] >= 0x30, buffer[position] <= 0x39 { position += 1 }
                guard position > start else { throw fail("truncated or malformed header: no \(what)") }
                guard position - start <= 18, let value = NumberParsing.unsigned(buffer, start, position) else {
                    throw fail("header \(what) is too large")
                }
                return value
            }
            let width = try headerNumber("width")
            let height = try headerNumber("height")
            let maxValue = try headerNumber("maxval")
            let count = try InputLimits.pixelCount(width: width, height: height, source: source)
            guard maxValue >= 1, maxValue <= 65535 else { throw fail("maxval \(maxValue) is not within 1…65535") }
            let bitDepth = maxValue > 255 ? 16 : 8
            // Exactly one white-space byte separates the header from the raster.
            guard position < buffer.count, NumberParsing.isBlank(buffer[position]) || buffer[position] == 0x0A else {
                throw fail("truncated: no raster after the header")
            }
            position += 1

            if isBinary {
                let bytesPerSample = bitDepth / 8
                let needed = count * bytesPerSample
                guard buffer.count - position >= needed else {
                    throw fail("truncated: \(width)×\(height) samples need \(needed) bytes, \(buffer.count - position) present")
                }
                let base = position
                let samples = ContiguousArray<UInt16>(unsafeUninitializedCapacity: count) { out, initialized in
                    if bytesPerSample == 2 {
                        for i in 0..<count { out[i] = UInt16(buffer[base + 2 * i]) << 8 | UInt16(buffer[base + 2 * i + 1]) }
                    } else {
                        for i in 0..<count { out[i] = UInt16(buffer[base + i]) }
                    }
                    initialized = count
                }
                if maxValue < 65535, let bad = samples.first(where: { Int($0) > maxValue }) {
                    throw fail("sample \(bad) exceeds maxval \(maxValue)")
                }
                return GrayImage(checkedWidth: width, height: height, bitDepth: bitDepth, samples: samples)
            }

            // P2: every sample takes at least a digit and a separator.
            guard (buffer.count - position + 1) / 2 >= count else {
                throw fail("truncated: \(count) ascii samples cannot fit in \(buffer.count - position) bytes")
            }
            var samples = ContiguousArray<UInt16>()
            samples.reserveCapacity(count)
            for index in 0..<count {
                while position < buffer.count, NumberParsing.isBlank(buffer[position]) || buffer[position] == 0x0A { position += 1 }
                let start = position
                while position < buffer.count, !NumberParsing.isBlank(buffer[position]), buffer[position] != 0x0A { position += 1 }
                guard position > start else { throw fail("truncated: \(index) of \(count) samples present") }
                guard let value = NumberParsing.unsigned(buffer, start, position), value <= maxValue else {
                    throw fail("sample \(index) is not an integer within 0…\(maxValue)")
                }
                samples.append(UInt16(value))
            }
            return GrayImage(checkedWidth: width, height: height, bitDepth: bitDepth, samples: samples)
        }
    }
}

/// Writes 16-bit binary PGM (`P5`, maxval 65535, big-endian samples): for example label images.
public enum PGMWriter {
    /// The PGM file's bytes for `image` (always 16-bit, whatever the image's bit depth).
    public static func encode(_ image: GrayImage) -> [UInt8] {
        var bytes = Array("P5\n\(image.width) \(image.height)\n65535\n".utf8)
        let header = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: image.samples.count * 2))
        bytes.withUnsafeMutableBufferPointer { out in
            image.samples.withUnsafeBufferPointer { samples in
                for i in samples.indices {
                    out[header + 2 * i] = UInt8(samples[i] >> 8)
                    out[header + 2 * i + 1] = UInt8(samples[i] & 0xFF)
                }
            }
        }
        return bytes
    }

    /// Writes `image` to `path`.
    public static func write(_ image: GrayImage, to path: String) throws(InputError) {
        try FileBytes.write(encode(image), to: path)
    }
}
