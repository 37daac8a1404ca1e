import PlaneKitGeometry
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

@Suite struct AttitudeRecordTests {
    /// A record read back: an attitude, or the reader's error message.
    enum Outcome {
        case attitude(AttitudeRecord)
        case problem(String)

        var attitude: AttitudeRecord? {
            if case .attitude(let attitude) = self { return attitude }
            return nil
        }

        var message: String {
            if case .problem(let message) = self { return message }
            return "ok"
        }
    }

    /// Reads `lines` as a stream and returns each record's attitude or error message.
    static func read(_ lines: [String]) -> [Outcome] {
        var builder = StreamBuilder()
        for line in lines { builder.line(line) }
        return readAll(MemoryByteSource(builder.bytes)).map { result -> Outcome in
            switch result {
            case .success(.attitude(let attitude)): .attitude(attitude)
            case .success(let other): .problem("not an attitude: \(other.typeName)")
            case .failure(let error): .problem(error.description)
            }
        }
    }

    @Test func goodAttitudesAreNormalised() throws {
        // A quarter turn about +Z, printed to four digits (length 0.99995), and a slightly long identity.
        let results = Self.read([
            #"{"type":"attitude","quaternion":[0,0,0.7071,0.7071],"timestamp":12.5}"#,
            #"{"type":"attitude","quaternion":[0,0,0,1.006],"timestamp":12.6,"extra":"ignored"}"#,
        ])
        #expect(results.count == 2)
        let first = try #require(results[0].attitude)
        #expect(first.timestamp == 12.5)
        #expect(abs((first.orientation.vector * first.orientation.vector).sum() - 1) < 1e-6)
        #expect(first.orientation.isApproximatelyEqual(to: Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1)), tolerance: 1e-4))
        let second = try #require(results[1].attitude)
        #expect(second.orientation.vector == SIMD4(0, 0, 0, 1))
    }

    @Test func badAttitudesGiveOneClearErrorEachAndTheStreamGoesOn() {
        let results = Self.read([
            #"{"type":"attitude","quaternion":[0,0,0,1.2],"timestamp":1}"#,
            #"{"type":"attitude","quaternion":[0,0,1],"timestamp":1}"#,
            #"{"type":"attitude","quaternion":[0,0,"x",1],"timestamp":1}"#,
            #"{"type":"attitude","quaternion":[0,0,0,1]}"#,
            #"{"type":"attitude","quaternion":[0,0,0,1e39],"timestamp":1}"#,
            #"{"type":"attitude","timestamp":1}"#,
            #"{"type":"attitude","quaternion":[0,0,0,0],"timestamp":1}"#,
            #"{"type":"attitude","quaternion":[1,0,0,0],"timestamp":2}"#,
        ])
        let messages = results.map(\.message)
        #expect(messages.count == 8)
        #expect(messages[0] == "record 1: \"quaternion\" has length 1.2, not 1 (a rotation is a unit quaternion [x, y, z, w])")
        #expect(messages[1].hasPrefix("record 2: \"quaternion\" must be an array of 4 numbers"))
        #expect(messages[2].hasPrefix("record 3: \"quaternion\"[2] must be a finite number"))
        #expect(messages[3] == "record 4: missing \"timestamp\"")
        #expect(messages[4].hasPrefix("record 5: \"quaternion\"[3] must be a finite number"))
        #expect(messages[5] == "record 6: missing \"quaternion\" [x, y, z, w]")
        #expect(messages[6].hasPrefix("record 7: \"quaternion\" has length 0.0, not 1"))
        #expect(messages[7] == "ok")
    }

    @Test func timestampsMustIncrease() throws {
        var timeline = AttitudeTimeline()
        let q = Quaternion.identity
        try timeline.accept(AttitudeRecord(orientation: q, timestamp: 1.0), number: 1)
        try timeline.accept(AttitudeRecord(orientation: q, timestamp: 1.016), number: 2)
        #expect(throws: StreamError(recordNumber: 3, message:
            "attitude timestamp 1.016 is not after the previous one (1.016); record skipped")) {
            try timeline.accept(AttitudeRecord(orientation: q, timestamp: 1.016), number: 3)
        }
        #expect(throws: StreamError.self) { try timeline.accept(AttitudeRecord(orientation: q, timestamp: 0.5), number: 4) }
        // A refused record leaves the timeline where it was.
        #expect(timeline.latest?.timestamp == 1.016)
        try timeline.accept(AttitudeRecord(orientation: q, timestamp: 1.033), number: 5)
        #expect(timeline.latest?.timestamp == 1.033)
    }

    @Test func attitudesRoundTripThroughTheWriter() throws {
        var builder = StreamBuilder()
        let attitude = AttitudeRecord(orientation: Quaternion(angle: 0.3, axis: SIMD3(1, 2, 3)), timestamp: 7.25)
        try builder.record(.attitude(attitude))
        let results = readAll(MemoryByteSource(builder.bytes))
        guard case .success(.attitude(let back))? = results.first else {
            Issue.record("no attitude read back: \(results)")
            return
        }
        #expect(back.timestamp == 7.25)
        #expect(back.orientation.isApproximatelyEqual(to: attitude.orientation, tolerance: 1e-6))
    }
}
