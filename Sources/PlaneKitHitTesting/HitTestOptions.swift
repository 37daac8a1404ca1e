/// Settings of the hit tester's estimated planes and feature points.
///
/// Distances grow with range because depth noise does: a Kinect-class sensor has about 6 mm of
/// noise at 2 m and 2.5 cm at 4 m.
public struct HitTestOptions: Sendable, Hashable, Codable {
    /// The angle around the ray within which measured points count as "on the ray" (radians):
    /// feature points, and the points that find the first surface for an estimate. 1° is
    /// 3.5 cm at 2 m, a few pixels of a VGA depth camera.
    public var coneAngle: Float = 1 * .pi / 180
    /// An estimate fits the points within this distance of the first surface along the ray:
    /// `max(minimumPatchRadius, patchRadiusPerMetre · distance)`.
    public var minimumPatchRadius: Float = 0.05
    /// See ``minimumPatchRadius``.
    public var patchRadiusPerMetre: Float = 0.03
    /// The fewest points an estimate is fitted to.
    public var minimumPatchPoints: Int = 12
    /// The fewest cone points that mark the first surface along the ray (fewer are taken as
    /// stray measurements in front of it).
    public var minimumSurfacePoints: Int = 3
    /// The largest RMS distance of the patch from an estimated plane:
    /// `flatnessConstant + flatnessQuadratic · distance²` (m), after the sensor's noise growth.
    public var flatnessConstant: Float = 0.01
    /// See ``flatnessConstant``.
    public var flatnessQuadratic: Float = 0.004
    /// The patch must also be flat relative to its size: RMS distance at most this fraction of
    /// its smaller in-plane spread, so a wall seen from the side never passes as horizontal.
    public var flatnessRatio: Float = 0.3

    /// The default settings.
    public init() {}

    /// The patch radius around a surface at `distance`.
    @inlinable public func patchRadius(atDistance distance: Float) -> Float {
        max(minimumPatchRadius, patchRadiusPerMetre * distance)
    }

    /// The largest RMS distance for an estimate at `distance`.
    @inlinable public func flatnessTolerance(atDistance distance: Float) -> Float {
        flatnessConstant + flatnessQuadratic * distance * distance
    }
}
