import PlaneKitHitTesting

/// Why a session command could not be carried out.
public enum SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No frame with a pose has been given yet, so there is no camera to cast from.
    case notTracking
    /// The ray through the pixel meets no surface an object may stand on.
    case noSurface(pixel: SIMD2<Float>)
    /// There is no object with this identifier.
    case unknownObject(PlacedObjectIdentifier)
    /// An object size must be three positive, finite lengths.
    case invalidSize(SIMD3<Float>)
    /// A rotation angle must be finite.
    case invalidAngle(Float)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .notTracking: "no frame with a camera pose yet"
        case .noSurface(let p): "nothing to stand on at pixel (\(p.x), \(p.y))"
        case .unknownObject(let id): "no object \(id)"
        case .invalidSize(let s): "object size (\(s.x), \(s.y), \(s.z)) must be positive and finite"
        case .invalidAngle(let a): "rotation angle \(a) must be finite"
        }
    }
}
