#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitAnchors
import PlaneKitPlanes

/// A registration of a session's world into a map's: what ``Relocalizer`` found.
public struct Relocalization: Sendable {
    /// Map-from-session: a session-world point `p` is at `mapFromSession.apply(toPoint: p)` in the map.
    public var mapFromSession: Transform
    /// The root-mean-square point-to-plane distance (m) after refinement: of the matched planes'
    /// samples to their map planes, or, for a registration found from the frame's points, of
    /// the paired samples within 1.5 cm of the map's surfaces.
    public var residual: Float
    /// Session anchor → the map anchor it is.
    public var matches: [PlaneIdentifier: PlaneIdentifier]
    /// The share of the frame's sampled points that lie on the map's surfaces.
    public var inlierFraction: Float
    /// The share of the map's points in view, facing the camera, that the frame sees through
    /// (measured farther than the map says a surface is).
    public var seeThroughFraction: Float
}

/// Registers a session against a ``WorldMap`` (global, no initial guess), for relocalization.
///
/// When both worlds have +Y up (gravity, or a levelled track), the unknown change of world is a
/// turn about +Y and a shift: four degrees of freedom. When no such change passes, the worlds may not
/// share an up and every rotation is searched (`generateTilted(_:log:)`: triples of planes).
/// 1. **Hypotheses** from planes: every pair of non-parallel (≥ 25° apart) vertical session
///    anchors is paired with map anchors whose normals make the same angle (within 4°) and which
///    are large enough to hold them; the pair fixes the turn and the horizontal shift (plane
///    offsets), the session's largest horizontal anchor against each map horizontal anchor
///    facing the same way fixes the height. A hypothesis survives only when each of its three
///    session planes, moved, lies on the ground its map plane covers (80 % of its covered cells
///    within 10 cm of a covered map cell).
/// 2. **Score**: every session anchor moved into the map is matched to a map anchor with the
///    same normal (4°), offset (5 cm) and covered ground; matched area counts for, unmatched
///    area (anchors of 0.2 m² and more) twice against. The best 8 distinct hypotheses are kept.
/// 3. **Refinement** of each within half the best score: point-to-plane least squares
///    (Gauss–Newton over turn and shift) of points sampled on every matched session anchor's
///    covered ground against its map plane.
/// 4. **Verification**, so that a different room never passes: at least
///    ``Configuration/minimumMatches`` planes matched, the residual under
///    ``Configuration/maximumResidual``, at least ``Configuration/minimumInlierFraction`` of the
///    frame's sampled points on map surfaces (a map point in the 27 voxels around, 3 cm along its
///    normal, normals within 25°); at least ``Configuration/minimumDistinctPoints`` samples of
///    the session's last frames (``RecentSamples``: one per 2 cm voxel, within 3.5 m of their
///    camera) off the map's floor, ceiling and wall planes, ``Configuration/minimumDistinctInlierFraction``
///    of them on map surfaces (furniture or clutter: a bare corner of one box-shaped room looks
///    like a corner of any other, so the view must hold something that is not the room's shell;
///    counted over several frames because it leaves the view as the corner that fixes the
///    registration comes in), at most
///    ``Configuration/maximumSeeThroughFraction`` of the map's points in view that the frame sees
///    through; and no clearly different hypothesis (10 cm or 3° away) passing with nearly as much
///    evidence (inlier share − 5 × see-through share, within ``Configuration/evidenceMargin``).
/// 5. **Points**, when no plane hypothesis passes (surfaces that face only two ways leave a
///    shift free; a map that saw them only in part fails the coverage): the frame's points are
///    registered against the map's from every mapping keyframe (projective point-to-plane ICP) and
///    from where a vote says they fit the map (`MapPointSearch`: a view a metre from every
///    keyframe), the best refused when a start elsewhere fits nearly as well
///    (``Configuration/keyframeAmbiguity``), and checked as in 4.
public struct Relocalizer: Sendable {
    /// Thresholds.
    public struct Configuration: Sendable {
        /// Normals agree within this angle (rad).
        public var normalTolerance: Float = 4 * .pi / 180
        /// Offsets agree within this distance (m).
        public var offsetTolerance: Float = 0.05
        /// Fewest matched planes (a floor and two walls fix the turn and the shift).
        public var minimumMatches = 3
        /// Fewest samples of the session's recent frames (``RecentSamples/distinct()``) off the
        /// map's shell (floor, ceiling, walls) — furniture, clutter — that must have been in view,
        /// ``minimumDistinctInlierFraction`` of them on the map's surfaces: a bare corner of one
        /// box-shaped room looks like a corner of any other, so something in the room must be
        /// recognised too.
        public var minimumDistinctPoints = 40
        /// The share of those points that must lie on the map's surfaces: higher than
        /// ``minimumInlierFraction``, since furniture of another room can stand near furniture of
        /// the map (measured: 85 % for an unrelated room, against 90–100 % for the mapped one).
        public var minimumDistinctInlierFraction: Float = 0.9
        /// Largest RMS point-to-plane residual after refinement (m): the same surfaces measured
        /// twice agree far better (generated rooms: under 0.7 mm), while planes of another room
        /// that happen to line up within the match tolerances leave millimetres.
        public var maximumResidual: Float = 0.002
        /// The same for a registration searched over every rotation (worlds that may not share
        /// an up): its two more free angles let another room's planes line up more closely
        /// (measured: 1.9 mm for an unrelated room against at most 0.5 mm for the mapped one).
        public var maximumTiltedResidual: Float = 0.001
        /// Fewest of the frame's points on map surfaces.
        public var minimumInlierFraction: Float = 0.8
        /// Most of the map's points in view that the frame may see through.
        public var maximumSeeThroughFraction: Float = 0.01
        /// Fewest map points in view agreeing with the frame's depth.
        public var minimumAgreeingPoints = 100
        /// How much more evidence (inlier share − 5 × see-through share) the chosen registration
        /// needs than any clearly different one that also passes.
        public var evidenceMargin: Float = 0.1
        /// The share of a session plane's covered ground that must lie on its map plane's.
        public var minimumCoverage: Float = 0.8
        /// ``minimumDistinctInlierFraction`` for a registration found from the frame's points
        /// rather than its planes. Measured: unrelated generated rooms registered from the map's
        /// keyframes reach at most 71 % (40 walks of 30 frames, counts of 40 and more), the
        /// mapped real kitchen (7-Scenes, development frames) 87–92 %; registered by planes, an
        /// unrelated room reached 85 %, hence the higher share there.
        public var minimumDistinctInlierFractionFromPoints: Float = 0.85
        /// A registration from the frame's points is refused when one from another keyframe,
        /// 10 cm or 3° away, pairs at least this share of its samples (measured: 90–93 % for
        /// the alike walls of a generated room, where the best was 9.5 cm off, and where the
        /// others fail the depth checks; 54–74 % on the real kitchen with a map of its first
        /// 150–350 frames, 93–98 % with 400, cabinet fronts half a metre apart).
        public var keyframeAmbiguity: Float = 0.85
        /// How many of the map's keyframes, those whose coarse point registration paired the
        /// most of the frame's samples, are refined and judged when the planes found nothing.
        public var keyframeCandidates = 3
        /// Session anchors smaller than this (m²) are not used.
        public var minimumArea: Float = 0.1
        /// The defaults.
        public init() {}
    }

