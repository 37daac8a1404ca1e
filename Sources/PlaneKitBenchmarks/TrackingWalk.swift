import FoundationEssentials
import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport
import PlaneKitSyntheticWalks

/// A depth walk with reference poses for `bench tracking`: a generated one (``SyntheticSequence``)
/// or a recorded one (``RecordedSequence``: the TUM RGB-D or 7-Scenes layout).
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
        /// Gravity's down (unit, camera coordinates), when the walk gives it.
        var gravity: SIMD3<Float>?
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
    /// Whether frames carry the recorded walk's gravity (when it has one).
    var usesGravity = true
    /// `true` when the walk's frames can carry gravity.
    var hasGravity: Bool {
        if case .recorded(let sequence) = source { return sequence.gravityDirection != nil }
        return false
    }
    private let source: Source

    private enum Source {
        case synthetic(SyntheticSequence)
        case recorded(RecordedSequence)
    }

    /// `frames` frames of the generated walk of `seed`.
    package init(seed: UInt64, frames: Int) {
        let sequence = SyntheticSequence(seed: seed, frameCount: frames)
        name = "synth seed \(seed)"
        count = frames
        intrinsics = sequence.renderer.intrinsics
        depthScale = 0.001
        source = .synthetic(sequence)
    }

    /// A recorded walk (``RecordedSequence``: a TUM RGB-D or 7-Scenes folder).
    init(recorded: RecordedSequence) {
        name = recorded.name
        count = recorded.count
        intrinsics = recorded.intrinsics
        depthScale = recorded.depthScale
        source = .recorded(recorded)
    }

    /// Frame `index`.
    func frame(_ index: Int, workspace: inout RenderWorkspace) throws -> Frame {
        switch source {
        case .synthetic(let sequence):
            let f = sequence.frame(at: index, workspace: &workspace)
            return Frame(cloud: f.cloud, intrinsics: f.intrinsics, timestamp: f.timestamp, reference: f.pose,
                         acceleration: accelerometer.map { sequence.accelerometerReading(ofFrame: index, noise: $0) })
        case .recorded(let sequence):
            return Frame(cloud: try sequence.cloud(index), intrinsics: intrinsics, timestamp: sequence.timestamps[index],
                         reference: sequence.poses[index], gravity: usesGravity ? sequence.gravity(index) : nil)
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
        case .recorded(let sequence):
            return sequence.paths[index]
        }
    }

    /// The time of every frame on the walk's own clock (s): a recorded walk's as its files give it.
    var recordedTimes: [Double] {
        switch source {
        case .synthetic(let sequence): (0..<count).map { sequence.timestamp(ofFrame: $0) }
        case .recorded(let sequence): sequence.timestamps.prefix(count).map { $0 + sequence.startTime }
        }
    }

    /// The reference poses of every frame.
    func referencePoses() -> [Transform] {
        switch source {
        case .synthetic(let sequence): (0..<count).map { sequence.pose(ofFrame: $0) }
        case .recorded(let sequence): sequence.poses
        }
    }
}
