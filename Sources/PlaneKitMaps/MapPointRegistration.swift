import PlaneKitGeometry
import PlaneKitInput

/// Point-to-plane ICP of one frame's samples against a map's points, from a guess of where the
/// camera is in the map (a mapping keyframe's pose): how ``Relocalizer`` registers a view whose
/// planes cannot fix the change of world — surfaces that face only two ways (counter tops and
/// cabinet fronts leave the shift along the counters free), or that the map saw only in part.
///
/// Each iteration draws the map's points, as seen from the current pose, into a coarse depth
/// image (per pixel the nearest point whose normal faces the camera); each sample pairs with the
/// drawn point nearest to it among the 5×5 pixels around its own, within a distance that
/// shrinks from iteration to iteration, normals within 30°; then one Gauss–Newton step over the
/// whole pose. Drawing the map rather than searching space keeps an iteration linear in the
/// map's and the frame's sizes, with no search structure to build.
struct MapPointRegistration: Sendable {
    /// What one registration found.
    struct Result: Sendable {
        /// Map-from-camera.
        var camera: Transform
        /// Samples paired at the last association within ``inlierDistance`` of their map point's plane.
        var inliers: Int
        /// The root mean square point-to-plane residual of the inliers (m).
        var rms: Float
    }

    /// A pair whose residual is within this (m) counts as an inlier.
    static let inlierDistance: Float = 0.015
    /// Residuals beyond this (m) weigh less (Huber).
    static let huberDistance: Float = 0.01
    /// How far (m) beside a sample its map point may lie however tight the pairing distance:
    /// the map keeps one point per 5 cm voxel, so the nearest is often a few centimetres aside
    /// on the same surface, and the pairing distance applies along its normal.
    static let lateralReach: Float = 0.07
    /// Pixels between a sample's own pixel and the farthest drawn point it may pair with.
    static let searchReach = 2
    /// The coarse image is the frame's intrinsics divided by this.
    static let reduction = 8

    /// The map's points and unit normals (map world).
    let points: [SIMD3<Float>], normals: [SIMD3<Float>]
    /// The map's keyframes (map-from-camera)…
    let keyframes: [Transform]
    /// …and the points each could see (``visible(from:points:normals:)``): a registration from
    /// a keyframe draws only these.
    private let visible: [[Int32]]

    /// A registration against `points` and `normals` (map world), from the map's `keyframes`.
    init(points: [SIMD3<Float>], normals: [SIMD3<Float>], keyframes: [Transform]) {
        self.points = points
        self.normals = normals
        self.keyframes = keyframes
        visible = keyframes.map { Self.visible(from: $0, points: points, normals: normals) }
    }

    /// The points a camera at `camera` (map-from-camera) could see: in front of it within 6 m,
    /// inside a cone wider than any depth camera's view by a 15° turn on each side, facing it.
    private static func visible(from camera: Transform, points: [SIMD3<Float>], normals: [SIMD3<Float>]) -> [Int32] {
        let toCamera = camera.inverse
        var indices: [Int32] = []
        for (k, (point, normal)) in zip(points, normals).enumerated() {
            let p = toCamera.apply(toPoint: point)
            guard p.z > 0.1, p.z < 6, abs(p.x) < p.z, abs(p.y) < 0.8 * p.z,
                  dot(toCamera.apply(toDirection: normal), p) < 0 else { continue }
            indices.append(Int32(k))
        }
        return indices
    }

    /// Registers `samples` (camera coordinates, normals facing the camera, from a frame with
    /// `intrinsics`) from where keyframe `keyframe` was, or from `guess` (map-from-camera) near it,
    /// one association and one step per entry of `distances` (the farthest a sample may be from
    /// its map point, m).
    func register(samples: [(SIMD3<Float>, SIMD3<Float>)], intrinsics: PinholeIntrinsics, keyframe: Int, from guess: Transform? = nil,
                  distances: [Float]) -> Result {
        register(samples: samples, intrinsics: intrinsics, drawing: visible[keyframe], from: guess ?? keyframes[keyframe], distances: distances)
    }

    /// ``register(samples:intrinsics:keyframe:from:distances:)`` from a `guess` that is no
    /// keyframe's: the points it could see are drawn.
    func register(samples: [(SIMD3<Float>, SIMD3<Float>)], intrinsics: PinholeIntrinsics, from guess: Transform,
                  distances: [Float]) -> Result {
        register(samples: samples, intrinsics: intrinsics, drawing: Self.visible(from: guess, points: points, normals: normals),
                 from: guess, distances: distances)
    }

