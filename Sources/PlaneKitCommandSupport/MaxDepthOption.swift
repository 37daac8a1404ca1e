import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors

/// `--max-depth METRES`: the maximum range, shared by the commands that read depth (`analyze`,
/// `raycast`, `encode` through ``DepthImageOptions``, and `stream`).
package struct MaxDepthOption: ParsableArguments {
    package init() {}

    @Option(name: .customLong("max-depth"), help: ArgumentHelp(
        "Drop readings farther than this many metres along the camera's +Z as holes (a cloud point's z in the sensor frame).",
        valueName: "METRES"))
    package var maxDepth: Float?

    /// Refuses a range that is not positive and finite before any file is read.
    package func validate() throws {
        if let maxDepth, !DepthReadingRules.isValid(maxDepth: maxDepth) {
            throw ValidationError("--max-depth must be a positive, finite number of metres (the farthest depth to keep, e.g. --max-depth 4), got \(maxDepth)")
        }
    }
}
