import PlaneKitInput

/// LZF decompression, the byte format PCD's `binary_compressed` data uses.
///
/// Written from the format description: the stream is a sequence of items, each starting with a
/// control byte `c`.
/// - `c < 32`: a literal run; the next `c + 1` bytes are copied to the output.
/// - otherwise a back-reference: length `c >> 5` (7 means "7 plus the next byte"), then one more
///   byte completing a 13-bit distance `((c & 31) << 8 | byte) + 1`; `length + 2` bytes are
///   copied from that far behind the output position, one at a time, so a reference may overlap
///   the bytes it produces (distance 4 repeats the last float).
///
/// Every read and write is checked against the ends of both buffers before it happens, so a
/// lying stream is an error, never an out-of-bounds access.
enum LZF {
    /// The most output bytes one input byte can produce: a three-byte back-reference copies at most
    /// 7 + 255 + 2 = 264 bytes. A claimed output size above `88 ×` the input is a lie.
    static let maximumExpansion = 88

    /// What is wrong with a stream, in words for an ``InputError``.
    struct Failure: Error, Equatable {
        /// What went wrong and where (byte offsets into the compressed data and the output).
        var problem: String
    }

    /// Decompresses all of `input` into the start of `output`; returns the number of bytes
    /// written. Throws when the stream ends inside an item, refers before the start of the
    /// output, or would write past the end of `output`.
    static func decompress(_ input: UnsafeBufferPointer<UInt8>,
                           into output: UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Int {
        guard let source = input.baseAddress, !input.isEmpty else { return 0 }
        guard let target = output.baseAddress else {
            throw Failure(problem: "LZF data produces bytes but there is no room for any")
        }
        let inputEnd = input.count, outputEnd = output.count
        var ip = 0, op = 0
        while ip < inputEnd {
            let control = Int(source[ip])
            let itemStart = ip
            ip += 1
            if control < 32 {
                let length = control + 1
                guard length <= inputEnd - ip else {
                    throw Failure(problem: "LZF literal run of \(length) bytes at compressed byte \(itemStart) runs past the end of the \(inputEnd) compressed bytes")
                }
                guard length <= outputEnd - op else { throw overflow(at: itemStart, capacity: outputEnd) }
                (target + op).update(from: source + ip, count: length)
                ip += length
                op += length
                continue
            }
            var length = control >> 5
            if length == 7 {
                guard ip < inputEnd else { throw truncatedReference(at: itemStart) }
                length += Int(source[ip])
                ip += 1
            }
            guard ip < inputEnd else { throw truncatedReference(at: itemStart) }
            let distance = ((control & 0x1F) << 8 | Int(source[ip])) + 1
            ip += 1
            length += 2
            guard distance <= op else {
                throw Failure(problem: "LZF back-reference at compressed byte \(itemStart) reaches \(distance) bytes back from output byte \(op), before the start of the data")
            }
            guard length <= outputEnd - op else { throw overflow(at: itemStart, capacity: outputEnd) }
            let from = target + (op - distance), to = target + op
            if distance >= length {
                // The bytes copied are all written already: one block copy.
                to.update(from: from, count: length)
            } else {
                // The reference overlaps what it produces: byte by byte, each byte reading one
                // written `distance` earlier (a run of repeated bytes or floats).
                for k in 0..<length { to[k] = from[k] }
            }
            op += length
        }
        return op
    }

    /// The error for an item that would write past the output's end.
    private static func overflow(at offset: Int, capacity: Int) -> Failure {
        Failure(problem: "LZF data at compressed byte \(offset) expands past the \(capacity) bytes the header declares")
    }

    /// The error for a back-reference cut off by the end of the stream.
    private static func truncatedReference(at offset: Int) -> Failure {
        Failure(problem: "LZF back-reference at compressed byte \(offset) is cut off by the end of the compressed data")
    }
}
