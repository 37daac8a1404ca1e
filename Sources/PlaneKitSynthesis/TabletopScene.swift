import PlaneKitGeometry
import PlaneKitSeededRandom

/// Polyhedral objects on a table in front of a wall, generated from a seed: the scene of
/// range-image segmentation benchmarks, for ``SimulatedSensor/scanner``.
///
/// World frame: +Y up, metres. The table top is `y = 0` (0.9 m wide in X, from the wall at
/// `z = −0.25` to `z = 0.35`), the wall rises 0.5 m behind it, facing +Z. On the table, within
/// 20 cm of the origin, stand 5–8 solids (``TabletopSolid``: boxes, wedges, stepped blocks,
/// pyramids, truncated pyramids) 5–30 cm in size, turned about the vertical, not touching.
///
/// Plane identifiers: 1 table top, 2 wall, then each solid's faces in the order of ``solids``
/// and ``TabletopSolid/faces``.
public struct TabletopScene: Sendable, Hashable {
    /// The seed the scene was generated from.
    public let seed: UInt64
    /// The objects on the table.
    public let solids: [TabletopSolid]
    /// The scene to render.
    public let scene: SyntheticScene

    /// How many objects to try to place.
    public static let objectCount: ClosedRange<Int> = 5...8

    /// The scene generated from `seed`; the same seed always gives the same scene.
    public init(seed: UInt64) {
        self.seed = seed
        var random = SeededRandom(seed: SeededRandom.derivedSeed(seed, stream: 11))
        var scene = SyntheticScene()
        scene.addRectangle(kind: .tableTop, center: SIMD3(0, 0, 0.05), normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(0.9, 0.6))
        scene.addRectangle(kind: .wall, center: SIMD3(0, 0.25, -0.25), normal: SIMD3(0, 0, 1), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(0.9, 0.5))
        var placer = FootprintPlacer(halfRoom: SIMD2(0.2, 0.2), wallMargin: 0, gap: 0.015)
        var solids: [TabletopSolid] = []
        let target = random.integer(in: TabletopScene.objectCount)
        // An object that does not fit is replaced by another draw, a few times over.
        for _ in 0..<(3 * target) where solids.count < target {
            // Sizes lean small (most faces a few centimetres across), a few objects reach 30 cm.
            func dimension(_ largest: Float) -> Float {
                let u = Float(random.nextUnit())
                return 0.05 + (largest - 0.05) * u * u * u
            }
            let size = SIMD3(dimension(0.3), dimension(0.25), dimension(0.3))
            let shape: TabletopSolid.Shape
            switch random.integer(in: 0...4) {
            case 0: shape = .box
            case 1: shape = .wedge(ridge: random.chance(0.4) ? -1 : random.uniform(-0.8...0.8))
            case 2: shape = .steppedBlock(step: random.uniform(-0.4...0.4), lower: random.uniform(0.35...0.65))
            case 3: shape = .pyramid(apex: SIMD2(random.uniform(-0.4...0.4), random.uniform(-0.4...0.4)))
            default: shape = .frustum(top: random.uniform(0.3...0.7), offset: SIMD2(random.uniform(-0.2...0.2), random.uniform(-0.2...0.2)))
            }
            let heading = random.horizontalDirection()
            guard let box = placer.place(size: size, heading: heading, random: &random) else { continue }
            let base = Transform(rotation: box.transform.rotation, translation: SIMD3(box.center.x, 0, box.center.z))
            let solid = TabletopSolid(shape: shape, size: size, transform: base)
            solids.append(solid)
            for face in solid.faces {
                scene.addPolygon(kind: face.kind, vertices: face.vertices, normal: face.normal)
            }
        }
        self.solids = solids
        self.scene = scene
    }

    /// A scanner pose drawn from `seed`: `distance` metres from a point 4 cm above the table's
    /// centre, looking down at it from 35–65° above the table and up to 25° to either side of
    /// straight in front of the wall.
    public func randomCameraPose(seed poseSeed: UInt64, distance: Float = 1) -> Transform {
        var random = SeededRandom(seed: SeededRandom.derivedSeed(poseSeed, stream: 12))
        let elevation = DeterministicMath.radians(Double(random.uniform(35...65)))
        let azimuth = DeterministicMath.radians(Double(random.uniform(-25...25)))
        let ce = Float(DeterministicMath.cos(elevation)), se = Float(DeterministicMath.sin(elevation))
        let direction = SIMD3(Float(DeterministicMath.sin(azimuth)) * ce, se, Float(DeterministicMath.cos(azimuth)) * ce)
        let target = SIMD3<Float>(0, 0.04, 0)
        let eye = target + distance * direction
        // The view is never vertical (at most 65° down), so the pose exists.
        return PinholeCamera.pose(eye: eye, target: target) ?? Transform(translation: eye)
    }
}
