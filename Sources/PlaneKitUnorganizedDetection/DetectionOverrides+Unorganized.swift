import PlaneKitDetection

extension DetectionOverrides {
    /// Puts the overrides into the unorganized (PCL) detector: a distance in metres and a
    /// minimum point count (it has no noise model, so a distance in σ does not apply).
    public func apply(to detector: inout UnorganizedPlaneDetector) {
        if case .metres(let metres)? = distance { detector.distanceThreshold = metres }
        if case .points(let count)? = minimumPlane { detector.minimumPlanePoints = count }
    }
}
