import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import Testing
import PlaneKitUnorganizedDetection

/// A VGA frame of a camera at the origin looking along +Z at a wall (z = 3 m) standing on a
/// floor 1 m below the camera (y = 1, +Y down), with 1 mm Gaussian depth noise.
struct PCLOrganizedTestFrame {
    static let wall = Plane(unitNormal: SIMD3(0, 0, -1), offset: 3)
    static let floor = Plane(unitNormal: SIMD3(0, -1, 0), offset: 1)

    let cloud: PointCloud
    /// Per pixel: 0 for the wall, 1 for the floor.
    let source: [Int]

    init(seed: UInt64 = 42, width: Int = 640, height: Int = 480) throws {
        let intrinsics = PinholeIntrinsics.kinect(width: width, height: height)
        var random = UnorganizedTestRandom(seed: seed)
        var points = ContiguousArray<SIMD3<Float>>()
        var source = [Int]()
        points.reserveCapacity(width * height)
        for v in 0..<height {
            for u in 0..<width {
                let slope = (Float(v) - intrinsics.cy) / intrinsics.fy   // y / z along the ray
                let floorDepth = slope > 0 ? 1 / slope : .infinity
                let depth = min(3, floorDepth)
                source.append(floorDepth < 3 ? 1 : 0)
                points.append(intrinsics.unproject(u: Float(u), v: Float(v), depth: depth + random.gaussian(sigma: 0.001)))
            }
        }
        cloud = try PointCloud(width: width, height: height, points: points, intrinsics: intrinsics)
        self.source = source
    }
}

@Suite("PCL organized segmentation baseline")
struct PCLOrganizedSegmentationTests {
    @Test("a wall and a floor in a VGA frame: two planes with the right normals and labels")
    func wallAndFloor() throws {
        let frame = try PCLOrganizedTestFrame()
        let result = try PCLOrganizedSegmentation().segment(frame.cloud)
        try #require(result.planes.count == 2)
        #expect(result.width == 640 && result.height == 480)

        let wall = result.planes[0], floor = result.planes[1]   // the wall covers most pixels
        #expect(wall.normal.angle(to: PCLOrganizedTestFrame.wall.normal) * 180 / .pi < 1, "wall normal \(wall.normal)")
        #expect(floor.normal.angle(to: PCLOrganizedTestFrame.floor.normal) * 180 / .pi < 1, "floor normal \(floor.normal)")
        #expect(abs(wall.offset - 3) < 0.01)
        #expect(abs(floor.offset - 1) < 0.01)
        #expect(floor.alignment == .horizontal && wall.alignment == .vertical)

        // Most pixels of each surface carry its label (PCL leaves a margin of the smoothing
        // window at the image border and near the crease unlabelled); none carries the other's.
        for (k, plane) in result.planes.enumerated() {
            #expect(plane.label == k + 1)
            #expect(result.labels.filter { Int($0) == plane.label }.count == plane.pointCount)
            let truthIndex = k == 0 ? 0 : 1
            var own = 0, total = 0, wrong = 0
            for (i, s) in frame.source.enumerated() {
                if s == truthIndex {
                    total += 1
                    if Int(result.labels[i]) == plane.label { own += 1 }
                } else if Int(result.labels[i]) == plane.label {
                    wrong += 1
                }
            }
            #expect(Float(own) / Float(total) > 0.85, "plane \(k + 1): \(own) of \(total)")
            #expect(wrong < total / 100, "plane \(k + 1): \(wrong) pixels of the other surface")
        }
    }

    @Test("holes are unlabelled")
    func holes() throws {
        let frame = try PCLOrganizedTestFrame(seed: 5)
        var points = frame.cloud.points
        // Knock out a block in the wall.
        for v in 100..<150 { for u in 200..<300 { points[v * 640 + u] = SIMD3(repeating: .nan) } }
        let cloud = try PointCloud(width: 640, height: 480, points: points)
        let result = try PCLOrganizedSegmentation().segment(cloud)
        #expect(result.planes.count == 2)
        for v in 100..<150 { for u in 200..<300 { #expect(result.labels[v * 640 + u] == 0) } }
    }

    @Test("an all-NaN frame has no planes")
    func emptyFrame() throws {
        let cloud = try PointCloud(width: 64, height: 48, points: ContiguousArray(repeating: SIMD3(repeating: .nan), count: 64 * 48))
        let result = try PCLOrganizedSegmentation().segment(cloud)
        #expect(result.planes.isEmpty)
        #expect(result.labels.count == 64 * 48 && result.labels.allSatisfy { $0 == 0 })
    }

    @Test("an unorganized cloud and bad parameters are errors")
    func errors() throws {
        let unorganized = PointCloud(unorganized: [SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(0, 1, 1)])
        #expect(throws: PCLBridgeError.self) { try PCLOrganizedSegmentation().segment(unorganized) }
        var segmentation = PCLOrganizedSegmentation()
        segmentation.angularThreshold = .nan
        let frame = try PCLOrganizedTestFrame(width: 64, height: 48)
        #expect(throws: PCLBridgeError.self) { try segmentation.segment(frame.cloud) }
    }
}
