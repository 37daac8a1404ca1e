import Foundation
import PlaneKitGeometry
import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

@Suite struct RoundTripTests {
    let pose = Transform(rotation: Quaternion(angle: 0.7, axis: SIMD3(0.3, 1, -0.2)), translation: SIMD3(1.5, -0.25, 3))

    @Test func depth16RoundTripIsExact() throws {
        let k = PinholeIntrinsics.test(width: 7, height: 5)
        var samples = ContiguousArray<UInt16>(repeating: 0, count: 35)
        for i in 0..<35 where i % 6 != 0 { samples[i] = UInt16(400 + 997 * i) }
        let frame = samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.00025, timestamp: 1.0 / 30, pose: pose)
        }
        var stream = StreamBuilder()
        try stream.record(.frame(frame))
        // Split the stream into 3-byte reads so the header and payload straddle every boundary.
        let results = readAll(MemoryByteSource(stream.bytes, maximumPiece: 3))
        #expect(results.count == 1)
        let read = try #require(results.first?.frame)
        #expect(read.payload == frame.payload)
        #expect(read.timestamp == 1.0 / 30 && read.width == 7 && read.height == 5 && read.encoding == .depth16)
        #expect(read.depthScale == 0.00025)
        #expect(read.intrinsics == k)
        #expect(read.pose.columnMajor == pose.columnMajor)
        // The cloud is what DepthImage gives for the same samples, bit for bit.
        let cloud = read.pointCloud()
        let image = try GrayImage(width: 7, height: 5, bitDepth: 16, samples: samples)
        let expected = DepthImage(image, scale: 0.00025).pointCloud(intrinsics: k)
        #expect(cloud.width == 7 && cloud.height == 5 && cloud.intrinsics == k && cloud.sensorPose == read.pose)
        let bits = { (p: SIMD3<Float>) in [p.x.bitPattern, p.y.bitPattern, p.z.bitPattern] }
        #expect(cloud.points.flatMap(bits) == expected.points.flatMap(bits))
        #expect(cloud.finiteCount == 35 - 6)
        #expect(cloud[3, 2].z == Float(samples[17]) * 0.00025)
    }

    @Test func depth32fRoundTripIsExact() throws {
        let k = PinholeIntrinsics.test(width: 4, height: 3)
        let depths: [Float] = [0, 1.25, .nan, 3.5, 0.001, 7, -1, .infinity, 2.2, 2.3, 2.4, 9.75]
        let frame = depths.withUnsafeBufferPointer { StreamFrame.depth32f(depths: $0, intrinsics: k, timestamp: 2.5) }
        var stream = StreamBuilder()
        try stream.record(.frame(frame))
        let read = try #require(readAll(MemoryByteSource(stream.bytes)).first?.frame)
        #expect(read.payload == frame.payload && read.encoding == .depth32f && read.intrinsics == k && read.pose == .identity)
        let cloud = read.pointCloud()
        for (i, d) in depths.enumerated() {
            let u = i % 4, v = i / 4
            if d > 0 && d.isFinite {
                #expect(cloud.points[i] == SIMD3((Float(u) - k.cx) / k.fx * d, (Float(v) - k.cy) / k.fy * d, d))
            } else {
                #expect(cloud.points[i].x.isNaN, "pixel \(i) with depth \(d) should be a hole")
            }
        }
        #expect(cloud.finiteCount == 8)
    }

    @Test func xyz32fRoundTripIsExact() throws {
        var points = ContiguousArray<SIMD3<Float>>(repeating: SIMD3(repeating: .nan), count: 12)
        for i in 0..<12 where i != 5 {
            let f = Float(i)
            points[i] = SIMD3(f * 0.1 - 0.3, -f * 0.07, 1 + f * 0.013)
        }
        let cloud = try PointCloud(width: 4, height: 3, points: points, sensorPose: pose) as PointCloud
        let frame = try #require(StreamFrame.xyz32f(cloud: cloud, timestamp: 0))
        #expect(StreamFrame.xyz32f(cloud: PointCloud(unorganized: points), timestamp: 0) == nil)
        var stream = StreamBuilder()
        try stream.record(.frame(frame))
        let read = try #require(readAll(MemoryByteSource(stream.bytes)).first?.frame)
        #expect(read.encoding == .xyz32f && read.intrinsics == nil && read.byteCount == 144)
        #expect(read.pose.columnMajor == pose.columnMajor)
        let decoded = read.pointCloud()
        for i in 0..<12 where i != 5 { #expect(decoded.points[i] == points[i]) }
        #expect(decoded.points[5].x.isNaN && decoded.finiteCount == 11)
    }

    @Test func commandRecordsRoundTrip() throws {
        let records: [StreamRecord] = [
            .tap(TapRecord(pixel: SIMD2(320, 240.5), name: "chair \"big\"", size: SIMD3(0.5, 0.8, 0.5))),
            .drag(DragRecord(object: "obj-1", pixel: SIMD2(400, 260))),
            .rotate(RotateRecord(object: "obj-1", angle: -0.5)),
            .remove(RemoveRecord(object: "obj-1")),
            .raycast(RaycastRecord(source: .pixel(SIMD2(10, 20)), target: .estimatedPlane, alignment: .horizontal)),
            .raycast(RaycastRecord(source: .ray(origin: SIMD3(1, 2, 3), direction: SIMD3(0, -1, 0)), target: .any)),
        ]
        var stream = StreamBuilder()
        for record in records { try stream.record(record) }
        let read = readAll(MemoryByteSource(stream.bytes)).compactMap(\.record)
        #expect(read.count == records.count)
        guard read.count == records.count else { return }
        if case let .tap(t) = read[0] { #expect(t == TapRecord(pixel: SIMD2(320, 240.5), name: "chair \"big\"", size: SIMD3(0.5, 0.8, 0.5))) } else { Issue.record("not a tap") }
        if case let .drag(d) = read[1] { #expect(d.object == "obj-1" && d.pixel == SIMD2(400, 260)) } else { Issue.record("not a drag") }
        if case let .rotate(r) = read[2] { #expect(r.angle == -0.5) } else { Issue.record("not a rotate") }
        if case let .remove(r) = read[3] { #expect(r.object == "obj-1") } else { Issue.record("not a remove") }
        if case let .raycast(r) = read[4] { #expect(r == RaycastRecord(source: .pixel(SIMD2(10, 20)), target: .estimatedPlane, alignment: .horizontal)) } else { Issue.record("not a raycast") }
        if case let .raycast(r) = read[5] { #expect(r.source == .ray(origin: SIMD3(1, 2, 3), direction: SIMD3(0, -1, 0)) && r.target == .any && r.alignment == .any) } else { Issue.record("not a raycast") }
    }

    @Test func defaultsAndExtraFields() throws {
        var stream = StreamBuilder()
        stream.line(#"{"type":"tap","x":1,"y":2,"future":{"a":[1,2,{"b":null}]},"flag":true}"#)
        stream.line(#"{"type":"raycast","x":3,"y":4}"#)
        stream.line("")
        stream.line("   \r")
        stream.line(#"{"type":"remove","object":"a"}"#)
        let results = readAll(MemoryByteSource(stream.bytes))
        #expect(results.count == 3)
        if case let .tap(t)? = results.first?.record { #expect(t == TapRecord(pixel: SIMD2(1, 2))) } else { Issue.record("not a tap") }
        if case let .raycast(r)? = results[1].record { #expect(r.target == .existingPlaneGeometry && r.alignment == .any) } else { Issue.record("not a raycast") }
    }
}
