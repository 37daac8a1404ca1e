/// Solving symmetric positive definite systems by Cholesky factorisation, `a = L·Lᵀ`: the pose
/// step of registration (6 × 6) and the depth pattern's cells (hundreds) alike.
enum Cholesky {
    /// The solutions of `a·x = b` (`a` symmetric positive definite, `size × size`, row-major) for
    /// `count` right sides stored one after another in `rightSides`, by Cholesky; `nil` when `a`
    /// is not positive definite.
    static func solve(_ a: [Double], size n: Int, rightSides: [Double], count: Int) -> [Double]? {
        // Through pointers: the inner loops run n³/6 times for hundreds of cells, and bounds
        // checks doubled their instructions. The order of every sum is the same.
        var l = a
        let factored = l.withUnsafeMutableBufferPointer { l -> Bool in
            for j in 0..<n {
                let rowJ = l.baseAddress! + j * n
                var d = rowJ[j]
                for k in 0..<j { d -= rowJ[k] * rowJ[k] }
                guard d > 0 else { return false }
                let root = d.squareRoot()
                rowJ[j] = root
                for i in (j + 1)..<n {
                    let rowI = l.baseAddress! + i * n
                    var s = rowI[j]
                    for k in 0..<j { s -= rowI[k] * rowJ[k] }
                    rowI[j] = s / root
                }
            }
            return true
        }
        guard factored else { return nil }
        var x = rightSides
        l.withUnsafeBufferPointer { l in
            x.withUnsafeMutableBufferPointer { x in
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
            }
        }
        return x
    }
}
