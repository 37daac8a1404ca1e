import PlaneKitGeometry
import PlaneKitSeededRandom

/// A furnished rectangular room generated from a seed: the standard ground-truth scene.
///
/// World frame: right-handed, +Y up, metres. The floor is `y = 0`, the ceiling `y = size.y`, and
/// the walls are `x = ±size.x / 2` and `z = ±size.z / 2`. Inside stand 0–3 tables (solid blocks
/// with a top 0.7–0.8 m high and four sides), 0–4 boxes on the floor (0.2–0.8 m sides, some
/// turned about the vertical) and, optionally, curved clutter (balls on the floor and
/// floor-to-ceiling poles) that is never labelled as a plane. Nothing overlaps and nothing
/// touches a wall, so no two true planes share a patch of surface.
///
/// Plane identifiers: 1 floor, 2 ceiling, 3–6 walls (−X, +X, −Z, +Z), then five per table
/// (top, sides) and five per box (top, sides), in the order of ``tables`` and ``boxes``.
public struct SyntheticRoom: Sendable, Hashable {
    /// What a room may contain.
    public struct Options: Sendable, Hashable {
        /// Width (X) range in metres.
        public var widthRange: ClosedRange<Float> = 3...7
        /// Depth (Z) range in metres.
        public var depthRange: ClosedRange<Float> = 3...7
        /// Ceiling height range in metres.
        public var heightRange: ClosedRange<Float> = 2.4...3.0
        /// How many tables to try to place.
        public var tableCount: ClosedRange<Int> = 0...3
        /// How many boxes to try to place.
        public var boxCount: ClosedRange<Int> = 0...4
        /// How many curved clutter objects to try to place (0...0 for none).
        public var clutterCount: ClosedRange<Int> = 0...3

        /// The default options (the ranges above).
        public init() {}

        /// A bare room: floor, ceiling and walls only.
        public static var empty: Options {
            var o = Options()
            o.tableCount = 0...0
            o.boxCount = 0...0
            o.clutterCount = 0...0
            return o
        }
    }

    /// The seed the room was generated from.
    public let seed: UInt64
    /// The room's size: width (X), height (Y), depth (Z).
    public let size: SIMD3<Float>
    /// The tables, as solid boxes standing on the floor.
    public let tables: [OrientedBox]
    /// The boxes standing on the floor.
    public let boxes: [OrientedBox]
    /// The scene to render: every true plane and the clutter.
    public let scene: SyntheticScene

    /// The curved clutter objects (also in ``scene``).
    public var clutter: [ClutterShape] { scene.clutter }
    /// The true planes (also in ``scene``).
    public var planes: [TruePlane] { scene.planes }

    /// The room generated from `seed`; the same seed always gives the same room.
    public init(seed: UInt64, options: Options = Options()) {
        self.seed = seed
        var random = SeededRandom(seed: SeededRandom.derivedSeed(seed, stream: 1))
        let w = random.uniform(options.widthRange), d = random.uniform(options.depthRange)
        let h = random.uniform(options.heightRange)
        size = SIMD3(w, h, d)

        var scene = SyntheticScene()
        scene.addRectangle(kind: .floor, center: .zero, normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0), size: SIMD2(w, d))
        scene.addRectangle(kind: .ceiling, center: SIMD3(0, h, 0), normal: SIMD3(0, -1, 0), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(w, d))
        scene.addRectangle(kind: .wall, center: SIMD3(-w / 2, h / 2, 0), normal: SIMD3(1, 0, 0), xAxis: SIMD3(0, 0, 1),
                           size: SIMD2(d, h))
        scene.addRectangle(kind: .wall, center: SIMD3(w / 2, h / 2, 0), normal: SIMD3(-1, 0, 0), xAxis: SIMD3(0, 0, 1),
                           size: SIMD2(d, h))
        scene.addRectangle(kind: .wall, center: SIMD3(0, h / 2, -d / 2), normal: SIMD3(0, 0, 1), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(w, h))
        scene.addRectangle(kind: .wall, center: SIMD3(0, h / 2, d / 2), normal: SIMD3(0, 0, -1), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(w, h))

