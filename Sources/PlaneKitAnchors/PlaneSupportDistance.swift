import PlaneKitGeometry

extension Plane {
    /// The root-mean-square distance from this plane of the points whose moments are `support`
    /// (0 for none): E[(n·p + d)²] from the sums alone, so a candidate's points can be tested
    /// against another anchor's plane without revisiting them.
    func rmsDistance(of support: PointMoments) -> Float {
        guard support.count > 0 else { return 0 }
        let n = SIMD3<Double>(normal), d = Double(offset), count = Double(support.count)
        let squares = support.sumSquares, cross = support.sumCross
        let quadratic = (n * n * squares).sum() + 2 * (n.x * n.y * cross.x + n.x * n.z * cross.y + n.y * n.z * cross.z)
        let meanSquare = (quadratic + 2 * d * (n * support.sum).sum()) / count + d * d
        return Float(max(meanSquare, 0).squareRoot())
    }
}
