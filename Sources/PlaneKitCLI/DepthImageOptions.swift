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
            // The reader checks the size against the image; 1×1 here only carries the numbers.
            options.intrinsics = try DepthImageOptions.intrinsics(parsing: intrinsics, width: 1, height: 1)
        }
        return options
    }

    /// Intrinsics typed as `fx,fy,cx,cy` for images of `width × height`: exactly four numbers,
    /// positive focal lengths; anything else is a usage error naming what was typed.
    static func intrinsics(parsing text: String, width: Int, height: Int) throws -> PinholeIntrinsics {
        let numbers = CFormat.floats(commaSeparated: text)
        guard numbers.count == 4, let fx = numbers[0], let fy = numbers[1], let cx = numbers[2], let cy = numbers[3],
              let parsed = PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) else {
            throw ValidationError("--intrinsics needs four numbers fx,fy,cx,cy with positive focal lengths, got '\(text)'")
        }
        return parsed
    }
}
