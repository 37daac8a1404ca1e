import Foundation
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import Testing
import PlaneKitPlanes
import PlaneKitUnorganizedDetection

/// A small seeded generator so synthetic clouds are the same on every run.
struct UnorganizedTestRandom {
    private var bits: SplitMix64

    init(seed: UInt64) { bits = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { bits.next() }

    /// Uniform in [0, 1).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Normal with mean 0 and standard deviation `sigma` (Box–Muller).
    mutating func gaussian(sigma: Float) -> Float {
        let u1 = max(unit(), 1e-7), u2 = unit()
        return sigma * (-2 * logf(u1)).squareRoot() * cosf(2 * .pi * u2)
    }
}

/// A room corner with +Y up: a 3×3 m floor (y = 0) and two 2.5 m walls (z = 3 and x = 0),
/// sampled at `density` points per m² with Gaussian noise, plus uniform outliers in the room.
struct UnorganizedRoomScene {
    /// The true planes, normals facing `viewpoint`.
    static let truth: [Plane] = [
        Plane(unitNormal: SIMD3(0, 1, 0), offset: 0),     // floor
        Plane(unitNormal: SIMD3(0, 0, -1), offset: 3),    // back wall z = 3
        Plane(unitNormal: SIMD3(1, 0, 0), offset: 0),     // side wall x = 0
    ]
    static let viewpoint = SIMD3<Float>(1.5, 1.2, 1.0)

    var points = ContiguousArray<SIMD3<Float>>()
    /// Per point: the index of the true plane it was sampled from, or −1 for an outlier.
    var source = [Int]()

    init(seed: UInt64, density: Float = 1000, noise: Float = 0.005, outlierFraction: Float = 0.1) {
        var random = UnorganizedTestRandom(seed: seed)
        func jitter() -> SIMD3<Float> {
            SIMD3(random.gaussian(sigma: noise), random.gaussian(sigma: noise), random.gaussian(sigma: noise))
        }
        let floorCount = Int(9 * density), wallCount = Int(7.5 * density)
        for _ in 0..<floorCount {
            points.append(SIMD3(random.uniform(0...3), 0, random.uniform(0...3)) + jitter())
            source.append(0)
        }
        for _ in 0..<wallCount {
            points.append(SIMD3(random.uniform(0...3), random.uniform(0...2.5), 3) + jitter())
            source.append(1)
        }
        for _ in 0..<wallCount {
            points.append(SIMD3(0, random.uniform(0...2.5), random.uniform(0...3)) + jitter())
            source.append(2)
        }
        let outliers = Int(Float(points.count) * outlierFraction)
        for _ in 0..<outliers {
            points.append(SIMD3(random.uniform(0...3), random.uniform(0...2.5), random.uniform(0...3)))
            source.append(-1)
        }
    }

    var cloud: PointCloud {
        var cloud = PointCloud(unorganized: points)
        cloud.sensorPose = Transform(translation: UnorganizedRoomScene.viewpoint)
        return cloud
    }
}

@Suite("Unorganized plane detection (PCL)")
struct UnorganizedPlaneDetectorTests {
    static func degrees(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        acosf(min(1, max(-1, dot(a, b)))) * 180 / .pi
    }

