import Testing
import Foundation
import PlaneKitGeometry
@testable import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCloudIO

/// Deterministic pseudo-random 16-bit samples with smooth areas, edges and zeros.
func testSamples(width: Int, height: Int) -> ContiguousArray<UInt16> {
    var state: UInt32 = 12345
    return ContiguousArray((0..<(width * height)).map { i -> UInt16 in
        state = state &* 1_664_525 &+ 1_013_904_223
        let (u, v) = (i % width, i / width)
        if (u + v) % 7 == 0 { return 0 }
        return u < width / 2 ? UInt16(800 + u * 3 + v) : UInt16(truncatingIfNeeded: state >> 8)
    })
}

/// The decoding error, or nil when decoding succeeds.
func decodeError(_ body: () throws(InputError) -> GrayImage) -> InputError? {
    do { _ = try body(); return nil } catch { return error }
}

struct PGMTests {
    @Test func sixteenBitRoundTrip() throws {
        let image = try GrayImage(width: 13, height: 7, samples: testSamples(width: 13, height: 7))
        let bytes = PGMWriter.encode(image)
        #expect(Array(bytes.prefix(14)) == Array("P5\n13 7\n65535\n".utf8))
        #expect(bytes[14] == UInt8(image.samples[0] >> 8) && bytes[15] == UInt8(image.samples[0] & 0xFF))  // big-endian
        #expect(try PGMDecoder.decode(bytes, source: "t") == image)
    }

    @Test func eightBitBinaryAndASCII() throws {
        let binary = Array("P5 # comment\n3 2\n# another\n200\n".utf8) + [0, 1, 2, 100, 150, 200]
        let a = try PGMDecoder.decode(binary, source: "b")
        #expect(a.bitDepth == 8 && a.samples == [0, 1, 2, 100, 150, 200])
        let ascii = Array("P2\n2 2\n4000\n0 1000\n 2000\n3000\n".utf8)
        let b = try PGMDecoder.decode(ascii, source: "a")
        #expect(b.bitDepth == 16 && b.samples == [0, 1000, 2000, 3000])
    }

    @Test func badPGM() throws {
        let good = PGMWriter.encode(try GrayImage(width: 4, height: 4, samples: testSamples(width: 4, height: 4)))
        #expect(decodeError { () throws(InputError) in try PGMDecoder.decode(Array(good.dropLast(3)), source: "t") }?.problem.contains("truncated") == true)
        let huge = Array("P5\n40000 25000\n65535\n".utf8) + [0, 0]
        #expect(decodeError { () throws(InputError) in try PGMDecoder.decode(huge, source: "t") }?.problem.contains("40000×25000") == true)
        let tooHigh = Array("P2\n1 1\n100\n101\n".utf8)
        #expect(decodeError { () throws(InputError) in try PGMDecoder.decode(tooHigh, source: "t") } != nil)
        let path = try TestFiles.write(huge, name: "huge.pgm")
        #expect(readError(path, options: ReadOptions(intrinsics: .kinect()))?.problem.contains("more than the 67108864 pixels allowed") == true)
    }
}

struct PNGTests {
    @Test func handBuiltEightBitAllFiveFilters() throws {
        // Rows filtered by hand with filters 0…4; the expected pixels are worked out in the comments.
        let rows: [UInt8] = [
            0, 10, 20, 30,   // none  → 10 20 30
            1, 5, 1, 2,      // sub   → 5 6 8
            2, 1, 1, 255,    // up    → 6 7 7 (8 + 255 wraps)
            3, 2, 3, 4,      // avg   → 2+3=5, 3+(5+7)/2=9, 4+(9+7)/2=12
            4, 1, 1, 1,      // paeth → 1+5=6, 1+9=10, 1+12=13
        ]
        let png = TestFiles.handPNG(width: 3, height: 5, bitDepth: 8, filteredRows: rows)
        let image = try PNGDecoder.decode(png, source: "hand")
        #expect(image.bitDepth == 8 && image.width == 3 && image.height == 5)
        #expect(image.samples == [10, 20, 30, 5, 6, 8, 6, 7, 7, 5, 9, 12, 6, 10, 13])
    }

