import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSeededRandom

/// A true plane as one frame sees it: its world geometry, its plane in camera coordinates and
/// how many pixels carry its label.
public struct FramePlane: Sendable, Hashable, Codable {
    /// The face in world coordinates (identifier, kind, plane, rectangle).
    public var truePlane: TruePlane
    /// The plane in the camera frame; its normal faces the camera whenever the face is visible
    /// (on an orthographic grid, which has no camera centre: it points against +Z).
    public var cameraPlane: Plane
    /// Camera-from-face transform: the face's frame (origin at its centre, +Y along its normal,
    /// its rectangle ``TruePlane/extent`` in local X/Z) in camera coordinates.
    public var cameraFrame: Transform
    /// Pixels of the frame's label image with this plane's identifier (after sensor holes).
    public var pixelCount: Int

    /// The plane's identifier (its value in the label image).
    public var id: UInt16 { truePlane.id }
    /// What the face is.
    public var kind: SurfaceKind { truePlane.kind }
    /// The plane in world coordinates.
    public var worldPlane: Plane { truePlane.plane }

    /// The face as seen from a camera at `pose` (world-from-camera), with `pixelCount` labelled pixels.
    public init(truePlane: TruePlane, pose: Transform, pixelCount: Int) {
        let cameraFromWorld = pose.inverse
        self.truePlane = truePlane
        cameraPlane = truePlane.plane.transformed(by: cameraFromWorld)
        cameraFrame = cameraFromWorld * truePlane.frame
        self.pixelCount = pixelCount
    }

    /// The face's corners in camera coordinates, in the order of ``TruePlane/outline``.
    public var cameraCorners: [SIMD3<Float>] {
        truePlane.extent.corners.map { cameraFrame.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
    }
}

/// One rendered depth frame with its ground truth.
public struct SyntheticFrame: Sendable {
    /// The organized cloud in the CAMERA frame (+X right, +Y down, +Z forward), NaN where the
    /// sensor has no reading; `intrinsics` is set (but on an orthographic grid) and `sensorPose`
    /// is ``pose``.
    public var cloud: PointCloud
    /// The ground-truth label of every pixel, row-major: a true plane's identifier, or 0 for
    /// no reading or a non-planar surface.
    public var labels: ContiguousArray<UInt16>
    /// Every true plane of the scene (seen or not), `planes[id − 1]` having identifier `id`.
    public var planes: [FramePlane]
    /// World-from-camera transform.
    public var pose: Transform
    /// Seconds since the start of the sequence (0 for a single frame).
    public var timestamp: Double

    /// Creates a frame from its parts.
    public init(cloud: PointCloud, labels: ContiguousArray<UInt16>, planes: [FramePlane], pose: Transform, timestamp: Double) {
        self.cloud = cloud
        self.labels = labels
        self.planes = planes
        self.pose = pose
        self.timestamp = timestamp
    }

    /// A single frame generated entirely from `seed`: the room `SyntheticRoom(seed:options:)`,
    /// a random camera pose in it and the sensor noise all follow from the seed.
    public init(seed: UInt64, sensor: SensorModel = .kinect, intrinsics: PinholeIntrinsics = .kinect(),
                roomOptions: SyntheticRoom.Options = SyntheticRoom.Options()) {
        let room = SyntheticRoom(seed: seed, options: roomOptions)
        let renderer = SyntheticRenderer(intrinsics: intrinsics, sensor: sensor)
        self = renderer.render(room.scene, pose: room.randomCameraPose(seed: seed),
                               noiseSeed: SeededRandom.derivedSeed(seed, stream: 3))
    }

    /// Pixels per row.
    public var width: Int { cloud.width }
    /// Rows.
    public var height: Int { cloud.height }
    /// The camera intrinsics. A frame on an orthographic grid (``SimulatedSensor/scanner``) has
    /// none, and gets Kinect-like ones of its size here: read `cloud.intrinsics` to tell.
    public var intrinsics: PinholeIntrinsics { cloud.intrinsics ?? .kinect(width: cloud.width, height: cloud.height) }

    /// The true plane with identifier `id`, or `nil`.
    public func plane(id: UInt16) -> FramePlane? {
        let index = Int(id) - 1
        return planes.indices.contains(index) ? planes[index] : nil
    }

    /// The true planes with at least `minimumPixels` labelled pixels in this frame.
    public func visiblePlanes(minimumPixels: Int = 1) -> [FramePlane] {
        planes.filter { $0.pixelCount >= minimumPixels }
    }

    /// The true planes' camera-frame normals, `[id − 1]`, for
    /// `SegmentationScore.angularErrorsDegrees(detectedNormals:trueNormals:)`.
    public var cameraNormals: [SIMD3<Float>] { planes.map(\.cameraPlane.normal) }
}
