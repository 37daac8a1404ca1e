import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// The sizes of the reads a source was asked for, kept outside the source (the reader owns its
/// own copy of the source).
private final class ReadLog {
    var requests: [Int] = []
}

/// Bytes from memory, noting each read's size in a ``ReadLog``.
private struct LoggingSource: ByteSource {
    var inner: MemoryByteSource
    let log: ReadLog

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        log.requests.append(buffer.count)
        return try inner.read(into: buffer)
    }
}

@Suite struct ReaderRefillTests {
    @Test func payloadsAreReadStraightIntoTheirStorage() throws {
        let width = 640, height = 480, frameCount = 3
        let payloadBytes = width * height * 2
        var builder = StreamBuilder()
        for index in 0..<frameCount {
            try builder.record(.frame(StreamFrame(timestamp: Double(index), width: width, height: height, encoding: .depth16,
                                                  depthScale: 0.001, intrinsics: .test(width: width, height: height), pose: .identity,
                                                  payload: [UInt8](repeating: UInt8(index + 1), count: payloadBytes))))
        }
        let log = ReadLog()
        let reader = StreamRecordReader(source: LoggingSource(inner: MemoryByteSource(builder.bytes), log: log))
        var payloads: [[UInt8]] = []
        while let record = try reader.read() {
            if case let .frame(frame) = record { payloads.append(frame.payload) }
        }
        #expect(payloads.count == frameCount)
        #expect(payloads.enumerated().allSatisfy { index, payload in payload.allSatisfy { $0 == UInt8(index + 1) } })
        // Refills of the line buffer ask for 16 KiB at most, so at most that much of a payload is
        // copied out of it; the rest of each payload is one read straight into its storage.
        let refill = StreamRecordReader<LoggingSource>.refillBytes
        #expect(refill == 16 << 10)
        let large = log.requests.filter { $0 > refill }
        #expect(large.count == frameCount)
        #expect(large.allSatisfy { $0 >= payloadBytes - refill && $0 <= payloadBytes })
    }
}
