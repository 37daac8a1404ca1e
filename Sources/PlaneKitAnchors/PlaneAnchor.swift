import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitPlanes

/// A physical plane tracked across frames, like ARKit's `ARPlaneAnchor`.
///
/// It is tracked as a *candidate* until confirmed (``PlaneTrackingConfiguration``); only
/// confirmed anchors are public, reported in events and hit by hit tests.
///
/// Its description (``plane``) is rebuilt after every frame that sees it:
/// - the infinite plane is the least-squares fit of the support accumulated so far
///   (``support``: moments of a regular subsample of every frame's supporting points), the old
///   support fading by ``PlaneTrackingConfiguration/forgettingFactor`` at each new sighting so
///   the fit follows recent evidence (a surface re-measured elsewhere, as pose drift does); its
///   normal kept on the side it was first seen from;
/// - the frame's rotation is stable: local +Y is the fitted normal and local X follows the
///   anchor's fixed grid frame (the first sighting's major axis), so X never flips between frames;
/// - the covered ground is the union of every sighting's outline, kept on a 5 cm grid in the
///   fixed grid frame; the extent is the rectangle around it, the boundary polygon the outline
///   of its largest connected patch, the area the covered cells' area;
/// - the transform's origin sits at the centre of the extent (as `DetectedPlane` promises), so
///   it moves as the plane grows, and `DetectedPlane.extent` stays centred on zero.
/// `pointCount` is the total of supporting points over all sightings; `label` is 0 (an anchor
/// belongs to no single label image).
public struct PlaneAnchor: Sendable, Encodable {
    /// The stable name, `plane-N`: given when the anchor is confirmed, in the order anchors are
    /// confirmed (a candidate's is internal and never reported).
    public package(set) var identifier: PlaneIdentifier
    /// The world description: transform, extent, boundary, alignment, classification, area, points.
    public internal(set) var plane: DetectedPlane
    /// Accumulated moments of the support (world coordinates), older sightings faded: the running fit.
    public internal(set) var support: PointMoments
    /// The fixed frame the covered ground is kept in (never changes).
    public let gridFrame: Transform
    /// The frame it was first seen in (as a candidate; it may have been confirmed later).
    public let firstFrame: Int
    /// The last frame it was seen in.
    public internal(set) var lastSeenFrame: Int
    /// In how many frames it has been seen (several sightings in one frame count once).
    public internal(set) var observationCount: Int
    /// Consecutive in-view frames without a sighting (see ``PlaneTrackingConfiguration``).
    public internal(set) var missedFrames = 0
    /// `true` once confirmed: public, reported and hit-testable.
    public internal(set) var isConfirmed = false

    /// The frames it was seen in, bit `k` for frame `lastSeenFrame − k`.
    package var sightings: UInt64 = 1
    /// The camera's path length (m) when it was last seen: how far a drifting pose may since
    /// have carried the world (``PlaneTrackingConfiguration/driftAllowance(walked:)``).
    package var travelledAtLastSight: Float = 0
    /// The frame its description was last reported in.
    package var reportedFrame: Int

    package var occupancy: PlaneOccupancy
    /// The description last reported in an event.
    package var reported: DetectedPlane
    /// The occupancy changed since the outline was last traced.
    package var outlineIsStale = true
    /// The outline last traced, grid coordinates.
    package var gridOutline: [SIMD2<Float>] = []

    /// The plane's unit normal (world).
    public var normal: SIMD3<Float> { plane.plane.normal }
    /// The centre of its extent (world).
    public var center: SIMD3<Float> { plane.transform.translation }
    /// The ground covered (m²).
    public var area: Float { plane.area }

    /// A new candidate from its first sighting, in `frame`, the camera having travelled `travelled` metres.
    init(identifier: PlaneIdentifier, observation: PlaneObservation, frame: Int, travelled: Float, cellSize: Float,
         up: SIMD3<Float>, alignmentTolerance: Float) {
        self.identifier = identifier
        let first = observation.plane
        gridFrame = Transform(origin: first.transform.translation, yAxis: first.plane.normal, xHint: first.transform.xAxis)
        firstFrame = frame
        lastSeenFrame = frame
        reportedFrame = frame
        travelledAtLastSight = travelled
        observationCount = 1
        plane = first
        plane.label = 0
        support = observation.support
        occupancy = PlaneOccupancy(cellSize: cellSize)
        reported = first
        fill(worldOutline: observation.worldOutline)
        refresh(up: up, alignmentTolerance: alignmentTolerance)
        reported = plane
    }

    /// `p` (world) in the grid frame's `(x, z)`.
    func gridCoordinates(of p: SIMD3<Float>) -> SIMD2<Float> {
        let d = p - gridFrame.translation
        return SIMD2(dot(d, gridFrame.xAxis), dot(d, gridFrame.zAxis))
    }

    /// The world point at grid `(x, z)` on the grid plane.
    func worldPoint(grid p: SIMD2<Float>) -> SIMD3<Float> {
        gridFrame.translation + p.x * gridFrame.xAxis + p.y * gridFrame.zAxis
    }

