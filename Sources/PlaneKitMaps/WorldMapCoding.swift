import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitAnchors
import PlaneKitPlanes

/// The binary form of a ``WorldMap`` (`docs/world-map.md`): a 20-byte header — magic
/// `PKWMAP`, format version, body size, compressed size, CRC-32 of the body — then the body
/// compressed with zlib (deflate). All numbers little-endian.
///
/// Decoding is defensive: the header's sizes are checked against the file and against
/// deflate's largest possible ratio before inflating (no zip bomb), the body against its
/// checksum, every count against the bytes left before allocating, every number for
/// finiteness and range. Any problem is one ``WorldMapError``; nothing traps.
public enum WorldMapCoding {
    /// The format version written and read.
    public static let version: UInt16 = 1
    /// The magic bytes every map starts with.
    static let magic = Array("PKWMAP".utf8)
    /// Header bytes: magic (6), version (2), body size (4), compressed size (4), CRC-32 (4).
    public static let headerBytes = 20
    /// The largest body accepted (bytes, uncompressed): 256 MiB.
    public static let maximumBodyBytes = 256 << 20
    /// Deflate never compresses better than about 1032 : 1, so a body claiming more than this
    /// many bytes per compressed byte is refused before any memory is set aside for it.
    static let maximumRatio = 1032
    /// The longest object name (UTF-8 bytes).
    static let maximumNameBytes = 1024
    /// Limits on counts, far above any real room, so a damaged count fails fast.
    static let maximumAnchors = 1 << 16, maximumObjects = 1 << 16, maximumVertices = 1 << 16
    static let maximumRuns = 1 << 20, maximumKeyframes = 1 << 20, maximumPoints = 1 << 24

    // MARK: Writing

    /// The map's bytes: header and deflated body.
    public static func encode(_ map: WorldMap) -> [UInt8] {
        let body = encodeBody(map)
        let compressed = Zlib.deflate(body, level: 9)
        let crc = body.withUnsafeBytes { Zlib.crc32($0) }
        var header = MapByteWriter()
        for b in magic { header.u8(b) }
        header.u16(version)
        header.count(body.count)
        header.count(compressed.count)
        header.u32(crc)
        return header.bytes + compressed
    }

    /// Writes the map to `path` (atomically); returns the bytes written.
    @discardableResult
    public static func write(_ map: WorldMap, to path: String) throws(InputError) -> Int {
        let bytes = encode(map)
        try FileBytes.write(bytes, to: path)
        return bytes.count
    }

    static func encodeBody(_ map: WorldMap) -> [UInt8] {
        var w = MapByteWriter()
        w.u8(UInt8(MappingStatus.allCases.firstIndex(of: map.mappingStatus) ?? 0))
        w.u64(map.nextPlaneNumber)
        w.u64(map.nextObjectNumber)
        w.count(map.anchors.count)
        for anchor in map.anchors { write(anchor, into: &w) }
        w.count(map.objects.count)
        for object in map.objects {
            w.u64(object.identifier.rawValue)
            w.string(object.name)
            w.vector(object.size)
            w.transform(object.transform)
            w.u64(object.planeIdentifier?.rawValue ?? 0)
            w.u8(code(object.alignment))
        }
        w.count(map.keyframes.count)
        for pose in map.keyframes { w.transform(pose) }
        w.count(map.points.count)
        for (p, n) in zip(map.points, map.normals) {
            w.vector(p)
            // Normals to 1/127: about half a degree, plenty for matching surfaces.
            let q = (n * 127).rounded(.toNearestOrAwayFromZero)
            w.u8(UInt8(bitPattern: Int8(max(-127, min(127, q.x)))))
            w.u8(UInt8(bitPattern: Int8(max(-127, min(127, q.y)))))
            w.u8(UInt8(bitPattern: Int8(max(-127, min(127, q.z)))))
        }
        return w.bytes
    }

