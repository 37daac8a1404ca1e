import Foundation
import PlaneKitGeometry
import PlaneKitInput
import Testing
@testable import PlaneKitSynthesis
@testable import PlaneKitSeededRandom
@testable import PlaneKitSyntheticWalks

/// The shortcuts that make rendering fast must not change a single bit of any frame.
@Suite struct FastRenderingTests {
    /// FNV-1a over bytes.
    static func fnv1a<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The depth16 payload of frame `index` of `sequence`.
    static func depth16(_ sequence: SyntheticSequence, frame index: Int, labels: UnsafeMutableBufferPointer<UInt16>? = nil,
                        workspace: inout RenderWorkspace) -> [UInt8] {
        let k = sequence.renderer.intrinsics
        var bytes = [UInt8](repeating: 0xAB, count: 2 * k.width * k.height)
        bytes.withUnsafeMutableBytes {
            sequence.renderDepth16(frameAt: index, encoding: .millimetres, into: $0, labels: labels, workspace: &workspace)
        }
        return bytes
    }

    @Test func depth16FramesKeepTheirPinnedChecksums() {
        // Checksums of `planekit synth --seed 5 --frames 3 [--ideal]` payloads: the same seed
        // gives the same bytes, on every machine and after every optimisation. Recomputed when
        // the sensor pass moved to noise tables, gap-drawn dropouts and its own edge-drop
        // stream (new Kinect bytes) and to correctly rounded samples (68 ideal samples of these
        // frames lost 1 mm that adding 0.5 in Float had rounded up from just below a tie).
        let pinned: [(SensorModel, [UInt64])] = [
            (.kinect, [0x08af_e182_ed7a_5a16, 0x36cb_ae66_492c_3ac4, 0x861e_1eca_848a_50bf]),
            (.ideal, [0xc237_6858_ab64_e4e3, 0x5f27_1c46_d040_0904, 0x3844_a178_23ab_b3ea]),
        ]
        for (sensor, sums) in pinned {
            let sequence = SyntheticSequence(seed: 5, frameCount: 3, sensor: sensor)
            var workspace = RenderWorkspace()
            for (index, sum) in sums.enumerated() {
                let bytes = FastRenderingTests.depth16(sequence, frame: index, workspace: &workspace)
                #expect(FastRenderingTests.fnv1a(bytes) == sum, "frame \(index), ideal: \(sensor.isIdeal)")
            }
        }
    }

    @Test func depth16IsTheCloudsDepthInMillimetres() {
        for seed in [2, 9, 23] as [UInt64] {
            for sensor in [SensorModel.kinect, .ideal] {
                let sequence = SyntheticSequence(seed: seed, frameCount: 40, sensor: sensor)
                var workspace = RenderWorkspace()
                for index in [0, 17, 39] {
                    let frame = sequence.frame(at: index)
                    var labels = ContiguousArray<UInt16>(repeating: 0xFFFF, count: frame.labels.count)
                    let bytes = labels.withUnsafeMutableBufferPointer {
                        FastRenderingTests.depth16(sequence, frame: index, labels: $0, workspace: &workspace)
                    }
                    #expect(labels == frame.labels)
                    var mismatches = 0, measured = 0
                    for (i, p) in frame.cloud.points.enumerated() {
                        let sample = UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8
                        if sample != Depth16Encoding.millimetres.sample(p.z) { mismatches += 1 }
                        if sample != 0 { measured += 1 }
                    }
                    #expect(mismatches == 0, "seed \(seed) frame \(index): \(mismatches) samples differ")
                    #expect(measured == frame.cloud.finiteCount)
                }
            }
        }
    }

