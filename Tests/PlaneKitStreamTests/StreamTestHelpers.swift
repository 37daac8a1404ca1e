import Foundation
import PlaneKitGeometry
import PlaneKitInput
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// Builds stream bytes by hand: header lines and payloads.
struct StreamBuilder {
    var bytes: [UInt8] = []

    mutating func line(_ text: String) { bytes.append(contentsOf: Array(text.utf8)); bytes.append(0x0A) }
    mutating func raw(_ data: [UInt8]) { bytes.append(contentsOf: data) }
    mutating func record(_ record: StreamRecord) throws {
        var writer = StreamRecordWriter(sink: MemoryByteSink())
        try writer.write(record)
        try writer.flush()
        bytes.append(contentsOf: writer.output.sink.bytes)
    }
}

/// Every record and error a reader produces, in order.
func readAll<S: ByteSource>(_ source: S, maximumHeaderBytes: Int = 1 << 20) -> [Result<StreamRecord, StreamError>] {
    let reader = StreamRecordReader(source: source, maximumHeaderBytes: maximumHeaderBytes)
    var results: [Result<StreamRecord, StreamError>] = []
    while let result = reader.next() { results.append(result) }
    return results
}

/// A source that yields real bytes, then `count` zero bytes made on the fly (a huge payload
/// without the memory for it), then more real bytes.
struct SyntheticPayloadSource: ByteSource {
    var before: MemoryByteSource
    var zeros: Int
    var after: MemoryByteSource

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        let n = try before.read(into: buffer)
        if n > 0 { return n }
        if zeros > 0 {
            let k = min(zeros, buffer.count)
            memset(buffer.baseAddress!, 0, k)
            zeros -= k
            return k
        }
        return try after.read(into: buffer)
    }
}

extension PinholeIntrinsics {
    static func test(width: Int, height: Int) -> PinholeIntrinsics {
        PinholeIntrinsics(fx: 500, fy: 510, cx: Float(width - 1) / 2, cy: Float(height - 1) / 2, width: width, height: height)!
    }
}

extension Result where Success == StreamRecord, Failure == StreamError {
    var frame: StreamFrame? { if case let .success(.frame(f)) = self { return f } else { return nil } }
    var record: StreamRecord? { if case let .success(r) = self { return r } else { return nil } }
    var error: StreamError? { if case let .failure(e) = self { return e } else { return nil } }
}