    @Test func handBuiltSixteenBit() throws {
        // Samples 0x0102 0x0304 / 0x0203 0xFFFF; row 0 sub-filtered (2 bytes per pixel), row 1 up.
        let rows: [UInt8] = [1, 0x01, 0x02, 0x02, 0x02, 2, 0x01, 0x01, 0xFC, 0xFB]
        let image = try PNGDecoder.decode(TestFiles.handPNG(width: 2, height: 2, bitDepth: 16, filteredRows: rows), source: "hand")
        #expect(image.samples == [0x0102, 0x0304, 0x0203, 0xFFFF])
    }

    @Test(arguments: PNGFilter.allCases)
    func writerRoundTrip(filter: PNGFilter) throws {
        let image = try GrayImage(width: 37, height: 23, samples: testSamples(width: 37, height: 23))
        let bytes = PNGWriter.encode(image, filter: filter)
        #expect(try PNGDecoder.decode(bytes, source: "t") == image)
    }

    @Test(arguments: PNGFilter.allCases)
    func unfilterUndoesFilterForEveryPixelSize(filter: PNGFilter) {
        // Random rows (every byte value, so every Paeth choice) of 1 to 4 bytes a pixel, rows
        // shorter than a pixel included; undone into other memory and in place, as the decoder does.
        var state: UInt32 = 99
        func byte() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for bpp in 1...4 {
            for length in [1, bpp, 3 * bpp + 1, 257] {
                let previous = (0..<length).map { _ in byte() }, row = (0..<length).map { _ in byte() }
                var filtered = [UInt8](repeating: 0, count: length)
                row.withUnsafeBufferPointer { r in
                    previous.withUnsafeBufferPointer { p in
                        filtered.withUnsafeMutableBufferPointer { filter.filter(row: r, previous: p, into: $0, bytesPerPixel: bpp) }
                    }
                }
                var restored = [UInt8](repeating: 0, count: length), inPlace = filtered
                filtered.withUnsafeBufferPointer { f in
                    previous.withUnsafeBufferPointer { p in
                        restored.withUnsafeMutableBufferPointer {
                            PNGFilter.unfilter(type: filter.rawValue, row: f, previous: p, into: $0, bytesPerPixel: bpp)
                        }
                    }
                }
                previous.withUnsafeBufferPointer { p in
                    inPlace.withUnsafeMutableBufferPointer {
                        PNGFilter.unfilter(type: filter.rawValue, row: UnsafeBufferPointer($0), previous: p, into: $0, bytesPerPixel: bpp)
                    }
                }
                #expect(restored == row, "\(filter), \(bpp) bytes a pixel, \(length) bytes")
                #expect(inPlace == row, "\(filter) in place, \(bpp) bytes a pixel, \(length) bytes")
            }
        }
    }

    @Test func idatSplitOverSeveralChunksDecodesTheSame() throws {
        // Decoding inflates a single IDAT where it lies in the file and joins several first:
        // both give the image, whatever the split (including an empty chunk).
        let image = try GrayImage(width: 41, height: 17, samples: testSamples(width: 41, height: 17))
        for filter in PNGFilter.allCases {
            let png = PNGWriter.encode(image, filter: filter)
            // Signature, IHDR (8 + 13 + 4 bytes), then the one IDAT chunk.
            var length = 0
            for k in 0..<4 { length = length << 8 | Int(png[33 + k]) }
            let data = Array(png[41..<(41 + length)])
            let cuts = [0, 1, data.count / 3, data.count / 3, data.count - 2, data.count]
            var split = Array(png[0..<33])
            for (a, b) in zip(cuts, cuts.dropFirst()) { split += TestFiles.pngChunk("IDAT", Array(data[a..<b])) }
            split += TestFiles.pngChunk("IEND", [])
            #expect(try PNGDecoder.decode(split, source: "split") == image)
            #expect(try PNGDecoder.decode(png, source: "one") == image)
        }
    }

