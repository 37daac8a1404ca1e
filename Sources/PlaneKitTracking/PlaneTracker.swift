#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting

/// What happened to a plane anchor in one frame.
public enum PlaneChange: Sendable {
    /// A new anchor.
    case added(PlaneAnchor)
    /// An anchor whose description changed beyond the update tolerances.
    case updated(PlaneAnchor)
    /// An anchor removed: merged into `into` (which keeps its identifier), or, with `into ==
    /// nil`, dropped because its evidence disappeared.
    case removed(PlaneAnchor, into: PlaneIdentifier?)

    /// The anchor concerned.
    public var anchor: PlaneAnchor {
        switch self {
        case .added(let a), .updated(let a), .removed(let a, _): a
        }
    }
}

/// Keeps the world's plane anchors across frames: associates each frame's planes with them,
/// refines, merges and removes them, following the rules of ``PlaneTrackingConfiguration``.
///
/// Work per frame is proportional to (observations × anchors) cheap tests plus the cells of the
/// anchors actually seen; nothing here visits the frame's points.
public struct PlaneTracker: Sendable {
    /// The rules.
    public var configuration: PlaneTrackingConfiguration
    /// The world's up direction (unit).
    public let up: SIMD3<Float>
    /// The anchors, in increasing identifier order (oldest first).
    public private(set) var anchors: [PlaneAnchor] = []
    private var nextIdentifier: UInt64 = 1

    /// A tracker with no anchors in a world whose up direction is `up`.
    public init(configuration: PlaneTrackingConfiguration = PlaneTrackingConfiguration(), up: SIMD3<Float> = SIMD3(0, 1, 0)) {
        self.configuration = configuration
        self.up = up.normalized ?? SIMD3(0, 1, 0)
    }

    /// The anchor named `identifier`, if it exists.
    public func anchor(_ identifier: PlaneIdentifier) -> PlaneAnchor? {
        index(of: identifier).map { anchors[$0] }
    }