    /// The covered rectangle (grid coordinates), or `nil` while nothing is covered.
    var coveredBounds: (minimum: SIMD2<Float>, maximum: SIMD2<Float>)? { occupancy.bounds }

    /// `true` when the world points' bounding rectangle in this anchor's grid frame overlaps
    /// the covered rectangle enlarged by `margin`: the cheap first test before ``touches(outline:margin:)``.
    func overlaps(worldPoints: [SIMD3<Float>], margin: Float) -> Bool {
        guard let covered = occupancy.bounds, !worldPoints.isEmpty else { return false }
        var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
        for p in worldPoints {
            let g = gridCoordinates(of: p)
            lo = pointwiseMin(lo, g)
            hi = pointwiseMax(hi, g)
        }
        return lo.x <= covered.maximum.x + margin && hi.x >= covered.minimum.x - margin
            && lo.y <= covered.maximum.y + margin && hi.y >= covered.minimum.y - margin
    }

    /// How many cells away a covered cell may be to count as within `margin`.
    private func reach(_ margin: Float) -> Int { max(0, Int((margin / occupancy.cellSize).rounded(.up))) }

    /// `true` when the polygon `outline` (world points on or near this plane) covers a cell within
    /// `margin` of a covered cell: the outline meets the ground actually seen, not just the
    /// rectangle around it (two box tops side by side have overlapping rectangles but apart cells).
    func touches(outline: [SIMD3<Float>], margin: Float) -> Bool {
        guard overlaps(worldPoints: outline, margin: margin) else { return false }
        return occupancy.isOccupied(near: outline.map(gridCoordinates(of:)), reach: reach(margin))
    }

    /// `true` when the two covered rectangles, each enlarged by `margin` and seen in the
    /// other's grid frame, overlap: the cheap first test of ``touches(_:margin:)``.
    func rectanglesOverlap(_ other: PlaneAnchor, margin: Float) -> Bool {
        guard let mine = occupancy.bounds, let theirs = other.occupancy.bounds else { return false }
        func corners(_ a: PlaneAnchor, _ b: (minimum: SIMD2<Float>, maximum: SIMD2<Float>)) -> [SIMD3<Float>] {
            [b.minimum, SIMD2(b.maximum.x, b.minimum.y), b.maximum, SIMD2(b.minimum.x, b.maximum.y)].map(a.worldPoint(grid:))
        }
        return overlaps(worldPoints: corners(other, theirs), margin: margin)
            && other.overlaps(worldPoints: corners(self, mine), margin: margin)
    }

    /// `true` when a covered cell of one anchor lies within `margin` of a covered cell of the
    /// other (symmetric). Visits the cells of the smaller of the two.
    func touches(_ other: PlaneAnchor, margin: Float) -> Bool {
        guard rectanglesOverlap(other, margin: margin) else { return false }
        let (small, large) = occupancy.occupiedCount <= other.occupancy.occupiedCount ? (self, other) : (other, self)
        let r = large.reach(margin)
        for cell in small.occupancy.occupiedCells() {
            let world = small.worldPoint(grid: small.occupancy.center(of: cell))
            let c = large.occupancy.cell(of: large.gridCoordinates(of: world))
            if large.occupancy.isOccupied(row: c.y, from: c.x, to: c.x, reach: r) { return true }
        }
        return false
    }

    /// The segments that span the gap between two anchors' boundary polygons (world): from
    /// each boundary vertex of either to the closest point of the other's boundary, where that
    /// is at most `reach` away. Together they sweep the ground between the facing sides.
    func gapSegments(to other: PlaneAnchor, within reach: Float) -> [(SIMD3<Float>, SIMD3<Float>)] {
        let a = worldOutline, b = other.worldOutline
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var segments: [(SIMD3<Float>, SIMD3<Float>)] = []
        let limit = reach * reach
        func scan(vertices: [SIMD3<Float>], edges: [SIMD3<Float>]) {
            for v in vertices {
                var closest = edges[0], best = Float.infinity
                var previous = edges[edges.count - 1]
                for e in edges {
                    let d = e - previous, length = dot(d, d)
                    let t = length > 0 ? min(max(dot(v - previous, d) / length, 0), 1) : 0
                    let q = previous + t * d
                    let squared = (v - q).lengthSquared
                    if squared < best { (best, closest) = (squared, q) }
                    previous = e
                }
                if best <= limit { segments.append((v, closest)) }
            }
        }
        scan(vertices: a, edges: b)
        scan(vertices: b, edges: a)
        return segments
    }

    /// `true` when the world point `p` falls in a covered cell.
    func covers(_ p: SIMD3<Float>) -> Bool {
        let c = occupancy.cell(of: gridCoordinates(of: p))
        return occupancy.isOccupied(c)
    }