    @Test func rgbWriterProducesValidChunks() throws {
        var pixels = ContiguousArray<SIMD3<UInt8>>()
        for i in 0..<20 { pixels.append(SIMD3<UInt8>(UInt8(i * 10), UInt8(255 - i), UInt8(i % 3))) }
        let image = try RGBImage(width: 5, height: 4, pixels: pixels)
        let png = PNGWriter.encode(image, filter: .paeth)
        // Walk the chunks with the test's own CRC; undo the filter with the decoder's helpers.
        var position = 8, idat: [UInt8] = [], types: [String] = []
        while position < png.count {
            var length = 0
            for k in 0..<4 { length = length << 8 | Int(png[position + k]) }
            let body = Array(png[(position + 4)..<(position + 8 + length)])
            let crc = png[(position + 8 + length)..<(position + 12 + length)]
            #expect(Array(crc) == TestFiles.be32(Int(TestFiles.crc32(body))))
            let type = String(decoding: body.prefix(4), as: UTF8.self)
            types.append(type)
            if type == "IHDR" { #expect(Array(body[4..<17]) == TestFiles.be32(5) + TestFiles.be32(4) + [8, 2, 0, 0, 0]) }
            if type == "IDAT" { idat += body.dropFirst(4) }
            position += 12 + length
        }
        #expect(types == ["IHDR", "IDAT", "IEND"])
        let raw = try idat.withUnsafeBytes { try Zlib.inflate($0, expectedSize: 4 * 16, source: "t") }
        var previous = [UInt8](repeating: 0, count: 15)
        for v in 0..<4 {
            #expect(raw[v * 16] == 4)
            var row = [UInt8](repeating: 0, count: 15)
            raw[(v * 16 + 1)..<(v * 16 + 16)].withUnsafeBufferPointer { filtered in
                previous.withUnsafeBufferPointer { prev in
                    row.withUnsafeMutableBufferPointer { PNGFilter.unfilter(type: 4, row: filtered, previous: prev, into: $0, bytesPerPixel: 3) }
                }
            }
            var expected: [UInt8] = []
            for u in 0..<5 {
                let p: SIMD3<UInt8> = pixels[v * 5 + u]
                expected += [p.x, p.y, p.z]
            }
            #expect(row == expected)
            previous = row
        }
    }

    @Test func badPNG() throws {
        let good = PNGWriter.encode(try GrayImage(width: 16, height: 16, samples: testSamples(width: 16, height: 16)))
        func problem(_ bytes: [UInt8]) -> String? { decodeError { () throws(InputError) in try PNGDecoder.decode(bytes, source: "p") }?.problem }
        #expect(problem(Array(good.prefix(good.count - 30)))?.contains("truncated") == true)
        var flipped = good
        flipped[50] ^= 0x10  // inside IDAT
        #expect(problem(flipped) == "chunk IDAT has a bad CRC (file is corrupt)")
        #expect(problem(TestFiles.handPNG(width: 1, height: 1, bitDepth: 8, filteredRows: [0, 1], interlace: 1))?.contains("interlaced") == true)
        #expect(problem(TestFiles.handPNG(width: 100_000, height: 10_000, bitDepth: 16, filteredRows: [0]))?.contains("100000×10000") == true)
        #expect(problem(TestFiles.handPNG(width: 2, height: 2, bitDepth: 8, filteredRows: [0, 1, 2, 0]))?.contains("inflates") == true)
        #expect(problem(TestFiles.handPNG(width: 1, height: 1, bitDepth: 8, filteredRows: [7, 1]))?.contains("filter type 7") == true)
        #expect(problem(Array("GIF89a".utf8)) == "not a PNG file (bad signature)")
    }
}

struct TIFFTests {
    static let samples: [UInt16] = [0, 0, 0, 0x0102, 0x0304, 0, 0, 0]

