import PlaneKitGeometry
import PlaneKitSeededRandom
import PlaneKitSynthesis

/// A smooth closed camera path: a centripetal Catmull-Rom loop through way-points, walked at a
/// constant speed, with a gentle pan and tilt.
///
/// The camera looks along the path's horizontal heading turned by a slow pan of ±``panAmplitude``
/// radians and tilted down by ``pitch`` ± ``pitchAmplitude``; both swing sinusoidally, so
/// position and orientation change smoothly from frame to frame.
public struct CameraPath: Sendable, Hashable {
    /// The way-points the loop passes through, in order.
    public let waypoints: [SIMD3<Float>]
    /// Walking speed in m/s.
    public let speed: Float
    /// Mean downward tilt (radians).
    public var pitch: Double = DeterministicMath.radians(20)
    /// Tilt swing (radians).
    public var pitchAmplitude: Double = DeterministicMath.radians(6)
    /// Pan swing to either side of the heading (radians).
    public var panAmplitude: Double = DeterministicMath.radians(25)
    /// Period of the pan swing (s).
    public var panPeriod: Double = 9
    /// Period of the tilt swing (s).
    public var pitchPeriod: Double = 13

    /// Cumulative arc length at the end of each sample (``samplesPerSegment`` per segment).
    private let cumulative: [Float]
    private static let samplesPerSegment = 64

    /// A loop through `waypoints` (at least 3, consecutive ones distinct) walked at `speed` m/s.
    public init(waypoints: [SIMD3<Float>], speed: Float = 0.5) {
        precondition(waypoints.count >= 3, "a camera loop needs at least 3 way-points")
        self.waypoints = waypoints
        self.speed = speed
        var cumulative: [Float] = []
        cumulative.reserveCapacity(waypoints.count * CameraPath.samplesPerSegment)
        var total: Float = 0
        var previous = waypoints[0]
        for segment in 0..<waypoints.count {
            for step in 1...CameraPath.samplesPerSegment {
                let p = CameraPath.curve(waypoints, segment: segment, t: Float(step) / Float(CameraPath.samplesPerSegment))
                total += (p - previous).length
                cumulative.append(total)
                previous = p
            }
        }
        self.cumulative = cumulative
    }

    /// The length of one loop (m).
    public var length: Float { cumulative.last ?? 0 }

    /// The point at arc length `s` along the loop (wrapping around).
    public func position(atDistance s: Float) -> SIMD3<Float> {
        let (segment, t) = parameter(atDistance: s)
        return CameraPath.curve(waypoints, segment: segment, t: t)
    }

    /// The camera pose (world-from-camera) at time `time` seconds.
    public func pose(atTime time: Double) -> Transform {
        let s = Float(time) * speed
        let eye = position(atDistance: s)
        // Heading along a 1 m chord centred on the camera: the direction of the path smoothed
        // over a metre, so the view turns gently even where the loop bends sharply.
        let ahead = position(atDistance: s + 0.5), behind = position(atDistance: s - 0.5)
        var heading = ahead - behind
        heading.y = 0
        let forward = heading.normalized ?? SIMD3(0, 0, -1)
        let pan = panAmplitude * DeterministicMath.sin(2 * DeterministicMath.pi * time / panPeriod)
        let c = Float(DeterministicMath.cos(pan)), sn = Float(DeterministicMath.sin(pan))
        // Rotation about +Y by `pan`.
        let panned = SIMD3(c * forward.x + sn * forward.z, 0, -sn * forward.x + c * forward.z)
        let tilt = pitch + pitchAmplitude * DeterministicMath.sin(2 * DeterministicMath.pi * time / pitchPeriod)
        return SyntheticRoom.pose(eye: eye, heading: panned, pitchDown: tilt)
    }

    /// Segment index and local parameter at arc length `s`.
    private func parameter(atDistance s: Float) -> (Int, Float) {
        let total = length
        guard total > 0 else { return (0, 0) }
        var d = s.truncatingRemainder(dividingBy: total)
        if d < 0 { d += total }
        // First sample whose cumulative length reaches d.
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < d { lo = mid + 1 } else { hi = mid }
        }
        let start: Float = lo == 0 ? 0 : cumulative[lo - 1]
        let span = cumulative[lo] - start
        let fraction = span > 0 ? (d - start) / span : 0
        let n = CameraPath.samplesPerSegment
        return (lo / n, (Float(lo % n) + fraction) / Float(n))
    }

    /// The centripetal Catmull-Rom curve between way-points `segment` and `segment + 1` of the
    /// closed loop, at local parameter `t` in 0…1 (Barry–Goldman pyramid).
    static func curve(_ points: [SIMD3<Float>], segment: Int, t: Float) -> SIMD3<Float> {
        let n = points.count
        let p0 = points[(segment - 1 + n) % n], p1 = points[segment % n]
        let p2 = points[(segment + 1) % n], p3 = points[(segment + 2) % n]
        // Knot spacing √|Δp| (centripetal): no cusps or self-loops within a segment.
        let t0: Float = 0
        let t1 = t0 + max((p1 - p0).length.squareRoot(), 1e-4)
        let t2 = t1 + max((p2 - p1).length.squareRoot(), 1e-4)
        let t3 = t2 + max((p3 - p2).length.squareRoot(), 1e-4)
        let u = t1 + (t2 - t1) * t
        let a1 = p0 * ((t1 - u) / (t1 - t0)) + p1 * ((u - t0) / (t1 - t0))
        let a2 = p1 * ((t2 - u) / (t2 - t1)) + p2 * ((u - t1) / (t2 - t1))
        let a3 = p2 * ((t3 - u) / (t3 - t2)) + p3 * ((u - t2) / (t3 - t2))
        let b1 = a1 * ((t2 - u) / (t2 - t0)) + a2 * ((u - t0) / (t2 - t0))
        let b2 = a2 * ((t3 - u) / (t3 - t1)) + a3 * ((u - t1) / (t3 - t1))
        return b1 * ((t2 - u) / (t2 - t1)) + b2 * ((u - t1) / (t2 - t1))
    }
}
