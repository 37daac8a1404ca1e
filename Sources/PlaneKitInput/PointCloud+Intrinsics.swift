import PlaneKitGeometry

extension PointCloud {
    /// The pinhole intrinsics that explain an organized cloud's layout, fitted from its points
    /// when no camera model came with it (a PCD from a depth camera): for every `step`-th valid
    /// pixel, `u = fx·x/z + cx` and `v = fy·y/z + cy`, solved by least squares per axis. `nil`
    /// for an unorganized cloud, or when the points do not span enough of the image to fit.
    public func estimatedIntrinsics(step: Int = 4) -> PinholeIntrinsics? {
        guard isOrganized, step > 0 else { return nil }
        // Sums for two independent line fits: u against x/z and v against y/z.
        var n = 0.0, su = 0.0, sa = 0.0, saa = 0.0, sau = 0.0
        var sv = 0.0, sb = 0.0, sbb = 0.0, sbv = 0.0
        points.withUnsafeBufferPointer { points in
            for row in stride(from: 0, to: height, by: step) {
                for column in stride(from: 0, to: width, by: step) {
                    let p = points[row * width + column]
                    guard p.isFinite, p.z > 0 else { continue }
                    let a = Double(p.x / p.z), b = Double(p.y / p.z), u = Double(column), v = Double(row)
                    n += 1
                    su += u; sa += a; saa += a * a; sau += a * u
                    sv += v; sb += b; sbb += b * b; sbv += b * v
                }
            }
        }
        let spreadA = n * saa - sa * sa, spreadB = n * sbb - sb * sb
        guard n >= 3, spreadA > 1e-12 * n * n, spreadB > 1e-12 * n * n else { return nil }
        let fx = (n * sau - sa * su) / spreadA, fy = (n * sbv - sb * sv) / spreadB
        return PinholeIntrinsics(fx: Float(fx), fy: Float(fy), cx: Float((su - fx * sa) / n),
                                 cy: Float((sv - fy * sb) / n), width: width, height: height)
    }
}
