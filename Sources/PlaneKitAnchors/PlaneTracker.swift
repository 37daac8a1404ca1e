#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitPlanes

/// What happened to a plane anchor in one frame.
public enum PlaneChange: Sendable {
    /// A new anchor.
    case added(PlaneAnchor)
    /// An anchor whose description changed beyond the update tolerances.
    case updated(PlaneAnchor)
    /// An anchor removed: merged into `into` (which keeps its identifier), or, with `into ==
    /// nil`, dropped because its evidence disappeared (``PlaneTracker`` drops only candidates,
    /// which were never reported, so it does not emit this form).
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
    /// Everything tracked: the confirmed anchors in identifier order (oldest first), then the
    /// candidates in the order they were first seen. A candidate's identifier has
    /// ``candidateBit`` set, so the whole array is sorted by identifier and, in that order, a
    /// confirmed anchor comes before any candidate: the first of several is the one to keep.
    package var tracked: [PlaneAnchor] = []
    /// How many of ``tracked`` are confirmed (they come first).
    package var confirmedCount = 0
    package var nextIdentifier: UInt64 = 1
    private var nextCandidate: UInt64 = 1
    /// The length of the camera's path so far (m), for the drift allowance.
    package private(set) var travelled: Float = 0
    package var lastCameraPosition: SIMD3<Float>?

    /// Set in the internal identifiers of candidates, which are never reported.
    static let candidateBit: UInt64 = 1 << 63

    /// A tracker with no anchors in a world whose up direction is `up`.
    public init(configuration: PlaneTrackingConfiguration = PlaneTrackingConfiguration(), up: SIMD3<Float> = SIMD3(0, 1, 0)) {
        self.configuration = configuration
        self.up = up.normalized ?? SIMD3(0, 1, 0)
    }

    /// The confirmed anchors, in increasing identifier order (oldest first). Candidates not yet
    /// confirmed are not among them.
    public var anchors: [PlaneAnchor] { Array(confirmed) }

    /// The confirmed anchors without copying them out.
    package var confirmed: ArraySlice<PlaneAnchor> { tracked[..<confirmedCount] }

    /// How many surfaces are tracked as candidates, not confirmed yet.
    public var candidateCount: Int { tracked.count - confirmedCount }

    /// The confirmed anchor named `identifier`, if it exists.
    public func anchor(_ identifier: PlaneIdentifier) -> PlaneAnchor? {
        guard let i = index(of: identifier), i < confirmedCount else { return nil }
        return tracked[i]
    }