        var placer = FootprintPlacer(halfRoom: SIMD2(w / 2, d / 2), wallMargin: 0.25, gap: 0.15)

        var tables: [OrientedBox] = []
        for _ in 0..<random.integer(in: options.tableCount) {
            let size = SIMD3(random.uniform(0.8...1.6), random.uniform(0.7...0.8), random.uniform(0.6...1.0))
            let heading = random.chance(0.5) ? SIMD3<Float>(1, 0, 0) : random.horizontalDirection()
            if let box = placer.place(size: size, heading: heading, random: &random) {
                tables.append(box)
                scene.addBox(box, topKind: .tableTop, sideKind: .tableSide)
            }
        }
        var boxes: [OrientedBox] = []
        for _ in 0..<random.integer(in: options.boxCount) {
            let size = SIMD3(random.uniform(0.2...0.8), random.uniform(0.2...0.8), random.uniform(0.2...0.8))
            let heading = random.chance(0.4) ? SIMD3<Float>(1, 0, 0) : random.horizontalDirection()
            if let box = placer.place(size: size, heading: heading, random: &random) {
                boxes.append(box)
                scene.addBox(box)
            }
        }
        for _ in 0..<random.integer(in: options.clutterCount) {
            if random.chance(0.5) {
                let r = random.uniform(0.1...0.3)
                if let box = placer.place(size: SIMD3(2 * r, 2 * r, 2 * r), heading: SIMD3(1, 0, 0), random: &random) {
                    scene.addClutter(.sphere(center: box.center, radius: r))
                }
            } else {
                let r = random.uniform(0.05...0.15)
                if let box = placer.place(size: SIMD3(2 * r, h, 2 * r), heading: SIMD3(1, 0, 0), random: &random) {
                    scene.addClutter(.verticalCylinder(baseCenter: SIMD3(box.center.x, 0, box.center.z), radius: r, height: h))
                }
            }
        }
        self.tables = tables
        self.boxes = boxes
        self.scene = scene
    }

    /// `true` when a camera at `p` would be in free space: inside the room at least `margin`
    /// from every wall, floor and ceiling, and at least `margin` from every table, box and
    /// clutter object.
    public func isFree(_ p: SIMD3<Float>, margin: Float) -> Bool {
        guard abs(p.x) <= size.x / 2 - margin, abs(p.z) <= size.z / 2 - margin,
              p.y >= margin, p.y <= size.y - margin else { return false }
        for box in tables + boxes {
            let grown = OrientedBox(transform: box.transform, size: box.size + SIMD3(repeating: 2 * margin))
            if grown.contains(p) { return false }
        }
        return !clutter.contains { $0.contains(p, margin: margin) }
    }

    /// A camera pose drawn from `seed`: a free position 1.0–1.8 m above the floor, looking in a
    /// random horizontal direction and pitched down by 0–40°, without roll.
    ///
    /// A view that mostly sees a surface closer than 0.5 m or farther than 4.5 m (the nose
    /// against a wall, or down a long room) is of little use to a depth sensor, so up to 64
    /// candidates are drawn and the first whose Kinect-like field of view (58° × 45°) has at
    /// least 80% of its rays ending 0.5–4.5 m away is kept (else the best one).
    public func randomCameraPose(seed poseSeed: UInt64) -> Transform {
        var random = SeededRandom(seed: SeededRandom.derivedSeed(poseSeed, stream: 2))
        // The VGA Kinect's field of view at 32×24 rays.
        let probe = SyntheticRenderer(
            intrinsics: PinholeIntrinsics(fx: 26.25, fy: 26.25, cx: 15.5, cy: 11.5, width: 32, height: 24)
                ?? .kinect(width: 32, height: 24),
            sensor: .ideal)
        var best = Transform(translation: SIMD3(0, 1.4, 0)), bestScore = -1
        for _ in 0..<64 {
            var eye = SIMD3<Float>(0, 1.4, 0)
            for _ in 0..<200 {
                let candidate = SIMD3(random.uniform(-size.x / 2 + 0.3...size.x / 2 - 0.3), random.uniform(1.0...1.8),
                                      random.uniform(-size.z / 2 + 0.3...size.z / 2 - 0.3))
                if isFree(candidate, margin: 0.3) {
                    eye = candidate
                    break
                }
            }
            let heading = random.horizontalDirection()
            let pitch = DeterministicMath.radians(Double(random.uniform(0...40)))
            let pose = SyntheticRoom.pose(eye: eye, heading: heading, pitchDown: pitch)
            let view = probe.render(scene, pose: pose, noiseSeed: 0)
            let score = view.cloud.points.reduce(0) { $0 + ($1.z >= 0.5 && $1.z <= 4.5 ? 1 : 0) }
            if score > bestScore {
                best = pose
                bestScore = score
            }
            if score * 5 >= view.cloud.count * 4 { break }
        }
        return best
    }

    /// The pose at `eye` looking along the horizontal `heading` tilted down by `pitchDown` radians.
    package static func pose(eye: SIMD3<Float>, heading: SIMD3<Float>, pitchDown: Double) -> Transform {
        let c = Float(DeterministicMath.cos(pitchDown)), s = Float(DeterministicMath.sin(pitchDown))
        let forward = SIMD3(heading.x * c, -s, heading.z * c)
        // Pitch stays far from ±90°, so the view is never parallel to up and the pose exists.
        return PinholeCamera.pose(eye: eye, target: eye + forward) ?? Transform(translation: eye)
    }
}

