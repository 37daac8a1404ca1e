import PlaneKitGeometry

/// A placed object's stable name, printed `object-N`.
public struct PlacedObjectIdentifier: PrefixedIdentifier {
    /// `object-`.
    public static let prefix = "object-"
    /// The number behind the name.
    public var rawValue: UInt64

    /// The identifier with number `rawValue`.
    @inlinable public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }
}

/// An object placed in the world, hit through its oriented bounding box.
public struct PlacedObject: Sendable, Hashable, Codable {
    /// The object's name.
    public var identifier: PlacedObjectIdentifier
    /// Its bounds in world coordinates.
    public var bounds: OrientedBox

    /// An object named `identifier` with world bounds `bounds`.
    public init(identifier: PlacedObjectIdentifier, bounds: OrientedBox) {
        self.identifier = identifier
        self.bounds = bounds
    }
}

/// A ray's hit on a placed object.
public struct ObjectHit: Sendable, Hashable {
    /// The object hit.
    public var identifier: PlacedObjectIdentifier
    /// Distance along the ray to where it enters the box (0 when the ray starts inside).
    public var distance: Float
    /// The entry point, world coordinates.
    public var position: SIMD3<Float>
    /// The ray that hit: one touch's ray, or the ray through the touches' centre.
    public var ray: Ray
}

/// Finds which placed object touches select: objects are hit through their
/// bounding boxes, so a touch near an object still selects it.
public enum ObjectHitTester {
    /// The nearest object `ray` enters, or `nil`. Ties go to the object listed first.
    public static func hit(_ ray: Ray, objects: [PlacedObject]) -> ObjectHit? {
        guard ray.origin.isFinite, ray.direction.isFinite else { return nil }
        var best: ObjectHit?
        for object in objects {
            guard object.bounds.transform.translation.isFinite, object.bounds.halfExtents.isFinite,
                  let t = object.bounds.intersection(with: ray), t.isFinite else { continue }
            if best.map({ t < $0.distance }) ?? true {
                best = ObjectHit(identifier: object.identifier, distance: t, position: ray.point(at: t), ray: ray)
            }
        }
        return best
    }

    /// The object selected by one or more touches on `camera`'s image: each touch point is tried
    /// in turn (the first that hits an object wins), then the centre of all touches. `nil` when
    /// none hits or there are no touches; non-finite touches are skipped.
    public static func hit(touches: [SIMD2<Float>], camera: PinholeCamera, objects: [PlacedObject]) -> ObjectHit? {
        let finite = touches.filter(\.isFinite)
        guard !finite.isEmpty else { return nil }
        for touch in finite {
            if let ray = HitTester.ray(throughPixel: touch, camera: camera), let found = hit(ray, objects: objects) {
                return found
            }
        }
        guard finite.count > 1 else { return nil }
        let centre = finite.reduce(SIMD2<Float>.zero, +) / Float(finite.count)
        guard let ray = HitTester.ray(throughPixel: centre, camera: camera) else { return nil }
        return hit(ray, objects: objects)
    }
}