    @Test("three noisy planes with 10% outliers: three planes, accurate fits and labels")
    func roomCorner() throws {
        let scene = UnorganizedRoomScene(seed: 20_261_121)
        let detector = UnorganizedPlaneDetector(describer: PlaneDescriber(up: SIMD3(0, 1, 0)))
        let result = try detector.detect(in: scene.cloud)

        try #require(result.planes.count == 3)
        #expect(result.width == scene.points.count && result.height == 1)
        #expect(result.labels.count == scene.points.count)

        // Match each true plane to the detected plane with the closest normal.
        var labelOfTruth = [UInt16]()
        for truth in UnorganizedRoomScene.truth {
            let best = try #require(result.planes.min { Self.degrees($0.normal, truth.normal) < Self.degrees($1.normal, truth.normal) })
            #expect(Self.degrees(best.normal, truth.normal) < 1, "normal \(best.normal) vs \(truth.normal)")
            #expect(abs(best.offset - truth.offset) < 0.01, "offset \(best.offset) vs \(truth.offset)")
            labelOfTruth.append(UInt16(best.label))
        }
        #expect(Set(labelOfTruth).count == 3, "each true plane has its own detected plane")

        // Largest first, labels numbered to match, counts agreeing with the label image.
        for (k, plane) in result.planes.enumerated() {
            #expect(plane.label == k + 1)
            #expect(result.labels.filter { Int($0) == plane.label }.count == plane.pointCount)
            if k > 0 { #expect(plane.pointCount <= result.planes[k - 1].pointCount) }
        }
        #expect(result.planes[0].alignment == .horizontal, "the floor (9 m²) is the largest plane")
        #expect(result.planes[1].alignment == .vertical && result.planes[2].alignment == .vertical)

        // Labels: a plane's points carry its label; an outlier is unlabelled, or labelled with a
        // plane it happens to lie within the distance threshold of.
        var correct = 0
        var perPlane = [Int](repeating: 0, count: 3), perPlaneTotal = [Int](repeating: 0, count: 3)
        for (i, p) in scene.points.enumerated() {
            let label = result.labels[i]
            if scene.source[i] >= 0 {
                perPlaneTotal[scene.source[i]] += 1
                if label == labelOfTruth[scene.source[i]] {
                    correct += 1
                    perPlane[scene.source[i]] += 1
                }
            } else if label == 0 {
                correct += 1
            } else if abs(result.planes[Int(label) - 1].plane.signedDistance(to: p)) <= detector.distanceThreshold {
                correct += 1
            }
        }
        let accuracy = Float(correct) / Float(scene.points.count)
        #expect(accuracy >= 0.9, "label accuracy \(accuracy)")
        for k in 0..<3 {
            #expect(Float(perPlane[k]) / Float(perPlaneTotal[k]) >= 0.9, "plane \(k): \(perPlane[k]) of \(perPlaneTotal[k])")
        }
    }

    @Test("normals face the sensor at the cloud's sensor position")
    func normalsFaceSensor() throws {
        var cloud = UnorganizedRoomScene(seed: 7, density: 400, outlierFraction: 0).cloud
        // A sensor below the floor sees the floor from underneath.
        cloud.sensorPose = Transform(translation: SIMD3(1.5, -1, 1.5))
        let result = try UnorganizedPlaneDetector().detect(in: cloud)
        let floor = try #require(result.planes.first { abs($0.normal.y) > 0.99 })
        #expect(floor.normal.y < 0)
        for plane in result.planes {
            #expect(plane.plane.signedDistance(to: cloud.sensorPose.translation) >= 0)
        }
    }

    @Test("an empty cloud has no planes")
    func emptyCloud() throws {
        let result = try UnorganizedPlaneDetector().detect(in: PointCloud(unorganized: []))
        #expect(result.planes.isEmpty)
        #expect(result.labels.isEmpty)
    }

    @Test("a cloud of NaN points has no planes and every label is 0")
    func nanCloud() throws {
        let nan = SIMD3<Float>(repeating: .nan)
        let result = try UnorganizedPlaneDetector().detect(in: PointCloud(unorganized: ContiguousArray(repeating: nan, count: 5000)))
        #expect(result.planes.isEmpty)
        #expect(result.labels.count == 5000)
        #expect(result.labels.allSatisfy { $0 == 0 })
        #expect(result.validPointCount == 0)
    }

    @Test("NaN points among real ones are skipped and unlabelled")
    func nanAmongPoints() throws {
        let scene = UnorganizedRoomScene(seed: 11, density: 400, outlierFraction: 0)
        var points = scene.points
        for i in stride(from: 0, to: points.count, by: 5) { points[i] = SIMD3(.nan, 0, .infinity) }
        let result = try UnorganizedPlaneDetector().detect(in: PointCloud(unorganized: points))
        #expect(result.planes.count == 3)
        #expect(result.validPointCount == points.count - (points.count + 4) / 5)
        for i in stride(from: 0, to: points.count, by: 5) { #expect(result.labels[i] == 0) }
    }

    @Test("out-of-range parameters are reported, not crashed on")
    func badParameters() {
        var detector = UnorganizedPlaneDetector()
        detector.distanceThreshold = -1
        let cloud = UnorganizedRoomScene(seed: 3, density: 100, outlierFraction: 0).cloud
        #expect(throws: PCLBridgeError.self) { try detector.detect(in: cloud) }
        detector = UnorganizedPlaneDetector()
        detector.minimumPlanePoints = 2
        #expect(throws: PCLBridgeError.self) { try detector.detect(in: cloud) }
    }
}

@Suite("Unorganized plane detection (PCL): scene structure")
struct UnorganizedPlaneStructureTests {
    /// Points sampled uniformly on the rectangle `origin + s·u + t·v`, `s, t ∈ [0, 1]`.
    static func patch(_ random: inout UnorganizedTestRandom, count: Int, origin: SIMD3<Float>, u: SIMD3<Float>,
                      v: SIMD3<Float>, noise: Float = 0.003) -> [SIMD3<Float>] {
        (0..<count).map { _ in
            origin + random.unit() * u + random.unit() * v
                + SIMD3(random.gaussian(sigma: noise), random.gaussian(sigma: noise), random.gaussian(sigma: noise))
        }
    }

    @Test("two coplanar but separate patches are two planes with the same coefficients")
    func coplanarPatches() throws {
        var random = UnorganizedTestRandom(seed: 99)
        // 1 × 0.5 m each (elongated, so each outline's long axis is well defined), 1 m apart.
        let left = Self.patch(&random, count: 2000, origin: SIMD3(0, 0, 0), u: SIMD3(1, 0, 0), v: SIMD3(0, 0, 0.5))
        let right = Self.patch(&random, count: 1500, origin: SIMD3(2, 0, 0), u: SIMD3(1, 0, 0), v: SIMD3(0, 0, 0.5))
        var cloud = PointCloud(unorganized: ContiguousArray(left + right))
        cloud.sensorPose = Transform(translation: SIMD3(1.5, 1, 0.5))
        let result = try UnorganizedPlaneDetector().detect(in: cloud)
        try #require(result.planes.count == 2)
        #expect(result.planes[0].pointCount > result.planes[1].pointCount)
        for plane in result.planes {
            #expect(plane.normal.angle(to: SIMD3(0, 1, 0)) < 1 * .pi / 180)
            #expect(abs(plane.offset) < 0.005)
        }
        // The larger (left) patch is plane 1; no point of one patch carries the other's label.
        #expect(result.labels[0..<2000].allSatisfy { $0 != 2 })
        #expect(result.labels[2000...].allSatisfy { $0 != 1 })
        // Each plane's outline spans its own patch (1 m), not the pair (3 m).
        for plane in result.planes {
            #expect(abs(max(plane.extent.width, plane.extent.length) - 1) < 0.15, "extent \(plane.extent)")
        }
    }

    @Test("a table top among a floor and a wall is found as its own plane")
    func tableTop() throws {
        var random = UnorganizedTestRandom(seed: 5)
        var points = Self.patch(&random, count: 12000, origin: SIMD3(0, 0, 0), u: SIMD3(4, 0, 0), v: SIMD3(0, 0, 4))
        points += Self.patch(&random, count: 8000, origin: SIMD3(0, 0, 4), u: SIMD3(4, 0, 0), v: SIMD3(0, 2.5, 0))
        // 1.2 × 0.8 m at 0.75 m: about 5% of the points.
        points += Self.patch(&random, count: 1100, origin: SIMD3(1.5, 0.75, 1.5), u: SIMD3(1.2, 0, 0), v: SIMD3(0, 0, 0.8))
        var cloud = PointCloud(unorganized: ContiguousArray(points))
        cloud.sensorPose = Transform(translation: SIMD3(2, 1.6, 0.5))
        let result = try UnorganizedPlaneDetector(describer: PlaneDescriber(up: SIMD3(0, 1, 0))).detect(in: cloud)
        try #require(result.planes.count == 3)
        let table = try #require(result.planes.first { abs($0.offset + 0.75) < 0.01 })
        #expect(table.normal.angle(to: SIMD3(0, 1, 0)) < 1 * .pi / 180)
        #expect(table.alignment == .horizontal)
        #expect(table.pointCount >= 900 && table.pointCount <= 1100)
        #expect(abs(table.area - 0.96) < 0.15, "table area \(table.area)")
    }
}