    @Test func reusedWorkspaceGivesTheSameFrames() {
        let sequence = SyntheticSequence(seed: 31, frameCount: 5)
        var shared = RenderWorkspace()
        for index in [4, 0, 2] {
            var fresh = RenderWorkspace()
            #expect(FastRenderingTests.depth16(sequence, frame: index, workspace: &shared)
                    == FastRenderingTests.depth16(sequence, frame: index, workspace: &fresh))
        }
        // A renderer with other intrinsics resizes the workspace.
        let small = SyntheticRenderer(intrinsics: .kinect(width: 320, height: 240))
        let frame = small.render(SyntheticRoom(seed: 31).scene, pose: sequence.pose(ofFrame: 1), noiseSeed: 8, workspace: &shared)
        #expect(frame.width == 320 && frame.height == 240)
        #expect(frame.labels == small.render(SyntheticRoom(seed: 31).scene, pose: sequence.pose(ofFrame: 1), noiseSeed: 8).labels)
    }

    /// The z-buffer of `scene`'s rectangles from `pose`, with or without row-span culling.
    static func zBuffer(_ scene: SyntheticScene, pose: Transform, culling: Bool) -> (depth: [UInt32], surface: [Int32]) {
        var hits = RayCastBuffers(intrinsics: .kinect())
        hits.cullsRows = culling
        let cameraFromWorld = pose.inverse
        for (index, plane) in scene.planes.enumerated() {
            hits.draw(CameraRectangle(plane, cameraFromWorld: cameraFromWorld), index: Int32(index))
        }
        return (hits.depth.map(\.bitPattern), Array(hits.surface))
    }

    @Test func rowSpansSkipOnlyPixelsThatMissTheRectangle() {
        var poses: [(SyntheticScene, Transform)] = []
        for seed in 0..<24 as Range<UInt64> {
            let room = SyntheticRoom(seed: seed)
            poses.append((room.scene, room.randomCameraPose(seed: seed)))
            let sequence = SyntheticSequence(seed: seed, frameCount: 600)
            poses.append((room.scene, sequence.pose(ofFrame: Int(seed) * 25)))
        }
        // Edge-on and close-up views of a cube: the camera in the plane of a side, 1 cm and
        // 6 cm from it, and looking along the diagonal past an edge.
        let cube = Scenes.boxBeforeWall()
        for x: Float in [0.5, 0.51, 0.56, -0.5, 0.7] {
            poses.append((cube, Transform(translation: SIMD3(x, 0.2, 0.8))))
        }
        poses.append((cube, Transform(origin: SIMD3(1.5, -1.5, 1), yAxis: SIMD3(0, 1, 0), xHint: SIMD3(0.7, 0, 0.7))))
        var culledTests = 0
        for (scene, pose) in poses {
            let culled = FastRenderingTests.zBuffer(scene, pose: pose, culling: true)
            let full = FastRenderingTests.zBuffer(scene, pose: pose, culling: false)
            #expect(culled.depth == full.depth)
            #expect(culled.surface == full.surface)
            culledTests += culled.surface.filter { $0 >= 0 }.count
        }
        // Something was drawn: the comparison is not between two empty buffers.
        #expect(culledTests > poses.count * 640 * 480 / 2)
    }

    @Test func rowSpansCoverTheRectangleAndLittleElse() throws {
        // A 1 m square at 2 m straight ahead covers ±131.25 pixels around the centre: the span
        // on its middle row is those columns plus the two-pixel slack.
        let face = try #require(Scenes.boxBeforeWall().planes.first { $0.plane.normal.isApproximatelyEqual(to: SIMD3(0, 0, -1)) && $0.kind == .boxSide })
        let spans = RectangleRowSpans(CameraRectangle(face, cameraFromWorld: .identity))
        let k = PinholeIntrinsics.kinect()
        let xs = ContiguousArray((0..<k.width).map { (Float($0) - k.cx) / k.fx })
        let middle = xs.withUnsafeBufferPointer { spans.columns(y: 0, u0: 0, u1: k.width - 1, xs: $0, fx: k.fx, cx: k.cx) }
        let (lo, hi) = try #require(middle)
        #expect(lo >= 186 && lo <= 188 && hi >= 451 && hi <= 453, "span \(lo)...\(hi)")
        // A row 0.6 m above the centre at 2 m (y' = −0.3) misses the square entirely.
        let above = xs.withUnsafeBufferPointer { spans.columns(y: -0.3, u0: 0, u1: k.width - 1, xs: $0, fx: k.fx, cx: k.cx) }
        #expect(above == nil)
    }

    @Test func quantiserTableMatchesTheSensorModel() throws {
        for sensor in [SensorModel.kinect, SensorModel(disparityStep: 0.1), SensorModel(disparityStep: 0.5, baseline: 0.05)] {
            let f: Float = 525
            let quantiser = try #require(DisparityQuantiser(sensor: sensor, focalLength: f))
            // Depths from 5 cm to 12 m a few ulp apart, plus the edge cases.
            var values: [Float] = [0, -1, .nan, .infinity, .leastNonzeroMagnitude, 1e-30, 1e30]
            var z: Float = 0.05
            while z < 12 { values.append(z); z = z.nextUp.nextUp.nextUp + z * 3e-6 }
            var mismatches: [Float] = [], readings = 0
            for z in values {
                let expected = sensor.quantise(depth: z, focalLength: f)
                let steps = quantiser.steps(z)
                let got: Float
                if steps <= 0 {
                    got = .nan
                } else if steps < Float(DisparityQuantiser.tableSize) {
                    got = quantiser.depths[Int(steps)]
                } else {
                    got = quantiser.depth(ofSteps: steps)
                }
                // A reading is positive and finite; anything else is a hole either way.
                let expectedReading = expected > 0 && expected.isFinite, gotReading = got > 0 && got.isFinite
                if expectedReading != gotReading || (expectedReading && expected.bitPattern != got.bitPattern) { mismatches.append(z) }
                if gotReading { readings += 1 }
            }
            #expect(mismatches.isEmpty, "step \(sensor.disparityStep): \(mismatches.count) differ, first \(mismatches.prefix(5))")
            #expect(readings > 1_000_000)
        }
    }

    @Test func incidenceTestDecidesLikeTheFormula() {
        var random = SeededRandom(seed: 12)
        let cosMaximum = Float(DeterministicMath.cos(DeterministicMath.radians(80)))
        let test = IncidenceTest(cosMaximum: cosMaximum)
        var nearThreshold = 0, mismatches = 0
        for _ in 0..<400_000 {
            let ray = SIMD3(random.uniform(-0.7...0.7), random.uniform(-0.5...0.5), 1)
            // Normals spread over all directions, and many right at the 80° limit.
            var normal = SIMD3(random.uniform(-1...1), random.uniform(-1...1), random.uniform(-1...1))
            if random.chance(0.5) {
                let axis = normalize(ray), side = normalize(cross(axis, normal))
                let c = cosMaximum * (1 + random.uniform(-1e-5...1e-5))
                normal = c * axis + (1 - c * c).squareRoot() * side
            }
            let d = abs(dot(normal, ray))
            let formula = !(d / ray.length < cosMaximum)
            if test.passes(dotMagnitude: d, rayLengthSquared: dot(ray, ray)) != formula { mismatches += 1 }
            if abs(d / ray.length - cosMaximum) < 1e-5 { nearThreshold += 1 }
        }
        #expect(mismatches == 0)
        #expect(nearThreshold > 10_000)
    }

    @Test func unitThresholdMatchesNextUnit() {
        var random = SeededRandom(seed: 3)
        for p in [0, 0.01, 0.5, 1.0 / 3, 0.999_999, 1, 2, -0.5, .nan] as [Double] {
            let threshold = UnitThreshold(p)
            var mismatches = 0
            for _ in 0..<20_000 {
                let bits = random.next()
                if threshold.isBelow(bits) != (Double(bits >> 11) * 0x1.0p-53 < p) { mismatches += 1 }
            }
            #expect(mismatches == 0, "p \(p)")
            // Right at the threshold.
            let edge = UInt64(threshold.limit) << 11
            for bits in [edge &- 1, edge, edge | 0x7FF, edge &+ 0x800] {
                #expect(threshold.isBelow(bits) == (Double(bits >> 11) * 0x1.0p-53 < p), "p \(p), bits \(bits)")
            }
        }
    }
}

