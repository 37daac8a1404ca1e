import FoundationEssentials
import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitTracking

/// A depth walk with reference poses for `bench tracking`: a generated one (``SyntheticSequence``)
/// or a recorded one in the TUM RGB-D layout (`depth.txt`, `groundtruth.txt`, `depth/*.png`).
/// Frames are produced one at a time, so a long walk never sits in memory.
struct TrackingWalk {
    /// One frame: its organized cloud (camera coordinates), intrinsics, timestamp, reference
    /// pose (world-from-camera) and, for Open3D, a depth PNG of it.
    struct Frame {
        var cloud: PointCloud
        var intrinsics: PinholeIntrinsics
        var timestamp: Double
        var reference: Transform
        /// The accelerometer's mean reading over the interval before the frame (camera
        /// coordinates, m/s²), when the walk has one.
        var acceleration: SIMD3<Float>?
    }

    /// What the walk is, for the report.
    let name: String
    /// Frames in the walk.
    let count: Int
    /// Intrinsics of every frame.
    let intrinsics: PinholeIntrinsics
    /// Metres per depth PNG unit.
    let depthScale: Float
    /// The noise of the generated walk's accelerometer; `nil` gives frames without readings.
    var accelerometer: SyntheticSequence.AccelerometerNoise?
    private let source: Source

    private enum Source {
        case synthetic(SyntheticSequence)
        case recorded(paths: [String], poses: [Transform], timestamps: [Double])
    }

    /// `frames` frames of the generated walk of `seed`.
    init(seed: UInt64, frames: Int) {
        let sequence = SyntheticSequence(seed: seed, frameCount: frames)
        name = "synth seed \(seed)"
        count = frames
        intrinsics = sequence.renderer.intrinsics
        depthScale = 0.001
        source = .synthetic(sequence)
    }

    /// The first `limit` depth frames of a TUM RGB-D folder that have a reference pose within
    /// 20 ms (the pose nearest in time). Intrinsics default to the Freiburg camera the folder's
    /// name says (freiburg1/2/3), else 525, 525, 319.5, 239.5; depth is 5000 units per metre.
    init(tumFolder folder: String, limit: Int, intrinsics given: PinholeIntrinsics?, depthScale: Float) throws {
        func lines(_ name: String) throws -> [[Substring]] {
            let text = try String(contentsOfFile: URL(fileURLWithPath: folder).appendingPathComponent(name).path, encoding: .utf8)
            return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        }
        let truth: [(t: Double, pose: Transform)] = try lines("groundtruth.txt").compactMap { f in
            let n = f.compactMap { Double($0) }
            guard n.count == 8 else { return nil }
            let q = Quaternion(x: Float(n[4]), y: Float(n[5]), z: Float(n[6]), w: Float(n[7])).normalized
            return (n[0], Transform(rotation: q, translation: SIMD3(Float(n[1]), Float(n[2]), Float(n[3]))))
        }
        guard !truth.isEmpty else { throw ValidationError("\(folder)/groundtruth.txt has no poses") }
        var paths: [String] = [], poses: [Transform] = [], times: [Double] = []
        var j = 0
        for f in try lines("depth.txt") where f.count >= 2 && paths.count < limit {
            guard let t = Double(f[0]) else { continue }
            while j + 1 < truth.count, abs(truth[j + 1].t - t) <= abs(truth[j].t - t) { j += 1 }
            guard abs(truth[j].t - t) <= 0.02 else { continue }
            paths.append(URL(fileURLWithPath: folder).appendingPathComponent(String(f[1])).path)
            poses.append(truth[j].pose)
            times.append(t)
        }
        guard !paths.isEmpty else { throw ValidationError("\(folder): no depth frame has a reference pose within 20 ms") }
        let base = URL(fileURLWithPath: folder).lastPathComponent
        name = base
        count = paths.count
        if let given {
            intrinsics = given
        } else if base.contains("freiburg1") {
            intrinsics = PinholeIntrinsics(fx: 517.3, fy: 516.5, cx: 318.6, cy: 255.3, width: 640, height: 480)!
        } else if base.contains("freiburg2") {
            intrinsics = PinholeIntrinsics(fx: 520.9, fy: 521.0, cx: 325.1, cy: 249.7, width: 640, height: 480)!
        } else if base.contains("freiburg3") {
            intrinsics = PinholeIntrinsics(fx: 535.4, fy: 539.2, cx: 320.1, cy: 247.6, width: 640, height: 480)!
        } else {
            intrinsics = .kinect()
        }
        self.depthScale = depthScale
        source = .recorded(paths: paths, poses: poses, timestamps: times.map { $0 - times[0] })
    }

    /// Frame `index`.
    func frame(_ index: Int, workspace: inout RenderWorkspace) throws -> Frame {
        switch source {
        case .synthetic(let sequence):
            let f = sequence.frame(at: index, workspace: &workspace)
            return Frame(cloud: f.cloud, intrinsics: f.intrinsics, timestamp: f.timestamp, reference: f.pose,
                         acceleration: accelerometer.map { sequence.accelerometerReading(ofFrame: index, noise: $0) })
        case .recorded(let paths, let poses, let timestamps):
            let raw = try DepthImageReader.readRaw(path: paths[index])
            let depth = DepthImage(raw, scale: depthScale)
            return Frame(cloud: depth.pointCloud(intrinsics: intrinsics), intrinsics: intrinsics, timestamp: timestamps[index],
                         reference: poses[index])
        }
    }

    /// The depth PNG of frame `index` for Open3D: the recorded file itself, or the generated
    /// frame written (millimetres) into `folder`.
    func depthPNG(_ index: Int, folder: URL, workspace: inout RenderWorkspace) throws -> String {
        switch source {
        case .synthetic(let sequence):
            let f = sequence.frame(at: index, workspace: &workspace)
            let path = folder.appendingPathComponent(CFormat.string("frame-%06d.png", index)).path
            try PNGWriter.write(try GrayImage(width: f.intrinsics.width, height: f.intrinsics.height, bitDepth: 16,
                                              samples: f.depthMillimetres(invalidValue: 0)), to: path)
            return path
        case .recorded(let paths, _, _):
            return paths[index]
        }
    }

    /// The reference poses of every frame.
    func referencePoses() -> [Transform] {
        switch source {
        case .synthetic(let sequence): (0..<count).map { sequence.pose(ofFrame: $0) }
        case .recorded(_, let poses, _): poses
        }
    }
}
