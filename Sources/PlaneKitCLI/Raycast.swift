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
import PlaneKitCloudIO
import PlaneKitPlanes

/// `planekit raycast`: ray queries against the planes found in a cloud or depth image.
struct Raycast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raycast",
        abstract: "Cast rays at the planes found in a point cloud or depth image.",
        discussion: """
            Finds the planes of FILE (as `analyze` does), then answers each query: a pixel of \
            the image (--pixel u,v; organized clouds and depth images) or a ray (--origin \
            x,y,z --direction x,y,z), in the cloud's own coordinates (the camera frame for a \
            plain file). Prints every hit nearest first — distance, target, alignment, plane, \
            position and normal — or JSON with --json.

            Targets (--target, repeatable or comma-separated): geometry (inside a plane's \
            outline), extent (inside its rectangle), infinite (unbounded), estimated \
            (horizontal/vertical surfaces fitted to the points around the ray), feature (the \
            measured point nearest the ray), all. --alignment keeps horizontal, vertical or \
            any surfaces. --smart prints the one hit to place an object at instead: the \
            nearest plane whose outline the ray hits, else (with --drag, for dragging) a plane \
            taken as infinite, else a horizontal or vertical surface estimated from the points \
            around the ray.

            Depth is read as `analyze` reads it: 16-bit samples of 0 and 65535 are no reading, \
            and --max-depth METRES drops readings farther than that along the camera's +Z. \
            --units, --up and the tuning options are `analyze`'s.

            Pixels: a depth image's camera is its intrinsics; an organized PCD takes \
            --intrinsics fx,fy,cx,cy, else its camera is fitted to its own points, so the ray \
            through a pixel passes through the cloud's point at that pixel. A pixel outside the \
            image is an error.

            Examples:
              planekit raycast --pixel 320,400 samples/room-depth.png
              planekit raycast --origin 0,0,0 --direction 0,0.3,1 --target all --json x.pcd
              planekit raycast --pixel 100,300 --pixel 500,300 --smart \\
                  --alignment horizontal samples/room-depth.png
              planekit raycast --origin -0.1,0,0 --direction 0,0.3,1 samples/room-depth.png
            """)

    @Argument(help: "A point-cloud file or depth image.", completion: .file())
    var file: String

    @Option(help: ArgumentHelp("A pixel to cast through (repeatable).", valueName: "u,v"))
    var pixel: [String] = []

    @Option(help: ArgumentHelp("A ray's origin (with --direction).", valueName: "x,y,z"))
    var origin: [String] = []

    @Option(help: ArgumentHelp("A ray's direction (with --origin).", valueName: "x,y,z"))
    var direction: [VectorArgument] = []

    @Option(help: ArgumentHelp("What to hit: geometry, extent, infinite, estimated, feature, all.", valueName: "target"))
    var target: [String] = ["geometry"]

    @Option(help: "Surfaces to keep: horizontal, vertical or any.")
    var alignment: String = "any"

    @Flag(help: "Print the smart placement hit only (geometry, then estimates; --drag adds infinite planes).")
    var smart = false

    @Flag(help: "With --smart: also use infinite planes, as when dragging an object.")
    var drag = false

    @Option(help: ArgumentHelp("The up direction (against gravity) in the cloud's coordinates.", valueName: "x,y,z"))
    var up: VectorArgument?

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var depth: DepthImageOptions

    @OptionGroup var sensor: SensorOption

    @OptionGroup var tuning: DetectionTuningOptions

    mutating func run() throws {
        let targets = try Raycast.targets(target)
        guard let allowed = PlaneAlignment(rawValue: alignment) else {
            throw ValidationError("--alignment must be horizontal, vertical or any, got '\(alignment)'")
        }
        guard origin.count == direction.count else {
            throw ValidationError("give each --origin a --direction (\(origin.count) origins, \(direction.count) directions)")
        }
        guard !pixel.isEmpty || !origin.isEmpty else { throw ValidationError("give at least one --pixel or --origin/--direction") }
        let pixels = try pixel.map { text -> SIMD2<Float> in
            let parts = CFormat.floats(commaSeparated: text).compactMap { $0 }
            guard parts.count == 2, parts[0].isFinite, parts[1].isFinite else { throw ValidationError("--pixel needs u,v, got '\(text)'") }
            return SIMD2(parts[0], parts[1])
        }
        let origins = try origin.map { text -> SIMD3<Float> in
            let parts = CFormat.floats(commaSeparated: text).compactMap { $0 }
            guard parts.count == 3, SIMD3(parts[0], parts[1], parts[2]).isFinite else {
                throw ValidationError("--origin needs x,y,z, got '\(text)'")
            }
            return SIMD3(parts[0], parts[1], parts[2])
        }

        let cloud = try PointCloudReader.read(path: file, options: try depth.readOptions())
        let upDirection = up?.vector ?? cloud.defaultUp
        var finder = sensor.finder(up: upDirection)
        try tuning.apply(to: &finder)
        let result = try finder.detect(in: cloud)
        if up == nil { UpHint.warnIfTilted(file: file, cloud: cloud, result: result, up: upDirection) }
        let tester = HitTester(planes: HitTestPlane.from(result.planes), points: MeasuredPoints(cloud: cloud), up: upDirection)

        var queries: [RaycastQueryReport] = []
        if !pixels.isEmpty {
            guard cloud.isOrganized else { throw ValidationError("\(file): --pixel needs an organized cloud or depth image") }
            let camera = PinholeCamera(intrinsics: try pixelIntrinsics(of: cloud))
            for p in pixels {
                guard p.x >= -0.5, p.y >= -0.5, p.x < Float(cloud.width) - 0.5, p.y < Float(cloud.height) - 0.5 else {
                    Diagnostics.warn(CFormat.string("--pixel %g,%g is outside the image of \(file), which is \(cloud.width)×\(cloud.height) (u from 0 to \(cloud.width - 1), v from 0 to \(cloud.height - 1))", Double(p.x), Double(p.y)))
                    throw ExitCode(1)
                }
                guard let ray = HitTester.ray(throughPixel: p, camera: camera) else { continue }
                queries.append(answer(ray, pixel: p, tester: tester, targets: targets, allowed: allowed))
            }
        }
        for (o, d) in zip(origins, direction) {
            guard let ray = Ray(origin: o, direction: d.vector) else { throw ValidationError("a ray needs a finite origin and a non-zero direction") }
            queries.append(answer(ray, pixel: nil, tester: tester, targets: targets, allowed: allowed))
        }
        let report = RaycastReport(file: file, planes: result.planes.count, up: upDirection, queries: queries)
        print(json ? try JSONOutput.string(report) : report.table)
    }

    /// The camera behind an organized cloud's pixels: its own (a depth image's, `--intrinsics`
    /// for any organized file), else fitted to its points (an organized PCD from a depth camera),
    /// so a pixel's ray passes through the cloud's point at that pixel.
    private func pixelIntrinsics(of cloud: PointCloud) throws -> PinholeIntrinsics {
        if let own = cloud.intrinsics ?? cloud.estimatedIntrinsics() { return own }
        throw ValidationError("\(file): cannot fit camera intrinsics to its points for --pixel; pass --intrinsics fx,fy,cx,cy")
    }

    private func answer(_ ray: Ray, pixel: SIMD2<Float>?, tester: HitTester, targets: HitTestTargets,
                        allowed: PlaneAlignment) -> RaycastQueryReport {
        let results: [HitTestResult]
        if smart {
            results = tester.smartHitTest(ray, allowedAlignment: allowed, infinitePlane: drag).map { [$0] } ?? []
        } else {
            results = tester.hitTest(ray, targets: targets, alignment: allowed)
        }
        return RaycastQueryReport(pixel: pixel, origin: ray.origin, direction: ray.direction, results: results.map(RaycastHitReport.init))
    }

    /// The targets named on the command line.
    static func targets(_ names: [String]) throws -> HitTestTargets {
        var targets: HitTestTargets = []
        for name in names.flatMap({ $0.split(separator: ",") }).map({ CFormat.trimmed($0).lowercased() }) {
            switch name {
            case "geometry": targets.insert(.existingPlaneGeometry)
            case "extent": targets.insert(.existingPlaneUsingExtent)
            case "infinite": targets.insert(.existingPlaneInfinite)
            case "estimated": targets.insert(.estimatedPlane)
            case "feature": targets.insert(.featurePoint)
            case "all": targets.formUnion(.all)
            default: throw ValidationError("unknown --target '\(name)': use geometry, extent, infinite, estimated, feature or all")
            }
        }
        return targets
    }
}