    /// A plane of either world with what registration needs of it.
    struct Surface: Sendable {
        var identifier: PlaneIdentifier
        var plane: Plane
        var normal: SIMD3<Float>
        var offset: Float
        var area: Float
        var occupancy: PlaneOccupancy
        var toGrid: Transform
        /// Points on the fitted plane over the covered ground (world), at most 24.
        var samples: [SIMD3<Float>]
        /// Not floor, ceiling or wall: a table, a box, a seat — what tells rooms apart.
        var isFurniture: Bool

        var isVertical: Bool { abs(normal.y) < 0.17 }
        /// `true` when this session plane is small enough to be (part of) map plane `m`, with
        /// room for the two worlds' different outlines of it.
        func fits(in m: Surface) -> Bool { area <= 1.5 * m.area + 0.3 }
        var isHorizontal: Bool { abs(normal.y) > 0.98 }

        init(identifier: PlaneIdentifier, plane: Plane, area: Float, occupancy: PlaneOccupancy, gridFrame: Transform,
             classification: PlaneClassification) {
            self.identifier = identifier
            isFurniture = ![.floor, .ceiling, .wall].contains(classification)
            self.plane = plane
            normal = plane.normal
            offset = plane.offset
            self.area = area
            self.occupancy = occupancy
            toGrid = gridFrame.inverse
            let cells = occupancy.occupiedCells()
            let step = max(1, cells.count / 24)
            samples = stride(from: 0, to: cells.count, by: step).prefix(24).map { k in
                let g = occupancy.center(of: cells[k])
                return plane.project(gridFrame.translation + g.x * gridFrame.xAxis + g.y * gridFrame.zAxis)
            }
        }

        /// The share of `points` (this plane's world) on covered ground, within `reach` cells.
        func coverage(of points: [SIMD3<Float>], reach: Int = 2) -> Float {
            guard !points.isEmpty else { return 0 }
            var hits = 0
            for p in points {
                let local = toGrid.apply(toPoint: p)
                let c = occupancy.cell(of: SIMD2(local.x, local.z))
                if occupancy.isOccupied(row: c.y, from: c.x, to: c.x, reach: reach) { hits += 1 }
            }
            return Float(hits) / Float(points.count)
        }
    }

    /// A candidate change of world and how well the planes agree with it.
    struct Hypothesis {
        /// Map-from-session rotation.
        var rotation: Matrix3
        var shift: SIMD3<Float>
        /// `true` when found as a turn about +Y (both worlds levelled): refined as one and held to
        /// ``Configuration/maximumResidual`` rather than the tilted search's tighter limit.
        let isLevel: Bool
        var score: Float = -.infinity
        var matches: [(session: Int, map: Int)] = []
        var transform: Transform { Transform(rotation: rotation, translation: shift) }

        /// A turn by `yaw` about +Y and a shift.
        init(yaw: Float, shift: SIMD3<Float>) {
            rotation = Relocalizer.yawRotation(yaw)
            self.shift = shift
            isLevel = true
        }

        /// Any rotation and a shift; `isLevel` when the rotation is known to keep +Y up.
        init(rotation: Matrix3, shift: SIMD3<Float>, isLevel: Bool = false) {
            self.rotation = rotation
            self.shift = shift
            self.isLevel = isLevel
        }
    }

    /// The thresholds.
    public var configuration: Configuration
    /// The map registered against.
    public let map: WorldMap
    let surfaces: [Surface]
    /// The map's floor, ceiling and wall planes: what every room has.
    let shellPlanes: [Plane]
    let points: SparsePointMap
    /// The map's points, for registering a frame's points against them.
    let pointRegistration: MapPointRegistration
    /// Starts for it wherever the frame's points fit the map.
    let pointSearch: MapPointSearch
    /// How many of the search's best-voted starts are registered beside the keyframes'.
    static let searchStarts = 4

