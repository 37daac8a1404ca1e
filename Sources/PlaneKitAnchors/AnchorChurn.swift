#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting

/// How plane anchors held over a walk, as an app drawing them sees it: how many were announced,
/// how many merged away, and how many identifiers a spot of a surface was shown under.
///
/// Feed it each frame's events (``record(_:camera:)``), then ask for the figures with the
/// anchors alive at the end (``figures(alive:)``).
///
/// **Probe points.** On every anchor alive at the end whose area is at least
/// ``minimumProbedArea`` (0.5 m²), the points of a square grid of ``probeSpacing`` (10 cm) in the
/// anchor's own plane coordinates (local x and z of its transform, the grid through its centre)
/// that fall inside its boundary polygon, taken into the world frame. An anchor's description as
/// an event reported it (`planeAdded` or `planeUpdated`) *covers* a probe point when its normal
/// is within ``coverageAngle`` (30°) of the probed anchor's, the point is within
/// ``coverageDistance`` (5 cm) of its plane and its projection lies inside its boundary polygon
/// (the normal test keeps a wall standing on a counter from covering the counter's edge). A probe point's identifiers are the distinct identifiers of all the
/// descriptions over the walk that covered it — merged-away anchors included, under their own
/// names — so a surface shown under one identifier throughout scores 1, and each fragment
/// announced and later merged into it adds one where it lay.
public struct AnchorChurn: Sendable {
    /// Spacing of the probe grid (m): 10 cm.
    public static let probeSpacing: Float = 0.1
    /// Smallest area (m²) of a final anchor that is probed: 0.5 m².
    public static let minimumProbedArea: Float = 0.5
    /// Largest distance (m) of a probe point from a description's plane that it covers: 5 cm.
    public static let coverageDistance: Float = 0.05
    /// Largest angle (rad) between a description's normal and the probed anchor's: 30°.
    public static let coverageAngle: Float = 30 * .pi / 180
    /// Distance (m) from the camera beyond which a depth camera measures nothing (a Kinect reads
    /// to about 8 m): an anchor added farther away than this came from invalid readings, such as
    /// 65 535 taken for millimetres (a wall 65.5 m away).
    public static let invalidReadingDistance: Float = 10

    /// One reported description, ready for coverage tests.
    private struct Description: Sendable {
        let identifier: PlaneIdentifier
        let plane: Plane
        let toLocal: Transform
        let boundary: Polygon2D
        let bounds: (minimum: SIMD2<Float>, maximum: SIMD2<Float>)

        init(_ anchor: PlaneAnchor) {
            identifier = anchor.identifier
            plane = anchor.plane.plane
            toLocal = anchor.plane.transform.inverse
            boundary = anchor.plane.boundary
            var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
            for v in boundary.vertices {
                lo = pointwiseMin(lo, v)
                hi = pointwiseMax(hi, v)
            }
            bounds = (lo, hi)
        }

        func covers(_ p: SIMD3<Float>, facing normal: SIMD3<Float>) -> Bool {
            guard abs(plane.signedDistance(to: p)) <= AnchorChurn.coverageDistance,
                  abs(dot(plane.normal, normal)) >= cosf(AnchorChurn.coverageAngle) else { return false }
            let local = toLocal.apply(toPoint: p)
            let q = SIMD2(local.x, local.z)
            guard q.x >= bounds.minimum.x, q.y >= bounds.minimum.y, q.x <= bounds.maximum.x, q.y <= bounds.maximum.y else { return false }
            return boundary.contains(q)
        }
    }

    /// `planeAdded` events so far.
    public private(set) var added = 0
    /// `planeRemoved` events so far.
    public private(set) var removed = 0
    /// Anchors added farther than ``invalidReadingDistance`` from the camera.
    public private(set) var invalidReadingAnchors = 0
    private var descriptions: [Description] = []

    /// Nothing recorded yet.
    public init() {}

    /// Takes one frame's events; `camera` is the camera's position (world) in that frame.
    public mutating func record(_ events: [SessionEvent], camera: SIMD3<Float>) {
        for event in events {
            switch event.kind {
            case .planeAdded(let anchor):
                added += 1
                if distance(anchor.plane.centroid, camera) > Self.invalidReadingDistance { invalidReadingAnchors += 1 }
                descriptions.append(Description(anchor))
            case .planeUpdated(let anchor):
                descriptions.append(Description(anchor))
            case .planeRemoved:
                removed += 1
            default:
                break
            }
        }
    }

    /// The probe points of `anchor` (world), empty when it is smaller than ``minimumProbedArea``.
    public static func probePoints(on anchor: PlaneAnchor) -> [SIMD3<Float>] {
        guard anchor.area >= minimumProbedArea else { return [] }
        let plane = anchor.plane
        let halfWidth = Int((plane.extent.width / 2 / probeSpacing).rounded(.down))
        let halfLength = Int((plane.extent.length / 2 / probeSpacing).rounded(.down))
        var points: [SIMD3<Float>] = []
        for i in -halfWidth...halfWidth {
            for k in -halfLength...halfLength {
                let local = SIMD2(Float(i), Float(k)) * probeSpacing
                if plane.boundary.contains(local) { points.append(plane.transform.apply(toPoint: SIMD3(local.x, 0, local.y))) }
            }
        }
        return points
    }

    /// The figures, with `alive` the anchors alive after the last frame.
    public func figures(alive: [PlaneAnchor]) -> AnchorChurnFigures {
        var counts: [Int] = []
        for anchor in alive {
            for p in Self.probePoints(on: anchor) {
                var names = Set<PlaneIdentifier>()
                for d in descriptions where !names.contains(d.identifier) && d.covers(p, facing: anchor.normal) { names.insert(d.identifier) }
                counts.append(names.count)
            }
        }
        return AnchorChurnFigures(
            added: added, removed: removed, alive: alive.count,
            floors: alive.filter { $0.plane.classification == .floor }.count,
            invalidReadingAnchors: invalidReadingAnchors, probePoints: counts.count,
            meanIdentifiersPerProbePoint: counts.isEmpty ? 0 : Float(counts.reduce(0, +)) / Float(counts.count),
            maximumIdentifiersPerProbePoint: counts.max() ?? 0)
    }
}

/// What ``AnchorChurn`` measured over a walk.
public struct AnchorChurnFigures: Sendable, Encodable, Equatable {
    /// `planeAdded` events.
    public var added: Int
    /// `planeRemoved` events.
    public var removed: Int
    /// Anchors alive after the last frame.
    public var alive: Int
    /// Anchors alive at the end classified as floor.
    public var floors: Int
    /// Anchors added farther than ``AnchorChurn/invalidReadingDistance`` from the camera.
    public var invalidReadingAnchors: Int
    /// Probe points on the final anchors of at least ``AnchorChurn/minimumProbedArea``.
    public var probePoints: Int
    /// Distinct identifiers that covered a probe point over the walk, on average.
    public var meanIdentifiersPerProbePoint: Float
    /// The most distinct identifiers that covered one probe point.
    public var maximumIdentifiersPerProbePoint: Int

    /// `planeAdded` per anchor alive at the end.
    public var addedPerAlive: Float { alive > 0 ? Float(added) / Float(alive) : .infinity }
}