/// One hit as printed.
struct RaycastHitReport: Encodable {
    let distance: Float
    let target: HitTestTarget
    let alignment: PlaneAlignment?
    let plane: PlaneIdentifier?
    let position: SIMD3<Float>
    let normal: SIMD3<Float>
    let transform: Transform

    init(_ result: HitTestResult) {
        distance = result.distance
        target = result.target
        alignment = result.alignment
        plane = result.planeIdentifier
        position = result.position
        normal = result.normal
        transform = result.worldTransform
    }
}

/// One query and its hits.
struct RaycastQueryReport: Encodable {
    let pixel: SIMD2<Float>?
    let origin: SIMD3<Float>
    let direction: SIMD3<Float>
    let results: [RaycastHitReport]
}

/// Everything `raycast` prints.
struct RaycastReport: Encodable {
    let file: String
    let planes: Int
    let up: SIMD3<Float>
    let queries: [RaycastQueryReport]

    var table: String {
        var lines = ["\(file): \(planes) plane\(planes == 1 ? "" : "s") (up \(PlaneTable.vector(up, digits: 2)))"]
        for q in queries {
            let from = q.pixel.map { CFormat.string("pixel (%.1f, %.1f)", $0.x, $0.y) }
                ?? "ray \(PlaneTable.vector(q.origin, digits: 3)) → \(PlaneTable.vector(q.direction, digits: 3))"
            lines.append("\(from): \(q.results.isEmpty ? "no hits" : "\(q.results.count) hit\(q.results.count == 1 ? "" : "s")")")
            for r in q.results {
                lines.append(CFormat.string("  %8.3fm  ", r.distance) + CFormat.padded(r.target.rawValue, to: 24) + " "
                             + CFormat.padded(r.alignment?.rawValue ?? "-", to: 10) + " " + CFormat.padded(r.plane?.description ?? "-", to: 9)
                             + " at \(PlaneTable.vector(r.position, digits: 3))  normal \(PlaneTable.vector(r.normal, digits: 3))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