    @Test(arguments: [false, true])
    func uncompressedBothByteOrders(bigEndian: Bool) throws {
        let tiff = TestFiles.handTIFF(width: 4, height: 2, bigEndian: bigEndian, compression: 1,
                                      strip: TestFiles.samples16(Self.samples, bigEndian: bigEndian))
        let image = try TIFFDecoder.decode(tiff, source: "t")
        #expect(image.width == 4 && image.height == 2 && Array(image.samples) == Self.samples)
    }

    @Test func packBitsWithRunsAndLiterals() throws {
        // Little-endian bytes 00×6 | 02 01 04 03 | 00×6, coded by hand: a repeat run, a no-op
        // (-128), a literal run of four, another repeat run.
        let strip: [UInt8] = [0xFB, 0x00, 0x80, 0x03, 0x02, 0x01, 0x04, 0x03, 0xFB, 0x00]
        let image = try TIFFDecoder.decode(TestFiles.handTIFF(width: 4, height: 2, bigEndian: false, compression: 32773, strip: strip), source: "t")
        #expect(Array(image.samples) == Self.samples)
        // Our encoder agrees with the hand coding and round-trips arbitrary data.
        #expect(PackBits.encode(TestFiles.samples16(Self.samples, bigEndian: false)) == [0xFB, 0x00, 0x03, 0x02, 0x01, 0x04, 0x03, 0xFB, 0x00])
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 < 400 ? 7 : $0 * $0 / 3) }
        let encoded = PackBits.encode(data)
        var decoded = [UInt8](repeating: 0, count: data.count)
        try encoded.withUnsafeBufferPointer { (input) throws(InputError) in
            try decoded.withUnsafeMutableBufferPointer { (out) throws(InputError) in try PackBits.decode(input, into: out, source: "t") }
        }
        #expect(decoded == data && encoded.count < data.count)
    }

    @Test(arguments: [8, 32946])
    func deflate(compression: Int) throws {
        let samples = Array(testSamples(width: 9, height: 5))
        let strip = TestFiles.storedZlib(TestFiles.samples16(samples, bigEndian: true))
        let image = try TIFFDecoder.decode(TestFiles.handTIFF(width: 9, height: 5, bigEndian: true, compression: compression, strip: strip), source: "t")
        #expect(Array(image.samples) == samples)
    }

    @Test func badTIFF() throws {
        func problem(_ bytes: [UInt8]) -> String? { decodeError { () throws(InputError) in try TIFFDecoder.decode(bytes, source: "t") }?.problem }
        let lzw = TestFiles.handTIFF(width: 4, height: 2, bigEndian: false, compression: 5, strip: Array(repeating: 0, count: 16))
        #expect(problem(lzw)?.contains("LZW compression (5) is not supported") == true)
        let good = TestFiles.handTIFF(width: 4, height: 2, bigEndian: false, compression: 1, strip: Array(repeating: 0, count: 16))
        #expect(problem(Array(good.prefix(20)))?.contains("truncated") == true)
        let shortStrip = TestFiles.handTIFF(width: 4, height: 2, bigEndian: false, compression: 32773, strip: [0xFB, 0x00, 0x03, 0x02])
        #expect(problem(shortStrip)?.contains("PackBits") == true)
        let overflow = TestFiles.handTIFF(width: 1, height: 1, bigEndian: false, compression: 32773, strip: [0x81, 0x00])
        #expect(problem(overflow)?.contains("overflows") == true)
        let huge = TestFiles.handTIFF(width: 100_000, height: 100_000, bigEndian: false, compression: 1, strip: [0, 0])
        #expect(problem(huge)?.contains("100000×100000") == true)
        #expect(problem(Array("XX*\0\0\0\0\0".utf8))?.contains("not a TIFF") == true)
    }
}
