import PlaneKitGeometry
import PlaneKitSynthesis

/// Hand-built scenes with known answers, seen from the identity pose (camera frame = world
/// frame: +X right, +Y down, +Z forward).
enum Scenes {
    /// One large wall facing the camera at depth `depth`.
    static func wall(at depth: Float) -> SyntheticScene {
        var scene = SyntheticScene()
        scene.addRectangle(kind: .wall, center: SIMD3(0, 0, depth), normal: SIMD3(0, 0, -1), xAxis: SIMD3(1, 0, 0),
                           size: SIMD2(20, 20))
        return scene
    }

    /// A wall at 3 m with a 1 m cube whose front face is at 2 m in front of it.
    static func boxBeforeWall() -> SyntheticScene {
        var scene = wall(at: 3)
        scene.addBox(OrientedBox(transform: Transform(translation: SIMD3(0, 0, 2.5)), size: SIMD3(1, 1, 1)))
        return scene
    }

    /// The sum of squares and count helper: mean and standard deviation of `values`.
    static func meanAndDeviation(_ values: [Double]) -> (mean: Double, deviation: Double) {
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n
        return (mean, variance.squareRoot())
    }

    /// The direction `(x', y', 1)` of pixel `(u, v)`.
    static func ray(_ intrinsics: PinholeIntrinsics, u: Int, v: Int) -> SIMD3<Float> {
        SIMD3((Float(u) - intrinsics.cx) / intrinsics.fx, (Float(v) - intrinsics.cy) / intrinsics.fy, 1)
    }
}
