import Testing
@testable import PlaneKitInput
@testable import PlaneKitCloudIO

struct LZFTests {
    /// Decompresses `stream` into a buffer of `capacity` bytes.
    static func decompress(_ stream: [UInt8], capacity: Int) throws(LZF.Failure) -> [UInt8] {
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { output.deallocate() }
        let produced = try stream.withUnsafeBufferPointer { (input) throws(LZF.Failure) in
            try LZF.decompress(input, into: output)
        }
        return Array(output[0..<produced])
    }

    /// The error decompressing `stream` throws, or nil.
    static func failure(_ stream: [UInt8], capacity: Int) -> String? {
        do {
            _ = try decompress(stream, capacity: capacity)
            return nil
        } catch {
            return error.problem
        }
    }

    @Test func handWrittenItems() throws {
        // Literal "abc", then a short reference (length 1 + 2 = 3, distance 3): "abcabc".
        #expect(try Self.decompress([2, 97, 98, 99, 1 << 5 | 0, 2], capacity: 6) == Array("abcabc".utf8))
        // Overlapping reference, distance 1, length 5 + 2: one byte repeated.
        #expect(try Self.decompress([0, 7, 5 << 5, 0], capacity: 8) == Array(repeating: 7, count: 8))
        // Long reference: length 7 + 200 + 2 = 209, distance 4 (a float repeated), 13-bit distance high bits 0.
        let nan: [UInt8] = [0, 0, 0xC0, 0x7F]
        let out = try Self.decompress([3] + nan + [7 << 5, 200, 3], capacity: 213)
        #expect(out.count == 213)
        #expect(out == Array((0..<213).map { nan[$0 % 4] }))
        // A distance needing the high bits: 0x1FFF + 1 = 8192 bytes back.
        let block = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var stream: [UInt8] = []
        for start in stride(from: 0, to: 8192, by: 32) { stream += [31] + block[start..<(start + 32)] }
        stream += [1 << 5 | 0x1F, 0xFF]
        let far = try Self.decompress(stream, capacity: 8195)
        #expect(Array(far[8192...]) == Array(block[0..<3]))
        #expect(try Self.decompress([], capacity: 0) == [])
    }

    @Test func roundTripThroughTheTestEncoder() throws {
        var state: UInt64 = 12345
        var data: [UInt8] = []
        for _ in 0..<3000 {  // runs, repeats and noise, as sensor data has
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let kind = state >> 62
            let n = Int(state >> 40 & 63) + 1
            switch kind {
            case 0: data += Array(repeating: UInt8(truncatingIfNeeded: state >> 20), count: n)
            case 1 where data.count > 100: data += data[(data.count - 100)..<(data.count - 100 + min(n, 100))]
            default: data += (0..<n).map { UInt8(truncatingIfNeeded: (state >> UInt64($0 % 50)) &+ UInt64($0)) }
            }
        }
        let compressed = TestLZFEncoder.compress(data)
        #expect(compressed.count < data.count * 3 / 4)
        #expect(try Self.decompress(compressed, capacity: data.count) == data)
    }

    @Test func lyingStreamsAreErrors() {
        // A reference before any output exists, and one reaching one byte too far back.
        #expect(Self.failure([1 << 5, 0], capacity: 16)?.contains("before the start") == true)
        #expect(Self.failure([1, 1, 2, 1 << 5, 2], capacity: 16)?.contains("3 bytes back from output byte 2") == true)
        // A literal run promising 4 bytes where 2 follow.
        #expect(Self.failure([3, 1, 2], capacity: 16)?.contains("runs past the end") == true)
        // References cut off after the control byte, and after a long length byte.
        #expect(Self.failure([0, 9, 1 << 5], capacity: 16)?.contains("cut off") == true)
        #expect(Self.failure([0, 9, 7 << 5, 10], capacity: 64)?.contains("cut off") == true)
        // Output larger than the buffer, by a literal and by a reference.
        #expect(Self.failure([4, 1, 2, 3, 4, 5], capacity: 4)?.contains("expands past the 4 bytes") == true)
        #expect(Self.failure([0, 9, 2 << 5, 0], capacity: 4)?.contains("expands past the 4 bytes") == true)
    }
}
