import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// depth16 samples of 0 and 65 535 are no reading, and `maxDepth` (the record's, else the
/// stream's) makes far readings holes, for every encoding.
@Suite struct DepthConventionTests {
    /// Frame `index` of the 320×240 synthetic walk as millimetre samples, as ``SyntheticStream``
    /// encodes it.
    static func samples(_ synth: SyntheticStream, _ index: Int) -> (ContiguousArray<UInt16>, SyntheticFrame) {
        let frame = synth.sequence.frame(at: index)
        guard case let .frame(record) = synth.record(index) else { fatalError("a frame record") }
        let samples = record.payload.withUnsafeBytes { raw in
            ContiguousArray((0..<frame.width * frame.height).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) })
        }
        return (samples, frame)
    }

    static func depth16(_ samples: ContiguousArray<UInt16>, _ frame: SyntheticFrame, maxDepth: Float? = nil) -> StreamFrame {
        samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: frame.intrinsics, depthScale: 0.001, maxDepth: maxDepth,
                                timestamp: frame.timestamp, pose: frame.pose)
        }
    }

    static func bits(_ points: ContiguousArray<SIMD3<Float>>) -> [UInt32] {
        points.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
    }

    @Test func zeroAndAllOnesAreHolesAndTheDecoderMatchesDepthImage() throws {
        let k = PinholeIntrinsics.test(width: 4, height: 3)
        let samples: ContiguousArray<UInt16> = [1000, 65535, 0, 1500, 65534, 2000, 65535, 65535, 700, 0, 3000, 12000]
        var decoder = FrameDecoder()
        for maxDepth: Float? in [nil, 2.5] {
            let frame = samples.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, maxDepth: maxDepth, timestamp: 0)
            }
            let cloud = decoder.pointCloud(from: frame)
            let image = DepthImage(try GrayImage(width: 4, height: 3, samples: samples), scale: 0.001, maxDepth: maxDepth)
            #expect(Self.bits(cloud.points) == Self.bits(image.pointCloud(intrinsics: k).points))
            let holes = cloud.points.indices.filter { cloud.points[$0].z.isNaN }
            // 65535 and 0 always; 65 534 mm, 3 m and 12 m beyond 2.5 m.
            #expect(holes == (maxDepth == nil ? [1, 2, 6, 7, 9] : [1, 2, 4, 6, 7, 9, 10, 11]))
        }
        // The same decoder, the same scale, no range again: the cached table follows the range.
        let again = decoder.pointCloud(from: samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, timestamp: 1)
        })
        #expect(again.finiteCount == 7)
        let defaulted = decoder.pointCloud(from: samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, timestamp: 2)
        }, defaultMaxDepth: 1.2)
        #expect(defaulted.points.indices.filter { defaulted.points[$0].isFinite } == [0, 8])
    }

    /// A stream of frames that are all 65 535 has nothing to find.
    @Test func aFrameOfAllOnesGivesNoPlanes() throws {
        let synth = SyntheticStream()
        let (_, frame) = Self.samples(synth, 0)
        let blank = ContiguousArray<UInt16>(repeating: 65535, count: frame.width * frame.height)
        var processor = StreamProcessor()
        var events: [StreamEvent] = []
        for i in 0..<3 {
            try processor.handle(.frame(Self.depth16(blank, frame)), number: i + 1, into: &events)
            #expect(processor.latestCloud?.finiteCount == 0)
            #expect(processor.session.latestDetection?.planes.isEmpty == true)
        }
        #expect(processor.session.planes.isEmpty)
        #expect(!events.contains { if case .session(let event) = $0, case .planeAdded = event.kind { true } else { false } })
    }

    /// The issue's bug: TUM RGB-D stores depth at 5000 units per metre and marks missing depth
    /// with 65 535, which read as a distance is 13.1 m — far enough to be a wall, near enough for
    /// the detector to build a plane from a block of it.
    @Test func aBlockOfAllOnesMakesNoFarPlane() throws {
        let synth = SyntheticStream()
        let (millimetres, frame) = Self.samples(synth, 0)
        let tum = ContiguousArray(millimetres.map { $0 == 0 ? 0 : UInt16(min(65534, Int($0) * 5)) })
        func farthestPlane(blockValue: UInt16) throws -> Float {
            var marked = tum
            for v in 20..<100 { for u in 100..<220 { marked[v * frame.width + u] = blockValue } }
            var processor = StreamProcessor()
            var events: [StreamEvent] = []
            try processor.handle(.frame(marked.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: frame.intrinsics, depthScale: 0.0002, timestamp: 0, pose: frame.pose)
            }), number: 1, into: &events)
            let planes = try #require(processor.session.latestDetection).planes
            #expect(planes.count >= 2, "the room's own planes are still found")
            return planes.map { length($0.centroid) }.max() ?? 0
        }
        // 65 534 is a reading, 13.1 m away, and gives the fake plane the issue saw; 65 535 is none.
        #expect(try farthestPlane(blockValue: 65534) > 13)
        #expect(try farthestPlane(blockValue: 65535) < 10)
    }

    /// `maxDepth` loses exactly the pixels farther than it, whatever the encoding.
    @Test func farPixelsBeyondTheRangeAndOnlyThemBecomeHoles() throws {
        let synth = SyntheticStream()
        let (samples, frame) = Self.samples(synth, 0)
        var decoder = FrameDecoder()
        let full = decoder.pointCloud(from: Self.depth16(samples, frame))
        let depths = full.points.map(\.z)
        // Half way between the nearest and farthest readings: a good share of the room lies beyond.
        let finite = depths.filter { !$0.isNaN }
        let range = (finite.min()! + finite.max()!) / 2
        let expectedHoles = Set(depths.indices.filter { depths[$0].isNaN || depths[$0] > range })
        let beyond = depths.filter { $0 > range }.count
        #expect(beyond > 1000 && beyond < finite.count - 1000)

        let fullPoints = full.points
        let frames: [(String, StreamFrame)] = [
            ("depth16", Self.depth16(samples, frame, maxDepth: range)),
            ("depth32f", depths.withUnsafeBufferPointer { StreamFrame.depth32f(depths: $0, intrinsics: frame.intrinsics, timestamp: 0) }),
            ("xyz32f", try #require(StreamFrame.xyz32f(cloud: full, timestamp: 0, maxDepth: range))),
        ]
        for (name, original) in frames {
            var streamFrame = original
            streamFrame.maxDepth = range
            let cut = decoder.pointCloud(from: streamFrame)
            let holes = Set(cut.points.indices.filter { !cut.points[$0].isFinite })
            #expect(holes == expectedHoles, "\(name)")
            // Every pixel kept is the point it was.
            #expect(cut.points.indices.allSatisfy { holes.contains($0) || cut.points[$0] == fullPoints[$0] }, "\(name)")
        }
    }

    /// The edges of the range test for float depths: the limit itself stays, the next float
    /// up goes, and the special values are holes with or without a range.
    @Test func depth32fRangeEdges() throws {
        let limit: Float = 2.5
        let depths: [Float] = [limit, limit.nextUp, limit.nextDown, -0.0, 0, .leastNonzeroMagnitude, -1, .infinity,
                               -.infinity, .nan, .greatestFiniteMagnitude, 1e-3]
        let k = PinholeIntrinsics.test(width: 4, height: 3)
        var decoder = FrameDecoder()
        for maxDepth: Float? in [limit, nil] {
            let frame = depths.withUnsafeBufferPointer { StreamFrame.depth32f(depths: $0, intrinsics: k, timestamp: 0) }
            let cloud = decoder.pointCloud(from: frame, defaultMaxDepth: maxDepth)
            let kept = cloud.points.indices.filter { !cloud.points[$0].z.isNaN }
            #expect(kept == (maxDepth == nil ? [0, 1, 2, 5, 10, 11] : [0, 2, 5, 11]), "range \(String(describing: maxDepth))")
            #expect(kept.allSatisfy { cloud.points[$0].z == depths[$0] })
        }
    }

    /// `stream --max-depth` is the range of frames without their own; a record's own wins.
    @Test func theStreamRangeAppliesToFramesWithoutTheirOwn() throws {
        let synth = SyntheticStream()
        let (samples, frame) = Self.samples(synth, 0)
        let readings = samples.filter { !DepthReadingRules.isNoReading($0) }
        let within3 = readings.filter { Float($0) * 0.001 <= 3 }.count, within4 = readings.filter { Float($0) * 0.001 <= 4 }.count
        #expect(within3 < within4 && within4 < readings.count)
        var s = StreamBuilder()
        try s.record(.frame(Self.depth16(samples, frame)))
        try s.record(.frame(Self.depth16(samples, frame, maxDepth: 4)))
        var processor = StreamProcessor(defaultMaxDepth: 3)
        var counts: [Int] = []
        for result in readAll(MemoryByteSource(s.bytes)) {
            var events: [StreamEvent] = []
            try processor.handle(try #require(result.record), number: counts.count + 1, into: &events)
            counts.append(try #require(processor.latestCloud).finiteCount)
        }
        #expect(counts == [within3, within4])
        // Without a stream range, a frame without a field keeps everything.
        var plain = StreamProcessor()
        var events: [StreamEvent] = []
        try plain.handle(.frame(Self.depth16(samples, frame)), number: 1, into: &events)
        #expect(plain.latestCloud?.finiteCount == readings.count)
        // The runner hands its option to its processor.
        let result = try run(s.bytes, options: .init(maxDepth: 3))
        #expect(result.runner.processor.defaultMaxDepth == 3 && result.runner.processor.latestCloud?.finiteCount == within4)
    }

    @Test func maxDepthRoundTripsThroughTheWriterAndReader() throws {
        let k = PinholeIntrinsics.test(width: 2, height: 2)
        let samples: ContiguousArray<UInt16> = [1, 2, 3, 4]
        var s = StreamBuilder()
        for maxDepth: Float? in [3.7, nil, 0.1, 1e30] {
            try s.record(.frame(samples.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, maxDepth: maxDepth, timestamp: 0)
            }))
        }
        let cloud = try PointCloud(width: 2, height: 2, points: [SIMD3(0, 0, 1), SIMD3(0, 0, 2), SIMD3(0, 0, 3), SIMD3(0, 0, 4)])
        try s.record(.frame(try #require(StreamFrame.xyz32f(cloud: cloud, timestamp: 0, maxDepth: 2.5))))
        let text = String(decoding: s.bytes.filter { $0 < 0x80 }, as: UTF8.self)
        #expect(text.contains(#""maxDepth":3.7,"#) && text.contains(#""maxDepth":0.1,"#) && text.contains(#""maxDepth":2.5,"#))
        let frames = readAll(MemoryByteSource(s.bytes, maximumPiece: 7)).compactMap(\.frame)
        #expect(frames.map(\.maxDepth) == [3.7, nil, 0.1, 1e30, 2.5])
        #expect(frames.last?.pointCloud().finiteCount == 2)
        // A range no reader would take is refused by the writer.
        for bad: Float in [0, -1, .nan, .infinity] {
            var writer = StreamRecordWriter(sink: MemoryByteSink())
            let frame = samples.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: k, depthScale: 0.001, maxDepth: bad, timestamp: 0)
            }
            #expect(throws: StreamError.self) { try writer.write(.frame(frame)) }
        }
    }

    /// A bad `maxDepth` is one error event and one warning naming the record; the next good
    /// frame is tracked.
    @Test func badRangesAreOneErrorEachAndTheStreamGoesOn() throws {
        let synth = SyntheticStream()
        let k = #""intrinsics":{"fx":262.5,"fy":262.5,"cx":159.5,"cy":119.5}"#
        let bad = ["0", "-2", "1e39", #""4""#, "null", "[4]"]
        var s = StreamBuilder()
        try s.record(synth.record(0))                                                                          // 1
        for (i, value) in bad.enumerated() {                                                                   // 2 … 7
            s.line(#"{"type":"frame","t":0.05,"width":320,"height":240,"encoding":"depth16",\#(k),"maxDepth":\#(value),"bytes":153600}"#)
            s.raw([UInt8](repeating: UInt8(0x0A + i), count: 153_600))
        }
        s.line(#"{"type":"frame","t":0.06,"width":320,"height":240,"encoding":"depth16",\#(k),"maxDepth":3,"maxDepth":4,"bytes":153600}"#) // 8
        s.raw([UInt8](repeating: 0x0A, count: 153_600))
        try s.record(synth.record(1))                                                                          // 9

        let result = try run(s.bytes)
        #expect(result.stop == nil)
        let errors = result.events("error")
        #expect(errors.map { ($0["record"] as! NSNumber).intValue } == [2, 3, 4, 5, 6, 7, 8])
        #expect(result.warnings == errors.map { $0["message"] as! String })
        #expect(result.warnings == [
            "record 2: \"maxDepth\" must be a positive number of metres, got 0.0",
            "record 3: \"maxDepth\" must be a positive number of metres, got -2.0",
            "record 4: \"maxDepth\" is 1e+39, too large for a 32-bit float",
            "record 5: \"maxDepth\" must be a number, got a string",
            "record 6: \"maxDepth\" must be a number, got null",
            "record 7: \"maxDepth\" must be a number, got an array",
            "record 8: \"maxDepth\" appears more than once",
        ])
        // Both good frames were tracked, the second after all the bad ones.
        #expect(result.events("focus").map(\.frame) == [0, 1])
        #expect(result.runner.processor.latestCloud?.finiteCount ?? 0 > 10_000)
    }
}
