import Foundation
import PlaneKitGeometry
import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// The `camera` event and the `gravity` field: every frame says which pose was used and how
/// well it is tracked; frames without a pose are tracked from depth.
@Suite struct CameraEventTests {
    /// `record` without its pose (and with `gravity` when given).
    static func unposed(_ record: StreamRecord, gravity: SIMD3<Float>? = nil, acceleration: SIMD3<Float>? = nil) -> StreamRecord {
        guard case .frame(let frame) = record else { return record }
        return .frame(StreamFrame(timestamp: frame.timestamp, width: frame.width, height: frame.height, encoding: frame.encoding,
                                  depthScale: frame.depthScale, intrinsics: frame.intrinsics, gravity: gravity,
                                  acceleration: acceleration, payload: frame.payload))
    }

    @Test func framesWithPosesKeepThemAndSayNormal() throws {
        let synth = SyntheticStream(frameCount: 3)
        var builder = StreamBuilder()
        for i in 0..<3 { try builder.record(synth.record(i)) }
        let result = try run(builder.bytes)
        let cameras = result.events("camera")
        #expect(cameras.count == 3)
        for (i, camera) in cameras.enumerated() {
            #expect(camera["tracking"] as? String == "normal")
            #expect(camera["reason"] == nil)
            #expect(camera["frame"] as? Int == i)
            let numbers = try #require(camera[path: "transform.columnMajor"] as? [Double])
            let given = synth.sequence.pose(ofFrame: i).columnMajor
            #expect(zip(numbers, given).allSatisfy { abs(Float($0) - $1) < 1e-6 })
        }
        // The camera event opens its frame: it comes before the frame's other events.
        let firstOfFrame1 = try #require(result.events.firstIndex { $0["frame"] as? Int == 1 })
        #expect(result.events[firstOfFrame1]["event"] as? String == "camera")
    }

    /// Against keyframes (the default) and against the fused surface (`--fused-surface`).
    @Test(arguments: [false, true]) func framesWithoutPosesAreTracked(fusedSurface: Bool) throws {
        let synth = SyntheticStream(frameCount: 12)
        var builder = StreamBuilder()
        for i in 0..<12 { try builder.record(Self.unposed(synth.record(i))) }
        var options = StreamRunner<MemoryByteSource, MemoryByteSink>.Options()
        options.tracking.registersAgainstFusedSurface = fusedSurface
        let result = try run(builder.bytes, options: options)
        let cameras = result.events("camera")
        #expect(cameras.count == 12)
        #expect(cameras.first?["tracking"] as? String == "limited")
        #expect(cameras.first?["reason"] as? String == "initializing")
        #expect(cameras.dropFirst().allSatisfy { $0["tracking"] as? String == "normal" })
        // After aligning the first frame with the truth, the last is within 1 cm of it.
        func transform(_ event: [String: Any]) throws -> Transform {
            let numbers = try #require(event[path: "transform.columnMajor"] as? [Double])
            return try #require(Transform(columnMajor: numbers.map(Float.init)))
        }
        let first = try transform(cameras[0]), last = try transform(cameras[11])
        let aligned = synth.sequence.pose(ofFrame: 0) * first.inverse * last
        let error = length(aligned.translation - synth.sequence.pose(ofFrame: 11).translation)
        print("tracked 12 frames (320×240)\(fusedSurface ? " against the fused surface" : ""): last position off by \(error * 1000) mm")
        #expect(error < 0.01)
    }

    @Test func gravityLevelsTheWorld() throws {
        let synth = SyntheticStream(frameCount: 1)
        let truth = synth.sequence.pose(ofFrame: 0)
        let down = truth.inverse.apply(toDirection: SIMD3(0, -1, 0))
        var builder = StreamBuilder()
        try builder.record(Self.unposed(synth.record(0), gravity: down * 9.81))
        let result = try run(builder.bytes)
        let camera = try #require(result.events("camera").first)
        let numbers = try #require(camera[path: "transform.columnMajor"] as? [Double])
        let pose = try #require(Transform(columnMajor: numbers.map(Float.init)))
        // World up (−gravity) is +Y.
        let up = pose.apply(toDirection: -down)
        #expect(abs(up.y - 1) < 1e-4)
    }

    @Test func badGravityIsOneErrorAndTheStreamGoesOn() throws {
        var builder = StreamBuilder()
        let header = #"{"type":"frame","t":0,"width":2,"height":2,"encoding":"depth16","intrinsics":{"fx":500,"fy":500,"cx":0.5,"cy":0.5},"#
        builder.line(header + #""gravity":[0,0,0],"bytes":8}"#)
        builder.raw([UInt8](repeating: 0x10, count: 8))
        builder.line(header + #""gravity":[0,9.8],"bytes":8}"#)
        builder.raw([UInt8](repeating: 0x10, count: 8))
        builder.line(header + #""gravity":[0,9.8,0.5],"bytes":8}"#)
        builder.raw([UInt8](repeating: 0x10, count: 8))
        let result = try run(builder.bytes)
        let errors = result.events("error")
        #expect(errors.count == 2)
        #expect(result.warnings.count == 2)
        #expect((errors.first?["message"] as? String)?.contains("gravity") == true)
        // The good frame is processed: its camera event (too few points to track: limited).
        let cameras = result.events("camera")
        #expect(cameras.count == 1)
        #expect(cameras.first?["tracking"] as? String == "limited")
    }

    @Test func gravityRoundTrips() throws {
        let synth = SyntheticStream(frameCount: 1)
        var builder = StreamBuilder()
        try builder.record(Self.unposed(synth.record(0), gravity: SIMD3(0.1, 9.7, -0.4)))
        let records = readAll(MemoryByteSource(builder.bytes))
        let frame = try #require(records.first?.frame)
        #expect(frame.gravity == SIMD3(0.1, 9.7, -0.4))
        #expect(!frame.isPoseGiven)
    }

    @Test func accelerationRoundTrips() throws {
        let synth = SyntheticStream(frameCount: 1)
        var builder = StreamBuilder()
        try builder.record(Self.unposed(synth.record(0), acceleration: SIMD3(0.25, -9.75, 0.5)))
        let records = readAll(MemoryByteSource(builder.bytes))
        let frame = try #require(records.first?.frame)
        #expect(frame.acceleration == SIMD3(0.25, -9.75, 0.5))
        #expect(frame.gravity == nil)
    }

    @Test func badAccelerationIsOneErrorAndTheStreamGoesOn() throws {
        var builder = StreamBuilder()
        let header = #"{"type":"frame","t":0,"width":2,"height":2,"encoding":"depth16","intrinsics":{"fx":500,"fy":500,"cx":0.5,"cy":0.5},"#
        for field in [#"[0,-9.8]"#, #"[0,-9.8,"x"]"#, #"[0,-2000,0]"#, #"[1e39,0,0]"#, #"[0,0,0]"#] {
            builder.line(header + #""acceleration":"# + field + #","bytes":8}"#)
            builder.raw([UInt8](repeating: 0x10, count: 8))
        }
        let result = try run(builder.bytes)
        let errors = result.events("error")
        #expect(errors.count == 4)
        #expect(result.warnings.count == 4)
        #expect(errors.allSatisfy { ($0["message"] as? String)?.contains("acceleration") == true })
        #expect((errors[2]["message"] as? String)?.contains("at most 200") == true)
        // Free fall reads zero: the last frame is processed.
        #expect(result.events("camera").count == 1)
    }
}