    /// One anchor as maps code it (also what a host sends its joiners when an anchor changes).
    public static func write(_ a: WorldMap.Anchor, into w: inout MapByteWriter) {
        w.u64(a.identifier.rawValue)
        w.transform(a.gridFrame)
        w.f32(a.cellSize)
        let p = a.plane
        w.transform(p.transform)
        w.vector(p.plane.normal)
        w.f32(p.plane.offset)
        w.vector(p.centroid)
        w.f32(p.extent.center.x); w.f32(p.extent.center.y); w.f32(p.extent.width); w.f32(p.extent.length)
        w.f32(p.area)
        w.f32(p.rmsError)
        w.i64(p.pointCount)
        w.u8(code(p.alignment))
        w.u8(UInt8(PlaneClassification.allCases.firstIndex(of: p.classification) ?? 0))
        w.i64(a.support.count)
        w.vector(a.support.sum); w.vector(a.support.sumSquares); w.vector(a.support.sumCross)
        w.i64(a.firstFrame); w.i64(a.lastSeenFrame); w.i64(a.observationCount)
        w.count(p.boundary.vertices.count)
        for v in p.boundary.vertices { w.f32(v.x); w.f32(v.y) }
        w.count(a.cellRuns.count)
        for run in a.cellRuns { w.i16(run.row); w.i16(run.column); w.u16(run.count) }
    }

    private static func code(_ alignment: PlaneAlignment) -> UInt8 {
        UInt8(PlaneAlignment.allCases.firstIndex(of: alignment) ?? 0)
    }

    // MARK: Reading

    /// Reads the map at `path`; a missing or unreadable file is an `InputError`, a bad map a
    /// ``WorldMapError`` (both one line, `path: problem`).
    public static func read(_ path: String) throws -> WorldMap {
        let bytes = try FileBytes.read(path)
        do {
            return try decode(bytes)
        } catch {
            throw InputError(source: path, problem: error.description)
        }
    }

    /// The map in `bytes`, or the first problem found.
    public static func decode(_ bytes: [UInt8]) throws(WorldMapError) -> WorldMap {
        guard bytes.count >= headerBytes, Array(bytes[0..<6]) == magic else { throw .notAMap }
        var header = MapByteReader(Array(bytes[6..<headerBytes]))
        let version = try header.u16("version")
        guard version == WorldMapCoding.version else { throw .unsupportedVersion(version) }
        let bodySize = Int(try header.u32("body size"))
        let compressedSize = Int(try header.u32("compressed size"))
        let crc = try header.u32("checksum")
        let available = bytes.count - headerBytes
        guard compressedSize <= available else {
            throw .truncated("the header announces \(compressedSize) compressed bytes, the file has \(available)")
        }
        guard compressedSize == available else {
            throw .invalid("\(available - compressedSize) bytes after the compressed body")
        }
        guard bodySize <= maximumBodyBytes else { throw .tooLarge("body of \(bodySize) bytes, at most \(maximumBodyBytes) allowed") }
        guard bodySize <= compressedSize * maximumRatio + 64 else {
            throw .tooLarge("\(compressedSize) compressed bytes cannot inflate to the \(bodySize) announced")
        }
        let inflated: Result<[UInt8], InputError> = bytes.withUnsafeBytes { raw in
            do throws(InputError) {
                return .success(try Zlib.inflate(UnsafeRawBufferPointer(rebasing: raw[headerBytes...]), expectedSize: bodySize,
                                                 source: "body"))
            } catch {
                return .failure(error)
            }
        }
        let body: [UInt8]
        switch inflated {
        case .success(let b): body = b
        case .failure(let error): throw .corrupt(error.problem)
        }
        let found = body.withUnsafeBytes { Zlib.crc32($0) }
        guard found == crc else { throw .checksumMismatch(expected: crc, found: found) }
        return try decodeBody(body)
    }