extension FastRenderingTests {
    @Test func narrowImagesSeeWhatWideOnesSee() throws {
        // Images of 1 to 13 columns (one pixel at a time below 8 columns, a group of eight moved
        // back to the image edge above) read the same samples as a 16-column image in their
        // shared columns: same rays, same noise (the table offsets are per row), same steps.
        // Dropouts (positions in the frame) and edge drops (draws in pixel order) depend on the
        // width, so this sensor has neither.
        var sensor = SensorModel.kinect
        sensor.dropoutRate = 0
        sensor.discontinuityDropProbability = 0
        let room = SyntheticRoom(seed: 4)
        let pose = room.randomCameraPose(seed: 4)
        func render(width: Int) throws -> (samples: [UInt16], surface: [Int32]) {
            // The 16-column image's principal point, so that column u has the same ray in every width.
            let k = try #require(PinholeIntrinsics(fx: 52.5, fy: 52.5, cx: 7.5, cy: 23.5, width: width, height: 48))
            let renderer = SyntheticRenderer(intrinsics: k, sensor: sensor)
            var workspace = RenderWorkspace()
            var bytes = [UInt8](repeating: 0xAB, count: 2 * width * 48)
            bytes.withUnsafeMutableBytes {
                renderer.renderDepth16(room.scene, pose: pose, noiseSeed: 9, encoding: .millimetres, into: $0, workspace: &workspace)
            }
            let samples = (0..<(width * 48)).map { UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8 }
            return (samples, Array(workspace.buffers?.surface ?? []))
        }
        let wide = try render(width: 16)
        #expect(wide.samples.filter { $0 != 0 }.count > 16 * 48 / 2)
        for width in [1, 5, 7, 8, 9, 13] {
            let narrow = try render(width: width)
            var mismatches = 0
            for v in 0..<48 {
                for u in 0..<width where narrow.samples[v * width + u] != wide.samples[v * 16 + u]
                    || narrow.surface[v * width + u] != wide.surface[v * 16 + u] {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0, "width \(width): \(mismatches) pixels differ")
        }
    }
}
