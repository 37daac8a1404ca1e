import PlaneKitGeometry
import PlaneKitInput
import PlaneKitStream
import PlaneKitStreamFormat

/// The message the view adds to a stream's own events for a frame (see `docs/view.md`):
/// `points`, the frame's depth as a decimated set of world points.
public enum FrameMessages {
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
        let millimetres = worldMillimetres(cloud: cloud, pose: pose, step: step)
        var head = JSONLineWriter(capacity: 64)
        head.beginObject()
        head.field("event", "points")
        head.field("frame", frame)
        head.key("millimetres")
        head.beginArray()
        var tail = JSONLineWriter(capacity: 64)
        tail.beginObject()
        tail.field("step", step)
        tail.field("timestamp", timestamp)
        tail.endObject()
        // Tens of thousands of numbers: written straight into one buffer (a minus sign, at most
        // 10 digits and a comma each), not one call at a time, as this runs on the stream's thread.
        var out = [UInt8](repeating: 0, count: head.bytes.count + millimetres.count * 12 + tail.bytes.count + 1)
        let used = out.withUnsafeMutableBufferPointer { o -> Int in
            var k = 0
            for byte in head.bytes { o[k] = byte; k += 1 }
            millimetres.withUnsafeBufferPointer { numbers in
                for i in numbers.indices {
                    if i > 0 { o[k] = UInt8(ascii: ","); k += 1 }
                    let n = numbers[i]
                    if n < 0 { o[k] = UInt8(ascii: "-"); k += 1 }
                    var magnitude = n.magnitude
                    var digits = 1
                    var scale: UInt32 = 10
                    while digits < 10, magnitude >= scale { digits += 1; scale &*= 10 }
                    var end = k + digits
                    k = end
                    repeat {
                        end -= 1
                        o[end] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                        magnitude /= 10
                    } while magnitude > 0
                }
            }
            // The tail object's "{" becomes "],".
            o[k] = UInt8(ascii: "]"); k += 1
            o[k] = UInt8(ascii: ","); k += 1
            for byte in tail.bytes.dropFirst() { o[k] = byte; k += 1 }
            return k
        }
        out.removeLast(out.count - used)
        return String(decoding: out, as: UTF8.self)
    }

    /// The world coordinates, in whole millimetres, of every `step`-th reading (see
    /// ``points(cloud:pose:step:frame:timestamp:)``), three numbers a point.
    static func worldMillimetres(cloud: PointCloud, pose: Transform, step: Int) -> ContiguousArray<Int32> {
        var out = ContiguousArray<Int32>()
        let rows = cloud.isOrganized ? (cloud.height + step - 1) / step : 1
        let columns = cloud.isOrganized ? (cloud.width + step - 1) / step : (cloud.count + step - 1) / step
        out.reserveCapacity(rows * columns * 3)
        // Clamped so a far point cannot trap the integer conversion (2000 km is far enough).
        let limit: Float = 2e9
        cloud.points.withUnsafeBufferPointer { points in
            let indices: [StrideTo<Int>] = cloud.isOrganized
                ? stride(from: 0, to: cloud.height, by: step).map { v in stride(from: v * cloud.width, to: (v + 1) * cloud.width, by: step) }
                : [stride(from: 0, to: points.count, by: step)]
            for row in indices {
                for i in row {
                    let p = points[i]
                    guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { continue }
                    let w = pose.apply(toPoint: p) * 1000
                    let c = SIMD3<Float>(w.x.clamped(limit), w.y.clamped(limit), w.z.clamped(limit)).rounded(.toNearestOrEven)
                    out.append(Int32(c.x))
                    out.append(Int32(c.y))
                    out.append(Int32(c.z))
                }
            }
        }
        return out
    }
}

extension Float {
    /// The value limited to ±`limit`.
    fileprivate func clamped(_ limit: Float) -> Float { Swift.min(Swift.max(self, -limit), limit) }
}