    private func index(of identifier: PlaneIdentifier) -> Int? {
        // Tracked anchors stay sorted by identifier: binary search.
        var lo = 0, hi = tracked.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tracked[mid].identifier < identifier { lo = mid + 1 } else { hi = mid }
        }
        return lo < tracked.count && tracked[lo].identifier == identifier ? lo : nil
    }

    /// Removes the tracked anchor at `i`, keeping the count of confirmed ones.
    private mutating func removeTracked(at i: Int) -> PlaneAnchor {
        if i < confirmedCount { confirmedCount -= 1 }
        return tracked.remove(at: i)
    }

    /// How much the offset tolerances grow for `anchor`: the drift the camera's pose may have
    /// gathered since it was last seen (``PlaneTrackingConfiguration/driftAllowance(walked:)``).
    func driftAllowance(_ anchor: PlaneAnchor) -> Float {
        configuration.driftAllowance(walked: travelled - anchor.travelledAtLastSight)
    }

    /// Integrates one frame's planes (world coordinates), seen from `view`, as frame number
    /// `frame`. Returns what changed among the confirmed anchors, in order: removals by merging
    /// as they happen, then additions (candidates confirmed in this frame) and updates in
    /// identifier order. Also returns, per observation, the identifier of the anchor it ended up
    /// in, or `nil` for a candidate not confirmed yet.
    public mutating func integrate(_ observations: [PlaneObservation], view: CameraView, frame: Int)
        -> (changes: [PlaneChange], assignments: [PlaneIdentifier?]) {
        let c = configuration
        let position = view.camera.position
        if let last = lastCameraPosition, position.isFinite { travelled += distance(last, position) }
        if position.isFinite { lastCameraPosition = position }
        let forgetting = c.forgettingFactor
        var changes: [PlaneChange] = []
        var touched = Set<PlaneIdentifier>()
        var assignments: [PlaneIdentifier] = []
        var redirect: [PlaneIdentifier: PlaneIdentifier] = [:]

        for observation in observations {
            let o = observation.plane
            let tolerance = c.offsetTolerance(atDepth: distance(position, o.centroid))
            let outline = observation.worldOutline.isEmpty ? [o.centroid] : observation.worldOutline
            var matches: [Int] = []
            for (i, anchor) in tracked.enumerated()
            where dot(anchor.normal, o.plane.normal) >= cosf(c.angleTolerance(between: anchor.plane, and: o))
                && abs(anchor.plane.plane.signedDistance(to: o.centroid)) <= tolerance + driftAllowance(anchor)
                && anchor.touches(outline: outline, margin: c.extentMargin) {
                matches.append(i)
            }
            guard let keeperIndex = matches.first else {
                let identifier = PlaneIdentifier(Self.candidateBit | nextCandidate)
                nextCandidate += 1
                tracked.append(PlaneAnchor(identifier: identifier, observation: observation, frame: frame, travelled: travelled,
                                           cellSize: c.cellSize, up: up, alignmentTolerance: c.alignmentTolerance))
                touched.insert(identifier)
                assignments.append(identifier)
                continue
            }
            // Matches are in identifier order: the first is the oldest and keeps its name.
            let keeper = tracked[keeperIndex].identifier
            for other in matches.dropFirst().reversed() {
                let removed = removeTracked(at: other)
                tracked[keeperIndex].absorb(removed)
                redirect[removed.identifier] = keeper
                note(removal: removed, into: keeper, touched: &touched, changes: &changes)
            }
            tracked[keeperIndex].absorb(observation, frame: frame, travelled: travelled, forgetting: forgetting)
            touched.insert(keeper)
            assignments.append(keeper)
        }

        // Refresh what changed, then merge anchors that have become one surface.
        for i in tracked.indices where touched.contains(tracked[i].identifier) {
            tracked[i].refresh(up: up, alignmentTolerance: c.alignmentTolerance)
        }
        mergeCoplanar(changed: touched, view: view, touched: &touched, changes: &changes, redirect: &redirect)

        // Candidates whose area is in view but which were not seen lose evidence; those not
        // seen for long are dropped wherever they are. Neither was ever reported.
        var i = confirmedCount
        while i < tracked.count {
            if tracked[i].lastSeenFrame != frame {
                if view.sees(tracked[i].center, depths: c.viewDepths, noise: c.noise) { tracked[i].missedFrames += 1 }
                if tracked[i].missedFrames >= c.removalFrames || frame - tracked[i].lastSeenFrame >= c.candidateLifetime {
                    tracked.remove(at: i)
                    continue
                }
            }
            i += 1
        }

        // Candidates that changed and now meet the rule are confirmed: named in confirmation order
        // and moved to the end of the confirmed block (the order stays sorted by identifier).
        var added = Set<PlaneIdentifier>()
        var renamed: [PlaneIdentifier: PlaneIdentifier] = [:]
        i = confirmedCount
        while i < tracked.count {
            let depth = distance(position, tracked[i].plane.centroid)
            if touched.contains(tracked[i].identifier), c.confirms(tracked[i], at: frame, depth: depth) {
                // A fragment of a surface already announced joins it instead of surfacing.
                if let keeper = confirmed.indices.first(where: { joins(tracked[i], tracked[$0], depth: depth) }) {
                    let fragment = tracked.remove(at: i)
                    tracked[keeper].absorb(fragment)
                    tracked[keeper].refresh(up: up, alignmentTolerance: c.alignmentTolerance)
                    redirect[fragment.identifier] = tracked[keeper].identifier
                    touched.insert(tracked[keeper].identifier)
                    continue
                }
                var anchor = tracked.remove(at: i)
                let name = PlaneIdentifier(nextIdentifier)
                nextIdentifier += 1
                renamed[anchor.identifier] = name
                anchor.identifier = name
                anchor.isConfirmed = true
                tracked.insert(anchor, at: confirmedCount)
                confirmedCount += 1
                added.insert(name)
            }
            i += 1
        }

        // Classification looks at everything tracked (the floor decides what a table is).
        var descriptions = tracked.map(\.plane)
        c.classifier.classify(&descriptions, up: up, sensor: position)
        for i in tracked.indices where tracked[i].plane.classification != descriptions[i].classification {
            tracked[i].plane.classification = descriptions[i].classification
            touched.insert(tracked[i].identifier)
        }

        for i in 0..<confirmedCount {
            let identifier = tracked[i].identifier
            let isAdded = added.contains(identifier)
            guard isAdded || (touched.contains(identifier) && shouldReport(tracked[i], frame: frame)) else { continue }
            tracked[i].reported = tracked[i].plane
            tracked[i].reportedFrame = frame
            changes.append(isAdded ? .added(tracked[i]) : .updated(tracked[i]))
        }
        let resolved = assignments.map { identifier -> PlaneIdentifier? in
            var id = identifier
            while let next = redirect[id] { id = next }
            if let name = renamed[id] { id = name }
            return id.rawValue & Self.candidateBit == 0 ? id : nil
        }
        return (changes, resolved)
    }

    /// `true` when `anchor`'s description should be reported as updated in `frame`: it changed
    /// beyond the update tolerances (``significantlyChanged(_:_:)``), or, seen in this frame, its
    /// offset differs by more than ``PlaneTrackingConfiguration/settleOffset`` from the one
    /// reported at least ``PlaneTrackingConfiguration/settleFrames`` ago.
    func shouldReport(_ anchor: PlaneAnchor, frame: Int) -> Bool {
        let c = configuration
        if significantlyChanged(anchor.reported, anchor.plane) { return true }
        return anchor.lastSeenFrame == frame && frame - anchor.reportedFrame >= c.settleFrames
            && abs(anchor.reported.plane.offset - anchor.plane.plane.offset) > c.settleOffset
    }

    /// Records the removal of `removed` merged into `keeper`: only a confirmed anchor was ever
    /// reported, so a candidate just disappears.
    private func note(removal removed: PlaneAnchor, into keeper: PlaneIdentifier, touched: inout Set<PlaneIdentifier>,
                      changes: inout [PlaneChange]) {
        touched.insert(keeper)
        touched.remove(removed.identifier)
        if removed.isConfirmed {
            changes.append(.removed(removed, into: keeper))
        }
    }

    /// Merges each changed anchor with every anchor that is now one surface with it
    /// (``isOneSurface(_:_:view:)``); the older keeps its identifier (a confirmed anchor before a
    /// candidate, then the lower identifier).
    private mutating func mergeCoplanar(changed: Set<PlaneIdentifier>, view: CameraView, touched: inout Set<PlaneIdentifier>,
                                        changes: inout [PlaneChange], redirect: inout [PlaneIdentifier: PlaneIdentifier]) {
        let c = configuration
        var pending = changed.sorted()
        // Every merge removes an anchor, so this ends; the keeper is queued again because it grew.
        while let identifier = pending.popLast() {
            guard let a = index(of: identifier) else { continue }
            for b in tracked.indices where b != a && isOneSurface(tracked[a], tracked[b], view: view) {
                let (keep, drop) = tracked[a].identifier < tracked[b].identifier ? (a, b) : (b, a)
                let keeper = tracked[keep].identifier
                tracked[keep].absorb(tracked[drop])
                tracked[keep].refresh(up: up, alignmentTolerance: c.alignmentTolerance)
                let removed = removeTracked(at: drop)
                redirect[removed.identifier] = keeper
                note(removal: removed, into: keeper, touched: &touched, changes: &changes)
                pending.append(keeper)
                break
            }
        }
    }

    /// `true` when two anchors are one surface: coplanar (normals within the angle tolerance
    /// for their fits, each centre within ``PlaneTrackingConfiguration/mergeOffsetTolerance`` of
    /// the other's plane, widened by the drift allowance of the one seen longer ago) and either their covered cells come within
    /// ``PlaneTrackingConfiguration/extentMargin`` of each other, or the gap between them is
    /// bridged in `view` (``isBridged(_:_:view:)``), or they are pieces of the floor the camera is
    /// carried over (``arePiecesOfTheFloor(_:_:view:)``).
    func isOneSurface(_ x: PlaneAnchor, _ y: PlaneAnchor, view: CameraView) -> Bool {
        let c = configuration
        let tolerance = c.mergeOffsetTolerance + max(driftAllowance(x), driftAllowance(y))
        guard dot(x.normal, y.normal) >= cosf(c.angleTolerance(between: x.plane, and: y.plane)),
              abs(x.plane.plane.signedDistance(to: y.center)) <= tolerance,
              abs(y.plane.plane.signedDistance(to: x.center)) <= tolerance else { return false }
        return x.touches(y, margin: c.extentMargin) || isBridged(x, y, view: view) || arePiecesOfTheFloor(x, y, view: view)
    }

    /// `true` when `candidate`, about to be confirmed with its centroid `depth` metres from the
    /// camera, is a fragment of the confirmed `anchor`: at most
    /// ``PlaneTrackingConfiguration/fragmentAreaFraction`` of its area (two box faces side by side
    /// stay apart); its normal within ``PlaneTrackingConfiguration/maximumAngleTolerance``; its
    /// covered cells within ``PlaneTrackingConfiguration/joinMargin`` of the anchor's; and its
    /// supporting points within the sensor's noise of the anchor's plane (RMS distance at most
    /// ``PlaneTrackingConfiguration/explainedRMS(atDepth:)``). A small patch of a real surface
    /// fits a normal several degrees off (depth quantisation and the sensor's distortion are not
    /// the white noise the angle tolerance allows for), yet its points lie on the larger plane.
    func joins(_ candidate: PlaneAnchor, _ anchor: PlaneAnchor, depth: Float) -> Bool {
        let c = configuration
        guard candidate.area <= c.fragmentAreaFraction * anchor.area,
              dot(candidate.normal, anchor.normal) >= cosf(c.maximumAngleTolerance),
              anchor.touches(candidate, margin: c.joinMargin) else { return false }
        return anchor.plane.plane.rmsDistance(of: candidate.support) <= c.explainedRMS(atDepth: depth)
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
        guard !tracked.contains(where: { isFacingUp($0) && $0.area >= c.classifier.minimumFloorArea && dot($0.center, up) < level })
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
