import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// One plane found in one frame, in world coordinates, ready to be associated with anchors.
public struct PlaneObservation: Sendable {
    /// The plane's description in WORLD coordinates (normal facing the camera that saw it).
    public var plane: DetectedPlane
    /// Moments of (a regular subsample of) its supporting points, world coordinates: what the
    /// anchor's running least-squares fit accumulates.
    public var support: PointMoments

    /// An observation from its parts.
    public init(plane: DetectedPlane, support: PointMoments) {
        self.plane = plane
        self.support = support
    }

    /// A plane found in a camera frame moved into the world with `pose` (world-from-camera).
    /// The alignment is judged against the world's `up`.
    public init(cameraPlane: DetectedPlane, support: PointMoments, pose: Transform, up: SIMD3<Float>,
                alignmentTolerance: Float = PlaneAlignment.defaultTolerance) {
        var world = cameraPlane
        world.plane = cameraPlane.plane.transformed(by: pose)
        world.centroid = pose.apply(toPoint: cameraPlane.centroid)
        world.transform = pose * cameraPlane.transform
        world.alignment = PlaneAlignment(normal: world.plane.normal, up: up, tolerance: alignmentTolerance)
        self.init(plane: world, support: support)
    }

    /// The outline's vertices in world coordinates.
    var worldOutline: [SIMD3<Float>] {
        plane.boundary.vertices.map { plane.transform.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
    }
}
