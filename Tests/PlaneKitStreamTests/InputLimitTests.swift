import PlaneKitInput
@testable import PlaneKitStream
import Testing
@testable import PlaneKitStreamFormat

/// The stream's resource limits (README, "Resource limits"): what one record may make the
/// process allocate is bounded by the bytes that actually arrive, not by what its header claims.
struct StreamInputLimitTests {
    /// A header claiming 64 Mi pixels of xyz32f, the most allowed: 768 MiB of payload.
    static let hugeClaim = #"{"type":"frame","t":0,"width":8192,"height":8192,"encoding":"xyz32f","bytes":805306368}"#

    @Test func aFrameThatLiesAboutItsSizeGrowsTheStorageOnlyForWhatArrives() {
        var s = StreamBuilder()
        s.line(Self.hugeClaim)
        s.raw([UInt8](repeating: 0x41, count: 1 << 20))
        // In pieces as a pipe delivers them.
        let reader = StreamRecordReader(source: MemoryByteSource(s.bytes, maximumPiece: 65_536))
        let result = reader.next()
        #expect(result?.error?.message == "payload truncated: the stream ended after 1048576 of 805306368 bytes")
        #expect(reader.next() == nil)
        // 1 MiB arrived: the storage is at most twice that plus the 1 MiB first step, not 768 MiB.
        let bound = 2 * (1 << 20) + StreamRecordReader<MemoryByteSource>.payloadGrowthBytes
        #expect(reader.payloadCapacity >= 1 << 20 && reader.payloadCapacity <= bound, "\(reader.payloadCapacity)")
    }

    @Test func aClaimThatEndsAtOnceAllocatesNextToNothing() {
        var s = StreamBuilder()
        s.line(Self.hugeClaim)
        s.raw([1, 2, 3])
        let reader = StreamRecordReader(source: MemoryByteSource(s.bytes))
        #expect(reader.next()?.error?.message == "payload truncated: the stream ended after 3 of 805306368 bytes")
        #expect(reader.payloadCapacity <= StreamRecordReader<MemoryByteSource>.payloadGrowthBytes + (64 << 10))
    }

    @Test func aFrameReadAStepAtATimeIsReadWhole() throws {
        // 400 × 300 xyz32f: 1 440 000 bytes, more than the first step, in odd-sized pieces.
        let width = 400, height = 300
        var payload = [UInt8](repeating: 0, count: width * height * 12)
        for i in payload.indices { payload[i] = UInt8(truncatingIfNeeded: i &* 7919 >> 3) }
        var s = StreamBuilder()
        try s.record(.frame(StreamFrame(timestamp: 1, width: width, height: height, encoding: .xyz32f, intrinsics: nil, payload: payload)))
        try s.record(.frame(StreamFrame(timestamp: 2, width: 4, height: 2, encoding: .xyz32f, intrinsics: nil,
                                        payload: [UInt8](repeating: 9, count: 96))))
        let reader = StreamRecordReader(source: MemoryByteSource(s.bytes, maximumPiece: 4093))
        let first = try #require(reader.next()?.frame)
        #expect(first.payload == payload)
        // The storage taken back for the next frame is reused, trimmed to its size.
        let second = try #require(reader.next()?.frame)
        #expect(second.payload == [UInt8](repeating: 9, count: 96))
        #expect(reader.next() == nil)
    }

    @Test func aHeaderHoldsAtMost4096Values() {
        func header(values: Int) -> String {
            #"{"type":"remove","object":"x","notes":["# + Array(repeating: "0", count: values).joined(separator: ",") + "]}"
        }
        var s = StreamBuilder()
        // 4 values besides the array's elements: the object, two strings and the array.
        s.line(header(values: JSONParser.maximumValues - 4))
        s.line(header(values: JSONParser.maximumValues - 3))
        s.line(header(values: 500_000))
        let results = readAll(MemoryByteSource(s.bytes))
        #expect(results.count == 3)
        #expect(results.first?.record?.typeName == "remove")
        #expect(results[1].error?.message.hasPrefix("not valid JSON: more than 4096 values at byte") == true, "\(results[1])")
        #expect(results[2].error?.message.hasPrefix("not valid JSON: more than 4096 values at byte") == true)
    }
}