    /// A relocalizer into `map`.
    public init(map: WorldMap, configuration: Configuration = Configuration()) {
        self.map = map
        self.configuration = configuration
        surfaces = map.anchors.map { a in
            var occupancy = PlaneOccupancy(cellSize: a.cellSize)
            for run in a.cellRuns {
                for k in 0..<Int(run.count) { occupancy.occupy(cell: SIMD2(Int(run.column) + k, Int(run.row))) }
            }
            return Surface(identifier: a.identifier, plane: a.plane.plane, area: a.plane.area, occupancy: occupancy,
                           gridFrame: a.gridFrame, classification: a.plane.classification)
        }
        shellPlanes = surfaces.filter { !$0.isFurniture }.map(\.plane)
        points = SparsePointMap(points: map.points, normals: map.normals)
        pointRegistration = MapPointRegistration(points: points.points, normals: points.normals, keyframes: map.keyframes)
        pointSearch = MapPointSearch(points: points.points, normals: points.normals)
    }

    /// The rotation by `angle` radians about +Y: `(x, z) ↦ (c·x + s·z, −s·x + c·z)`.
    static func yawRotation(_ angle: Float) -> Matrix3 {
        let c = cos(angle), s = sin(angle)
        return Matrix3(SIMD3(c, 0, -s), SIMD3(0, 1, 0), SIMD3(s, 0, c))
    }

    /// The rotation taking `a1` onto `b1` and the plane of `a1`, `a2` onto that of `b1`, `b2`
    /// (TRIAD: the frames the two pairs span), or `nil` when a pair is parallel.
    static func rotation(taking a1: SIMD3<Float>, _ a2: SIMD3<Float>, onto b1: SIMD3<Float>, _ b2: SIMD3<Float>) -> Matrix3? {
        guard let a3 = cross(a1, a2).normalized, let b3 = cross(b1, b2).normalized else { return nil }
        let from = Matrix3(a1, a3, cross(a1, a3)), to = Matrix3(b1, b3, cross(b1, b3))
        return to * from.transposed
    }

    /// The turn about +Y taking the horizontal part of `a` onto that of `b`.
    static func yaw(from a: SIMD3<Float>, to b: SIMD3<Float>) -> Float {
        atan2(a.z * b.x - a.x * b.z, a.x * b.x + a.z * b.z)
    }

    /// Registers the session — its confirmed `anchors` (session world) and its latest frame,
    /// `cloud` (organized, camera coordinates) seen from `pose` (session world) — against the
    /// map; `nil` unless every check passes.
    public func register(anchors: [PlaneAnchor], cloud: PointCloud, pose: Transform) -> Relocalization? {
        attempt(anchors: anchors, cloud: cloud, pose: pose).relocalization
    }

    /// ``register(anchors:cloud:pose:)`` with what the attempt saw and where it stopped.
    public func attempt(anchors: [PlaneAnchor], cloud: PointCloud, pose: Transform)
        -> (relocalization: Relocalization?, attempt: RelocalizationAttempt) {
        var recent = RecentSamples(frameLimit: 1)
        recent.add(cloud, pose: pose)
        return attempt(anchors: anchors, cloud: cloud, pose: pose, recent: recent)
    }

    /// ``attempt(anchors:cloud:pose:)`` with the samples of the session's latest frames,
    /// `recent` (the latest being this one): the inlier share is the latest frame's, the
    /// furniture and clutter off the map's shell are counted over all of them.
    public func attempt(anchors: [PlaneAnchor], cloud: PointCloud, pose: Transform, recent: RecentSamples)
        -> (relocalization: Relocalization?, attempt: RelocalizationAttempt) {
        var log = RelocalizationAttempt()
        let session = surfaces(of: anchors, log: &log)
        var window: [(point: SIMD3<Float>, normal: SIMD3<Float>)]?
        var passed = verify(generate(session, log: &log), session: session, cloud: cloud, pose: pose, recent: recent,
                            window: &window, log: &log)
        if passed.isEmpty {
            // No turn about +Y passed: the worlds may not share an up — a session tracked from
            // depth that saw neither gravity nor a floor, a map or poses from a world that is not
            // levelled, or two worlds levelled a degree or two apart (different floors, different
            // accelerometers). Search every rotation.
            passed = verify(generateTilted(session, log: &log), session: session, cloud: cloud, pose: pose, recent: recent,
                            window: &window, log: &log)
        }
        if passed.isEmpty {
            // The planes could not fix it (they face only two ways, or the map saw them only in
            // part): the frame's points, from where the mapping keyframes were.
            passed = verifyFromKeyframes(session: session, cloud: cloud, pose: pose, recent: recent, window: &window, log: &log)
        }
        // The evidence of the frame's depth for each: points on map surfaces, less five times the
        // map surfaces seen through. A clearly different change of world with nearly as much
        // evidence makes the view ambiguous (a bare corner of a rectangular room looks like the others).
        func evidence(_ r: Relocalization) -> Float { r.inlierFraction - 5 * r.seeThroughFraction }
        passed.sort { evidence($0) > evidence($1) }
        guard let first = passed.first else { return (nil, log) }
        for other in passed.dropFirst() where evidence(other) > evidence(first) - configuration.evidenceMargin {
            if !Relocalizer.areAlike(other.mapFromSession, first.mapFromSession) { return (nil, log) }
        }
        log.outcome = .relocalized
        return (first, log)
    }

    /// The session's anchors large enough to register, counted into `log`.
    private func surfaces(of anchors: [PlaneAnchor], log: inout RelocalizationAttempt) -> [Surface] {
        let session = anchors.filter { $0.area >= configuration.minimumArea }.map {
            Surface(identifier: $0.identifier, plane: $0.plane.plane, area: $0.area, occupancy: $0.occupancy, gridFrame: $0.gridFrame,
                    classification: $0.plane.classification)
        }
        log.planes = session.count
        log.verticalPlanes = session.filter(\.isVertical).count
        log.horizontalPlanes = session.filter(\.isHorizontal).count
        return session
    }

