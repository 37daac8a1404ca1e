import PlaneKitGeometry
import PlaneKitInput
import PlaneKitStream

/// The two messages the view adds to a stream's own events for each frame (see
/// `docs/view.md`): `camera`, the frame's camera pose, and `points`, the frame's depth as a
/// decimated set of world points.
public enum FrameMessages {
    /// `{"event":"camera","frame":N,"timestamp":t,"transform":{"columnMajor":[…]}}`, the
    /// world-from-camera pose of the frame.
    public static func camera(frame: Int, timestamp: Double, pose: Transform) -> String {
        var line = JSONLineWriter(capacity: 256)
        line.beginObject()
        line.field("event", "camera")
        line.field("frame", frame)
        line.field("timestamp", timestamp)
        line.field("transform", pose)
        line.endObject()
        return line.text
    }

    /// The pixel step that leaves about `target` points of a `width`×`height` image (at least 1).
    public static func step(width: Int, height: Int, target: Int) -> Int {
        let ratio = Double(width * height) / Double(max(target, 1))
        return max(1, Int(ratio.squareRoot().rounded(.up)))
    }

    /// `{"event":"points","frame":N,"millimetres":[x,y,z,…],"step":s,"timestamp":t}`:
    /// every `step`-th pixel of every `step`-th row of an organized `cloud` (every `step`-th
    /// point of an unorganized one) that has a reading, moved into the world by `pose` and
    /// written as whole millimetres (a viewer needs no more, and integers are short to write
    /// and to parse).
    public static func points(cloud: PointCloud, pose: Transform, step: Int, frame: Int, timestamp: Double) -> String {
        let step = max(step, 1)
        let rows = cloud.isOrganized ? (cloud.height + step - 1) / step : 1
        let columns = cloud.isOrganized ? (cloud.width + step - 1) / step : (cloud.count + step - 1) / step
        var line = JSONLineWriter(capacity: 128 + rows * columns * 18)
        line.beginObject()
        line.field("event", "points")
        line.field("frame", frame)
        line.key("millimetres")
        line.beginArray()
        cloud.points.withUnsafeBufferPointer { points in
            func add(_ p: SIMD3<Float>) {
                guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { return }
                let w = pose.apply(toPoint: p) * 1000
                // Clamp so a far point cannot trap the integer conversion.
                let limit: Float = 1e9
                let c = SIMD3<Float>(w.x.clamped(limit), w.y.clamped(limit), w.z.clamped(limit)).rounded(.toNearestOrEven)
                line.value(Int(c.x))
                line.value(Int(c.y))
                line.value(Int(c.z))
            }
            if cloud.isOrganized {
                for v in stride(from: 0, to: cloud.height, by: step) {
                    let row = v * cloud.width
                    for u in stride(from: 0, to: cloud.width, by: step) { add(points[row + u]) }
                }
            } else {
                for i in stride(from: 0, to: points.count, by: step) { add(points[i]) }
            }
        }
        line.endArray()
        line.field("step", step)
        line.field("timestamp", timestamp)
        line.endObject()
        return line.text
    }
}

extension Float {
    /// The value limited to ±`limit`.
    fileprivate func clamped(_ limit: Float) -> Float { Swift.min(Swift.max(self, -limit), limit) }
}