    static func decodeBody(_ body: [UInt8]) throws(WorldMapError) -> WorldMap {
        var r = MapByteReader(body)
        let statusCode = Int(try r.u8("mapping status"))
        guard statusCode < MappingStatus.allCases.count else { throw .invalid("mapping status \(statusCode) is unknown") }
        let nextPlane = try r.u64("next plane number"), nextObject = try r.u64("next object number")
        guard nextPlane < 1 << 62, nextObject < 1 << 62 else { throw .invalid("identifier numbers out of range") }

        // The smallest anchor is 282 bytes; objects 79, keyframes 48, points 15.
        let anchorCount = try r.count("anchors", itemBytes: 282, limit: maximumAnchors)
        var anchors: [WorldMap.Anchor] = []
        anchors.reserveCapacity(anchorCount)
        for k in 0..<anchorCount {
            let anchor = try readAnchor(&r, index: k)
            guard anchor.identifier.rawValue < nextPlane, anchors.last.map({ $0.identifier < anchor.identifier }) ?? true else {
                throw .invalid("anchor \(k + 1): identifier \(anchor.identifier) out of order or not below the next plane number \(nextPlane)")
            }
            anchors.append(anchor)
        }

        let objectCount = try r.count("objects", itemBytes: 79, limit: maximumObjects)
        var objects: [WorldMap.Object] = []
        objects.reserveCapacity(objectCount)
        for k in 0..<objectCount {
            let what = "object \(k + 1)"
            let id = try r.u64("\(what) identifier")
            // Not bounded by the next object number: a shared space's map holds other peers'
            // objects, numbered in their own ranges (a session skips numbers in use).
            guard id > 0, objects.last.map({ $0.identifier.rawValue < id }) ?? true else {
                throw .invalid("\(what): identifier \(id) is 0 or out of order")
            }
            let name = try r.string("\(what) name")
            let size = try r.vector("\(what) size")
            guard size.x > 0, size.y > 0, size.z > 0 else { throw .invalid("\(what): size must be positive") }
            let transform = try r.transform("\(what) transform")
            let plane = try r.u64("\(what) plane")
            let alignment = try alignment(try r.u8("\(what) alignment"), what)
            objects.append(WorldMap.Object(identifier: PlacedObjectIdentifier(id), name: name, size: size, transform: transform,
                                           planeIdentifier: plane == 0 ? nil : PlaneIdentifier(plane), alignment: alignment))
        }

        let keyframeCount = try r.count("keyframes", itemBytes: 48, limit: maximumKeyframes)
        var keyframes: [Transform] = []
        keyframes.reserveCapacity(keyframeCount)
        for k in 0..<keyframeCount { keyframes.append(try r.transform("keyframe \(k + 1)")) }

        let pointCount = try r.count("points", itemBytes: 15, limit: maximumPoints)
        var points: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = []
        points.reserveCapacity(pointCount)
        normals.reserveCapacity(pointCount)
        for k in 0..<pointCount {
            points.append(try r.vector("point \(k + 1)"))
            let q = SIMD3<Float>(Float(Int8(bitPattern: try r.u8("normal"))), Float(Int8(bitPattern: try r.u8("normal"))),
                                 Float(Int8(bitPattern: try r.u8("normal"))))
            guard let n = q.normalized else { throw .invalid("point \(k + 1) has a zero normal") }
            normals.append(n)
        }
        guard r.remaining == 0 else { throw .invalid("\(r.remaining) bytes after the points") }
        return WorldMap(anchors: anchors, objects: objects, keyframes: keyframes, points: points, normals: normals,
                        mappingStatus: MappingStatus.allCases[statusCode], nextPlaneNumber: nextPlane, nextObjectNumber: nextObject)
    }

