import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

extension HitTester {
    /// How close (along up) a dragged object must be to a horizontal infinite plane for the
    /// smart hit test to land on it: 5 cm.
    public static let smartHeightTolerance: Float = 0.05

    /// The hit to place or drag an object at:
    ///
    /// 1. The nearest hit on an existing plane's geometry whose alignment is allowed wins.
    /// 2. When `infinitePlane` is set (dragging), the hits on planes taken as infinite, nearest
    ///    first, among allowed alignments: a vertical plane is returned at once; a horizontal
    ///    plane only when `objectPosition`'s height is within 5 cm of the hit's height
    ///    (strictly), or when there is no object yet (`objectPosition == nil`). Sloped planes
    ///    (alignment `.any`) are passed over here: dragging along them is not a thing.
    /// 3. Otherwise the estimated planes: horizontal allowed only → the horizontal estimate;
    ///    vertical only → the vertical estimate, else the horizontal one (something meant for a
    ///    wall can always stand on a table); both → the nearer of the two, or whichever exists.
    ///
    /// `allowedAlignment` is `.horizontal`, `.vertical` or `.any` (both). Returns `nil` when
    /// nothing qualifies or the ray has NaN in it.
    public func smartHitTest(_ ray: Ray, allowedAlignment: PlaneAlignment = .any, infinitePlane: Bool = false,
                             objectPosition: SIMD3<Float>? = nil) -> HitTestResult? {
        guard ray.origin.isFinite, ray.direction.isFinite else { return nil }
        // 1. Geometry.
        if let geometry = hitTest(ray, targets: .existingPlaneGeometry, alignment: allowedAlignment).first {
            return geometry
        }
        // 2. Infinite planes, for dragging.
        if infinitePlane {
            for hit in hitTest(ray, targets: .existingPlaneInfinite, alignment: allowedAlignment) {
                switch hit.alignment {
                case .vertical?:
                    return hit
                case .horizontal?:
                    guard let objectPosition, objectPosition.isFinite else { return hit }
                    if abs(dot(objectPosition, up) - dot(hit.position, up)) < HitTester.smartHeightTolerance { return hit }
                default:
                    continue
                }
            }
        }
        // 3. Estimated planes.
        let (horizontal, vertical) = estimatedHits(ray)
        return HitTester.chooseEstimate(horizontal: horizontal, vertical: vertical, allowedAlignment: allowedAlignment)
    }

    /// Step 3 of the smart hit test: horizontal allowed only → `horizontal`; vertical only →
    /// `vertical`, else `horizontal`; both → the nearer, or whichever exists.
    public static func chooseEstimate(horizontal: HitTestResult?, vertical: HitTestResult?,
                                      allowedAlignment: PlaneAlignment) -> HitTestResult? {
        switch allowedAlignment {
        case .horizontal:
            return horizontal
        case .vertical:
            return vertical ?? horizontal
        case .any:
            guard let horizontal else { return vertical }
            guard let vertical else { return horizontal }
            return vertical.distance < horizontal.distance ? vertical : horizontal
        }
    }

    /// ``smartHitTest(_:allowedAlignment:infinitePlane:objectPosition:)`` for a screen pixel.
    public func smartHitTest(pixel: SIMD2<Float>, camera: PinholeCamera, allowedAlignment: PlaneAlignment = .any,
                             infinitePlane: Bool = false, objectPosition: SIMD3<Float>? = nil) -> HitTestResult? {
        guard let ray = HitTester.ray(throughPixel: pixel, camera: camera) else { return nil }
        return smartHitTest(ray, allowedAlignment: allowedAlignment, infinitePlane: infinitePlane, objectPosition: objectPosition)
    }
}
