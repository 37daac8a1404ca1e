#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// How plane anchors are associated, merged, reported and removed across frames.
///
/// **Confirmation.** A surface seen for the first time is a *candidate*: tracked (it is matched,
/// grows, merges) but not public — no event names it, hit tests and snapping do not see it,
/// ``PlaneTracker/anchors`` does not list it. It is confirmed, becomes an anchor and is reported
/// as added, once it has been seen in ``confirmationFrames`` (4) of the last
/// ``confirmationWindow`` (6) frames, or as soon as it is large and clean: covered ground of at
/// least ``immediateConfirmationArea`` (0.5 m²) with an RMS fit error no larger than the sensor's
/// noise explains, ``immediateConfirmationRMS`` (1 cm) plus twice the depth noise σ at its
/// centroid's distance from the camera (capped at 5 m: 1.5 cm at 1.5 m, 2.9 cm at 2.5 m for the
/// Kinect model) — a floor, wall or table top in full view. A candidate that merges
/// into an anchor, merges with another candidate, or disappears before it is confirmed leaves no
/// trace in the events: the fragments of a surface that a detector produces for a frame or two
/// and that merge within a few frames never flicker into view. Identifiers are given at
/// confirmation, in the order of confirmation, so a lower identifier is an anchor the app has
/// known longer.
///
/// **Joining.** A candidate about to be confirmed that is a fragment of a confirmed anchor joins
/// it instead of being announced: at most ``fragmentAreaFraction`` (a quarter) of the anchor's
/// area (two box faces side by side stay apart), its covered cells within ``joinMargin`` (25 cm)
/// of the anchor's, its normal within ``maximumAngleTolerance`` (20°) of the anchor's, and its
/// supporting points
/// within ``explainedRMS(atDepth:)`` of the anchor's plane (RMS distance). On
/// a real depth camera a small patch fits a normal several degrees off — depth steps and the
/// sensor's distortion are not the white noise the association's angle tolerance allows for —
/// yet its points lie on the larger plane; announced, it would be merged away frames later.
///
/// **Association.** A plane found in a frame (moved into world space) continues an anchor when
/// - their normals are within ``angleTolerance`` (6°) widened by the tilt the noisier of the two
///   fits cannot rule out (``angleTolerance(between:and:)``, at most ``maximumAngleTolerance``),
/// - the observation's centroid lies within `offsetTolerance + offsetNoiseFactor · σ(depth)` of
///   the anchor's plane (3 cm + 3σ of the sensor's depth noise at the centroid's distance from
///   the camera, capped at 5 m: 3.6 cm at 1 m, 5 cm at 2 m, 11 cm at 4 m, 15 cm from 5 m on for
///   the Kinect model), widened by the drift allowance below, and
/// - the observation's outline, in the anchor's plane, covers a cell within ``extentMargin``
///   (5 cm) of a cell the anchor has covered (cells, not the rectangle around them: two box tops
///   side by side have overlapping rectangles). An outline too thin to hold a cell's centre, such
///   as a table top seen edge-on, covers the cells of its vertices.
/// When an observation continues several anchors they are one surface: all merge into the oldest
/// — a confirmed anchor before any candidate, among confirmed ones the lowest identifier (the
/// first confirmed), among candidates the first seen — which keeps its identifier; the others
/// are removed.
///
/// **Drift.** A camera's poses drift (a few cm over a 30 s walk for KinectFusion), so a surface
/// measured again after the camera has walked on is found a little away from where it was.
/// The offset tolerances of association and merging grow with the distance the camera has
/// walked since the anchor was last seen: ``driftPerMetre`` (1 cm per metre walked), at most
/// ``maximumDriftAllowance`` (4 cm) (``driftAllowance(walked:)``). An anchor seen in the frame
/// before gets none, so surfaces side by side in view keep the tight tolerances.
///
/// **Estimates follow recent evidence.** An anchor's plane is the least-squares fit of its
/// support with older sightings fading: at each frame that sees it the support gathered so far
/// is weighted by ``forgettingFactor`` (e^(−1/8), a time constant of ``memoryFrames`` = 8
/// sightings) before the new sighting's points are added. A surface re-measured 3 cm away is
/// followed to within 1 mm in 30 sightings (3 cm × e^(−30/8) = 0.7 mm), while a stationary
/// surface still averages some 8 frames' points (thousands for a floor).
///
/// **Merging.** After each frame, an anchor that changed is merged with any other anchor that is
/// coplanar with it (normals within the angle tolerance above, each centre within
/// ``mergeOffsetTolerance`` of the other's plane) and either has a covered cell within
/// ``extentMargin`` of its own, or is at most ``bridgeDistance`` (1 m) away with the gap bridged
/// in this frame: sampled every cell, no point of the gap is seen through (a measurement behind
/// the plane) and at least ``bridgeEvidence`` (10) are seen on the plane or hidden behind
/// something nearer — the floor behind a box that splits its view. Again the oldest keeps its
/// identifier.
///
/// **Floor pieces.** Coplanar up-facing horizontal anchors also merge, at any distance, when
/// together they are the floor as the classifier defines it (at least 1 m² between them, and no
/// up-facing plane that large lies lower), the camera is at a carrying height
/// (``carryingHeights``, 0.8–2.2 m) above their plane, and the frame
/// sees through their plane nowhere between them (within ``floorGapReach``, 3 m). A camera
/// carried through a room looks ahead and down, so the floor it walks over between two sightings
/// is never in view and no frame can bridge it; but the floor under the person carrying it is
/// one surface. What this gets wrong: a hole or stairwell between two floor pieces that is never
/// in view while they merge, and, before the real floor is seen, two low tables of one height
/// with 1 m² between them and the camera held 0.8 m or more above them.
///
/// **Updates.** An anchor's description is reported as updated only when, since it was last
/// reported, its normal turned by more than ``updateAngle`` (0.5°), its offset moved by more than
/// ``updateOffset`` (5 mm), its centre moved or its width or length changed by more than
/// ``updateExtent`` (1 cm), its area changed by more than ``updateAreaFraction`` (1%), or its
/// alignment or classification changed. So that an estimate converging in small steps is not
/// left up to 5 mm short in the app (and objects snapped onto it with it), an anchor seen in a
/// frame is also reported when its offset differs by more than ``settleOffset`` (1 mm) from the
/// one last reported at least ``settleFrames`` (5) frames ago: at most one such update per 5
/// frames, none for a surface that stays put.
///
/// **Removal.** A candidate that is not found in ``removalFrames`` (10) consecutive frames in
/// which its centre is in view — inside the image, 0.3–5 m ahead, and not hidden behind a nearer
/// measurement — or in ``candidateLifetime`` (30) frames at all is dropped, silently: its
/// evidence has disappeared. Confirmed anchors are never removed for being unseen, since a real
/// surface out of view or behind something is still there; they disappear only by merging.
public struct PlaneTrackingConfiguration: Sendable, Hashable {
    /// Largest angle between normals of one surface (rad): 6°.
    public var angleTolerance: Float = 6 * .pi / 180
    /// Largest angle between normals of one surface when a fit is noisy (rad): 20°; see
    /// ``angleTolerance(between:and:)``.
    public var maximumAngleTolerance: Float = 20 * .pi / 180
    /// Fixed part of the offset tolerance for association (m): 3 cm.
    public var offsetTolerance: Float = 0.03
    /// Depth-noise part of the offset tolerance, in σ of ``noise`` at the observation's distance.
    public var offsetNoiseFactor: Float = 3
    /// The sensor's depth noise.
    public var noise: DepthNoiseModel = .kinect
    /// Largest offset between refined anchors of one surface (m): 3 cm.
    public var mergeOffsetTolerance: Float = 0.03
    /// Enlargement of an anchor's covered rectangle when testing overlap (m): 5 cm.
    public var extentMargin: Float = 0.05
    /// Longest gap (m) between coplanar anchors that a frame's view across it can bridge: 1 m.
    public var bridgeDistance: Float = 1
    /// Samples of a gap seen on the plane or hidden that bridge it (when none is seen through).
    public var bridgeEvidence: Int = 10
    /// Heights (m) of the camera above a floor at which it is being carried by someone standing
    /// on that floor: 0.8–2.2 m, a phone or depth camera held between the waist and above the head.
    public var carryingHeights: ClosedRange<Float> = 0.8...2.2
    /// How far from the floor pieces' outlines the frame is searched for a view through their
    /// plane before they are merged (m): 3 m.
    public var floorGapReach: Float = 3
    /// Side of the cells an anchor's covered ground is kept in (m): 5 cm.
    public var cellSize: Float = 0.05
    /// Frames of the last ``confirmationWindow`` a candidate must be seen in to be confirmed: 4.
    /// On a real depth camera a fragment of a larger surface (a patch of a counter fitted a few
    /// degrees off) lives for three or four frames before it merges; with 3 of 5, four such
    /// fragments were announced and merged away over the 7-Scenes kitchen's first 500 frames.
    public var confirmationFrames: Int = 4
    /// The frames (the current one included) in which ``confirmationFrames`` sightings confirm: 6.
    public var confirmationWindow: Int = 6
    /// Covered ground (m²) that confirms a clean candidate at once: 0.5 m².
    public var immediateConfirmationArea: Float = 0.5
    /// Fixed part of the largest RMS fit error (m) of a candidate confirmed at once for its size:
    /// 1 cm, plus twice the depth noise at its distance (`confirms(_:at:depth:)`).
    public var immediateConfirmationRMS: Float = 0.01
    /// How far (m) from a confirmed anchor's covered cells a candidate about to be confirmed may
    /// lie and still join it as a fragment of it: 25 cm (`PlaneTracker.joins(_:_:depth:)`).
    public var joinMargin: Float = 0.25
    /// The largest area of a candidate that joins an anchor, as a fraction of the anchor's: ¼.
    public var fragmentAreaFraction: Float = 0.25
    /// Consecutive in-view frames without a sighting that drop a candidate: 10.
    public var removalFrames: Int = 10
    /// Frames without a sighting, in view or not, that drop a candidate: 30.
    public var candidateLifetime: Int = 30
    /// The time constant, in sightings, over which an anchor's old support fades: 8.
    public var memoryFrames: Float = 8
    /// Growth of the offset tolerances per metre the camera walked since an anchor was last seen: 1 cm/m.
    public var driftPerMetre: Float = 0.01
    /// The most the offset tolerances grow for drift (m): 4 cm.
    public var maximumDriftAllowance: Float = 0.04
    /// Offset difference (m) from the last reported description that is reported once it has
    /// stood for ``settleFrames``: 1 mm.
    public var settleOffset: Float = 0.001
    /// Frames after a report before a difference of ``settleOffset`` is reported: 5.
    public var settleFrames: Int = 5
    /// Depths (m) at which an anchor's centre counts as in view for removal.
    public var viewDepths: ClosedRange<Float> = 0.3...5
    /// Smallest normal turn reported as an update (rad): 0.5°.
    public var updateAngle: Float = 0.5 * .pi / 180
    /// Smallest offset change reported as an update (m): 5 mm.
    public var updateOffset: Float = 0.005
    /// Smallest change of centre, width or length reported as an update (m): 1 cm.
    public var updateExtent: Float = 0.01
    /// Smallest relative area change reported as an update: 1%.
    public var updateAreaFraction: Float = 0.01
    /// Angle tolerance (rad) for horizontal and vertical alignment.
    public var alignmentTolerance: Float = PlaneAlignment.defaultTolerance
    /// How anchors are classified (floor, wall, …) from the whole set each frame.
    public var classifier = PlaneClassifier()