    private func register(samples: [(SIMD3<Float>, SIMD3<Float>)], intrinsics: PinholeIntrinsics, drawing candidates: [Int32],
                          from guess: Transform, distances: [Float]) -> Result {
        let reduced = intrinsics.reduced(by: Self.reduction)
        let fx = reduced.fx, fy = reduced.fy, cx = reduced.cx, cy = reduced.cy, width = reduced.width, height = reduced.height
        var drawn = [Int32](repeating: -1, count: width * height)
        var depth = [Float](repeating: .infinity, count: width * height)
        var pairs: [(p: SIMD3<Float>, n: SIMD3<Double>, d: Double, w: Double)] = []
        pairs.reserveCapacity(samples.count)
        var camera = guess
        var result = Result(camera: guess, inliers: 0, rms: 0)
        let cosLimit: Float = 0.866   // cos 30°
        let reach = Self.searchReach
        for distance in distances {
            // The map as the camera at `camera` would see it.
            let toCamera = camera.inverse
            drawn.withUnsafeMutableBufferPointer { drawn in
                depth.withUnsafeMutableBufferPointer { depth in
                    drawn.update(repeating: -1)
                    depth.update(repeating: .infinity)
                    for index in candidates {
                        let p = toCamera.apply(toPoint: points[Int(index)])
                        guard p.z > 0.1, dot(toCamera.apply(toDirection: normals[Int(index)]), p) < 0 else { continue }
                        let uf = fx * p.x / p.z + cx + 0.5, vf = fy * p.y / p.z + cy + 0.5
                        guard uf >= 0, vf >= 0, uf < Float(width), vf < Float(height) else { continue }
                        let pixel = Int(vf) * width + Int(uf)
                        guard p.z < depth[pixel] else { continue }
                        depth[pixel] = p.z
                        drawn[pixel] = index
                    }
                }
            }
            // Each sample with the nearest drawn point around its pixel.
            pairs.removeAll(keepingCapacity: true)
            var inliers = 0, squares: Float = 0
            // The map keeps one point per voxel: its nearest point may lie a voxel aside.
            let reachDistance = max(distance, Self.lateralReach)
            for (s, sn) in samples where s.z > 0 {
                let uf = fx * s.x / s.z + cx + 0.5, vf = fy * s.y / s.z + cy + 0.5
                // A sample of this frame lies in its image; the bounds only keep a damaged one
                // from trapping the conversion or leaving the search window empty.
                guard abs(uf) < 1e6, abs(vf) < 1e6 else { continue }
                let u = Int(uf), v = Int(vf)
                guard u + reach >= 0, u - reach < width, v + reach >= 0, v - reach < height else { continue }
                let q = camera.apply(toPoint: s), qn = camera.apply(toDirection: sn)
                var best = -1, bestDistance = reachDistance * reachDistance
                for row in max(0, v - reach)...min(height - 1, v + reach) {
                    for column in max(0, u - reach)...min(width - 1, u + reach) {
                        let k = Int(drawn[row * width + column])
                        guard k >= 0 else { continue }
                        let d = q - points[k]
                        let d2 = dot(d, d)
                        if d2 < bestDistance, abs(dot(normals[k], qn)) >= cosLimit { (best, bestDistance) = (k, d2) }
                    }
                }
                guard best >= 0 else { continue }
                let n = normals[best]
                let residual = dot(n, q - points[best])
                guard abs(residual) <= distance else { continue }
                if abs(residual) <= Self.inlierDistance {
                    inliers += 1
                    squares += residual * residual
                }
                let weight = abs(residual) <= Self.huberDistance ? 1 : Self.huberDistance / abs(residual)
                pairs.append((s, SIMD3<Double>(n), -Double(dot(n, points[best])), Double(weight)))
            }
            result = Result(camera: camera, inliers: inliers, rms: inliers > 0 ? (squares / Float(inliers)).squareRoot() : 0)
            guard pairs.count >= 6 else { break }
            var rotation = camera.rotation, shift = SIMD3<Double>(camera.translation)
            _ = Relocalizer.pointToPlaneStep(pairs, rotation: &rotation, shift: &shift, aboutUpOnly: false)
            camera = Transform(rotation: rotation, translation: SIMD3<Float>(shift)).orthonormalized
        }
        result.camera = camera
        return result
    }
}
