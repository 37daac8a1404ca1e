import PlaneKitGeometry
import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

@Suite struct BadRecordTests {
    static let intrinsics = #""intrinsics":{"fx":525,"fy":525,"cx":1.5,"cy":0.5}"#

    /// A good 4×2 depth16 frame whose samples are all `value`.
    static func goodFrame(_ builder: inout StreamBuilder, t: Double, value: UInt8) {
        builder.line(#"{"type":"frame","t":\#(t),"width":4,"height":2,"encoding":"depth16",\#(intrinsics),"bytes":16}"#)
        builder.raw([UInt8](repeating: value, count: 16))
    }

    @Test func goodRecordsSurviveBadOnesInOrder() throws {
        var s = StreamBuilder()
        BadRecordTests.goodFrame(&s, t: 0, value: 1)                                              // 1
        s.line(#"{"type":"frame","t":0.1,"width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"bytes":16"#) // 2: bad JSON (no closing brace)
        s.raw([UInt8](repeating: 0x0A, count: 16))                                               //    …its payload is all newlines, and is skipped
        s.line(#"{"type":"teleport","x":1}"#)                                                    // 3: unknown type
        s.line(#"{"type":"frame","t":0.2,"width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"bytes":12}"#) // 4: wrong bytes
        s.raw([UInt8](repeating: 7, count: 12))
        s.line(#"{"type":"tap","x":320,"y":240}"#)                                               // 5
        let identity = "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1"
        s.line(#"{"type":"frame","t":0.3,"width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"pose":[2,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"bytes":16}"#) // 6: not rigid
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":"NaN","width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"pose":[\#(identity)],"bytes":16}"#) // 7: NaN as a string
        s.raw([UInt8](repeating: 0x7B, count: 16))
        s.line(#"{"type":"tap","x":1,"y":2,"pad":""# + String(repeating: "x", count: 5000) + #""}"#) // 8: over-long line (cap 4096 below)
        BadRecordTests.goodFrame(&s, t: 0.4, value: 2)                                           // 9
        s.raw([0xFF, 0xFE, 0x7B, 0x0A])                                                          // 10: invalid UTF-8
        s.line(#"{"type":"frame","t":0.5,"width":4,"height":2,"encoding":"depth16","bytes":16}"#) // 11: no intrinsics
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"drag","object":"a","x":1,"y":NaN}"#)                                   // 12: bare NaN is not JSON
        s.line(#"{"type":"raycast","x":1,"y":2,"target":"wall"}"#)                               // 13: unknown target
        s.line(#"[1,2,3]"#)                                                                      // 14: not an object
        s.line(#"{"type":"remove","object":"b"}"#)                                               // 15
        s.line(#"{"type":"frame","t":0.6,"width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"bytes":16}"#) // 16: truncated
        s.raw([UInt8](repeating: 3, count: 9))

        let results = readAll(MemoryByteSource(s.bytes, maximumPiece: 1000), maximumHeaderBytes: 4096)
        let errors = results.compactMap(\.error)
        #expect(errors.map(\.recordNumber) == [2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 14, 16])
        let messages = Dictionary(uniqueKeysWithValues: errors.map { ($0.recordNumber, $0.message) })
        #expect(messages[2]?.hasPrefix("not valid JSON") == true)
        #expect(messages[3]?.contains("unknown record type \"teleport\"") == true)
        #expect(messages[4] == "\"bytes\" is 12, but a 4×2 depth16 frame has 16")
        #expect(messages[6]?.contains("not a rigid transform") == true)
        #expect(messages[7] == "\"t\" must be a number, got a string")
        #expect(messages[8]?.hasPrefix("header line is 5035 bytes, longer than the 4096 allowed") == true)
        #expect(messages[10] == "header is not valid UTF-8 (byte 1)")
        #expect(messages[11]?.contains("needs \"intrinsics\"") == true)
        #expect(messages[13]?.contains("unknown target \"wall\"") == true)
        #expect(messages[14] == "a record must be a JSON object, got an array")
        #expect(messages[16] == "payload truncated: the stream ended after 9 of 16 bytes")
        #expect(errors.allSatisfy { !$0.message.contains("\n") })

        let good = results.compactMap(\.record)
        #expect(good.map(\.typeName) == ["frame", "tap", "frame", "remove"])
        let frames = results.compactMap(\.frame)
        #expect(frames.map(\.timestamp) == [0, 0.4])
        #expect(frames.map { $0.payload.first } == [1, 2])
        // Records come out in stream order: errors and records interleave as they were written.
        let order = results.map { $0.error.map { "e\($0.recordNumber)" } ?? $0.record!.typeName }
        #expect(order == ["frame", "e2", "e3", "e4", "tap", "e6", "e7", "e8", "frame", "e10", "e11", "e12", "e13", "e14", "remove", "e16"])
    }

    @Test func gigapixelClaimIsSkippedWithoutAllocating() throws {
        var before = StreamBuilder()
        // 100000 × 10000 = 10⁹ pixels of depth16: 2·10⁹ payload bytes that really follow.
        before.line(#"{"type":"frame","t":0,"width":100000,"height":10000,"encoding":"depth16",\#(BadRecordTests.intrinsics),"bytes":2000000000}"#)
        var after = StreamBuilder()
        BadRecordTests.goodFrame(&after, t: 1, value: 9)
        let source = SyntheticPayloadSource(before: MemoryByteSource(before.bytes), zeros: 2_000_000_000,
                                            after: MemoryByteSource(after.bytes))
        let reader = StreamRecordReader(source: source)
        var results: [Result<StreamRecord, StreamError>] = []
        while let r = reader.next() { results.append(r) }
        #expect(results.count == 2)
        #expect(results.first?.error?.recordNumber == 1)
        #expect(results.first?.error?.message.contains("1000000000 pixels, more than the 67108864 allowed") == true)
        #expect(results.last?.frame?.timestamp == 1)
        // Neither buffer grew for the claim: the line buffer is fixed and the payload storage
        // holds only the 16 bytes of the good frame.
        #expect(reader.payloadCapacity < 1024)
        #expect(reader.lineBufferSize == (1 << 20) + (64 << 10))
    }

    @Test func headerOnlyErrorsAndLimits() {
        var s = StreamBuilder()
        s.line(#"{"type":"frame","t":0,"width":4,"height":2,"encoding":"depth24",\#(BadRecordTests.intrinsics),"bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":0,"width":-4,"height":2,"encoding":"depth16","bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":1e400,"width":4,"height":2,"encoding":"depth16","bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":0,"width":4,"height":2,"encoding":"depth16","intrinsics":{"fx":0,"fy":1,"cx":0,"cy":0},"bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":0,"width":4,"height":2,"encoding":"depth16","depthScale":-1,\#(BadRecordTests.intrinsics),"bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"frame","t":0,"width":4,"height":2,"encoding":"depth16",\#(BadRecordTests.intrinsics),"pose":[1,0,0],"bytes":16}"#)
        s.raw([UInt8](repeating: 0x0A, count: 16))
        s.line(#"{"type":"tap","x":1,"y":2,"size":[0.5,0,0.5]}"#)
        s.line(#"{"type":"tap","x":1,"y":2,"x":3}"#)
        s.line(#"{"type":"raycast","x":1,"y":2,"origin":[0,0,0],"direction":[0,0,1]}"#)
        s.line(#"{"type":"raycast","origin":[0,0,0],"direction":[0,0,0]}"#)
        s.line(#"{"type":"rotate","object":"","angle":1}"#)
        s.line(#"{"x":1}"#)
        s.line(#"{"type":"tap","x":1,"y":2} trailing"#)
        let results = readAll(MemoryByteSource(s.bytes))
        let messages = results.compactMap(\.error).map(\.message)
        #expect(results.count == 13)
        #expect(messages.count == 13)
        #expect(results.compactMap(\.error).map(\.recordNumber) == Array(1...13))
        #expect(messages[0].contains("unknown encoding \"depth24\""))
        #expect(messages[1].contains("\"width\" must be a whole number"))
        #expect(messages[2] == "\"t\" is too large")
        #expect(messages[3].contains("positive focal lengths"))
        #expect(messages[4].contains("\"depthScale\" must be positive"))
        #expect(messages[5].contains("\"pose\" must be an array of 16 numbers"))
        #expect(messages[6].contains("three positive numbers"))
        #expect(messages[7] == "\"x\" appears more than once")
        #expect(messages[8].contains("not both"))
        #expect(messages[9] == "\"direction\" must not be zero")
        #expect(messages[10] == "\"object\" must not be empty")
        #expect(messages[11] == "missing \"type\"")
        #expect(messages[12].hasPrefix("not valid JSON: unexpected text after the JSON value"))
    }
}