    private func index(of identifier: PlaneIdentifier) -> Int? {
        // Anchors stay sorted by identifier: binary search.
        var lo = 0, hi = anchors.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if anchors[mid].identifier < identifier { lo = mid + 1 } else { hi = mid }
        }
        return lo < anchors.count && anchors[lo].identifier == identifier ? lo : nil
    }

    /// Integrates one frame's planes (world coordinates), seen from `view`, as frame number
    /// `frame`. Returns what changed, in order: removals by merging as they happen, then
    /// additions and updates in identifier order, then removals of vanished anchors. Also
    /// returns, per observation, the identifier of the anchor it ended up in.
    public mutating func integrate(_ observations: [PlaneObservation], view: CameraView, frame: Int)
        -> (changes: [PlaneChange], assignments: [PlaneIdentifier]) {
        let c = configuration
        var changes: [PlaneChange] = []
        var added = Set<PlaneIdentifier>()
        var touched = Set<PlaneIdentifier>()
        var assignments: [PlaneIdentifier] = []
        var redirect: [PlaneIdentifier: PlaneIdentifier] = [:]

        for observation in observations {
            let o = observation.plane
            let depth = distance(view.camera.position, o.centroid)
            let tolerance = c.offsetTolerance(atDepth: depth)
            let outline = observation.worldOutline.isEmpty ? [o.centroid] : observation.worldOutline
            var candidates: [Int] = []
            for (i, anchor) in anchors.enumerated()
            where dot(anchor.normal, o.plane.normal) >= cosf(c.angleTolerance(between: anchor.plane, and: o))
                && abs(anchor.plane.plane.signedDistance(to: o.centroid)) <= tolerance
                && anchor.touches(outline: outline, margin: c.extentMargin) {
                candidates.append(i)
            }
            guard let keeperIndex = candidates.first else {
                let identifier = PlaneIdentifier(nextIdentifier)
                nextIdentifier += 1
                anchors.append(PlaneAnchor(identifier: identifier, observation: observation, frame: frame,
                                           cellSize: c.cellSize, up: up, alignmentTolerance: c.alignmentTolerance))
                added.insert(identifier)
                assignments.append(identifier)
                continue
            }
            // Candidates are in identifier order: the first is the oldest and keeps its name.
            let keeper = anchors[keeperIndex].identifier
            for other in candidates.dropFirst().reversed() {
                let removed = anchors.remove(at: other)
                anchors[keeperIndex].absorb(removed)
                redirect[removed.identifier] = keeper
                note(removal: removed, into: keeper, added: &added, touched: &touched, changes: &changes)
            }
            anchors[keeperIndex].absorb(observation, frame: frame)
            touched.insert(keeper)
            assignments.append(keeper)
        }

        // Refresh what changed, then merge anchors that have become one surface.
        for i in anchors.indices where touched.contains(anchors[i].identifier) || added.contains(anchors[i].identifier) {
            anchors[i].refresh(up: up, alignmentTolerance: c.alignmentTolerance)
        }
        mergeCoplanar(changed: touched.union(added), view: view, added: &added, touched: &touched, changes: &changes,
                      redirect: &redirect)

        // Provisional anchors whose area is in view but which were not seen lose evidence.
        var vanished: [PlaneAnchor] = []
        var i = 0
        while i < anchors.count {
            if anchors[i].lastSeenFrame != frame, anchors[i].observationCount < c.confirmationFrames,
               view.sees(anchors[i].center, depths: c.viewDepths, noise: c.noise) {
                anchors[i].missedFrames += 1
                if anchors[i].missedFrames >= c.removalFrames {
                    vanished.append(anchors.remove(at: i))
                    continue
                }
            }
            i += 1
        }

        // Classification looks at every anchor (the floor decides what a table is).
        var descriptions = anchors.map(\.plane)
        c.classifier.classify(&descriptions, up: up, sensor: view.camera.position)
        for i in anchors.indices where anchors[i].plane.classification != descriptions[i].classification {
            anchors[i].plane.classification = descriptions[i].classification
            touched.insert(anchors[i].identifier)
        }

        for i in anchors.indices {
            let identifier = anchors[i].identifier
            if added.contains(identifier) {
                anchors[i].reported = anchors[i].plane
                changes.append(.added(anchors[i]))
            } else if touched.contains(identifier), significantlyChanged(anchors[i].reported, anchors[i].plane) {
                anchors[i].reported = anchors[i].plane
                changes.append(.updated(anchors[i]))
            }
        }
        changes.append(contentsOf: vanished.map { .removed($0, into: nil) })
        let resolved = assignments.map { identifier in
            var id = identifier
            while let next = redirect[id] { id = next }
            return id
        }
        return (changes, resolved)
    }

    /// Records the removal of `removed` merged into `keeper`: an anchor added in this very frame
    /// was never reported, so it just disappears.
    private func note(removal removed: PlaneAnchor, into keeper: PlaneIdentifier, added: inout Set<PlaneIdentifier>,
                      touched: inout Set<PlaneIdentifier>, changes: inout [PlaneChange]) {
        touched.insert(keeper)
        touched.remove(removed.identifier)
        if added.remove(removed.identifier) == nil {
            changes.append(.removed(removed, into: keeper))
        }
    }

    /// Merges each changed anchor with every anchor that is now one surface with it
    /// (``isOneSurface(_:_:view:)``); the older keeps its identifier.
    private mutating func mergeCoplanar(changed: Set<PlaneIdentifier>, view: CameraView, added: inout Set<PlaneIdentifier>,
                                        touched: inout Set<PlaneIdentifier>, changes: inout [PlaneChange],
                                        redirect: inout [PlaneIdentifier: PlaneIdentifier]) {
        let c = configuration
        var pending = changed.sorted()
        // Every merge removes an anchor, so this ends; the keeper is queued again because it grew.
        while let identifier = pending.popLast() {
            guard let a = index(of: identifier) else { continue }
            for b in anchors.indices where b != a && isOneSurface(anchors[a], anchors[b], view: view) {
                let (keep, drop) = anchors[a].identifier < anchors[b].identifier ? (a, b) : (b, a)
                let removed = anchors[drop]
                let keeper = anchors[keep].identifier
                anchors[keep].absorb(removed)
                anchors[keep].refresh(up: up, alignmentTolerance: c.alignmentTolerance)
                anchors.remove(at: drop)
                redirect[removed.identifier] = keeper
                note(removal: removed, into: keeper, added: &added, touched: &touched, changes: &changes)
                pending.append(keeper)
                break
            }
        }
    }

    /// `true` when two anchors are one surface: coplanar (normals within the angle tolerance
    /// for their fits, each centre within ``PlaneTrackingConfiguration/mergeOffsetTolerance`` of
    /// the other's plane) and either their covered cells come within
    /// ``PlaneTrackingConfiguration/extentMargin`` of each other, or the gap between them is
    /// bridged in `view` (``isBridged(_:_:view:)``), or they are pieces of the floor the camera is
    /// carried over (``arePiecesOfTheFloor(_:_:view:)``).
    func isOneSurface(_ x: PlaneAnchor, _ y: PlaneAnchor, view: CameraView) -> Bool {
        let c = configuration
        guard dot(x.normal, y.normal) >= cosf(c.angleTolerance(between: x.plane, and: y.plane)),
              abs(x.plane.plane.signedDistance(to: y.center)) <= c.mergeOffsetTolerance,
              abs(y.plane.plane.signedDistance(to: x.center)) <= c.mergeOffsetTolerance else { return false }
        return x.touches(y, margin: c.extentMargin) || isBridged(x, y, view: view) || arePiecesOfTheFloor(x, y, view: view)
    }

    /// `true` when two coplanar anchors are pieces of the one floor the camera's carrier stands
    /// on: both face up and are horizontal; together they are the floor as the classifier defines
    /// it (at least its ``PlaneClassifier/minimumFloorArea`` between them, and no up-facing plane
    /// that large lies lower); the camera is at a carrying height above their plane
    /// (``PlaneTrackingConfiguration/carryingHeights``); and nothing in `view` is seen through the
    /// plane between them (a stairwell or a hole between the pieces, when in view, keeps them
    /// apart). A walking camera looks ahead, so the floor it walks over between two sightings
    /// is never in its view and no frame can bridge it; yet a room's floor is one surface.
    func arePiecesOfTheFloor(_ x: PlaneAnchor, _ y: PlaneAnchor, view: CameraView) -> Bool {
        let c = configuration
        guard isFacingUp(x), isFacingUp(y), x.area + y.area >= c.classifier.minimumFloorArea,
              c.carryingHeights.contains(x.plane.plane.signedDistance(to: view.camera.position)) else { return false }
        let level = min(dot(x.center, up), dot(y.center, up)) - c.mergeOffsetTolerance
        guard !anchors.contains(where: { isFacingUp($0) && $0.area >= c.classifier.minimumFloorArea && dot($0.center, up) < level })
        else { return false }
        return !isSeenThroughBetween(x, y, view: view, within: c.floorGapReach)
    }

    /// `true` for a horizontal anchor facing up.
    private func isFacingUp(_ a: PlaneAnchor) -> Bool { a.plane.alignment == .horizontal && dot(a.normal, up) > 0 }

    /// The points sampled every cell across the gap between two coplanar anchors: along
    /// segments from each boundary vertex to the other boundary at most `reach` long, outside
    /// both anchors' covered cells, projected onto `x`'s plane.
    private func gapSamples(_ x: PlaneAnchor, _ y: PlaneAnchor, within reach: Float, _ body: (SIMD3<Float>) -> Bool) {
        let c = configuration
        for (p, q) in x.gapSegments(to: y, within: reach) {
            let steps = Int((distance(p, q) / c.cellSize).rounded(.down))
            guard steps >= 1 else { continue }
            for k in 1...steps {
                let point = x.plane.plane.project(p + (Float(k) / Float(steps + 1)) * (q - p))
                if x.covers(point) || y.covers(point) { continue }
                if !body(point) { return }
            }
        }
    }

    /// `true` when `view` shows a measurement behind the plane somewhere in the gap between the
    /// anchors (within `reach` of their outlines).
    private func isSeenThroughBetween(_ x: PlaneAnchor, _ y: PlaneAnchor, view: CameraView, within reach: Float) -> Bool {
        guard view.frame != nil, x.rectanglesOverlap(y, margin: reach) else { return false }
        let c = configuration
        var seenThrough = false
        gapSamples(x, y, within: reach) { point in
            seenThrough = view.sight(of: point, depths: c.viewDepths, band: c.offsetTolerance, noise: c.noise) == .seenThrough
            return !seenThrough
        }
        return seenThrough
    }

    /// `true` when the frame shows that the surface goes on across the gap between two coplanar
    /// anchors. The gap is swept by segments from each boundary vertex to the other boundary
    /// (at most ``PlaneTrackingConfiguration/bridgeDistance`` long), sampled every cell outside
    /// both anchors. Bridged when no sample is seen through (a measurement behind the plane
    /// proves a real gap, such as the floor between two tables of one height) and at least
    /// ``PlaneTrackingConfiguration/bridgeEvidence`` of them are seen on the plane or hidden
    /// behind something nearer (the floor behind a box that splits its view in two).
    func isBridged(_ x: PlaneAnchor, _ y: PlaneAnchor, view: CameraView) -> Bool {
        let c = configuration
        guard view.frame != nil, x.rectanglesOverlap(y, margin: c.bridgeDistance) else { return false }
        var evidence = 0, seenThrough = false
        gapSamples(x, y, within: c.bridgeDistance) { point in
            switch view.sight(of: point, depths: c.viewDepths, band: c.offsetTolerance, noise: c.noise) {
            case .seenThrough: seenThrough = true
            case .hidden, .onSurface: evidence += 1
            case .unknown: break
            }
            return !seenThrough
        }
        return !seenThrough && evidence >= c.bridgeEvidence
    }

    /// `true` when `new` differs from `old` beyond the update tolerances.
    func significantlyChanged(_ old: DetectedPlane, _ new: DetectedPlane) -> Bool {
        let c = configuration
        if old.alignment != new.alignment || old.classification != new.classification { return true }
        if old.plane.normal.angle(to: new.plane.normal) > c.updateAngle { return true }
        if abs(old.plane.offset - new.plane.offset) > c.updateOffset { return true }
        if distance(old.transform.translation, new.transform.translation) > c.updateExtent { return true }
        if abs(old.extent.width - new.extent.width) > c.updateExtent || abs(old.extent.length - new.extent.length) > c.updateExtent {
            return true
        }
        return abs(old.area - new.area) > c.updateAreaFraction * max(old.area, 1e-6)
    }
}
