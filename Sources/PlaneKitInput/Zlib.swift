import CLibdeflate
import CZlib

/// zlib streams (RFC 1950): inflate with an exact output size (libdeflate, or zlib when that
/// fails, for its precise diagnosis), deflate, and CRC-32.
package enum Zlib {
    /// The CRC-32 of `bytes`, continuing from `crc` (PNG's chunk checksum).
    package static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        var value = UInt(crc)
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Int(UInt32.max >> 1))
            value = CZlib.crc32(value, base.assumingMemoryBound(to: UInt8.self) + offset, uInt(chunk))
            offset += chunk
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Inflates the zlib stream in `input` into exactly `expectedSize` bytes. With
    /// `allowExcess`, output past `expectedSize` is ignored (TIFF strips may be padded);
    /// otherwise it is an error, as is a stream that ends short or is corrupt.
    package static func inflate(_ input: UnsafeRawBufferPointer, expectedSize: Int, allowExcess: Bool = false,
                        source: String) throws(InputError) -> [UInt8] {
        if let output = inflateWhole(input, expectedSize: expectedSize) { return output }
        return try inflateStreaming(input, expectedSize: expectedSize, allowExcess: allowExcess, source: source)
    }

    /// The stream inflated by libdeflate in one call, when it holds exactly `expectedSize`
    /// bytes; nil for anything else (short, long, corrupt), which the streaming inflate then
    /// tells apart. libdeflate's inflate is two to three times zlib's on depth images.
    private static func inflateWhole(_ input: UnsafeRawBufferPointer, expectedSize: Int) -> [UInt8]? {
        guard expectedSize > 0, let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var complete = false
        let output = [UInt8](unsafeUninitializedCapacity: expectedSize) { out, initialized in
            var produced = 0
            let result = libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count,
                                                    out.baseAddress, expectedSize, &produced)
            complete = result == LIBDEFLATE_SUCCESS && produced == expectedSize
            initialized = complete ? expectedSize : 0
        }
        return complete ? output : nil
    }

    /// zlib's inflate, piece by piece, with a message for every way the stream can be wrong.
    private static func inflateStreaming(_ input: UnsafeRawBufferPointer, expectedSize: Int, allowExcess: Bool,
                                         source: String) throws(InputError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw InputError(source: source, problem: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var failure: InputError?
        var scratch = [UInt8](repeating: 0, count: 1)
        let output = [UInt8](unsafeUninitializedCapacity: expectedSize) { out, initialized in
            initialized = expectedSize
            var produced = 0
            // zlib fills the buffer from the front; whatever it does not reach (an error, a short
            // stream) is zeroed on the way out, so no byte is left uninitialized.
            defer {
                if produced < expectedSize { (out.baseAddress! + produced).initialize(repeating: 0, count: expectedSize - produced) }
            }
            var consumed = 0
            var finished = false
            // zlib counts in 32-bit uInt: feed and drain in pieces of at most 1 GiB.
            let piece = 1 << 30
            while !finished {
                let inCount = min(input.count - consumed, piece)
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self).advanced(by: consumed))
                stream.avail_in = uInt(inCount)
                let outCount = min(expectedSize - produced, piece)
                let code: Int32
                if outCount > 0 {
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = uInt(outCount)
                    code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced += outCount - Int(stream.avail_out)
                } else {
                    // Output is full: see whether the stream has more to give.
                    code = scratch.withUnsafeMutableBufferPointer { s in
                        stream.next_out = s.baseAddress
                        stream.avail_out = 1
                        return CZlib.inflate(&stream, Z_NO_FLUSH)
                    }
                    if stream.avail_out == 0 {
                        if allowExcess { finished = true; continue }
                        failure = InputError(source: source, problem: "compressed data inflates to more than the expected \(expectedSize) bytes")
                        return
                    }
                }
                consumed += inCount - Int(stream.avail_in)
                switch code {
                case Z_STREAM_END:
                    finished = true
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    if consumed >= input.count {
                        failure = InputError(source: source, problem: "truncated compressed data (\(produced) of \(expectedSize) bytes)")
                        return
                    }
                case Z_NEED_DICT, Z_DATA_ERROR:
                    let message = stream.msg.map { String(cString: $0) } ?? "invalid data"
                    failure = InputError(source: source, problem: "corrupt compressed data: \(message)")
                    return
                default:
                    failure = InputError(source: source, problem: "zlib failed inflating (code \(code))")
                    return
                }
            }
            if produced < expectedSize {
                failure = InputError(source: source, problem: "compressed data inflates to \(produced) bytes, \(expectedSize) expected")
            }
        }
        if let failure { throw failure }
        return output
    }

    /// `bytes` compressed into a zlib stream at `level` (0–9).
    package static func deflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit_(&stream, level, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            fatalError("zlib deflateInit failed: out of memory")
        }
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(Int(deflateBound(&stream, uLong(bytes.count))))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        bytes.withUnsafeBufferPointer { input in
            var consumed = 0
            var code = Z_OK
            while code != Z_STREAM_END {
                let inCount = min(input.count - consumed, 1 << 30)
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.advanced(by: consumed))
                stream.avail_in = uInt(inCount)
                let flush = consumed + inCount == input.count ? Z_FINISH : Z_NO_FLUSH
                chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    code = CZlib.deflate(&stream, flush)
                    output.append(contentsOf: out.prefix(out.count - Int(stream.avail_out)))
                }
                consumed += inCount - Int(stream.avail_in)
                precondition(code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR, "zlib deflate failed with \(code)")
            }
        }
        return output
    }
}
