import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitInput
import Testing
@testable import PlaneKitStream
@testable import PlaneKitCloudIO
import PlaneKitPlanes

/// The planes as a mesh (issue #26): one part per plane, read back by PlaneKit's own PLY reader.
@Suite struct PlaneMeshTests {
    static func plane(_ label: Int, boundary: [SIMD2<Float>], at height: Float) -> DetectedPlane {
        let transform = Transform(rotation: Matrix3.identity, translation: SIMD3(0, height, 0))
        return DetectedPlane(label: label, plane: Plane(unitNormal: SIMD3(0, 1, 0), offset: -height), centroid: transform.translation,
                             transform: transform, extent: PlaneExtent(width: 2, length: 2), boundary: Polygon2D(boundary),
                             pointCount: 100, area: 1, rmsError: 0, alignment: .horizontal, classification: .none)
    }

    @Test func onePartPerPlaneFacingAlongItsNormal() throws {
        let square: [SIMD2<Float>] = [SIMD2(-1, -1), SIMD2(1, -1), SIMD2(1, 1), SIMD2(-1, 1)]
        let lShape: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 1), SIMD2(1, 1), SIMD2(1, 2), SIMD2(0, 2)]
        let flat = Self.plane(3, boundary: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(2, 0)], at: 0)
        let mesh = PlaneMesh(planes: [Self.plane(1, boundary: square, at: 0), Self.plane(2, boundary: lShape, at: 1), flat])
        #expect(mesh.parts.map(\.label) == [1, 2])
        #expect(mesh.parts.map(\.triangles.count) == [2, 4])
        #expect(mesh.parts[0].colour != mesh.parts[1].colour)
        for part in mesh.parts {
            for t in part.triangles {
                let a = part.vertices[Int(t.x)], b = part.vertices[Int(t.y)], c = part.vertices[Int(t.z)]
                #expect(cross(b - a, c - a).y > 0)
            }
        }
        // PlaneKit's PLY reader reads the vertices back with their colours: one colour a part.
        let cloud = try PLYReader.decode(mesh.ply(), source: "mesh.ply")
        #expect(cloud.count == 10)
        #expect(Set(try #require(cloud.colors).map { [$0.x, $0.y, $0.z] }).count == 2)
        let obj = String(decoding: mesh.obj(), as: UTF8.self)
        #expect(obj.split(separator: "\n").filter { $0.hasPrefix("o ") } == ["o plane-1", "o plane-2"])
        #expect(obj.split(separator: "\n").filter { $0.hasPrefix("f ") }.count == 6)
    }
}