    /// One anchor as ``write(_:into:)`` codes it, every field checked (`index` names it in errors).
    public static func readAnchor(_ r: inout MapByteReader, index: Int) throws(WorldMapError) -> WorldMap.Anchor {
        let what = "anchor \(index + 1)"
        let id = try r.u64("\(what) identifier")
        guard id > 0, id < 1 << 62 else { throw .invalid("\(what): identifier \(id) out of range") }
        let gridFrame = try r.transform("\(what) grid frame")
        let cellSize = try r.f32("\(what) cell size")
        guard cellSize >= 0.001, cellSize <= 1 else { throw .invalid("\(what): cell size \(cellSize) m is not in 0.001…1") }
        let transform = try r.transform("\(what) transform")
        let normal = try r.vector("\(what) normal")
        guard abs(normal.length - 1) < 1e-3 else { throw .invalid("\(what): the normal is not a unit vector") }
        let offset = try r.f32("\(what) offset")
        let centroid = try r.vector("\(what) centroid")
        let extentCenter = SIMD2(try r.f32("\(what) extent"), try r.f32("\(what) extent"))
        let width = try r.f32("\(what) width"), length = try r.f32("\(what) length")
        let area = try r.f32("\(what) area"), rms = try r.f32("\(what) rms error")
        guard width >= 0, length >= 0, area >= 0, rms >= 0 else { throw .invalid("\(what): a size is negative") }
        let pointCount = try r.i64("\(what) point count")
        guard pointCount >= 0 else { throw .invalid("\(what): negative point count") }
        let alignment = try alignment(try r.u8("\(what) alignment"), what)
        let classCode = Int(try r.u8("\(what) classification"))
        guard classCode < PlaneClassification.allCases.count else { throw .invalid("\(what): classification \(classCode) is unknown") }
        var support = PointMoments()
        support.count = try r.i64("\(what) support count")
        guard support.count >= 0 else { throw .invalid("\(what): negative support count") }
        support.sum = try r.vector64("\(what) support")
        support.sumSquares = try r.vector64("\(what) support")
        support.sumCross = try r.vector64("\(what) support")
        let firstFrame = try r.i64("\(what) first frame"), lastSeen = try r.i64("\(what) last frame")
        let observations = try r.i64("\(what) observation count")
        guard observations >= 0 else { throw .invalid("\(what): negative observation count") }
        let vertexCount = try r.count("\(what) boundary vertices", itemBytes: 8, limit: maximumVertices)
        var vertices: [SIMD2<Float>] = []
        vertices.reserveCapacity(vertexCount)
        for _ in 0..<vertexCount { vertices.append(SIMD2(try r.f32("\(what) vertex"), try r.f32("\(what) vertex"))) }
        let runCount = try r.count("\(what) cell runs", itemBytes: 6, limit: maximumRuns)
        var runs: [WorldMap.CellRun] = []
        runs.reserveCapacity(runCount)
        let limit = PlaneOccupancy.maximumHalfSide
        for _ in 0..<runCount {
            let run = WorldMap.CellRun(row: try r.i16("\(what) run"), column: try r.i16("\(what) run"), count: try r.u16("\(what) run"))
            guard abs(Int(run.row)) <= limit, abs(Int(run.column)) <= limit, run.count > 0,
                  Int(run.column) + Int(run.count) - 1 <= limit else {
                throw .invalid("\(what): a cell run lies outside the ±\(limit)-cell grid")
            }
            runs.append(run)
        }
        let plane = DetectedPlane(label: 0, plane: Plane(unitNormal: normal, offset: offset), centroid: centroid, transform: transform,
                                  extent: PlaneExtent(center: extentCenter, width: width, length: length),
                                  boundary: Polygon2D(vertices), pointCount: pointCount, area: area, rmsError: rms,
                                  alignment: alignment, classification: PlaneClassification.allCases[classCode])
        return WorldMap.Anchor(identifier: PlaneIdentifier(id), plane: plane, gridFrame: gridFrame, cellSize: cellSize,
                               cellRuns: runs, support: support, firstFrame: firstFrame, lastSeenFrame: lastSeen,
                               observationCount: observations)
    }

    private static func alignment(_ code: UInt8, _ what: String) throws(WorldMapError) -> PlaneAlignment {
        guard Int(code) < PlaneAlignment.allCases.count else { throw .invalid("\(what): alignment \(code) is unknown") }
        return PlaneAlignment.allCases[Int(code)]
    }
}
