import ArgumentParser
import FoundationEssentials
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitStream
import PlaneKitStreamFormat
import PlaneKitCloudIO

/// A recorded depth walk with reference poses, in the folder layout of a public RGB-D data set,
/// for the benchmarks (`bench tracking --sequence`, `bench relocalization --sequence`):
/// - **TUM RGB-D**: `depth.txt` (timestamp, path), `groundtruth.txt` (timestamp tx ty tz qx qy qz
///   qw), `depth/*.png` at 5000 units per metre; each depth frame takes the reference pose nearest
///   in time, within 20 ms, and frames without one are left out. Intrinsics follow the Freiburg
///   camera the folder's name says (freiburg1/2/3), else 525, 525, 319.5, 239.5.
/// - **7-Scenes**: `frame-NNNNNN.depth.png` (millimetres, 65 535 = no reading) with
///   `frame-NNNNNN.pose.txt` beside it (the 4×4 camera-to-world matrix, row by row), 30 fps,
///   intrinsics 585, 585, 320, 240. A frame whose pose file is missing or not a rigid transform
///   is left out, with a warning.
///
/// A `camera-intrinsics.txt` in the folder (the 3×3 camera matrix, row by row, as 7-Scenes
/// ships it) replaces the layout's intrinsics. A `gravity-direction.txt` (gravity's down in the
/// reference world, three numbers) gives each frame its gravity in camera coordinates
/// (``gravity(_:)``), as an accelerometer would. `encode --sequence` writes the same frames as
/// depth16 records with their poses.
///
/// Only the file list and the poses are read up front; ``cloud(_:)`` and ``streamFrame(_:maxDepth:timestamp:)``
/// read one depth image.
package struct RecordedSequence {
    /// The folder layouts understood.
    package enum Layout: String {
        case tum = "TUM RGB-D"
        case sevenScenes = "7-Scenes"
    }

    /// Which layout the folder has.
    package let layout: Layout
    /// The folder's name, for reports.
    package let name: String
    /// Depth image paths, reference poses (world-from-camera) and timestamps (s from the first), frame by frame.
    package private(set) var paths: [String] = [], poses: [Transform] = [], timestamps: [Double] = []
    /// The first frame's time on the recording's own clock (s): what `timestamps` count from.
    package private(set) var startTime: Double = 0
    /// Intrinsics of every frame.
    package let intrinsics: PinholeIntrinsics
    /// Metres per depth unit.
    package let depthScale: Float
    /// Gravity's down in the reference world (unit), from the folder's `gravity-direction.txt`.
    package let gravityDirection: SIMD3<Float>?

    /// ``init(folder:limit:intrinsics:depthScale:)`` for a command: a folder that cannot be read
    /// as a walk is one line on stderr and exit status 1, without the usage text an argument
    /// error gets (the arguments were fine).
    package static func opened(folder: String, limit: Int = .max, intrinsics: PinholeIntrinsics? = nil,
                               depthScale: Float? = nil) throws -> RecordedSequence {
        do {
            return try RecordedSequence(folder: folder, limit: limit, intrinsics: intrinsics, depthScale: depthScale)
        } catch let error as ValidationError {
            Diagnostics.warn(error.message)
            throw ExitCode(1)
        }
    }

    /// The frames of the folder at `folder`, at most `limit` of them from the start; `intrinsics`
    /// and `depthScale` replace the layout's when given.
    package init(folder: String, limit: Int = .max, intrinsics given: PinholeIntrinsics? = nil, depthScale givenScale: Float? = nil) throws {
        let url = URL(fileURLWithPath: folder)
        name = url.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw ValidationError("\(folder) is not a folder that can be read")
        }
        let given = try given ?? Self.cameraMatrix(in: url, names: names)
        gravityDirection = try Self.gravityDirection(in: url, names: names)
        if names.contains("depth.txt"), names.contains("groundtruth.txt") {
            layout = .tum
            depthScale = givenScale ?? 0.0002
            if let given {
                intrinsics = given
            } else if name.contains("freiburg1") {
                intrinsics = PinholeIntrinsics(fx: 517.3, fy: 516.5, cx: 318.6, cy: 255.3, width: 640, height: 480)!
            } else if name.contains("freiburg2") {
                intrinsics = PinholeIntrinsics(fx: 520.9, fy: 521.0, cx: 325.1, cy: 249.7, width: 640, height: 480)!
            } else if name.contains("freiburg3") {
                intrinsics = PinholeIntrinsics(fx: 535.4, fy: 539.2, cx: 320.1, cy: 247.6, width: 640, height: 480)!
            } else {
                intrinsics = .kinect()
            }
            try readTUM(url, limit: limit)
        } else if names.contains(where: { $0.hasSuffix(".depth.png") }) {
            layout = .sevenScenes
            depthScale = givenScale ?? 0.001
            intrinsics = given ?? PinholeIntrinsics(fx: 585, fy: 585, cx: 320, cy: 240, width: 640, height: 480)!
            readSevenScenes(url, depthNames: names.filter { $0.hasSuffix(".depth.png") }.sorted(), limit: limit)
        } else {
            throw ValidationError("\(folder) is neither a TUM RGB-D folder (depth.txt, groundtruth.txt) nor a 7-Scenes sequence (frame-NNNNNN.depth.png with frame-NNNNNN.pose.txt)")
        }
        guard !paths.isEmpty else { throw ValidationError("\(folder): no depth frame has a reference pose") }
        startTime = timestamps[0]
        timestamps = timestamps.map { $0 - startTime }
    }

    /// How many frames there are.
    package var count: Int { paths.count }

    /// Frame `index`'s gravity (down, unit) in its camera's coordinates: the reference pose's
    /// rotation, transposed, times the world's gravity; `nil` when the folder gives no gravity.
    package func gravity(_ index: Int) -> SIMD3<Float>? {
        gravityDirection.map { poses[index].rotation.transposed * $0 }
    }

    /// Frame `index`'s organized cloud (camera coordinates; 0 and 65 535 are holes).
    package func cloud(_ index: Int) throws -> PointCloud {
        DepthImage(try DepthImageReader.readRaw(path: paths[index]), scale: depthScale).pointCloud(intrinsics: intrinsics)
    }

    /// Frame `index` as a stream record: its raw 16-bit samples, the walk's intrinsics and depth
    /// scale, its reference pose, its gravity when the folder gives one (``gravity(_:)``) and its
    /// time (or `timestamp` when given).
    package func streamFrame(_ index: Int, maxDepth: Float?, timestamp: Double? = nil) throws(InputError) -> StreamFrame {
        let raw = try DepthImageReader.readRaw(path: paths[index])
        let k = intrinsics
        guard let sized = PinholeIntrinsics(fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: raw.width, height: raw.height) else {
            throw InputError(source: paths[index], problem: "a \(raw.width)×\(raw.height) image cannot take the walk's intrinsics")
        }
        var frame = raw.samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: sized, depthScale: depthScale, maxDepth: maxDepth,
                                timestamp: timestamp ?? timestamps[index], pose: poses[index])
        }
        // What an accelerometer would give, so that a stream of the walk knows its up.
        frame.gravity = gravity(index)
        return frame
    }

    /// The intrinsics in the folder's `camera-intrinsics.txt` (fx 0 cx / 0 fy cy / 0 0 1), or
    /// `nil` when it has none; an error when it is there but is not such a matrix.
    private static func cameraMatrix(in folder: URL, names: [String]) throws -> PinholeIntrinsics? {
        guard names.contains("camera-intrinsics.txt") else { return nil }
        let (path, numbers) = Self.numbers(in: folder, file: "camera-intrinsics.txt")
        guard numbers.count == 9, let k = PinholeIntrinsics(fx: numbers[0], fy: numbers[4], cx: numbers[2], cy: numbers[5], width: 640, height: 480) else {
            throw ValidationError("\(path): expected the 3×3 camera matrix fx 0 cx / 0 fy cy / 0 0 1")
        }
        return k
    }

    /// The unit down direction in the folder's `gravity-direction.txt`, `nil` when there is none;
    /// an error when it is there but not three numbers of a direction.
    private static func gravityDirection(in folder: URL, names: [String]) throws -> SIMD3<Float>? {
        guard names.contains("gravity-direction.txt") else { return nil }
        let (path, numbers) = Self.numbers(in: folder, file: "gravity-direction.txt")
        let down = numbers.count == 3 ? SIMD3(numbers[0], numbers[1], numbers[2]) : .zero
        guard length(down) > 0.5 else { throw ValidationError("\(path): expected gravity's direction, three numbers") }
        return normalize(down)
    }

    /// The path of `file` in `folder` and the numbers it holds (whitespace-separated; none when
    /// it cannot be read).
    private static func numbers(in folder: URL, file: String) -> (path: String, numbers: [Float]) {
        let path = folder.appendingPathComponent(file).path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (path, text.split(whereSeparator: \.isWhitespace).compactMap { Float($0) })
    }

    private mutating func readTUM(_ folder: URL, limit: Int) throws {
        func lines(_ name: String) throws -> [[Substring]] {
            let text = try String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8)
            return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        }
        let truth: [(t: Double, pose: Transform)] = try lines("groundtruth.txt").compactMap { f in
            let n = f.compactMap { Double($0) }
            guard n.count == 8, n.allSatisfy(\.isFinite) else { return nil }
            let q = Quaternion(x: Float(n[4]), y: Float(n[5]), z: Float(n[6]), w: Float(n[7])).normalized
            return (n[0], Transform(rotation: q, translation: SIMD3(Float(n[1]), Float(n[2]), Float(n[3]))))
        }
        guard !truth.isEmpty else { throw ValidationError("\(folder.path)/groundtruth.txt has no poses") }
        var j = 0
        for f in try lines("depth.txt") where f.count >= 2 && paths.count < limit {
            guard let t = Double(f[0]), t.isFinite else { continue }
            while j + 1 < truth.count, abs(truth[j + 1].t - t) <= abs(truth[j].t - t) { j += 1 }
            guard abs(truth[j].t - t) <= 0.02 else { continue }
            paths.append(folder.appendingPathComponent(String(f[1])).path)
            poses.append(truth[j].pose)
            timestamps.append(t)
        }
    }

    private mutating func readSevenScenes(_ folder: URL, depthNames: [String], limit: Int) {
        var skipped: [String] = []
        for depthName in depthNames where paths.count < limit {
            let stem = String(depthName.dropLast(".depth.png".count))
            let posePath = folder.appendingPathComponent(stem + ".pose.txt").path
            // Row by row; the column-major form is its transpose.
            let rows = ((try? String(contentsOfFile: posePath, encoding: .utf8)) ?? "")
                .split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
            guard rows.count == 16, let pose = Transform(columnMajor: (0..<16).map { rows[($0 % 4) * 4 + $0 / 4] }) else {
                skipped.append(stem)
                continue
            }
            guard let number = Int(stem.drop { !$0.isNumber }) else {
                skipped.append(stem)
                continue
            }
            paths.append(folder.appendingPathComponent(depthName).path)
            poses.append(pose)
            timestamps.append(Double(number) / 30)
        }
        if let first = skipped.first {
            Diagnostics.warn("\(folder.path): \(skipped.count) frame(s) left out, the first \(first): no pose file, or not 16 numbers of a rigid transform")
        }
    }
}
