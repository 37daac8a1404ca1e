import PlaneKitGeometry
import PlaneKitInput

/// Builds typed records from parsed header objects, checking every field the kind uses.
enum RecordDecoding {
    /// The record kinds, in the order messages list them.
    static let typeNames = ["frame", "tap", "drag", "rotate", "remove", "raycast", "saveMap", "loadMap", "attitude"]

    /// The record described by `fields`, without its payload (frames get an empty one), or the
    /// problem with it.
    static func record(_ fields: HeaderFields) throws(HeaderProblem) -> StreamRecord {
        let type = try fields.requiredString("type")
        switch type {
        case "frame": return .frame(try frame(fields))
        case "tap":
            let size = try fields.floats("size", count: 3).map { SIMD3($0[0], $0[1], $0[2]) } ?? TapRecord.defaultSize
            guard size.x > 0, size.y > 0, size.z > 0 else {
                throw HeaderProblem("\"size\" must be three positive numbers (metres)")
            }
            return .tap(TapRecord(pixel: try pixel(fields), name: try fields.string("name") ?? TapRecord.defaultName, size: size))
        case "drag":
            return .drag(DragRecord(object: try objectID(fields), pixel: try pixel(fields)))
        case "rotate":
            return .rotate(RotateRecord(object: try objectID(fields), angle: try fields.requiredFloat("angle")))
        case "remove":
            return .remove(RemoveRecord(object: try objectID(fields)))
        case "raycast":
            return .raycast(try raycast(fields))
        case "saveMap":
            return .saveMap(try MapFileRecord(fields))
        case "loadMap":
            return .loadMap(try MapFileRecord(fields))
        case "attitude":
            return .attitude(try AttitudeRecord.decode(fields))
        default:
            let shown = type.count <= 40 ? type : String(type.prefix(40)) + "…"
            throw HeaderProblem("unknown record type \"\(shown)\" (expected \(typeNames.joined(separator: ", ")))")
        }
    }

    static func pixel(_ fields: HeaderFields) throws(HeaderProblem) -> SIMD2<Float> {
        SIMD2(try fields.requiredFloat("x"), try fields.requiredFloat("y"))
    }

    static func objectID(_ fields: HeaderFields) throws(HeaderProblem) -> String {
        let id = try fields.requiredString("object")
        guard !id.isEmpty else { throw HeaderProblem("\"object\" must not be empty") }
        return id
    }