    /// The boundary's vertices in world coordinates.
    var worldOutline: [SIMD3<Float>] {
        plane.boundary.vertices.map { plane.transform.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
    }

    /// Adds a sighting in `frame`, when the camera has travelled `travelled` metres: its support
    /// and its outline. At the first sighting of a frame the support gathered so far fades by
    /// `forgetting` (see ``PlaneTrackingConfiguration/forgettingFactor``).
    mutating func absorb(_ observation: PlaneObservation, frame: Int, travelled: Float, forgetting: Double) {
        if lastSeenFrame != frame {
            support.fade(by: forgetting)
            observationCount += 1
            sightings = sightingBits(at: frame) | 1
        }
        support.merge(observation.support)
        plane.pointCount += observation.plane.pointCount
        lastSeenFrame = frame
        travelledAtLastSight = max(travelledAtLastSight, travelled)
        missedFrames = 0
        fill(worldOutline: observation.worldOutline)
    }

    /// The sightings as seen from `frame` (not before the last sighting): bit `k` for frame
    /// `frame − k`.
    func sightingBits(at frame: Int) -> UInt64 {
        let age = frame - lastSeenFrame
        return age >= 64 ? 0 : sightings << UInt64(max(age, 0))
    }

    /// In how many of the `window` frames up to `frame` it was seen.
    func sightingCount(inLast window: Int, at frame: Int) -> Int {
        let mask: UInt64 = window >= 64 ? .max : (1 << UInt64(max(window, 0))) - 1
        return (sightingBits(at: frame) & mask).nonzeroBitCount
    }

    /// Takes over another anchor of the same surface: its support, sightings and ground.
    package mutating func absorb(_ other: PlaneAnchor) {
        support.merge(other.support)
        plane.pointCount += other.plane.pointCount
        observationCount = max(observationCount, other.observationCount) + (lastSeenFrame == other.lastSeenFrame ? 0 : 1)
        let latest = max(lastSeenFrame, other.lastSeenFrame)
        sightings = sightingBits(at: latest) | other.sightingBits(at: latest)
        lastSeenFrame = latest
        travelledAtLastSight = max(travelledAtLastSight, other.travelledAtLastSight)
        missedFrames = min(missedFrames, other.missedFrames)
        fill(worldOutline: other.worldOutline)
        // Cells of other patches than the outlined one, by their centres.
        for cell in other.occupancy.occupiedCells() {
            let world = other.worldPoint(grid: other.occupancy.center(of: cell))
            if occupancy.occupy(point: gridCoordinates(of: world)) { outlineIsStale = true }
        }
    }

    private mutating func fill(worldOutline: [SIMD3<Float>]) {
        if occupancy.fill(worldOutline.map(gridCoordinates(of:))) { outlineIsStale = true }
    }

    /// Rebuilds the description from the support and the covered ground (classification is
    /// left to the tracker, which sees every anchor).
    package mutating func refresh(up: SIMD3<Float>, alignmentTolerance: Float) {
        var fitted = plane.plane
        var centroid = plane.centroid
        var rms = plane.rmsError
        if let fit = support.fit {
            fitted = dot(fit.plane.normal, plane.plane.normal) < 0 ? fit.plane.flipped : fit.plane
            centroid = fit.centroid
            rms = fit.rmsDistance
        }
        let normal = fitted.normal
        let rotation = Transform(origin: .zero, yAxis: normal, xHint: gridFrame.xAxis).rotation
        guard let bounds = occupancy.bounds else { return }
        let middle = worldPoint(grid: (bounds.minimum + bounds.maximum) / 2)
        let transform = Transform(rotation: rotation, translation: fitted.project(middle))
        plane.plane = fitted
        plane.centroid = centroid
        plane.rmsError = rms
        plane.transform = transform
        plane.extent = PlaneExtent(width: bounds.maximum.x - bounds.minimum.x, length: bounds.maximum.y - bounds.minimum.y)
        plane.area = occupancy.area
        plane.alignment = PlaneAlignment(normal: normal, up: up, tolerance: alignmentTolerance)
        if outlineIsStale {
            gridOutline = occupancy.outline()
            outlineIsStale = false
        }
        let toLocal = transform.inverse
        plane.boundary = Polygon2D(gridOutline.map { g in
            let local = toLocal.apply(toPoint: worldPoint(grid: g))
            return SIMD2(local.x, local.z)
        })
    }

    /// The anchor as a hit-test target.
    public var hitTestPlane: HitTestPlane { HitTestPlane(identifier: identifier, plane: plane) }

    private enum CodingKeys: String, CodingKey {
        case identifier, plane, firstFrame, lastSeenFrame, observationCount
    }

    /// Encodes the identifier, the world description and the sighting counts (not the support
    /// moments or the covered-ground grid, which are internal state).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(plane, forKey: .plane)
        try c.encode(firstFrame, forKey: .firstFrame)
        try c.encode(lastSeenFrame, forKey: .lastSeenFrame)
        try c.encode(observationCount, forKey: .observationCount)
    }
}
