import PlaneKitPlanes
/// Tuning a user asks for by hand (`--distance-threshold`, `--min-plane`, `--merge-angle`),
/// applied over whatever the sensor profile (`--sensor`, measured or named) set.
///
/// Every field is optional: what is not given keeps the profile's value. The organized detector
/// applies them right after resolving its sensor settings (``OrganizedPlaneDetector/Configuration/overrides``);
/// `PlaneFinder` applies them to the unorganized detector and filters by area.
public struct DetectionOverrides: Sendable, Hashable {
    /// How far a point may lie from its plane.
    public enum Distance: Sendable, Hashable {
        /// This many σ of the sensor's depth noise at the point's depth (the organized
        /// detector's pixel threshold; the profile's is 3).
        case sigma(Float)
        /// This many metres, at every depth.
        case metres(Float)
    }

    /// The smallest plane kept.
    public enum MinimumPlane: Sendable, Hashable {
        /// This many supporting points (pixels of an organized cloud).
        case points(Int)
        /// This many square metres of covered area.
        case squareMetres(Float)
    }

    /// The distance threshold, or `nil` for the profile's.
    public var distance: Distance?
    /// The smallest plane, or `nil` for the profile's.
    public var minimumPlane: MinimumPlane?
    /// Adjacent regions whose normals are within this angle (radians) may merge; `nil` for the
    /// profile's (6°).
    public var mergeAngle: Float?

    /// Overrides of the given fields.
    public init(distance: Distance? = nil, minimumPlane: MinimumPlane? = nil, mergeAngle: Float? = nil) {
        self.distance = distance
        self.minimumPlane = minimumPlane
        self.mergeAngle = mergeAngle
    }

    /// Puts the overrides into an organized detector's configuration whose sensor settings are
    /// resolved. A distance in metres makes the noise model that distance over the pixel
    /// threshold's σ count at every depth, so every threshold of the detector (cells, growth,
    /// merging, pixels) follows it.
    public func apply(to configuration: inout OrganizedPlaneDetector.Configuration) {
        switch distance {
        case .sigma(let factor)?:
            configuration.pixelDistanceFactor = factor
        case .metres(let metres)?:
            configuration.noise = DepthNoiseModel(constant: metres / configuration.pixelDistanceFactor, quadratic: 0,
                                                  referenceDepth: configuration.noise.referenceDepth)
        case nil:
            break
        }
        if case .points(let count)? = minimumPlane { configuration.minimumPointsPerPlane = count }
        if let mergeAngle { configuration.mergeAngle = mergeAngle }
    }

    /// `result` without the planes smaller than a minimum area, relabelled 1… in order.
    public func filtered(_ result: PlaneDetectionResult) -> PlaneDetectionResult {
        guard case .squareMetres(let area)? = minimumPlane else { return result }
        var result = result
        var newLabel = [UInt16](repeating: 0, count: result.planes.count + 1)
        var kept: [DetectedPlane] = []
        for plane in result.planes where plane.area >= area {
            var plane = plane
            newLabel[plane.label] = UInt16(kept.count + 1)
            plane.label = kept.count + 1
            kept.append(plane)
        }
        result.planes = kept
        for i in result.labels.indices where result.labels[i] != 0 {
            let label = Int(result.labels[i])
            result.labels[i] = label < newLabel.count ? newLabel[label] : 0
        }
        return result
    }
}

extension DetectionOverrides.Distance {
    /// `2.5` (σ) or `0.01m` (metres): positive and finite; `nil` otherwise.
    public init?(parsing text: String) {
        let metres = text.hasSuffix("m")
        guard let value = Float(metres ? String(text.dropLast()) : text), value > 0, value.isFinite else { return nil }
        self = metres ? .metres(value) : .sigma(value)
    }
}

extension DetectionOverrides.MinimumPlane {
    /// `800` (points, at least 3) or `0.05m2` (square metres, positive and finite); `nil` otherwise.
    public init?(parsing text: String) {
        if text.hasSuffix("m2") || text.hasSuffix("m²") {
            guard let value = Float(String(text.dropLast(2))), value > 0, value.isFinite else { return nil }
            self = .squareMetres(value)
        } else {
            guard let count = Int(text), count >= 3 else { return nil }
            self = .points(count)
        }
    }
}
