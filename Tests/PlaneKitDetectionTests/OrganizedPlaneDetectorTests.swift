import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes

/// Hand-built frames with known planes, rendered through the pinhole model.
@Suite struct OrganizedPlaneDetectorTests {
    let detector = OrganizedPlaneDetector()

    /// A floor and a wall, seen by a camera looking slightly down.
    func floorAndWall(noise: DepthNoiseModel?, holes: [(u: Range<Int>, v: Range<Int>)] = [], dropouts: Float = 0,
                      seed: UInt64 = 7) throws -> RenderedFrame {
        try renderFrame(surfaces: [.infinite(worldFloor), .infinite(worldWall(at: 3.2))], pose: standingCamera(),
                        noise: noise, holes: holes, dropoutFraction: dropouts, seed: seed)
    }

    /// Checks that every true plane of `frame` is found once, accurately, with ≥ 95% of its pixels.
    func expectPlanesRecovered(_ frame: RenderedFrame, _ result: PlaneDetectionResult,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        var used = Set<Int>()
        for (k, truePlane) in frame.planes.enumerated() {
            guard let truePlane else { continue }
            let (label, fraction) = coverage(of: frame, labels: result.labels, surface: k)
            #expect(label > 0, "surface \(k) not found", sourceLocation: sourceLocation)
            guard label > 0 else { continue }
            #expect(!used.contains(label), "two surfaces share label \(label)", sourceLocation: sourceLocation)
            used.insert(label)
            let found = result.planes[label - 1]
            #expect(found.label == label, sourceLocation: sourceLocation)
            #expect(fraction >= 0.95, "surface \(k): \(fraction) of its pixels labelled", sourceLocation: sourceLocation)
            let angle = angleDegrees(found.normal, truePlane.normal)
            #expect(angle <= 0.5, "surface \(k): normal off by \(angle)°", sourceLocation: sourceLocation)
            #expect(abs(found.offset - truePlane.offset) <= 0.005,
                    "surface \(k): offset \(found.offset) vs \(truePlane.offset)", sourceLocation: sourceLocation)
        }
    }

    @Test func findsTwoPerpendicularPlanesExactly() throws {
        let frame = try floorAndWall(noise: nil)
        let result = try detector.detect(in: frame.cloud)
        #expect(result.planes.count == 2)
        #expect(result.width == 640 && result.height == 480)
        expectPlanesRecovered(frame, result)
    }

    @Test(arguments: [UInt64(3), 11, 29])
    func findsTwoPerpendicularPlanesWithNoise(seed: UInt64) throws {
        let frame = try floorAndWall(noise: .kinect, seed: seed)
        let result = try detector.detect(in: frame.cloud)
        #expect(result.planes.count == 2)
        expectPlanesRecovered(frame, result)
    }

    @Test func survivesHolesAndDropouts() throws {
        let holes: [(u: Range<Int>, v: Range<Int>)] = [(100..<180, 50..<130), (400..<470, 300..<420), (0..<640, 238..<243)]
        let frame = try floorAndWall(noise: .kinect, holes: holes, dropouts: 0.08, seed: 5)
        let result = try detector.detect(in: frame.cloud)
        #expect(result.planes.count == 2)
        expectPlanesRecovered(frame, result)
        // Holes and dropouts stay unlabelled.
        for i in frame.truth.indices where frame.truth[i] < 0 {
            #expect(result.labels[i] == 0)
            if result.labels[i] != 0 { break }
        }
    }

    @Test func labelsNumberPlanesLargestFirstWithNormalsFacingTheSensor() throws {
        let frame = try floorAndWall(noise: .kinect, seed: 13)
        let result = try detector.detect(in: frame.cloud)
        try #require(result.planes.count == 2)
        var counts = [Int](repeating: 0, count: result.planes.count + 1)
        for label in result.labels { counts[Int(label)] += 1 }
        for (index, plane) in result.planes.enumerated() {
            #expect(plane.label == index + 1)
            #expect(plane.pointCount == counts[index + 1])
            #expect(plane.plane.signedDistance(to: .zero) > 0, "normal faces away from the sensor")
            #expect(plane.rmsError > 0 && plane.rmsError < 0.02)
            #expect(plane.area > 0.5)
        }
        #expect(result.planes[0].pointCount >= result.planes[1].pointCount)
    }

    @Test func findsNoPlaneOnSpheresAndCylinders() throws {
        let surfaces: [TestSurface] = [
            .sphere(center: SIMD3(-0.5, 1.3, 2.2), radius: 0.4),
            .cylinder(base: SIMD3(0.55, 0.3, 2.0), radius: 0.25, height: 1.6),
        ]
        for seed: UInt64 in [1, 2] {
            let frame = try renderFrame(surfaces: surfaces, pose: standingCamera(target: SIMD3(0, 1.1, 3)),
                                        noise: .kinect, seed: seed)
            let result = try detector.detect(in: frame.cloud)
            #expect(result.planes.count == 0, "planes on curved surfaces: \(result.planes.map(\.pointCount))")
        }
    }

    /// A cylinder of 10 cm radius half a metre away, seen by a camera looking down: a 20-pixel
    /// cell spans 2 cm of it, too little of the curve to tell from a plane, and its axis runs
    /// slanted across the cell columns. No narrow plane along its side is reported.
    @Test func findsNoPlaneOnACylinderCloseUp() throws {
        let surfaces: [TestSurface] = [.cylinder(base: SIMD3(0.22, 0.2, 0.6), radius: 0.1, height: 1.6)]
        var planes: [Int] = []
        for seed: UInt64 in [1, 2, 3] {
            let frame = try renderFrame(surfaces: surfaces, pose: standingCamera(target: SIMD3(0.1, 0.4, 1.5)),
                                        noise: .kinect, seed: seed)
            let result = try detector.detect(in: frame.cloud)
            #expect(frame.cloud.points.filter { $0.z > 0 && $0.z.isFinite }.count > 30_000, "the cylinder fills a good part of the frame")
            planes += result.planes.map(\.pointCount)
        }
        #expect(planes.isEmpty, "planes on the cylinder: \(planes)")
    }

    @Test func findsOnlyTheFloorAndWallAroundCurvedObjects() throws {
        let surfaces: [TestSurface] = [
            .infinite(worldFloor), .infinite(worldWall(at: 4.5)),
            .sphere(center: SIMD3(-0.5, 0.4, 2.2), radius: 0.4),
            .cylinder(base: SIMD3(0.6, 0, 2.4), radius: 0.25, height: 1.2),
        ]
        let frame = try renderFrame(surfaces: surfaces, pose: standingCamera(), noise: .kinect, seed: 21)
        let result = try detector.detect(in: frame.cloud)
        #expect(result.planes.count == 2)
        expectPlanesRecovered(frame, result)
        // Curved pixels stay (nearly all) unlabelled; only a rim where they touch the floor may not.
        for k in 2...3 {
            let pixels = frame.truth.indices.filter { frame.truth[$0] == k }
            let labelled = pixels.filter { result.labels[$0] != 0 }.count
            #expect(Float(labelled) <= 0.05 * Float(pixels.count), "surface \(k): \(labelled) of \(pixels.count) labelled")
        }
    }

    @Test func separatesATableTopFromTheFloorAndClassifiesThem() throws {
        let table = TestSurface.plane(Plane(unitNormal: SIMD3(0, 1, 0), offset: -0.75), center: SIMD3(0.2, 0.75, 2.3),
                                      axes: (SIMD3(1, 0, 0), SIMD3(0, 0, 1)), halfSizes: SIMD2(0.6, 0.4))
        let pose = standingCamera(target: SIMD3(0, 0.2, 3))
        let frame = try renderFrame(surfaces: [.infinite(worldFloor), .infinite(worldWall(at: 4)), table],
                                    pose: pose, noise: .kinect, seed: 17)
        var configuration = OrganizedPlaneDetector.Configuration()
        configuration.up = pose.inverse.apply(toDirection: SIMD3(0, 1, 0))
        let result = try OrganizedPlaneDetector(configuration: configuration).detect(in: frame.cloud)
        #expect(result.planes.count == 3)
        expectPlanesRecovered(frame, result)
        let classes = (0..<3).map { k -> PlaneClassification in
            let label = coverage(of: frame, labels: result.labels, surface: k).label
            return label > 0 ? result.planes[label - 1].classification : .none
        }
        #expect(classes == [.floor, .wall, .table])
        #expect(result.planes.allSatisfy { $0.alignment != .any })
    }

    @Test func emptyAndNonFiniteFramesGiveNoPlanes() throws {
        let size = 640 * 480
        for fill in [SIMD3<Float>(repeating: .nan), SIMD3(repeating: .infinity), SIMD3(.infinity, 0, 1),
                     SIMD3(0, 0, -.infinity), .zero] {
            let cloud = try PointCloud(width: 640, height: 480, points: ContiguousArray(repeating: fill, count: size))
            let result = try detector.detect(in: cloud)
            #expect(result.planes.isEmpty)
            #expect(result.labels.count == size && result.labels.allSatisfy { $0 == 0 })
        }
        // A mix of finite points and infinities: the finite floor is still found.
        var frame = try floorAndWall(noise: nil)
        var points = frame.cloud.points
        for i in stride(from: 0, to: points.count, by: 97) { points[i] = SIMD3(.infinity, -.infinity, .nan) }
        frame.cloud = try PointCloud(width: 640, height: 480, points: points)
        #expect(try detector.detect(in: frame.cloud).planes.count == 2)
    }

    @Test func countsTheMeasuredPoints() throws {
        let holes: [(u: Range<Int>, v: Range<Int>)] = [(100..<180, 50..<130), (0..<640, 238..<243)]
        let frame = try floorAndWall(noise: .kinect, holes: holes, dropouts: 0.08, seed: 5)
        var points = frame.cloud.points
        // Behind the sensor, at infinity, NaN, and a valid depth with an infinite x.
        for i in stride(from: 3, to: points.count, by: 101) { points[i].z = -points[i].z }
        for i in stride(from: 5, to: points.count, by: 103) { points[i] = SIMD3(0, 0, .infinity) }
        for i in stride(from: 7, to: points.count, by: 107) { points[i] = SIMD3(repeating: .nan) }
        for i in stride(from: 11, to: points.count, by: 109) where points[i].z > 0 { points[i].x = .infinity }
        // A camera image: a depth in (0, ∞). Holes (5 % of the frame), dropouts (8 %) and the
        // marked points are out.
        let camera = try detector.detect(in: PointCloud(width: 640, height: 480, points: points, intrinsics: .kinect()))
        #expect(camera.validPointCount == points.count { $0.z > 0 && $0.z.isFinite })
        #expect(camera.validPointCount > 230_000 && camera.validPointCount < 275_000)
        // Grids that are not a camera's image, with partial last cells: shifted in front of their
        // origin, so the points behind it count too, and exact zeros (no point) stay holes.
        for (w, h) in [(640, 480), (633, 471), (37, 5)] {
            var cropped = ContiguousArray<SIMD3<Float>>()
            for v in 0..<h { for u in 0..<w { cropped.append(points[v * 640 + u]) } }
            let result = try detector.detect(in: PointCloud(width: w, height: h, points: cropped))
            #expect(result.validPointCount == cropped.count { $0.z.isFinite && $0 != .zero }, "\(w)×\(h)")
        }
        // Nothing in front of a camera, nothing counted.
        let behind = try PointCloud(width: 640, height: 480, points: ContiguousArray(repeating: SIMD3(0, 0, -1), count: 640 * 480),
                                    intrinsics: .kinect())
        #expect(try detector.detect(in: behind).validPointCount == 0)
    }

    @Test func oddSizesDoNotCrash() throws {
        let frame = try floorAndWall(noise: nil)
        for (w, h) in [(1, 2), (2, 2), (7, 3), (33, 21), (641 - 1, 2)] {
            var points = ContiguousArray<SIMD3<Float>>()
            for v in 0..<h { for u in 0..<w { points.append(frame.cloud[u, v + 300]) } }
            let result = try detector.detect(in: PointCloud(width: w, height: h, points: points))
            #expect(result.labels.count == w * h)
        }
    }

    @Test func rejectsUnorganizedCloudsAndBadConfigurations() throws {
        let unorganized = PointCloud(unorganized: [SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(0, 1, 1)])
        #expect(throws: DetectionError.unorganizedCloud(width: 3, height: 1)) { try detector.detect(in: unorganized) }
        let empty = try PointCloud(width: 0, height: 0, points: [])
        #expect(throws: DetectionError.unorganizedCloud(width: 0, height: 0)) { try detector.detect(in: empty) }
        let cloud = try PointCloud(width: 2, height: 2, points: ContiguousArray(repeating: SIMD3(0, 0, 1), count: 4))
        var bad = OrganizedPlaneDetector.Configuration()
        bad.cellSize = 1
        #expect(throws: DetectionError.self) { try OrganizedPlaneDetector(configuration: bad).detect(in: cloud) }
        bad = .init()
        bad.sensor = .custom
        bad.noise = DepthNoiseModel(constant: 0)
        #expect(throws: DetectionError.self) { try OrganizedPlaneDetector(configuration: bad).detect(in: cloud) }
        bad = .init()
        bad.up = .zero
        #expect(throws: DetectionError.self) { try OrganizedPlaneDetector(configuration: bad).detect(in: cloud) }
        bad = .init()
        bad.growAngle = .nan
        #expect(throws: DetectionError.self) { try OrganizedPlaneDetector(configuration: bad).detect(in: cloud) }
        #expect(DetectionError.unorganizedCloud(width: 3, height: 1).description.contains("not organized"))
    }

    @Test func isDeterministic() throws {
        let frame = try floorAndWall(noise: .kinect, dropouts: 0.02, seed: 99)
        let a = try detector.detect(in: frame.cloud), b = try detector.detect(in: frame.cloud)
        #expect(a.labels == b.labels)
        #expect(a.planes == b.planes)
    }
}
