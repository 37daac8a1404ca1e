import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitStreamFormat
import PlaneKitSyntheticWalks

/// `synth --frames N`: a ``SyntheticSequence`` written as a frame stream of depth16 frames, with
/// tap records spread over it.
struct SynthStream {
    let seed: UInt64
    let frameCount: Int
    let tapCount: Int
    let fps: Double
    let sensor: SensorModel
    /// Every pose is written as `worldOffset · pose` (`synth --world-offset`).
    var worldOffset = Transform.identity
    /// The accelerometer whose readings go into each frame record (`synth --imu`), if any.
    var accelerometer: SyntheticSequence.AccelerometerNoise?
    /// `false` leaves the poses out, for tracking (`synth --no-poses`).
    var writesPoses = true

    /// Metres per depth16 unit: millimetres, like a Kinect's depth images.
    static let depthScale: Float = 0.001

    /// The objects taps place, in turn: name and size (width, height, depth in metres).
    static let objects: [(name: String, size: SIMD3<Float>)] = [
        ("chair", SIMD3(0.5, 0.8, 0.5)), ("lamp", SIMD3(0.3, 0.5, 0.3)), ("box", SIMD3(0.4, 0.3, 0.4)),
        ("plant", SIMD3(0.35, 0.6, 0.35)), ("vase", SIMD3(0.15, 0.3, 0.15)), ("stool", SIMD3(0.4, 0.45, 0.4)),
    ]

    /// The frame after which tap `j` of `tapCount` comes: spread evenly, never before frame 0.
    static func tapFrame(_ j: Int, tapCount: Int, frameCount: Int) -> Int {
        min(frameCount - 1, (2 * j + 1) * frameCount / (2 * tapCount))
    }

    /// Writes the stream to `sink`: each frame is rendered straight into the payload bytes of
    /// its record (no cloud), and the payload and label storage is reused from frame to frame.
    func write(to sink: FileDescriptorSink) throws {
        let sequence = SyntheticSequence(seed: seed, frameCount: frameCount, frameRate: fps, sensor: sensor)
        let intrinsics = sequence.renderer.intrinsics
        let pixels = intrinsics.width * intrinsics.height
        var writer = StreamRecordWriter(sink: sink)
        var taps = (0..<tapCount).map { SynthStream.tapFrame($0, tapCount: tapCount, frameCount: frameCount) }[...]
        var workspace = RenderWorkspace()
        var payload = [UInt8](repeating: 0, count: 2 * pixels)
        var labels = ContiguousArray<UInt16>(repeating: 0, count: pixels)
        var progress = ProgressBar(total: frameCount, label: "synth")
        var tapIndex = 0
        for index in 0..<frameCount {
            progress.update(index)
            // Labels are only needed to aim this frame's taps.
            let tapped = taps.first == index
            payload.withUnsafeMutableBytes { bytes in
                if tapped {
                    labels.withUnsafeMutableBufferPointer { labels in
                        sequence.renderDepth16(frameAt: index, encoding: .millimetres, into: bytes, labels: labels, workspace: &workspace)
                    }
                } else {
                    sequence.renderDepth16(frameAt: index, encoding: .millimetres, into: bytes, workspace: &workspace)
                }
            }
            // The record shares the payload's storage; it is gone before the next frame writes
            // into it, so the storage stays unique and is reused in place.
            try writer.write(.frame(StreamFrame(timestamp: sequence.timestamp(ofFrame: index), width: intrinsics.width,
                                                height: intrinsics.height, encoding: .depth16, depthScale: SynthStream.depthScale,
                                                intrinsics: intrinsics, pose: writesPoses ? worldOffset * sequence.pose(ofFrame: index) : nil,
                                                acceleration: accelerometer.map { sequence.accelerometerReading(ofFrame: index, noise: $0) },
                                                payload: payload)))
            while let next = taps.first, next == index {
                taps.removeFirst()
                let object = SynthStream.objects[tapIndex % SynthStream.objects.count]
                let pixel = SynthStream.tapPixel(labels: labels, width: intrinsics.width, height: intrinsics.height, room: sequence.room)
                try writer.write(.tap(TapRecord(pixel: pixel, name: object.name, size: object.size)))
                tapIndex += 1
            }
        }
        progress.update(frameCount)
        progress.finish()
        try writer.flush()
    }

    /// A pixel where a tap is likely to land on a floor, table or box top: the measured pixel
    /// nearest the lower middle of the image whose true surface faces up; the lower middle
    /// itself when there is none. `labels` is the frame's label image.
    static func tapPixel(labels: ContiguousArray<UInt16>, width: Int, height: Int, room: SyntheticRoom) -> SIMD2<Float> {
        let target = SIMD2(width / 2, height * 2 / 3)
        var best: (distance: Int, pixel: SIMD2<Int>)?
        let planes = room.planes
        // A coarse grid is plenty to find a good pixel, and keeps this cheap.
        for v in stride(from: 0, to: height, by: 8) {
            for u in stride(from: 0, to: width, by: 8) {
                let label = Int(labels[v * width + u])
                guard label > 0, label <= planes.count else { continue }
                let kind = planes[label - 1].kind
                guard kind.isHorizontal, kind != .ceiling else { continue }
                let d = (u - target.x) * (u - target.x) + (v - target.y) * (v - target.y)
                if best == nil || d < best!.distance { best = (d, SIMD2(u, v)) }
            }
        }
        let pixel = best?.pixel ?? target
        return SIMD2(Float(pixel.x), Float(pixel.y))
    }
}
