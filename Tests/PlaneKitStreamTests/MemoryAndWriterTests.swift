import Foundation
import PlaneKitGeometry
import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// The same bytes over and over, `count` times, made on the fly.
struct RepeatingSource: ByteSource {
    let unit: [UInt8]
    var remaining: Int
    var offset = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        guard remaining > 0 else { return 0 }
        let n = min(buffer.count, unit.count - offset)
        unit.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        if offset == unit.count {
            offset = 0
            remaining -= 1
        }
        return n
    }
}

@Suite struct MemoryAndWriterTests {
    @Test func buffersStayFlatOverAThousandFrames() throws {
        let k = PinholeIntrinsics.test(width: 80, height: 60)
        let samples = ContiguousArray<UInt16>((0..<(80 * 60)).map { UInt16(truncatingIfNeeded: 500 + $0 % 3000) })
        let frame = samples.withUnsafeBufferPointer { StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, timestamp: 0) }
        var unit = StreamBuilder()
        try unit.record(.frame(frame))
        try unit.record(.tap(TapRecord(pixel: SIMD2(40, 30))))
        let reader = StreamRecordReader(source: RepeatingSource(unit: unit.bytes, remaining: 1000))
        var decoder = FrameDecoder()
        var frames = 0, taps = 0
        var payloadCapacities = Set<Int>(), cloudCapacities = Set<Int>()
        var payloadAddresses = Set<UInt>()
        var finite = 0
        while let record = try reader.read() {
            switch record {
            case let .frame(f):
                frames += 1
                let cloud = decoder.pointCloud(from: f)
                finite = cloud.finiteCount
                payloadCapacities.insert(reader.payloadCapacity)
                cloudCapacities.insert(decoder.storageCapacity)
                payloadAddresses.insert(f.payload.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
            case .tap: taps += 1
            default: Issue.record("unexpected record")
            }
        }
        #expect(frames == 1000 && taps == 1000)
        #expect(reader.recordNumber == 2000)
        #expect(finite == 80 * 60)
        // One capacity for the whole run, and one payload buffer reused for every frame.
        #expect(payloadCapacities.count == 1 && payloadCapacities.first! >= 80 * 60 * 2)
        #expect(cloudCapacities.count == 1 && cloudCapacities.first! >= 80 * 60)
        #expect(payloadAddresses.count == 1)
    }

    @Test func jsonLineWriterOutputParsesBack() throws {
        let floats: [Float] = [0, -0.0, 0.1, 1, -1.5, 3.4028235e38, 1.1754944e-38, .leastNonzeroMagnitude, 123456.79, 0.3333333, 7e-6]
        let doubles: [Double] = [0.1, 1.0 / 3, 2.2250738585072014e-308, 1.7976931348623157e308, -123456789.125, 1e-300]
        let ints = [0, -1, 42, Int.max, Int.min + 1]
        var line = JSONLineWriter()
        line.beginObject()
        line.field("type", "planeAdded")
        line.field("text", "quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")
        line.field("floats", floats)
        line.key("doubles")
        line.beginArray()
        for d in doubles { line.value(d) }
        line.endArray()
        line.key("ints")
        line.beginArray()
        for n in ints { line.value(n) }
        line.endArray()
        line.field("nan", Float.nan)
        line.field("inf", Double.infinity)
        line.field("flag", true)
        line.key("nested")
        line.beginObject()
        line.field("v", SIMD3<Float>(1, 2, 3))
        line.key("empty")
        line.beginArray()
        line.endArray()
        line.endObject()
        line.endObject()
        #expect(line.bytes.last == 0x0A)
        #expect(line.bytes.filter { $0 == 0x0A }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any])
        #expect(object["type"] as? String == "planeAdded")
        #expect(object["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")
        let readFloats = try #require(object["floats"] as? [NSNumber])
        #expect(readFloats.map { Float($0.doubleValue) } == floats)
        #expect(readFloats.map { Float($0.doubleValue).sign } == floats.map(\.sign))
        let readDoubles = try #require(object["doubles"] as? [NSNumber])
        #expect(readDoubles.map(\.doubleValue) == doubles)
        let readInts = try #require(object["ints"] as? [NSNumber])
        #expect(readInts.map(\.intValue) == ints)
        #expect(object["nan"] is NSNull && object["inf"] is NSNull)
        #expect((object["flag"] as? NSNumber)?.boolValue == true)
        let nested = try #require(object["nested"] as? [String: Any])
        #expect((nested["v"] as? [NSNumber])?.map(\.floatValue) == [1, 2, 3])
        #expect((nested["empty"] as? [Any])?.isEmpty == true)
        // Shortest forms: no padding digits, whole numbers without ".0" (but negative zero keeps its sign).
        #expect(line.text.contains("\"floats\":[0,-0.0,0.1,1,-1.5,3.4028235e+38,"))

        // Our own reader agrees with JSONSerialization on the same line.
        let parsed = try line.bytes.withUnsafeBufferPointer { try JSONParser.parse(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        guard case let .object(members) = parsed else { Issue.record("not an object"); return }
        let ours = HeaderFields(members: members)
        #expect(try ours.floats("floats", count: floats.count) == floats)
        #expect(try ours.string("text") == "quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")

        line.reset()
        line.beginObject()
        line.field("a", 1)
        line.endObject()
        #expect(line.text == "{\"a\":1}\n")
    }

    @Test func outputBufferGathersAndFlushes() throws {
        var output = OutputBuffer(sink: MemoryByteSink(), capacity: 256)
        try output.write(Array("hello ".utf8))
        #expect(output.sink.bytes.isEmpty)
        let big = [UInt8](repeating: 0x41, count: 1000)
        try output.write(big)
        #expect(output.sink.bytes.count == 1006)
        try output.write(Array("end".utf8))
        try output.flush()
        #expect(output.sink.bytes.count == 1009 && output.sink.bytes.suffix(3) == Array("end".utf8)[...])
    }
}