    /// The checks of ``attempt(anchors:cloud:pose:recent:)`` for one given change of world
    /// (map-from-session), instead of the ones the planes propose: where a known registration
    /// (a benchmark's true offset) stops, to tell "not proposed" from "proposed and refused".
    public func check(mapFromSession: Transform, anchors: [PlaneAnchor], cloud: PointCloud, pose: Transform,
                      recent: RecentSamples) -> RelocalizationAttempt {
        var log = RelocalizationAttempt()
        let session = surfaces(of: anchors, log: &log)
        // A turn about +Y is checked as the level search would propose it: refined as a turn and
        // held to its residual limit, not the tighter one of the search over every rotation.
        let up = mapFromSession.rotation * SIMD3<Float>(0, 1, 0)
        var h = Hypothesis(rotation: mapFromSession.rotation, shift: mapFromSession.translation,
                           isLevel: up.y >= cos(0.5 * Float.pi / 180))
        score(&h, session: session)
        log.candidatePairs = 1
        log.hypotheses = 1
        log.bestMatches = h.matches.count
        // Unmatched planes outweigh the matched ones: verification would not look at it.
        if h.score <= 0 { log.reached(.tooFewMatches) }
        var window: [(point: SIMD3<Float>, normal: SIMD3<Float>)]?
        if !verify([h], session: session, cloud: cloud, pose: pose, recent: recent, window: &window, log: &log).isEmpty {
            log.outcome = .relocalized
        }
        return log
    }

    /// ``check(mapFromSession:anchors:cloud:pose:recent:)`` for a registration found from the
    /// frame's points: the depth checks alone, with their thresholds for that stage.
    public func checkPoints(mapFromSession: Transform, cloud: PointCloud, pose: Transform, recent: RecentSamples) -> RelocalizationAttempt {
        var log = RelocalizationAttempt()
        var window: [(point: SIMD3<Float>, normal: SIMD3<Float>)]?
        if judge(mapFromSession, residual: 0, matches: [:], fromPoints: true, cloud: cloud, pose: pose, recent: recent,
                 window: &window, log: &log) != nil {
            log.outcome = .relocalized
        }
        return log
    }

    /// The hypotheses that pass every check, refined: planes propose, points decide. Every
    /// hypothesis explaining the planes nearly as well as the best is refined and checked against
    /// the frame (`cloud` seen from `pose`) and the recent frames' samples (`recent`, deduplicated
    /// into `window` only when a hypothesis gets as far as needing them).
    private func verify(_ hypotheses: [Hypothesis], session: [Surface], cloud: PointCloud, pose: Transform, recent: RecentSamples,
                        window: inout [(point: SIMD3<Float>, normal: SIMD3<Float>)]?, log: inout RelocalizationAttempt) -> [Relocalization] {
        guard let top = hypotheses.first?.score, top > 0 else { return [] }
        var passed: [Relocalization] = []
        for var h in hypotheses where h.score >= 0.5 * top {
            log.bestMatches = max(log.bestMatches, h.matches.count)
            guard h.matches.count >= configuration.minimumMatches else { log.reached(.tooFewMatches); continue }
            log.verified += 1
            let residual = refine(&h, session: session)
            log.bestResidual = min(log.bestResidual ?? .infinity, residual)
            guard residual <= (h.isLevel ? configuration.maximumResidual : configuration.maximumTiltedResidual) else {
                log.reached(.residual)
                continue
            }
            if let found = judge(h.transform, residual: residual, matches: identifiers(of: h, session: session), fromPoints: false, cloud: cloud, pose: pose, recent: recent,
                                 window: &window, log: &log) {
                passed.append(found)
            }
        }
        return passed
    }

    /// Session anchor → map anchor, for the planes `h` matched.
    private func identifiers(of h: Hypothesis, session: [Surface]) -> [PlaneIdentifier: PlaneIdentifier] {
        var matches: [PlaneIdentifier: PlaneIdentifier] = [:]
        for m in h.matches { matches[session[m.session].identifier] = surfaces[m.map].identifier }
        return matches
    }

    /// The checks of the frame's depth for one change of world (map-from-session): its points on
    /// the map's surfaces, something besides the room's shell recognised, no map surface seen
    /// through. The registration when it passes them, else `nil` (with `log` saying where it stopped).
    private func judge(_ transform: Transform, residual: Float, matches: [PlaneIdentifier: PlaneIdentifier], fromPoints: Bool,
                       cloud: PointCloud, pose: Transform, recent: RecentSamples,
                       window: inout [(point: SIMD3<Float>, normal: SIMD3<Float>)]?, log: inout RelocalizationAttempt) -> Relocalization? {
        let inliers = inlierFraction(of: recent.latest, mapFromSession: transform)
        log.bestInlierFraction = max(log.bestInlierFraction ?? 0, inliers)
        guard inliers >= configuration.minimumInlierFraction else {
            log.reached(.inliers)
            return nil
        }
        if window == nil { window = recent.distinct() }
        let evidence = offShellEvidence(of: window ?? [], mapFromSession: transform)
        if evidence.offShellInliers >= log.distinctInliers {
            (log.distinctPoints, log.distinctInliers) = (evidence.offShell, evidence.offShellInliers)
        }
        // A bare corner of one box-shaped room looks like a corner of any other: something in
        // the room besides its shell must be in view and where the map has it.
        guard evidence.offShell >= configuration.minimumDistinctPoints,
              Float(evidence.offShellInliers) >= Float(evidence.offShell) * (fromPoints ? configuration.minimumDistinctInlierFractionFromPoints
                                                                                       : configuration.minimumDistinctInlierFraction) else {
            log.reached(.nothingDistinct)
            return nil
        }
        let seeThrough = seeThroughFraction(cloud: cloud, pose: pose, mapFromSession: transform)
        if let seeThrough { log.bestSeeThroughFraction = min(log.bestSeeThroughFraction ?? 1, seeThrough) }
        guard let seeThrough, seeThrough <= configuration.maximumSeeThroughFraction else {
            log.reached(.seeThrough)
            return nil
        }
        log.reached(.ambiguous)
        return Relocalization(mapFromSession: transform, residual: residual, matches: matches, inlierFraction: inliers,
                              seeThroughFraction: seeThrough)
    }

