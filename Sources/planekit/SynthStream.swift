import Foundation
import PlaneKit

/// `synth --frames N`: a ``SyntheticSequence`` written as a frame stream of depth16 frames, with
/// tap records spread over it.
struct SynthStream {
    let seed: UInt64
    let frameCount: Int
    let tapCount: Int
    let fps: Double
    let sensor: SensorModel

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

    /// Writes the stream to `sink`.
    func write(to sink: FileDescriptorSink) throws {
        let sequence = SyntheticSequence(seed: seed, frameCount: frameCount, frameRate: fps, sensor: sensor)
        var writer = StreamRecordWriter(sink: sink)
        var taps = (0..<tapCount).map { SynthStream.tapFrame($0, tapCount: tapCount, frameCount: frameCount) }[...]
        var samples = ContiguousArray<UInt16>()
        var progress = ProgressBar(total: frameCount, label: "synth")
        var tapIndex = 0
        for index in 0..<frameCount {
            progress.update(index)
            let frame = sequence.frame(at: index)
            SynthStream.millimetres(frame.cloud, into: &samples)
            let record = samples.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: frame.intrinsics, depthScale: SynthStream.depthScale,
                                    timestamp: frame.timestamp, pose: frame.pose)
            }
            try writer.write(.frame(record))
            while let next = taps.first, next == index {
                taps.removeFirst()
                let object = SynthStream.objects[tapIndex % SynthStream.objects.count]
                try writer.write(.tap(TapRecord(pixel: SynthStream.tapPixel(frame), name: object.name, size: object.size)))
                tapIndex += 1
            }
        }
        progress.update(frameCount)
        progress.finish()
        try writer.flush()
    }

    /// Depth in millimetres (0 = none), rounded to nearest, as `synth --depth` writes it.
    static func millimetres(_ cloud: PointCloud, into samples: inout ContiguousArray<UInt16>) {
        if samples.count != cloud.count { samples = ContiguousArray(repeating: 0, count: cloud.count) }
        samples.withUnsafeMutableBufferPointer { out in
            cloud.points.withUnsafeBufferPointer { points in
                for i in points.indices {
                    let z = points[i].z
                    // NaN fails the comparison, so holes become 0. Adding 0.5 and truncating
                    // rounds to the nearest millimetre without rounded()'s libm call (a value
                    // within a float step below a tie may round up, which no one can see).
                    out[i] = z > 0 ? UInt16(min(z, 65.535) * 1000 + 0.5) : 0
                }
            }
        }
    }

    /// A pixel where a tap is likely to land on a floor, table or box top: the measured pixel
    /// nearest the lower middle of the image whose true surface faces up; the lower middle
    /// itself when there is none.
    static func tapPixel(_ frame: SyntheticFrame) -> SIMD2<Float> {
        let width = frame.width, height = frame.height
        let target = SIMD2(width / 2, height * 2 / 3)
        var best: (distance: Int, pixel: SIMD2<Int>)?
        // A coarse grid is plenty to find a good pixel, and keeps this cheap.
        for v in stride(from: 0, to: height, by: 8) {
            for u in stride(from: 0, to: width, by: 8) {
                let label = frame.labels[v * width + u]
                guard label > 0, let plane = frame.plane(id: label), plane.kind.isHorizontal, plane.kind != .ceiling else { continue }
                let d = (u - target.x) * (u - target.x) + (v - target.y) * (v - target.y)
                if best == nil || d < best!.distance { best = (d, SIMD2(u, v)) }
            }
        }
        let pixel = best?.pixel ?? target
        return SIMD2(Float(pixel.x), Float(pixel.y))
    }
}