    /// The defaults above.
    public init() {}

    /// The largest angle between the normals of two descriptions of one surface: ``angleTolerance``
    /// widened by the tilt the noisier fit cannot rule out, `atan(rms / half its shorter side)`
    /// (a 30 cm patch 5 m away with 3.5 cm residuals cannot place its normal within 13°; a table
    /// top 1 m away with 2 mm residuals within 0.2°), at most ``maximumAngleTolerance``.
    public func angleTolerance(between a: DetectedPlane, and b: DetectedPlane) -> Float {
        func tilt(_ p: DetectedPlane) -> Float {
            let half = 0.5 * min(p.extent.width, p.extent.length)
            return p.rmsError.isFinite && half > 0 ? atan2f(max(p.rmsError, 0), half) : 0
        }
        return min(angleTolerance + max(tilt(a), tilt(b)), max(angleTolerance, maximumAngleTolerance))
    }

    /// The weight the support gathered so far keeps at each new sighting: e^(−1 / ``memoryFrames``)
    /// (1 when ``memoryFrames`` is not positive: nothing is forgotten).
    public var forgettingFactor: Double {
        memoryFrames > 0 && memoryFrames.isFinite ? exp(-1 / Double(memoryFrames)) : 1
    }

    /// How much the offset tolerances grow for an anchor last seen `walked` metres of camera
    /// travel ago: ``driftPerMetre`` × `walked`, at most ``maximumDriftAllowance``.
    public func driftAllowance(walked: Float) -> Float {
        min(max(driftPerMetre * walked, 0), maximumDriftAllowance)
    }

