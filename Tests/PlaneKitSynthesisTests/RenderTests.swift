import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import Testing

@Suite struct RenderTests {
    @Test func sameSeedGivesABitwiseIdenticalFrame() {
        let a = SyntheticFrame(seed: 77), b = SyntheticFrame(seed: 77)
        #expect(a.labels == b.labels)
        #expect(a.pose == b.pose)
        #expect(a.cloud.points.count == 640 * 480)
        let bitsA = a.cloud.points.map { SIMD3($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern) }
        let bitsB = b.cloud.points.map { SIMD3($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern) }
        #expect(bitsA == bitsB)
        let c = SyntheticFrame(seed: 78)
        #expect(c.labels != a.labels)
        #expect(c.pose != a.pose)
    }

    @Test func cloudCarriesIntrinsicsAndPose() {
        let frame = SyntheticFrame(seed: 4)
        #expect(frame.cloud.isOrganized && frame.width == 640 && frame.height == 480)
        #expect(frame.cloud.intrinsics == .kinect())
        #expect(frame.cloud.sensorPose == frame.pose)
        #expect(frame.planes.count == SyntheticRoom(seed: 4).planes.count)
        // Label counts agree with the label image, and no labelled pixel lacks a point.
        for plane in frame.planes {
            #expect(plane.pixelCount == frame.labels.filter { $0 == plane.id }.count)
        }
        #expect(zip(frame.labels, frame.cloud.points).allSatisfy { $0.0 == 0 || $0.1.isFinite })
    }

    @Test func randomViewsAreMostlyWithinSensorRange() {
        // Poses are chosen so that the view is not blocked by a near wall nor lost down a long
        // room: holes are mostly the 1% dropouts and edge losses.
        for seed in 0..<12 as Range<UInt64> {
            let frame = SyntheticFrame(seed: seed)
            let holes = 1 - Double(frame.cloud.finiteCount) / Double(640 * 480)
            #expect(holes > 0.008 && holes < 0.1, "seed \(seed): \(holes) of the pixels without depth")
            #expect(frame.visiblePlanes(minimumPixels: 3000).count >= 1)
        }
    }

