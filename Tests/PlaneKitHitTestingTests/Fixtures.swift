import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import PlaneKitPlanes

/// Hand-made planes with known numbers.
enum Fixtures {
    /// A detected plane through `center` with `normal`, local X along `xAxis`, and `polygon`
    /// (local x, z) as its boundary; its extent is the polygon's bounding rectangle.
    static func plane(label: Int, center: SIMD3<Float>, normal: SIMD3<Float>, xAxis: SIMD3<Float>,
                      polygon: [SIMD2<Float>], alignment: PlaneAlignment) -> DetectedPlane {
        let transform = Transform(origin: center, yAxis: normal, xHint: xAxis)
        let boundary = Polygon2D(polygon)
        let bounds = boundary.bounds!
        return DetectedPlane(label: label, plane: Plane(point: center, normal: normal)!, centroid: center, transform: transform,
                             extent: bounds, boundary: boundary, pointCount: 1000, area: boundary.area, rmsError: 0,
                             alignment: alignment, classification: .none)
    }

    static func square(_ half: SIMD2<Float>) -> [SIMD2<Float>] {
        [SIMD2(-half.x, -half.y), SIMD2(half.x, -half.y), SIMD2(half.x, half.y), SIMD2(-half.x, half.y)]
    }

    /// plane-1: the floor y = 0, 4 × 4 m around the origin (local x = world x, local z = world z).
    static let floor = plane(label: 1, center: .zero, normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0),
                             polygon: square(SIMD2(2, 2)), alignment: .horizontal)
    /// plane-2: an L-shaped table top at y = 0.75 centred on (1, 0.75, 0): the 1 × 1 m square
    /// without its quarter x > 0, z > 0 (local), so the extent covers a notch the polygon does not.
    static let table = plane(label: 2, center: SIMD3(1, 0.75, 0), normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0),
                             polygon: [SIMD2(-0.5, -0.5), SIMD2(0.5, -0.5), SIMD2(0.5, 0), SIMD2(0, 0), SIMD2(0, 0.5), SIMD2(-0.5, 0.5)],
                             alignment: .horizontal)
    /// plane-3: the wall z = −2 facing +z, centred at (0, 1.5, −2), 4 m wide, 3 m high
    /// (local x = world x, local z = −world y + 1.5).
    static let wall = plane(label: 3, center: SIMD3(0, 1.5, -2), normal: SIMD3(0, 0, 1), xAxis: SIMD3(1, 0, 0),
                            polygon: square(SIMD2(2, 1.5)), alignment: .vertical)

    static let room: [HitTestPlane] = HitTestPlane.from([floor, table, wall])

    static func ray(_ origin: SIMD3<Float>, _ direction: SIMD3<Float>) -> Ray {
        Ray(origin: origin, direction: direction)!
    }

    /// Points on a regular grid: `count.x × count.y` points from `corner` stepping by `a` and `b`.
    static func grid(corner: SIMD3<Float>, a: SIMD3<Float>, b: SIMD3<Float>, count: SIMD2<Int>) -> [SIMD3<Float>] {
        var points: [SIMD3<Float>] = []
        for i in 0..<count.x {
            for j in 0..<count.y { points.append(corner + Float(i) * a + Float(j) * b) }
        }
        return points
    }
}

func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-5) -> Bool { abs(a - b) <= tolerance }
func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ tolerance: Float = 1e-5) -> Bool { (a - b).length <= tolerance }