    /// Registrations found from the map's keyframes by ``MapPointRegistration``, judged as the
    /// planes' are: the camera is put where each mapping keyframe was and registered for one
    /// coarse iteration on a quarter of the frame's samples, the three times
    /// ``Configuration/keyframeCandidates`` that paired the most samples for two more, together
    /// with the ``searchStarts`` best starts of ``MapPointSearch``, and the
    /// ``Configuration/keyframeCandidates`` that then paired the most are refined on all of them.
    private func verifyFromKeyframes(session: [Surface], cloud: PointCloud, pose: Transform, recent: RecentSamples,
                                     window: inout [(point: SIMD3<Float>, normal: SIMD3<Float>)]?,
                                     log: inout RelocalizationAttempt) -> [Relocalization] {
        guard let intrinsics = cloud.intrinsics, cloud.isOrganized, !map.keyframes.isEmpty else { return [] }
        let samples = MapPointSampler.samples(of: cloud, stride: 16, reach: 4)
        guard samples.count >= 100 else { return [] }
        let quarter = stride(from: 0, to: samples.count, by: 4).map { samples[$0] }
        let candidates = max(1, configuration.keyframeCandidates)
        // One coarse iteration from every keyframe, two more from the most promising.
        let first = map.keyframes.indices.map { keyframe in
            (keyframe, pointRegistration.register(samples: quarter, intrinsics: intrinsics, keyframe: keyframe, distances: [0.3]))
        }.sorted { $0.1.inliers > $1.1.inliers }
        var screened: [(Int?, MapPointRegistration.Result)] = first.prefix(3 * candidates).map { keyframe, start in
            (keyframe, pointRegistration.register(samples: quarter, intrinsics: intrinsics, keyframe: keyframe, from: start.camera,
                                                  distances: [0.2, 0.1]))
        }
        // Starts wherever the frame's points fit the map, not only where the keyframes were.
        let inSession = samples.map { (pose.apply(toPoint: $0.0), pose.apply(toDirection: $0.1)) }
        for start in pointSearch.starts(samples: inSession).prefix(Self.searchStarts) {
            screened.append((nil, pointRegistration.register(samples: quarter, intrinsics: intrinsics, from: start.mapFromSession * pose,
                                                             distances: [0.2, 0.1])))
        }
        screened.sort { $0.1.inliers > $1.1.inliers }
        let refined = screened.prefix(candidates).map { keyframe, start in
            let distances: [Float] = [0.1, 0.05, 0.05, 0.03, 0.03, 0.02, 0.02, 0.02]
            return keyframe.map { pointRegistration.register(samples: samples, intrinsics: intrinsics, keyframe: $0, from: start.camera, distances: distances) }
                ?? pointRegistration.register(samples: samples, intrinsics: intrinsics, from: start.camera, distances: distances)
        }.sorted { $0.inliers > $1.inliers }
        guard let best = refined.first else { return [] }
        log.verified += 1
        log.bestResidual = min(log.bestResidual ?? .infinity, best.rms)
        // A place that looks like another (a bare stretch of wall, a row of alike fronts) pairs
        // nearly as many samples from a start elsewhere: then neither is trusted.
        for other in refined.dropFirst() where Float(other.inliers) >= configuration.keyframeAmbiguity * Float(best.inliers)
            && !Relocalizer.areAlike(other.camera, best.camera) {
            log.reached(.ambiguous)
            return []
        }
        // A given pose may be a rotation only to a few decimals (7-Scenes' are off by 2·10⁻⁴);
        // its transpose is then not its inverse, and two registrations a frame apart would
        // differ by a turn of a degree or two that is not there.
        let transform = (best.camera * pose.inverse).orthonormalized
        log.pointRegistration = transform
        var h = Hypothesis(rotation: transform.rotation, shift: transform.translation)
        score(&h, session: session)
        log.bestMatches = max(log.bestMatches, h.matches.count)
        return judge(transform, residual: best.rms, matches: identifiers(of: h, session: session), fromPoints: true, cloud: cloud, pose: pose, recent: recent,
                     window: &window, log: &log).map { [$0] } ?? []
    }

    // MARK: Hypotheses

