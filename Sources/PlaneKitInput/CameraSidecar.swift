import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitGeometry

/// A depth camera's intrinsics and depth scale stored beside a depth image.
///
/// For `NAME_depth.tiff` the files looked for are, in order, `NAME.xml`, `NAME_depth.xml`,
/// `NAME.json`, `NAME_depth.json`. XML files follow OpenNI's layout: the `<depth>` section's
/// `focal_length_x`, `focal_length_y`, `principal_point_x`, `principal_point_y` and optional
/// `z_multiplication_factor`. JSON files hold `{"fx", "fy", "cx", "cy", "depthScale", "pose", "t"}`
/// (`depthScale` optional; `pose` optional, 16 numbers: the world-from-camera transform in
/// column-major order, world +Y up, which tells detection where gravity points; `t` optional, the
/// frame's time in seconds, for a recorded sequence).
public struct CameraSidecar: Sendable, Equatable {
    /// Focal length along X, pixels.
    public var fx: Float
    /// Focal length along Y, pixels.
    public var fy: Float
    /// Principal point X, pixels.
    public var cx: Float
    /// Principal point Y, pixels.
    public var cy: Float
    /// Metres per raw depth unit, when the file gives it.
    public var depthScale: Float?
    /// The camera's world-from-camera pose, when the file gives one.
    public var pose: Transform?
    /// The frame's time (s), when the file gives one.
    public var timestamp: Double?
    /// The file the values came from.
    public var path: String

    /// The intrinsics for an image of `width × height`, or an error when the values are not
    /// usable (focal lengths not positive, values not finite).
    public func intrinsics(width: Int, height: Int) throws(InputError) -> PinholeIntrinsics {
        guard let k = PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) else {
            throw InputError(source: path, problem: "intrinsics fx=\(fx) fy=\(fy) cx=\(cx) cy=\(cy) are not valid (focal lengths must be positive, all finite)")
        }
        return k
    }

    /// The candidate sidecar paths for the image at `imagePath`, in the order they are tried.
    public static func candidates(forImage imagePath: String) -> [String] {
        let url = URL(fileURLWithPath: imagePath)
        let directory = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        var names: [String] = []
        if stem.hasSuffix("_depth") {
            let base = String(stem.dropLast("_depth".count))
            names = [base, stem]
        } else {
            names = [stem]
        }
        return ["xml", "json"].flatMap { ext in names.map { directory.appendingPathComponent("\($0).\(ext)").path } }
    }

    /// The first sidecar found beside `imagePath`, nil when there is none, or an error when
    /// one exists but cannot be read.
    public static func find(besideImage imagePath: String) throws(InputError) -> CameraSidecar? {
        for candidate in candidates(forImage: imagePath) {
            var status = stat()
            guard stat(candidate, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { continue }
            return try read(path: candidate)
        }
        return nil
    }

    /// Reads a sidecar file (XML or JSON, chosen by extension, then by its first character).
    public static func read(path: String) throws(InputError) -> CameraSidecar {
        let bytes = try FileBytes.read(path)
        guard bytes.count <= 1 << 20 else { throw InputError(source: path, problem: "sidecar is larger than 1 MiB") }
        let text = String(decoding: bytes, as: UTF8.self)
        let firstCharacter = text.first { !$0.isWhitespace }
        if path.lowercased().hasSuffix(".json") || firstCharacter == "{" {
            return try parseJSON(bytes, path: path)
        }
        return try parseXML(text, path: path)
    }

    static func parseXML(_ text: String, path: String) throws(InputError) -> CameraSidecar {
        let document = try MiniXML(text, source: path)
        guard let depth = document.root.find("depth") else {
            throw InputError(source: path, problem: "no <depth> section")
        }
        func number(_ name: String) throws(InputError) -> Float? {
            guard let element = depth.child(name) else { return nil }
            let trimmed = String(element.text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            guard let value = Float(trimmed), value.isFinite else {
                throw InputError(source: path, problem: "<depth><\(name)> '\(trimmed.prefix(40))' is not a finite number")
            }
            return value
        }
        func required(_ name: String) throws(InputError) -> Float {
            guard let value = try number(name) else { throw InputError(source: path, problem: "<depth> has no <\(name)>") }
            return value
        }
        return CameraSidecar(fx: try required("focal_length_x"), fy: try required("focal_length_y"),
                             cx: try required("principal_point_x"), cy: try required("principal_point_y"),
                             depthScale: try number("z_multiplication_factor"), pose: nil, timestamp: nil, path: path)
    }

    /// Reads the JSON sidecar's object with the project's own JSON parser (the stream's): the
    /// Foundation decoder's generic machinery cost `analyze` a millisecond of start-up.
    static func parseJSON(_ bytes: [UInt8], path: String) throws(InputError) -> CameraSidecar {
        let shape = "an object with fx, fy, cx, cy and optional depthScale, pose and t"
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try bytes.withUnsafeBufferPointer { (text) throws(JSONSyntaxError) in try JSONParser.parse(text) }
        } catch {
            throw InputError(source: path, problem: "not valid JSON (\(shape)): \(error.message) at byte \(error.offset + 1)")
        }
        guard case .object(let members) = value else { throw InputError(source: path, problem: "not valid JSON (\(shape))") }
        /// The member `key` (the first, if repeated), nil when missing or null.
        func member(_ key: String) -> JSONValue? {
            guard let value = members.first(where: { $0.key == key })?.value, value != .null else { return nil }
            return value
        }
        func number(_ key: String) throws(InputError) -> Double? {
            guard let value = member(key) else { return nil }
            guard case .number(let number) = value, number.isFinite else {
                throw InputError(source: path, problem: "\"\(key)\" is not a finite number")
            }
            return number
        }
        func required(_ key: String) throws(InputError) -> Float {
            guard let value = try number(key) else { throw InputError(source: path, problem: "missing \"\(key)\"") }
            return try single(value, key)
        }
        func single(_ value: Double, _ key: String) throws(InputError) -> Float {
            guard Float(value).isFinite else { throw InputError(source: path, problem: "\"\(key)\" is not a finite number") }
            return Float(value)
        }
        var pose: Transform?
        if let value = member("pose") {
            let numbers: [Double]
            if case .array(let elements) = value {
                numbers = elements.compactMap { if case .number(let number) = $0 { number } else { nil } }
                if numbers.count < elements.count { throw Self.poseError(path: path) }
            } else {
                throw Self.poseError(path: path)
            }
            pose = try Self.pose(numbers, path: path)
        }
        return CameraSidecar(fx: try required("fx"), fy: try required("fy"), cx: try required("cx"), cy: try required("cy"),
                             depthScale: try number("depthScale").map { (scale) throws(InputError) in try single(scale, "depthScale") }, pose: pose,
                             timestamp: try number("t"), path: path)
    }

    private static func pose(_ numbers: [Double], path: String) throws(InputError) -> Transform {
        guard let transform = Transform(columnMajor: numbers.map { Float($0) }) else { throw poseError(path: path) }
        return transform
    }

    private static func poseError(path: String) -> InputError {
        InputError(source: path, problem: "\"pose\" must be 16 finite numbers, column-major, forming a rigid transform (rotation and translation)")
    }
}
