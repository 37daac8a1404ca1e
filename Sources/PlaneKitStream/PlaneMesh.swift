import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitPictures
import PlaneKitPlanes

/// The planes as a triangle mesh other tools load (MeshLab, Open3D, PCL, Blender): each plane's
/// boundary polygon, triangulated, in the cloud's coordinates, one colour per plane (the colour
/// `analyze --png` gives it). Planes whose outline has no area are left out.
public struct PlaneMesh: Sendable {
    /// One plane's part of the mesh.
    public struct Part: Sendable, Equatable {
        /// The plane's label (1-based, as in the label image and the table).
        public var label: Int
        /// The outline's corners in the cloud's coordinates.
        public var vertices: [SIMD3<Float>]
        /// Triangles as index triples into ``vertices``, facing the same way as the plane's normal.
        public var triangles: [SIMD3<Int32>]
        /// The plane's colour (0–255 RGB).
        public var colour: SIMD3<UInt8>
    }

    /// One part per plane with an outline that has area, in label order.
    public let parts: [Part]

    /// The mesh of `planes`.
    public init(planes: [DetectedPlane]) {
        parts = planes.compactMap { plane in
            let triangles = PolygonTriangulation.triangles(of: plane.boundary)
            guard !triangles.isEmpty else { return nil }
            // Local (x, z) to the cloud: counter-clockwise in (x, z) is clockwise seen from +Y
            // (x × z = −y), so each triangle is turned to face along the normal (local +Y).
            let vertices = plane.boundary.vertices.map { plane.transform.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
            let colour = SIMD3<UInt8>(clamping: SIMD3<Int32>((SegmentationPicture.colour(key: UInt64(plane.label)) * 255)
                .rounded(.toNearestOrEven)))
            return Part(label: plane.label, vertices: vertices, triangles: triangles.map { SIMD3($0.x, $0.z, $0.y) }, colour: colour)
        }
    }

    /// An ascii PLY file: vertices with `red green blue` and the plane's `label` (uint), faces as
    /// `vertex_indices` lists.
    public func ply() -> [UInt8] {
        let vertexCount = parts.reduce(0) { $0 + $1.vertices.count }
        let faceCount = parts.reduce(0) { $0 + $1.triangles.count }
        var text = "ply\nformat ascii 1.0\ncomment planes found by PlaneKit, one part (label) per plane\n"
        text += "element vertex \(vertexCount)\nproperty float x\nproperty float y\nproperty float z\n"
        text += "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uint label\n"
        text += "element face \(faceCount)\nproperty list uchar int vertex_indices\nend_header\n"
        for part in parts {
            let c = part.colour
            for v in part.vertices { text += "\(v.x) \(v.y) \(v.z) \(c.x) \(c.y) \(c.z) \(part.label)\n" }
        }
        var first = 0
        for part in parts {
            for t in part.triangles { text += "3 \(Int(t.x) + first) \(Int(t.y) + first) \(Int(t.z) + first)\n" }
            first += part.vertices.count
        }
        return Array(text.utf8)
    }

    /// A Wavefront OBJ file: one object `plane-K` per plane, its vertices with their colour as
    /// three more numbers (0–1, read by MeshLab, Open3D and Blender), faces 1-based.
    public func obj() -> [UInt8] {
        var text = "# planes found by PlaneKit, one object per plane\n"
        var first = 1
        for part in parts {
            let c = SIMD3<Float>(part.colour) / 255
            text += "o plane-\(part.label)\n"
            for v in part.vertices { text += "v \(v.x) \(v.y) \(v.z) \(c.x) \(c.y) \(c.z)\n" }
            for t in part.triangles { text += "f \(Int(t.x) + first) \(Int(t.y) + first) \(Int(t.z) + first)\n" }
            first += part.vertices.count
        }
        return Array(text.utf8)
    }

    /// Writes the mesh to `path`: OBJ when it ends in `.obj`, else PLY.
    public func write(to path: String) throws(InputError) {
        try FileBytes.write(path.lowercased().hasSuffix(".obj") ? obj() : ply(), to: path)
    }
}