    /// Scored hypotheses, best first, one per distinct change of world (at most 8).
    func generate(_ session: [Surface], log: inout RelocalizationAttempt) -> [Hypothesis] {
        let cosTolerance = cos(configuration.normalTolerance)
        let vertical = session.indices.filter { session[$0].isVertical }.sorted { session[$0].area > session[$1].area }.prefix(8)
        guard let ground = session.indices.filter({ session[$0].isHorizontal }).max(by: { session[$0].area < session[$1].area })
        else { return [] }
        log.reached(.noHypothesis)
        let mapVertical = surfaces.indices.filter { surfaces[$0].isVertical }
        let h = session[ground]
        let mapGround = surfaces.indices.filter {
            surfaces[$0].isHorizontal && dot(surfaces[$0].normal, h.normal) > cosTolerance && h.fits(in: surfaces[$0])
        }
        var kept: [Hypothesis] = []
        let v = Array(vertical)
        for a in 0..<v.count {
            for b in (a + 1)..<max(a + 1, v.count) {
                let si = session[v[a]], sj = session[v[b]]
                guard abs(cross(si.normal, sj.normal).y) >= sin(25 * Float.pi / 180) else { continue }
                for ma in mapVertical where si.fits(in: surfaces[ma]) {
                    let yaw = Relocalizer.yaw(from: si.normal, to: surfaces[ma].normal)
                    let rotation = Relocalizer.yawRotation(yaw)
                    let nj = rotation * sj.normal
                    for mb in mapVertical where mb != ma && dot(surfaces[mb].normal, nj) >= cosTolerance
                        && sj.fits(in: surfaces[mb]) {
                        let A = surfaces[ma], B = surfaces[mb]
                        // n_A·t = d_i − d_A and n_B·t = d_j − d_B, in x and z.
                        let det = A.normal.x * B.normal.z - A.normal.z * B.normal.x
                        guard abs(det) > 0.2 else { continue }
                        let r1 = si.offset - A.offset, r2 = sj.offset - B.offset
                        let tx = (r1 * B.normal.z - A.normal.z * r2) / det
                        let tz = (A.normal.x * r2 - r1 * B.normal.x) / det
                        for mg in mapGround {
                            let G = surfaces[mg]
                            let ty = (h.offset - G.offset - G.normal.x * tx - G.normal.z * tz) / G.normal.y
                            consider(Hypothesis(yaw: yaw, shift: SIMD3(tx, ty, tz)), defining: [(si, A), (sj, B), (h, G)],
                                     session: session, into: &kept, log: &log)
                        }
                    }
                }
            }
        }
        return kept
    }