    @Test func idealPointsLieOnTheirTrueWorldPlanes() {
        for seed in 1...6 as ClosedRange<UInt64> {
            let frame = SyntheticFrame(seed: seed, sensor: .ideal)
            // A closed room: every ray hits something.
            #expect(frame.cloud.finiteCount == 640 * 480)
            var worst: Float = 0, outside = 0, labelled = 0
            for (i, label) in frame.labels.enumerated() where label != 0 {
                let plane = frame.planes[Int(label) - 1]
                let world = frame.pose.apply(toPoint: frame.cloud.points[i])
                worst = max(worst, abs(plane.worldPlane.signedDistance(to: world)))
                // Also within the face's rectangle, not just on its infinite plane.
                if !plane.truePlane.contains(world, tolerance: 1e-3) { outside += 1 }
                // And on the camera-frame plane.
                worst = max(worst, abs(plane.cameraPlane.signedDistance(to: frame.cloud.points[i])))
                labelled += 1
            }
            #expect(worst <= 1e-4, "seed \(seed): worst residual \(worst) m")
            #expect(outside == 0)
            #expect(labelled > 640 * 480 / 2)
            // Visible planes face the camera: the camera is on the normal's side.
            for plane in frame.visiblePlanes(minimumPixels: 50) { #expect(plane.cameraPlane.offset > 0) }
        }
    }

    @Test func wallStraightAheadFillsTheImageWithOneLabel() throws {
        let renderer = SyntheticRenderer(sensor: .ideal)
        let frame = renderer.render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 1)
        #expect(frame.labels.allSatisfy { $0 == 1 })
        #expect(frame.planes[0].pixelCount == 640 * 480)
        #expect(frame.cloud.points.allSatisfy { $0.z == 2 })
        // Pixel (0, 0) sees x = (0 − 319.5)·2/525.
        #expect(abs(frame.cloud[0, 0].x - (-319.5 * 2 / 525)) < 1e-6)
        #expect(abs(frame.cloud[639, 479].y - (239.5 * 2 / 525)) < 1e-6)
        #expect(frame.planes[0].cameraPlane.isApproximatelyEqual(to: Plane(unitNormal: SIMD3(0, 0, -1), offset: 2)))

        // With the Kinect model the wall is still one label, with holes, and z = 2 within noise.
        let noisy = SyntheticRenderer().render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 1)
        let sigma = SensorModel.kinect.depthSigma(atDepth: 2)
        let step = SensorModel.kinect.quantisationStep(atDepth: 2, focalLength: 525)
        let zs = noisy.cloud.points.filter(\.isFinite).map { Double($0.z) }
        #expect(Set(noisy.labels) == [0, 1])
        #expect(zs.count > 640 * 480 * 95 / 100)
        #expect(zs.allSatisfy { abs($0 - 2) < Double(6 * sigma + step) })
        #expect(abs(Scenes.meanAndDeviation(zs).mean - 2) < 5e-4)
    }

    @Test func clutterGetsDepthButNoLabel() {
        var scene = Scenes.wall(at: 3)
        scene.addClutter(.sphere(center: SIMD3(0, 0, 2), radius: 0.3))
        scene.addClutter(.verticalCylinder(baseCenter: SIMD3(-0.8, -2, 2), radius: 0.1, height: 4))
        let frame = SyntheticRenderer(sensor: .ideal).render(scene, pose: .identity, noiseSeed: 1)
        var sphere = 0, cylinder = 0
        for v in 0..<480 {
            for u in 0..<640 {
                let i = v * 640 + u, p = frame.cloud.points[i]
                if abs(distance(p, SIMD3(0, 0, 2)) - 0.3) < 1e-4 {
                    sphere += 1
                    #expect(frame.labels[i] == 0)
                } else if abs(SIMD2(p.x + 0.8, p.z - 2).length - 0.1) < 1e-4 {
                    cylinder += 1
                    #expect(frame.labels[i] == 0)
                } else {
                    #expect(frame.labels[i] == 1 && abs(p.z - 3) < 1e-5)
                }
            }
        }
        // The sphere's disc covers about π·(525·0.3/2)² ≈ 19 500 pixels. The pole, seen 21.8°
        // off-axis 2.154 m away, spans tan(21.8° ± asin(0.1/2.154)) → 525·0.1077 = 56.6 pixels
        // on every one of the 480 rows.
        #expect(abs(Double(sphere) - Double.pi * 78.75 * 78.75) < 800)
        #expect(cylinder >= 480 * 55 && cylinder <= 480 * 58)
        #expect(frame.labels.filter { $0 == 0 }.count == sphere + cylinder)
    }

    @Test func nearerSurfacesOccludeFartherOnes() {
        let frame = SyntheticRenderer(sensor: .ideal).render(Scenes.boxBeforeWall(), pose: .identity, noiseSeed: 1)
        // The cube's front face (id 5 in addBox's order: top, +X, +Z, −X, −Z) spans ±0.5 m at
        // 2 m: pixels 319.5 ± 131.25 horizontally.
        let front = frame.planes.first { $0.truePlane.plane.normal.isApproximatelyEqual(to: SIMD3(0, 0, -1)) && $0.kind == .boxSide }!
        #expect(frame.labels[240 * 640 + 320] == front.id)
        #expect(frame.labels[240 * 640 + 100] == 1)
        let expected = 262 * 262
        #expect(abs(front.pixelCount - expected) <= 2 * 263)
        // Its corners in camera coordinates are (±0.5, ±0.5, 2).
        #expect(front.cameraCorners.allSatisfy { abs($0.z - 2) < 1e-5 && abs(abs($0.x) - 0.5) < 1e-5 && abs(abs($0.y) - 0.5) < 1e-5 })
        #expect(Set(front.cameraCorners.map { SIMD2<Float>($0.x.sign == .plus ? 1 : -1, $0.y.sign == .plus ? 1 : -1) }).count == 4)
        // The cube's other sides are hidden from a camera straight in front.
        #expect(frame.planes.filter { $0.pixelCount > 0 }.count == 2)
    }
}