    /// `true` when a candidate with these sightings and description, its centroid `depth`
    /// metres from the camera, is confirmed in `frame`.
    func confirms(_ candidate: PlaneAnchor, at frame: Int, depth: Float) -> Bool {
        if candidate.sightingCount(inLast: confirmationWindow, at: frame) >= confirmationFrames { return true }
        return candidate.area >= immediateConfirmationArea && candidate.plane.rmsError <= explainedRMS(atDepth: depth)
    }

    /// The RMS distance (m) of a surface's points from a plane that the sensor's noise explains
    /// at `depth` metres (capped at 5 m): ``immediateConfirmationRMS`` (1 cm) plus twice the
    /// depth noise σ — 1.6 cm at 1.4 m, 3.8 cm at 3 m for the Kinect model.
    public func explainedRMS(atDepth depth: Float) -> Float {
        immediateConfirmationRMS + 2 * noise.sigma(atDepth: min(depth, viewDepths.upperBound))
    }

    /// The association distance tolerance for a plane whose centroid is `depth` metres away.
    /// The depth is capped at the far end of ``viewDepths`` (5 m): the quadratic noise model
    /// means nothing beyond a sensor's range and would otherwise let planes metres apart match.
    public func offsetTolerance(atDepth depth: Float) -> Float {
        offsetTolerance + offsetNoiseFactor * noise.sigma(atDepth: min(depth, viewDepths.upperBound))
    }
}