    /// Scored hypotheses for worlds that may not share an up (at most 8, best first): every
    /// triple of the session's largest anchors whose normals span space (no two within 25° of
    /// parallel or opposite, and not all near one plane) is paired with map anchors whose normals
    /// make the same three angles (within twice the normal tolerance) and which are large
    /// enough to hold them; the first two normals fix the rotation, the third must agree with it,
    /// and the three offsets fix the shift. Coverage, score and refinement are as with gravity.
    func generateTilted(_ session: [Surface], log: inout RelocalizationAttempt) -> [Hypothesis] {
        let cosTolerance = cos(configuration.normalTolerance)
        let angleTolerance = 2 * configuration.normalTolerance
        let largest = Array(session.indices.sorted { session[$0].area > session[$1].area }.prefix(8))
        guard largest.count >= 3 else { return [] }
        log.reached(.noHypothesis)
        func angle(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { acos(max(-1, min(1, dot(a, b)))) }
        let spread = cos(25 * Float.pi / 180)
        var kept: [Hypothesis] = []
        for a in 0..<largest.count {
            for b in (a + 1)..<largest.count {
                for c in (b + 1)..<max(b + 1, largest.count) {
                    let si = session[largest[a]], sj = session[largest[b]], sk = session[largest[c]]
                    guard abs(dot(si.normal, sj.normal)) < spread, abs(dot(si.normal, sk.normal)) < spread,
                          abs(dot(sj.normal, sk.normal)) < spread,
                          abs(dot(cross(si.normal, sj.normal), sk.normal)) >= 0.3 else { continue }
                    let ij = angle(si.normal, sj.normal), ik = angle(si.normal, sk.normal), jk = angle(sj.normal, sk.normal)
                    for ma in surfaces.indices where si.fits(in: surfaces[ma]) {
                        let A = surfaces[ma]
                        for mb in surfaces.indices where mb != ma && sj.fits(in: surfaces[mb])
                            && abs(angle(A.normal, surfaces[mb].normal) - ij) <= angleTolerance {
                            let B = surfaces[mb]
                            guard let rotation = Relocalizer.rotation(taking: si.normal, sj.normal, onto: A.normal, B.normal) else { continue }
                            let nk = rotation * sk.normal
                            for mc in surfaces.indices where mc != ma && mc != mb && sk.fits(in: surfaces[mc])
                                && abs(angle(A.normal, surfaces[mc].normal) - ik) <= angleTolerance
                                && abs(angle(B.normal, surfaces[mc].normal) - jk) <= angleTolerance
                                && dot(surfaces[mc].normal, nk) >= cosTolerance {
                                let C = surfaces[mc]
                                // n_M·t = d_s − d_M for the three pairs.
                                let system = [A, B, C].map { [Double($0.normal.x), Double($0.normal.y), Double($0.normal.z)] }
                                let offsets = [si.offset - A.offset, sj.offset - B.offset, sk.offset - C.offset].map(Double.init)
                                guard let t = Relocalizer.solve(system, offsets) else { continue }
                                consider(Hypothesis(rotation: rotation, shift: SIMD3(Float(t[0]), Float(t[1]), Float(t[2]))),
                                         defining: [(si, A), (sj, B), (sk, C)], session: session, into: &kept, log: &log)
                            }
                        }
                    }
                }
            }
        }
        return kept
    }

    /// Scores `hypothesis` and keeps it (``insert(_:into:)``) when each session plane that defined
    /// it, moved, lies on the ground its map plane covers.
    private func consider(_ hypothesis: Hypothesis, defining pairs: [(session: Surface, map: Surface)], session: [Surface],
                          into kept: inout [Hypothesis], log: inout RelocalizationAttempt) {
        log.candidatePairs += 1
        let moved = hypothesis.transform
        for (s, m) in pairs where m.coverage(of: s.samples.map(moved.apply(toPoint:))) < configuration.minimumCoverage { return }
        log.hypotheses += 1
        var scored = hypothesis
        score(&scored, session: session)
        insert(scored, into: &kept)
    }

    /// `true` when two transforms are one placement for relocalization's purposes: turned within
    /// 3° of each other and translated within 10 cm. Farther apart, they are clearly different.
    static func areAlike(_ a: Transform, _ b: Transform) -> Bool {
        Transform(rotation: a.rotation * b.rotation.transposed).rotationAngle <= 3 * .pi / 180 && distance(a.translation, b.translation) <= 0.1
    }

    /// Keeps the best hypothesis of each distinct change of world, best first, at most 8.
    private func insert(_ h: Hypothesis, into kept: inout [Hypothesis]) {
        if let k = kept.firstIndex(where: { Relocalizer.areAlike($0.transform, h.transform) }) {
            if kept[k].score >= h.score { return }
            kept.remove(at: k)
        }
        let at = kept.firstIndex { $0.score < h.score } ?? kept.count
        kept.insert(h, at: at)
        if kept.count > 8 { kept.removeLast() }
    }

    /// Matches every session surface under the hypothesis and scores it.
    func score(_ h: inout Hypothesis, session: [Surface]) {
        let t = h.transform
        let cosTolerance = cos(configuration.normalTolerance)
        var score: Float = 0
        var matches: [(session: Int, map: Int)] = []
        for (i, s) in session.enumerated() {
            let n = t.rotation * s.normal
            let d = s.offset - dot(n, t.translation)
            let moved = s.samples.map(t.apply(toPoint:))
            var best = -1, bestCoverage = configuration.minimumCoverage
            for (k, m) in surfaces.enumerated() where dot(n, m.normal) >= cosTolerance && abs(d - m.offset) <= configuration.offsetTolerance {
                let c = m.coverage(of: moved)
                if c >= bestCoverage { (best, bestCoverage) = (k, c) }
            }
            if best >= 0 {
                score += s.area
                matches.append((i, best))
            } else if s.area >= 0.2 {
                score -= 2 * s.area
            }
        }
        h.score = score
        h.matches = matches
    }

    // MARK: Refinement

    /// Gauss–Newton of the matched planes' sample points against their map planes, over the
    /// turn about +Y and the shift for a level hypothesis, over any small rotation and the shift
    /// otherwise; returns the RMS point-to-plane distance (m). A level hypothesis keeps its up:
    /// freed, its two more angles let an unrelated room's planes fit under the level residual
    /// limit (measured: 1.9 mm), and worlds levelled a few degrees apart are found by the
    /// tilted search instead.
    func refine(_ h: inout Hypothesis, session: [Surface]) -> Float {
        var pairs: [(p: SIMD3<Float>, n: SIMD3<Double>, d: Double, w: Double)] = []
        for m in h.matches {
            let s = session[m.session], target = surfaces[m.map]
            let w = Double(s.area) / Double(max(1, s.samples.count))
            for p in s.samples { pairs.append((p, SIMD3<Double>(target.normal), Double(target.offset), w)) }
        }
        var rotation = h.rotation, t = SIMD3<Double>(h.shift)
        for _ in 0..<5 {
            if Relocalizer.pointToPlaneStep(pairs, rotation: &rotation, shift: &t, aboutUpOnly: h.isLevel) { break }
        }
        h.rotation = rotation
        h.shift = SIMD3<Float>(t)
        var sum = 0.0, weight = 0.0
        for q in pairs {
            let r = (q.n * (SIMD3<Double>(rotation * q.p) + t)).sum() + q.d
            sum += q.w * r * r
            weight += q.w
        }
        return weight > 0 ? Float((sum / weight).squareRoot()) : .infinity
    }

    /// One Gauss–Newton step of the weighted point-to-plane problem `n·(R·p + t) + d = 0` over
    /// `pairs` (a point, the unit normal and offset of the plane it should lie on, a weight):
    /// a small turn applied after `rotation` (about +Y only with `aboutUpOnly`) and a shift.
    /// Returns `true` when the step was too small to matter or the equations were singular
    /// (nothing more to gain).
    static func pointToPlaneStep(_ pairs: [(p: SIMD3<Float>, n: SIMD3<Double>, d: Double, w: Double)], rotation: inout Matrix3,
                                 shift t: inout SIMD3<Double>, aboutUpOnly: Bool) -> Bool {
        // Unknowns: the turn (about +Y only, or about x, y, z), then the shift.
        let turns = aboutUpOnly ? 1 : 3, unknowns = turns + 3
        // Sums in fixed-size vectors: no allocation per pair.
        var rows = [SIMD8<Double>](repeating: .zero, count: unknowns)
        var gradient = SIMD8<Double>.zero
        for q in pairs {
            let rp = SIMD3<Double>(rotation * q.p)
            let r = (q.n * (rp + t)).sum() + q.d
            // d r / d ω = (R p) × n for a small turn ω applied after R.
            let turn = SIMD3(rp.y * q.n.z - rp.z * q.n.y, rp.z * q.n.x - rp.x * q.n.z, rp.x * q.n.y - rp.y * q.n.x)
            let j = aboutUpOnly ? SIMD8(turn.y, q.n.x, q.n.y, q.n.z, 0, 0, 0, 0) : SIMD8(turn.x, turn.y, turn.z, q.n.x, q.n.y, q.n.z, 0, 0)
            gradient -= q.w * r * j
            for u in 0..<unknowns { rows[u] += (q.w * j[u]) * j }
        }
        let a = (0..<unknowns).map { u in (0..<unknowns).map { rows[u][$0] } }
        let g = (0..<unknowns).map { gradient[$0] }
        guard let step = Relocalizer.solve(a, g) else { return true }
        let omega = aboutUpOnly ? SIMD3(0, step[0], 0) : SIMD3(step[0], step[1], step[2])
        let size = (omega * omega).sum().squareRoot()
        if size > 0 {
            rotation = Quaternion(angle: Float(size), axis: SIMD3<Float>(omega / size)).matrix * rotation
        }
        t += SIMD3(step[turns], step[turns + 1], step[turns + 2])
        return size < 1e-7 && abs(step[turns]) + abs(step[turns + 1]) + abs(step[turns + 2]) < 1e-6
    }

    /// The solution of the square system `a·x = b` (Gaussian elimination, partial pivoting), or
    /// `nil` when it is singular (a direction the planes do not constrain).
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        var m = a, x = b
        let n = b.count
        let scale = max(1e-12, a.indices.map { abs(a[$0][$0]) }.max() ?? 0)
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(m[$0][col]) < abs(m[$1][col]) }), abs(m[pivot][col]) > 1e-9 * scale else { return nil }
            m.swapAt(col, pivot)
            x.swapAt(col, pivot)
            for row in 0..<n where row != col {
                let f = m[row][col] / m[col][col]
                if f == 0 { continue }
                for k in col..<n { m[row][k] -= f * m[col][k] }
                x[row] -= f * x[col]
            }
        }
        return (0..<n).map { x[$0] / m[$0][$0] }
    }

    // MARK: Verification

    /// cos 25°: the most two normals of one surface may differ.
    private static let supportCosine = cos(25 * Float.pi / 180)

    /// `true` when a map point supports the sample `p` with normal `n` (map world): within 3 cm
    /// along its normal, normals within 25°.
    private func isSupported(_ p: SIMD3<Float>, _ n: SIMD3<Float>) -> Bool {
        points.supports(p, normal: n, distance: 0.03, normalCosine: Self.supportCosine)
    }

    /// The share of `samples` (session world) that lies on map surfaces under `toMap`.
    func inlierFraction(of samples: [(point: SIMD3<Float>, normal: SIMD3<Float>)], mapFromSession toMap: Transform) -> Float {
        guard !samples.isEmpty else { return 0 }
        var inliers = 0
        for (p, n) in samples where isSupported(toMap.apply(toPoint: p), toMap.apply(toDirection: n)) { inliers += 1 }
        return Float(inliers) / Float(samples.count)
    }

    /// Of `samples` (session world) off the room's shell under `toMap` (more than 5 cm from
    /// every floor, ceiling and wall plane of the map: furniture, clutter), how many there are
    /// and how many lie on map surfaces.
    func offShellEvidence(of samples: [(point: SIMD3<Float>, normal: SIMD3<Float>)], mapFromSession toMap: Transform)
        -> (offShell: Int, offShellInliers: Int) {
        var evidence = (offShell: 0, offShellInliers: 0)
        for (p, n) in samples {
            let q = toMap.apply(toPoint: p)
            guard !shellPlanes.contains(where: { abs($0.signedDistance(to: q)) <= 0.05 }) else { continue }
            evidence.offShell += 1
            if isSupported(q, toMap.apply(toDirection: n)) { evidence.offShellInliers += 1 }
        }
        return evidence
    }

    /// The share of the map's points in the camera's view, on surfaces facing it, that the frame
    /// measures more than 8 cm + 3 % beyond (seen through) at their pixel and every pixel within
    /// 2 px of it, among those it measures at all; `nil` when fewer than
    /// ``Configuration/minimumAgreeingPoints`` agree with the frame.
    func seeThroughFraction(cloud: PointCloud, pose: Transform, mapFromSession: Transform) -> Float? {
        guard let intrinsics = cloud.intrinsics, cloud.isOrganized else { return nil }
        let toCamera = (mapFromSession * pose).inverse
        var seenThrough = 0, agreeing = 0
        let w = cloud.width, h = cloud.height
        // A map point on an edge, under a centimetre of pose error, lands a pixel or two beyond
        // the edge the frame sees, and a Kinect's flying pixels float off depth edges: a point
        // is seen through only where every reading within 2 px of its pixel lies beyond it.
        let reach = 2
        cloud.points.withUnsafeBufferPointer { measured in
            func nearestAround(_ u: Int, _ v: Int) -> Float {
                var nearest = Float.infinity
                for y in max(0, v - reach)...min(h - 1, v + reach) {
                    for x in max(0, u - reach)...min(w - 1, u + reach) {
                        let z = measured[y * w + x].z
                        if z.isFinite, z > 0 { nearest = min(nearest, z) }
                    }
                }
                return nearest
            }
            for (q, n) in zip(points.points, points.normals) {
                let p = toCamera.apply(toPoint: q)
                guard p.z > 0.3, let pixel = intrinsics.project(p) else { continue }
                let u = Int(pixel.x.rounded()), v = Int(pixel.y.rounded())
                guard u >= 0, v >= 0, u < w, v < h else { continue }
                let m = measured[v * w + u]
                guard m.isFinite, m.z > 0 else { continue }
                let facing = -dot(toCamera.apply(toDirection: n), p) / p.length
                guard facing > 0.2 else { continue }
                let beyond = p.z + 0.08 + 0.03 * p.z
                if m.z > beyond, nearestAround(u, v) > beyond {
                    seenThrough += 1
                } else if abs(m.z - p.z) < 0.04 + 0.02 * p.z {
                    agreeing += 1
                }
            }
        }
        guard agreeing >= configuration.minimumAgreeingPoints else { return nil }
        return Float(seenThrough) / Float(seenThrough + agreeing)
    }
}
