/// Solving symmetric positive definite systems by Cholesky factorisation, `a = L·Lᵀ`: the pose
/// step of registration (6 × 6) and the depth pattern's cells (hundreds) alike.
enum Cholesky {
    /// The solutions of `a·x = b` (`a` symmetric positive definite, `size × size`, row-major) for
    /// `count` right sides stored one after another in `rightSides`, by Cholesky; `nil` when `a`
    /// is not positive definite.
    static func solve(_ a: [Double], size n: Int, rightSides: [Double], count: Int) -> [Double]? {
        var l = a
        for j in 0..<n {
            var d = l[j * n + j]
            for k in 0..<j { d -= l[j * n + k] * l[j * n + k] }
            guard d > 0 else { return nil }
            let root = d.squareRoot()
            l[j * n + j] = root
            for i in (j + 1)..<n {
                var s = l[i * n + j]
                for k in 0..<j { s -= l[i * n + k] * l[j * n + k] }
                l[i * n + j] = s / root
            }
        }
        var x = rightSides
        for column in 0..<count {
            let o = column * n
            for i in 0..<n {
                var s = x[o + i]
                for k in 0..<i { s -= l[i * n + k] * x[o + k] }
                x[o + i] = s / l[i * n + i]
            }
            for i in stride(from: n - 1, through: 0, by: -1) {
                var s = x[o + i]
                for k in (i + 1)..<n { s -= l[k * n + i] * x[o + k] }
                x[o + i] = s / l[i * n + i]
            }
        }
        return x
    }
}
