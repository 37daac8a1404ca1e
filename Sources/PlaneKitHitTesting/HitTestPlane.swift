import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// A plane a ray can hit: a detected plane in WORLD coordinates and its stable identifier.
public struct HitTestPlane: Sendable, Hashable, Codable {
    /// The plane's name, reported with every hit on it.
    public var identifier: PlaneIdentifier
    /// The plane in world coordinates: its transform, extent (local X/Z, about the transform's
    /// origin), boundary polygon (local `(x, z)`) and alignment.
    public var plane: DetectedPlane

    /// A plane to hit, named `identifier`.
    public init(identifier: PlaneIdentifier, plane: DetectedPlane) {
        self.identifier = identifier
        self.plane = plane
    }

    /// Planes found in one cloud, moved into the world with `worldFromCloud` and named
    /// `plane-1`, `plane-2`, … in the order given (the detector's label order).
    public static func from(_ planes: [DetectedPlane], worldFromCloud: Transform = .identity) -> [HitTestPlane] {
        planes.enumerated().map { index, detected in
            var world = detected
            if worldFromCloud != .identity {
                world.plane = detected.plane.transformed(by: worldFromCloud)
                world.centroid = worldFromCloud.apply(toPoint: detected.centroid)
                world.transform = worldFromCloud * detected.transform
            }
            return HitTestPlane(identifier: PlaneIdentifier(UInt64(index + 1)), plane: world)
        }
    }
}