    static func frame(_ fields: HeaderFields) throws(HeaderProblem) -> StreamFrame {
        let timestamp = try fields.requiredDouble("t")
        let width = try fields.requiredInteger("width"), height = try fields.requiredInteger("height")
        guard width > 0, height > 0 else { throw HeaderProblem("frame size \(width)×\(height) is not positive") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= InputLimits.maximumElements else {
            let claimed = overflow ? "more than \(Int.max)" : String(pixels)
            throw HeaderProblem("frame claims \(width)×\(height) = \(claimed) pixels, more than the \(InputLimits.maximumElements) allowed")
        }
        let name = try fields.requiredString("encoding")
        guard let encoding = FrameEncoding(rawValue: name) else {
            throw HeaderProblem("unknown encoding \"\(name.prefix(40))\" (expected depth16, depth32f or xyz32f)")
        }
        let bytes = try fields.requiredInteger("bytes")
        let expected = pixels * encoding.bytesPerPixel
        guard bytes == expected else {
            throw HeaderProblem("\"bytes\" is \(bytes), but a \(width)×\(height) \(encoding.rawValue) frame has \(expected)")
        }
        let depthScale = try fields.float("depthScale") ?? StreamFrame.defaultDepthScale
        guard depthScale > 0 else { throw HeaderProblem("\"depthScale\" must be positive, got \(depthScale)") }
        let maxDepth = try fields.float("maxDepth")
        if let maxDepth, !DepthReadingRules.isValid(maxDepth: maxDepth) {
            throw HeaderProblem("\"maxDepth\" must be a positive number of metres, got \(maxDepth)")
        }
        var intrinsics: PinholeIntrinsics?
        if let k = try fields.object("intrinsics") {
            let fx = try k.requiredFloat("fx"), fy = try k.requiredFloat("fy")
            let cx = try k.requiredFloat("cx"), cy = try k.requiredFloat("cy")
            guard let parsed = PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) else {
                throw HeaderProblem("intrinsics fx=\(fx) fy=\(fy) need positive focal lengths")
            }
            intrinsics = parsed
        } else if encoding.isDepth {
            throw HeaderProblem("a \(encoding.rawValue) frame needs \"intrinsics\" {fx, fy, cx, cy}")
        }
        var pose: Transform?
        if let numbers = try fields.floats("pose", count: 16) {
            guard let rigid = Transform(columnMajor: numbers) else {
                throw HeaderProblem("\"pose\" is not a rigid transform (column-major 4×4: a rotation, a translation, bottom row 0 0 0 1)")
            }
            pose = rigid
        }
        var gravity: SIMD3<Float>?
        if let g = try fields.floats("gravity", count: 3) {
            let down = SIMD3(g[0], g[1], g[2])
            guard down.normalized != nil else {
                throw HeaderProblem("\"gravity\" must be a non-zero direction [x, y, z] (the accelerometer's down, camera coordinates)")
            }
            gravity = down
        }
        var acceleration: SIMD3<Float>?
        if let a = try fields.floats("acceleration", count: 3) {
            let reading = SIMD3(a[0], a[1], a[2])
            guard length(reading) <= StreamFrame.maximumAcceleration else {
                throw HeaderProblem("\"acceleration\" is \(length(reading)) m/s²; an accelerometer reads at most \(Int(StreamFrame.maximumAcceleration)) (about 20 g)")
            }
            acceleration = reading
        }
        return StreamFrame(timestamp: timestamp, width: width, height: height, encoding: encoding, depthScale: depthScale,
                           maxDepth: maxDepth, intrinsics: intrinsics, pose: pose, gravity: gravity, acceleration: acceleration,
                           payload: [])
    }

    static func raycast(_ fields: HeaderFields) throws(HeaderProblem) -> RaycastRecord {
        let x = try fields.value("x"), y = try fields.value("y")
        let origin = try fields.value("origin"), direction = try fields.value("direction")
        let hasPixel = x != nil || y != nil
        let hasRay = origin != nil || direction != nil
        let source: RaycastRecord.Source
        switch (hasPixel, hasRay) {
        case (true, false):
            source = .pixel(try pixel(fields))
        case (false, true):
            guard let o = try fields.floats("origin", count: 3) else { throw HeaderProblem("missing \"origin\"") }
            guard let d = try fields.floats("direction", count: 3) else { throw HeaderProblem("missing \"direction\"") }
            guard let unit = SIMD3(d[0], d[1], d[2]).normalized else {
                throw HeaderProblem("\"direction\" must not be zero")
            }
            source = .ray(origin: SIMD3(o[0], o[1], o[2]), direction: unit)
        case (true, true):
            throw HeaderProblem("a raycast has either \"x\",\"y\" or \"origin\",\"direction\", not both")
        case (false, false):
            throw HeaderProblem("a raycast needs \"x\",\"y\" (a pixel) or \"origin\",\"direction\" (a world ray)")
        }
        var target = RaycastTarget.existingPlaneGeometry
        if let name = try fields.string("target") {
            guard let parsed = RaycastTarget(rawValue: name) else {
                throw HeaderProblem("unknown target \"\(name.prefix(40))\" (expected \(RaycastTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            target = parsed
        }
        var alignment = RaycastAlignment.any
        if let name = try fields.string("alignment") {
            guard let parsed = RaycastAlignment(rawValue: name) else {
                throw HeaderProblem("unknown alignment \"\(name.prefix(40))\" (expected horizontal, vertical or any)")
            }
            alignment = parsed
        }
        return RaycastRecord(source: source, target: target, alignment: alignment)
    }
}
