import PlaneKitGeometry

extension PointMoments {
    /// Fades the point set to `factor` (0…1) of its weight, keeping its mean and covariance:
    /// the count is rounded to a whole number of points and every sum scaled by exactly the same
    /// ratio, so the fit of the faded moments is the fit of the original ones. Points merged
    /// afterwards then weigh `1 / factor` times as much as the faded ones, which is how an
    /// anchor's fit forgets old sightings. At least one point is kept.
    mutating func fade(by factor: Double) {
        guard count > 0, factor < 1 else { return }
        let kept = max(1, (Double(count) * max(factor, 0)).rounded())
        let scale = kept / Double(count)
        count = Int(kept)
        sum *= scale
        sumSquares *= scale
        sumCross *= scale
    }
}
