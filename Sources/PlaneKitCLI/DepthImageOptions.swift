import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitTracking

/// Options for reading depth images, shared by every command that reads files.
struct DepthImageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Depth-image intrinsics in pixels, overriding a sidecar file.", valueName: "fx,fy,cx,cy"))
    var intrinsics: String?

    @Option(help: ArgumentHelp("Metres per depth unit of 16-bit depth images (default 0.001, or the sidecar's).", valueName: "scale"))
    var depthScale: Float?

    @OptionGroup var range: MaxDepthOption

    /// The reader options these flags ask for; the image size is filled in by the reader.
    func readOptions() throws -> ReadOptions {
        try range.validate()
        var options = ReadOptions(depthScale: depthScale, maxDepth: range.maxDepth)
        if let depthScale, !(depthScale > 0 && depthScale.isFinite) {
            throw ValidationError("--depth-scale must be a positive number, got \(depthScale)")
        }
        if let intrinsics {
            let numbers = intrinsics.split(separator: ",").compactMap { Float($0) }
            // The reader checks the size against the image; 1×1 here only carries the numbers.
            guard numbers.count == 4,
                  let parsed = PinholeIntrinsics(fx: numbers[0], fy: numbers[1], cx: numbers[2], cy: numbers[3], width: 1, height: 1) else {
                throw ValidationError("--intrinsics needs four numbers fx,fy,cx,cy with positive focal lengths, got '\(intrinsics)'")
            }
            options.intrinsics = parsed
        }
        return options
    }
}
