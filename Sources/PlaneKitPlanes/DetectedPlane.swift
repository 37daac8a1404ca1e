import PlaneKitGeometry

/// A plane found in a cloud or depth frame, described the way ARKit describes a plane anchor.
///
/// All geometry is in the coordinates of the cloud it was found in (the sensor frame for a
/// single file, world coordinates once a pose is applied).
public struct DetectedPlane: Sendable, Codable, Hashable {
    /// The plane's number in the label image (1-based; 0 means "no plane").
    public var label: Int
    /// The infinite plane, its normal facing the sensor.
    public var plane: Plane
    /// The mean of the supporting points.
    public var centroid: SIMD3<Float>
    /// The plane's local frame: origin at the centre of ``extent``, local +Y along the normal,
    /// local X along the direction of greatest spread.
    public var transform: Transform
    /// The bounding rectangle of the supporting points in local X/Z, centred on the origin.
    public var extent: PlaneExtent
    /// The outline of the supporting points in local `(x, z)` coordinates (counter-clockwise).
    public var boundary: Polygon2D
    /// How many measured points support the plane.
    public var pointCount: Int
    /// The area covered by supporting points (m²).
    public var area: Float
    /// Root-mean-square distance of the supporting points from the plane (m).
    public var rmsError: Float
    /// Horizontal, vertical or neither, relative to the up direction used for detection.
    public var alignment: PlaneAlignment
    /// Floor, wall, table, … (see ``PlaneClassification``).
    public var classification: PlaneClassification

    /// The plane's unit normal (facing the sensor).
    public var normal: SIMD3<Float> { plane.normal }
    /// The plane's offset: `normal·p + offset = 0`.
    public var offset: Float { plane.offset }
    /// The centre of the extent, in cloud coordinates.
    public var center: SIMD3<Float> { transform.translation }

    /// Creates a plane description from its parts.
    public init(label: Int, plane: Plane, centroid: SIMD3<Float>, transform: Transform, extent: PlaneExtent,
                boundary: Polygon2D, pointCount: Int, area: Float, rmsError: Float,
                alignment: PlaneAlignment, classification: PlaneClassification) {
        self.label = label
        self.plane = plane
        self.centroid = centroid
        self.transform = transform
        self.extent = extent
        self.boundary = boundary
        self.pointCount = pointCount
        self.area = area
        self.rmsError = rmsError
        self.alignment = alignment
        self.classification = classification
    }

    /// `p` (cloud coordinates) in the plane's local `(x, z)` coordinates.
    public func localCoordinates(of p: SIMD3<Float>) -> SIMD2<Float> {
        let local = transform.inverse.apply(toPoint: p)
        return SIMD2(local.x, local.z)
    }
}
