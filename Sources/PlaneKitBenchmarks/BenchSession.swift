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
import PlaneKitSyntheticWalks
import PlaneKitPlanes

/// `planekit bench session`: what a tracking session adds to detection, per VGA frame, with a
/// populated world.
struct BenchSession: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Time a session update (detection included) against detection alone on VGA frames.",
        discussion: """
            Renders a generated sequence (a camera walking through one synthetic room at 30 fps), \
            fills the session's world to at least 50 plane anchors (the room's own plus small \
            patches elsewhere) and 100 placed objects, then times, frame by frame on one thread, \
            the organized detector alone and Session.update on the same frame, and prints the \
            medians and their ratio. The budget is a ratio within 1.5.

            Build in release mode first:
              swift build -c release && .build/release/planekit bench session
            """)

    @Option(help: "Frames of the generated sequence.")
    var frames = 60

    @Option(help: "Passes over the frames (each pass times every frame once).")
    var passes = 3

    @Option(help: "Seed of the generated room and camera path.")
    var seed: UInt64 = 1

    @Option(help: "Plane anchors to have in the world before timing (at least).")
    var planes = 50

    @Option(help: "Objects to place before timing.")
    var objects = 100

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    mutating func run() throws {
        guard frames > 0, passes > 0, planes >= 0, objects >= 0 else {
            throw ValidationError("--frames and --passes must be positive, --planes and --objects not negative")
        }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        let sequence = SyntheticSequence(seed: seed, frameCount: frames)
        let rendered = Array(sequence)
        var session = Session()
        // One pass to let the session find the room's planes.
        for frame in rendered {
            _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
        }
        // Top the world up to `planes` anchors with 40 cm patches on a grid beside the room, in
        // three orientations, so association and merging have that many anchors to test. None
        // lies at floor level: up-facing patches there would be floor pieces and merge.
        let missing = max(0, planes - session.planes.count)
        if missing > 0 {
            var patches: [PlaneObservation] = []
            for k in 0..<missing {
                let center = SIMD3<Float>(20 + Float(k % 8), 0.5 + Float(k / 8 % 4), Float(k / 32) * 2)
                let normal: SIMD3<Float> = [SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)][k % 3]
                patches.append(Self.patch(center: center, normal: normal, side: 0.4))
            }
            // Three sightings confirm them (a 40 cm patch is too small to be confirmed at once).
            let last = rendered[rendered.count - 1]
            for _ in 0..<3 {
                _ = session.integrate(patches, camera: PinholeCamera(intrinsics: last.intrinsics, pose: last.pose),
                                      timestamp: last.timestamp)
            }
        }
        // Objects at pixels spread over the latest view; pixels with no surface are skipped.
        var placed = 0, attempt = 0
        while placed < objects && attempt < 20 * max(objects, 1) {
            let u = Float(40 + (attempt * 97) % 560), v = Float(40 + (attempt * 61) % 400)
            attempt += 1
            if (try? session.place(name: "object", size: SIMD3(0.1, 0.1, 0.1), atPixel: SIMD2(u, v))) != nil { placed += 1 }
        }
        let planesBefore = session.planes.count

        var detectTimes: [Double] = [], updateTimes: [Double] = []
        let loop = Double(frames) / sequence.frameRate
        var detected = 0
        for pass in 0..<passes {
            for frame in rendered {
                var configuration = OrganizedPlaneDetector.Configuration()
                configuration.up = frame.pose.inverse.apply(toDirection: SIMD3(0, 1, 0))
                let detector = OrganizedPlaneDetector(configuration: configuration)
                let start = ContinuousClock.now
                detected += try detector.detect(in: frame.cloud).planes.count
                detectTimes.append((ContinuousClock.now - start).milliseconds)
                let timestamp = frame.timestamp + Double(pass + 1) * loop
                let begin = ContinuousClock.now
                _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: timestamp)
                updateTimes.append((ContinuousClock.now - begin).milliseconds)
            }
        }
        let result = BenchSessionResult(
            frames: frames, passes: passes, planesAtStart: planesBefore, planesAtEnd: session.planes.count,
            objects: session.objects.count, detectionMilliseconds: BenchTimer.median(detectTimes),
            sessionMilliseconds: BenchTimer.median(updateTimes), meanDetectedPlanes: Double(detected) / Double(detectTimes.count))
        print(json ? try JSONOutput.string(result) : result.table)
    }

    /// A square patch with a 9 × 9 grid of support points.
    static func patch(center: SIMD3<Float>, normal: SIMD3<Float>, side: Float) -> PlaneObservation {
        let transform = Transform(origin: center, yAxis: normal, xHint: normal.anyPerpendicular)
        var support = PointMoments()
        for i in 0...8 {
            for j in 0...8 {
                support.add(transform.apply(toPoint: SIMD3((Float(i) / 8 - 0.5) * side, 0, (Float(j) / 8 - 0.5) * side)))
            }
        }
        let extent = PlaneExtent(width: side, length: side)
        let plane = DetectedPlane(label: 1, plane: Plane(point: center, normal: normal) ?? Plane(unitNormal: SIMD3(0, 1, 0), offset: 0),
                                  centroid: center, transform: transform, extent: extent, boundary: Polygon2D(extent.corners),
                                  pointCount: 81, area: extent.area, rmsError: 0,
                                  alignment: PlaneAlignment(normal: normal, up: SIMD3(0, 1, 0)), classification: .none)
        return PlaneObservation(plane: plane, support: support)
    }
}

/// The session benchmark's figures.
struct BenchSessionResult: Encodable {
    let frames: Int
    let passes: Int
    let planesAtStart: Int
    let planesAtEnd: Int
    let objects: Int
    let detectionMilliseconds: Double
    let sessionMilliseconds: Double
    let meanDetectedPlanes: Double
    var ratio: Double { sessionMilliseconds / detectionMilliseconds }

    enum CodingKeys: String, CodingKey {
        case frames, passes, planesAtStart, planesAtEnd, objects, detectionMilliseconds, sessionMilliseconds, ratio
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frames, forKey: .frames)
        try c.encode(passes, forKey: .passes)
        try c.encode(planesAtStart, forKey: .planesAtStart)
        try c.encode(planesAtEnd, forKey: .planesAtEnd)
        try c.encode(objects, forKey: .objects)
        try c.encode(detectionMilliseconds, forKey: .detectionMilliseconds)
        try c.encode(sessionMilliseconds, forKey: .sessionMilliseconds)
        try c.encode(ratio, forKey: .ratio)
    }

    var table: String {
        [
            CFormat.string("world: %d plane anchors (%d after timing), %d objects; %.1f planes detected per frame",
                   planesAtStart, planesAtEnd, objects, meanDetectedPlanes),
            CFormat.string("detection alone      %8.2f ms (median of %d frames × %d passes)", detectionMilliseconds, frames, passes),
            CFormat.string("session update       %8.2f ms (detection included)", sessionMilliseconds),
            CFormat.string("ratio                %8.2f× (budget 1.5×)", ratio),
            "one thread, release build\(BuildConfiguration.isDebug ? " NOT (debug build)" : "")",
        ].joined(separator: "\n")
    }
}
