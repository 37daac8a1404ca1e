import ArgumentParser
import PlaneKitDetection
import PlaneKitUnorganizedDetection

/// `--distance-threshold`, `--min-plane` and `--merge-angle`: tuning by hand over what `--sensor`
/// sets, shared by `analyze`, `raycast` and `stream`.
struct DetectionTuningOptions: ParsableArguments {
    @Option(name: .customLong("distance-threshold"), help: ArgumentHelp(
        "How far a point may lie from its plane, overriding --sensor: N σ of the depth noise (the profiles use 3), or Nm in metres at every depth (e.g. 0.01m).",
        valueName: "σ|Nm"))
    var distanceThreshold: String?

    @Option(name: .customLong("min-plane"), help: ArgumentHelp(
        "The smallest plane kept, overriding --sensor: N points (pixels), or Nm2 square metres of covered area (e.g. 0.05m2).",
        valueName: "N|Nm2"))
    var minimumPlane: String?

    @Option(name: .customLong("merge-angle"), help: ArgumentHelp(
        "Neighbouring regions whose normals are within this many degrees may merge into one plane (default 6).",
        valueName: "DEG"))
    var mergeAngle: Float?

    /// The overrides typed; `areaAllowed` is false where planes are not filtered by area (`stream`).
    func overrides(areaAllowed: Bool = true) throws -> DetectionOverrides {
        var overrides = DetectionOverrides()
        if let distanceThreshold {
            guard let distance = DetectionOverrides.Distance(parsing: distanceThreshold) else {
                throw ValidationError("--distance-threshold must be a positive number of σ (e.g. 2.5) or of metres with an m (e.g. 0.01m), got '\(distanceThreshold)'")
            }
            overrides.distance = distance
        }
        if let minimumPlane {
            guard let minimum = DetectionOverrides.MinimumPlane(parsing: minimumPlane) else {
                throw ValidationError("--min-plane must be a number of points (at least 3) or of square metres with m2 (e.g. 0.05m2), got '\(minimumPlane)'")
            }
            if case .squareMetres = minimum, !areaAllowed {
                throw ValidationError("--min-plane in m2 applies to analyze and raycast; give stream a number of points")
            }
            overrides.minimumPlane = minimum
        }
        if let mergeAngle {
            guard mergeAngle > 0, mergeAngle < 90 else {
                throw ValidationError("--merge-angle must be a number of degrees between 0 and 90, got \(mergeAngle)")
            }
            overrides.mergeAngle = mergeAngle * .pi / 180
        }
        return overrides
    }

    /// `finder` with the overrides typed.
    func apply(to finder: inout PlaneFinder) throws {
        finder.overrides = try overrides()
    }
}