/// Places rectangular footprints on the floor without overlaps, by rejection sampling.
struct FootprintPlacer {
    let halfRoom: SIMD2<Float>
    let wallMargin: Float
    let gap: Float
    /// Placed footprints: centre, unit X direction, half sizes (grown by half the gap).
    private(set) var placed: [(center: SIMD2<Float>, axis: SIMD2<Float>, half: SIMD2<Float>)] = []

    init(halfRoom: SIMD2<Float>, wallMargin: Float, gap: Float) {
        self.halfRoom = halfRoom
        self.wallMargin = wallMargin
        self.gap = gap
    }

    /// A box of `size` standing on the floor with its local X along `heading`, at a random free
    /// spot, or `nil` after 100 failed tries (the room is too full).
    mutating func place(size: SIMD3<Float>, heading: SIMD3<Float>, random: inout SeededRandom) -> OrientedBox? {
        let axis = SIMD2(heading.x, heading.z)
        let half = SIMD2(size.x, size.z) / 2
        // The footprint's extent along world X and Z.
        let reach = SIMD2(abs(axis.x) * half.x + abs(axis.y) * half.y, abs(axis.y) * half.x + abs(axis.x) * half.y)
        let room = halfRoom - SIMD2(repeating: wallMargin) - reach
        guard room.x > 0, room.y > 0 else { return nil }
        for _ in 0..<100 {
            let center = SIMD2(random.uniform(-room.x...room.x), random.uniform(-room.y...room.y))
            let grown = half + SIMD2(repeating: gap / 2)
            if placed.contains(where: { FootprintPlacer.overlap($0.center, $0.axis, $0.half, center, axis, grown) }) { continue }
            placed.append((center, axis, grown))
            let x = SIMD3(axis.x, 0, axis.y), y = SIMD3<Float>(0, 1, 0)
            let rotation = Matrix3(x, y, cross(x, y))
            return OrientedBox(transform: Transform(rotation: rotation, translation: SIMD3(center.x, size.y / 2, center.y)), size: size)
        }
        return nil
    }

    /// Separating-axis test for two rectangles given by centre, unit X axis and half sizes.
    static func overlap(_ c1: SIMD2<Float>, _ a1: SIMD2<Float>, _ h1: SIMD2<Float>,
                        _ c2: SIMD2<Float>, _ a2: SIMD2<Float>, _ h2: SIMD2<Float>) -> Bool {
        let axes = [a1, SIMD2(-a1.y, a1.x), a2, SIMD2(-a2.y, a2.x)]
        let d = c2 - c1
        for n in axes {
            let r1 = h1.x * abs(dot(a1, n)) + h1.y * abs(dot(SIMD2(-a1.y, a1.x), n))
            let r2 = h2.x * abs(dot(a2, n)) + h2.y * abs(dot(SIMD2(-a2.y, a2.x), n))
            if abs(dot(d, n)) > r1 + r2 { return false }
        }
        return true
    }
}
