import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing

@Suite struct SensorModelTests {
    /// The ideal model with only the given changes.
    private func only(_ change: (inout SensorModel) -> Void) -> SensorModel {
        var model = SensorModel.ideal
        change(&model)
        return model
    }

    @Test func noiseFormulaAndQuantisationStepMatchTheKinect() {
        let k = SensorModel.kinect
        #expect(abs(k.depthSigma(atDepth: 0.4) - 0.0012) < 1e-7)
        #expect(abs(k.depthSigma(atDepth: 2) - (0.0012 + 0.0019 * 2.56)) < 1e-7)
        // Disparity at 2 m is 0.075·525/2 = 19.6875 px; one eighth of a pixel is ≈ 12.7 mm there.
        #expect(abs(k.quantisationStep(atDepth: 2, focalLength: 525) - 4 / (0.075 * 525) / 8) < 1e-6)
        #expect(abs(k.quantise(depth: 2, focalLength: 525) - 39.375 / (158 / 8)) < 1e-6)
        #expect(SensorModel.ideal.isIdeal && !k.isIdeal)
        #expect(SensorModel.ideal.quantise(depth: 1.2345, focalLength: 525) == 1.2345)
    }

    @Test func noiseAlongTheRayHasTheModelledDeviationOnAWall() {
        // Noise only: residuals at 2 m have σ_z(2 m) = 6.06 mm.
        let sensor = only { $0.noiseConstant = 0.0012; $0.noiseQuadratic = 0.0019 }
        let frame = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 9)
        let errors = frame.cloud.points.map { Double($0.z) - 2 }
        let (mean, deviation) = Scenes.meanAndDeviation(errors)
        let sigma = Double(sensor.depthSigma(atDepth: 2))
        #expect(abs(mean) < 1e-4)
        #expect(abs(deviation - sigma) < 0.2 * sigma)
        #expect(abs(deviation - sigma) < 0.02 * sigma, "σ measured \(deviation), modelled \(sigma)")
        // Points move along their pixel's ray: x/z and y/z are unchanged.
        let p = frame.cloud[10, 20], ray = Scenes.ray(.kinect(), u: 10, v: 20)
        #expect(abs(p.x / p.z - ray.x) < 1e-6 && abs(p.y / p.z - ray.y) < 1e-6)
    }

    @Test func noisyRoomPointsScatterAboutTheirPlanesAsModelled() {
        // Random rooms, noise only: the depth error along the ray, recovered from each point's
        // distance to its true world plane, has σ_z(z) for points about 2 m away.
        let sensor = only { $0.noiseConstant = 0.0012; $0.noiseQuadratic = 0.0019 }
        var errors: [Double] = []
        for seed in 1...12 as ClosedRange<UInt64> {
            let frame = SyntheticFrame(seed: seed, sensor: sensor)
            let intrinsics = frame.intrinsics
            for v in 0..<frame.height {
                for u in 0..<frame.width {
                    let i = v * frame.width + u, label = frame.labels[i]
                    let p = frame.cloud.points[i]
                    guard label != 0, p.z > 1.9, p.z < 2.1 else { continue }
                    let plane = frame.planes[Int(label) - 1]
                    // A depth error e moves the point by e·(x', y', 1), i.e. e·(n·ray) off the plane.
                    let along = dot(plane.cameraPlane.normal, Scenes.ray(intrinsics, u: u, v: v))
                    guard abs(along) > 0.5 else { continue }
                    let residual = plane.worldPlane.signedDistance(to: frame.pose.apply(toPoint: p))
                    errors.append(Double(residual / along))
                }
            }
        }
        #expect(errors.count > 20_000)
        let (mean, deviation) = Scenes.meanAndDeviation(errors)
        let sigma = Double(sensor.depthSigma(atDepth: 2))
        #expect(abs(mean) < 0.1 * sigma)
        #expect(abs(deviation - sigma) < 0.2 * sigma, "σ measured \(deviation), modelled \(sigma)")
    }

    @Test func defaultModelCombinesNoiseAndQuantisation() {
        // Noise then 1/8-px disparity steps (≈12.7 mm at 2 m): σ ≈ √(σ_z² + step²/12) ≈ 7.1 mm.
        let frame = SyntheticRenderer().render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 3)
        let errors = frame.cloud.points.filter(\.isFinite).map { Double($0.z) - 2 }
        let sigma = Double(SensorModel.kinect.depthSigma(atDepth: 2))
        let step = Double(SensorModel.kinect.quantisationStep(atDepth: 2, focalLength: 525))
        let expected = (sigma * sigma + step * step / 12).squareRoot()
        let (_, deviation) = Scenes.meanAndDeviation(errors)
        #expect(abs(deviation - expected) < 0.1 * expected, "σ measured \(deviation), expected \(expected)")
    }

    @Test func quantisedDepthsSitOnDisparitySteps() {
        let sensor = only { $0.disparityStep = 1.0 / 8 }
        // A floor 1.2 m below the camera, seen up to far away: depth varies smoothly over the image.
        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: SIMD3(0, 1.2, 5), normal: SIMD3(0, -1, 0), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(20, 10))
        // Rolled a little, so depth also changes along each image row.
        let pose = PinholeCamera.pose(eye: .zero, target: SIMD3(0, 0.5, 1), up: SIMD3(0.3, -1, 0))!
        let frame = SyntheticRenderer(sensor: sensor).render(scene, pose: pose, noiseSeed: 1)
        let bf: Float = 0.075 * 525
        let depths = Set(frame.cloud.points.filter(\.isFinite).map(\.z)).sorted()
        #expect(depths.count > 50)
        for z in depths {
            // z = b·f / (k/8) for a whole number k.
            let k = bf / z * 8
            #expect(abs(k - k.rounded()) < 2e-3, "depth \(z) is not on a disparity step")
        }
        // Neighbouring levels are one disparity step apart: Δz ≈ z²/(8·b·f).
        for (a, b) in zip(depths, depths.dropFirst()) where b < 4 {
            let predicted = a * b / (8 * bf)
            #expect(abs((b - a) - predicted) < 0.01 * predicted)
        }
        // Mean absolute quantisation error is about a quarter step (uniform rounding).
        let ideal = SyntheticRenderer(sensor: .ideal).render(scene, pose: pose, noiseSeed: 1)
        var ratio = 0.0, count = 0.0
        for (q, p) in zip(frame.cloud.points, ideal.cloud.points) where p.isFinite && p.z < 4 {
            ratio += Double(abs(q.z - p.z) / sensor.quantisationStep(atDepth: p.z, focalLength: 525))
            count += 1
        }
        #expect(abs(ratio / count - 0.25) < 0.02)
    }

    @Test func saltAndPepperDropoutsHaveTheConfiguredRate() {
        for rate: Float in [0.01, 0.05] {
            let sensor = only { $0.dropoutRate = rate }
            let frame = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 5)
            let holes = frame.cloud.points.filter { !$0.isFinite }.count
            let fraction = Double(holes) / Double(640 * 480)
            // σ of the fraction is √(p(1−p)/n) ≈ 1.8e-4 at 1%; allow about 5σ.
            #expect(abs(fraction - Double(rate)) < 0.1 * Double(rate), "rate \(rate): dropped \(fraction)")
            // Holes carry label 0, readings label 1.
            #expect(zip(frame.labels, frame.cloud.points).allSatisfy { ($0.0 == 0) == !$0.1.isFinite })
        }
    }

    @Test func pixelsAtDepthDiscontinuitiesAreDroppedWithTheConfiguredProbability() {
        let sensor = only { $0.discontinuityRelativeJump = 0.03; $0.discontinuityDropProbability = 0.5 }
        let scene = Scenes.boxBeforeWall()
        let ideal = SyntheticRenderer(sensor: .ideal).render(scene, pose: .identity, noiseSeed: 2)
        let frame = SyntheticRenderer(sensor: sensor).render(scene, pose: .identity, noiseSeed: 2)
        var edges = 0, droppedEdges = 0, droppedElsewhere = 0
        for v in 0..<480 {
            for u in 0..<640 {
                let z = ideal.cloud[u, v].z
                let neighbours = [(u - 1, v), (u + 1, v), (u, v - 1), (u, v + 1)].filter { $0.0 >= 0 && $0.0 < 640 && $0.1 >= 0 && $0.1 < 480 }
                let isEdge = neighbours.contains { abs(ideal.cloud[$0.0, $0.1].z - z) > 0.03 * z }
                let dropped = !frame.cloud[u, v].isFinite
                if isEdge {
                    edges += 1
                    if dropped { droppedEdges += 1 }
                } else if dropped {
                    droppedElsewhere += 1
                }
            }
        }
        // The cube's outline at 2 m and the wall just outside it: about 2·4·262 pixels.
        #expect(edges > 2000 && edges < 2200)
        #expect(droppedElsewhere == 0)
        #expect(abs(Double(droppedEdges) / Double(edges) - 0.5) < 0.06)
    }

    @Test func grazingAnglesGiveNoReading() {
        let sensor = only { $0.maximumIncidenceDegrees = 80 }
        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: SIMD3(0, 1, 25), normal: SIMD3(0, -1, 0), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(60, 50))
        let frame = SyntheticRenderer(sensor: sensor).render(scene, pose: .identity, noiseSeed: 1)
        let intrinsics = frame.intrinsics
        var kept = 0, dropped = 0
        for v in 240..<480 {
            for u in stride(from: 0, to: 640, by: 7) {
                let ray = Scenes.ray(intrinsics, u: u, v: v)
                let incidence = acos(Double(ray.y / ray.length)) * 180 / .pi
                let point = frame.cloud[u, v]
                // Only pixels whose ray meets the floor rectangle (1 m below, up to 49 m ahead).
                let hitDepth = 1 / ray.y
                guard hitDepth < 49, abs(ray.x * hitDepth) < 29 else { continue }
                if incidence > 80.01 {
                    #expect(!point.isFinite)
                    dropped += 1
                } else if incidence < 79.99 {
                    #expect(point.isFinite && frame.labels[v * 640 + u] == 1)
                    kept += 1
                }
            }
        }
        #expect(kept > 1000 && dropped > 1000)
    }

    @Test func depthsOutsideTheRangeGiveNoReading() {
        let kinectNoDropouts = { () -> SensorModel in var m = SensorModel.kinect; m.dropoutRate = 0; return m }()
        for (depth, expectReading) in [(Float(0.35), false), (0.45, true), (4.9, true), (5.2, false)] {
            let frame = SyntheticRenderer(sensor: kinectNoDropouts).render(Scenes.wall(at: depth), pose: .identity, noiseSeed: 1)
            let finite = frame.cloud.finiteCount
            #expect(expectReading ? finite == 640 * 480 : finite == 0, "wall at \(depth) m: \(finite) readings")
        }
    }
}
