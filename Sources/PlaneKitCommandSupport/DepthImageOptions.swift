import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCloudIO

/// Options for reading depth images, shared by every command that reads files.
package struct DepthImageOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp(
        "Depth-image intrinsics in pixels, overriding a sidecar file.", valueName: "fx,fy,cx,cy"))
    package var intrinsics: String?

    @Option(help: ArgumentHelp("Metres per depth unit of 16-bit depth images (default 0.001, or the sidecar's).", valueName: "scale"))
    package var depthScale: Float?

    @OptionGroup var range: MaxDepthOption

    @Option(help: ArgumentHelp(
        "The length unit of point-cloud files (PCD, PLY, x y z): m (default), cm, mm, or metres per unit (e.g. 0.0254).",
        valueName: "m|cm|mm|scale"))
    var units: String?

    /// Metres per unit of point-cloud files, from `--units`; `nil` when not given.
    func unitScale() throws -> Float? {
        guard let units else { return nil }
        switch units.lowercased() {
        case "m": return 1
        case "cm": return 0.01
        case "mm": return 0.001
        default:
            guard let scale = Float(units), scale > 0, scale.isFinite else {
                throw ValidationError("--units must be m, cm, mm or a positive number of metres per unit, got '\(units)'")
            }
            return scale
        }
    }

    /// The reader options these flags ask for; the image size is filled in by the reader.
    package func readOptions() throws -> ReadOptions {
        try range.validate()
        var options = ReadOptions(depthScale: depthScale, maxDepth: range.maxDepth)
        options.unitScale = try unitScale()
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
    package static func intrinsics(parsing text: String, width: Int, height: Int) throws -> PinholeIntrinsics {
        let numbers = CFormat.floats(commaSeparated: text)
        guard numbers.count == 4, let fx = numbers[0], let fy = numbers[1], let cx = numbers[2], let cy = numbers[3],
              let parsed = PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) else {
            throw ValidationError("--intrinsics needs four numbers fx,fy,cx,cy with positive focal lengths, got '\(text)'")
        }
        return parsed
    }
}
