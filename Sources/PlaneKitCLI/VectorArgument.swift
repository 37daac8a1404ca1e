import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport

/// A 3D vector typed on the command line as `x,y,z` (for example `--up 0,-1,0`).
struct VectorArgument: ExpressibleByArgument {
    /// The parsed vector.
    let vector: SIMD3<Float>

    init?(argument: String) {
        let parts = CFormat.floats(commaSeparated: argument)
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2],
              SIMD3(x, y, z).normalized != nil else { return nil }
        vector = SIMD3(x, y, z)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
