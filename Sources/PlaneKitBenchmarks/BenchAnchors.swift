import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitAnchors
import PlaneKitCommandSupport

/// `planekit bench anchors`: how plane anchors hold over a recorded walk under its reference
/// poses: announcements, merges, and the identifiers a spot of a surface was shown under.
struct BenchAnchors: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anchors",
        abstract: "Run a session over a recorded walk with its reference poses; count anchors added, merged and alive, and identifiers per surface spot.",
        discussion: """
            Every frame of --sequence DIR (a 7-Scenes sequence or a TUM RGB-D folder, read as \
            `bench tracking --sequence` reads it; the first --frames frames) goes to a Session \
            with its reference pose. The world's up is the opposite of the folder's \
            gravity-direction.txt (three numbers: gravity's down in the reference world), \
            else world +Y.

            Reported: planeAdded and planeRemoved events, anchors alive after the last frame, \
            those classified floor, anchors added more than 10 m from the camera (planes from \
            invalid readings), and identifier stability:
            - probe points: on every anchor alive at the end with an area of at least 0.5 m², \
            the points of a 10 cm square grid in the anchor's plane coordinates (its \
            transform's local x and z, through its centre) inside its boundary polygon, taken \
            into the world frame;
            - a description reported by planeAdded or planeUpdated covers a probe point when its \
            normal is within 30° of the probed anchor's, the point is within 5 cm of its plane \
            and it projects inside its boundary polygon;
            - a probe point's identifiers: the distinct identifiers of every description that \
            covered it over the walk, anchors merged away later included. 1 everywhere means \
            each surface was shown under one name from its first announcement.
            The mean and the largest count over all probe points are printed.

            --log prints each planeAdded and planeRemoved as it happens: the anchor's frame, \
            area, class, distance from the camera and, for a merge, the keeper's identifier and \
            how far apart the two were (angle between normals, offset of the removed anchor's \
            centre from the keeper's plane, the keeper as it is after the merge).

              swift build -c release
              .build/release/planekit bench anchors --sequence redkitchen/seq-01
              .build/release/planekit bench anchors --sequence redkitchen/seq-01 \\
                  --frames 150 --log
            """)

    @Option(help: "Frames to run, the first this many of the walk (default: all).")
    var frames: Int?

    @OptionGroup var recording: SequenceOptions

    @Flag(help: "Print each planeAdded and planeRemoved with why it may have churned.")
    var log = false

    @Flag(help: "Print JSON instead of a line.")
    var json = false

    mutating func run() throws {
        if let frames, frames <= 0 { throw ValidationError("--frames must be positive") }
        guard let walk = try recording.recorded(limit: frames ?? .max) else { throw ValidationError("--sequence DIR is needed") }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        var configuration = Session.Configuration()
        if let gravity = walk.gravityDirection { configuration.up = -gravity }
        var session = Session(configuration: configuration)
        var churn = AnchorChurn()
        var addedIn: [PlaneIdentifier: Int] = [:]
        for index in 0..<walk.count {
            let cloud: PointCloud
            do {
                cloud = try walk.cloud(index)
            } catch {
                Diagnostics.warn("\(walk.name) frame \(index): \(error); left out")
                continue
            }
            let pose = walk.poses[index]
            let events = try session.update(frame: cloud, intrinsics: walk.intrinsics, pose: pose, timestamp: walk.timestamps[index])
            churn.record(events, camera: pose.translation)
            if log { Self.log(events, session: session, camera: pose.translation, addedIn: &addedIn) }
        }
        let figures = churn.figures(alive: session.planes)
        let report = AnchorBenchReport(walk: walk.name, frames: walk.count, figures: figures)
        print(json ? try JSONOutput.string(report) : report.line)
    }

    /// Prints the plane additions and removals among `events`.
    private static func log(_ events: [SessionEvent], session: Session, camera: SIMD3<Float>, addedIn: inout [PlaneIdentifier: Int]) {
        for event in events {
            switch event.kind {
            case .planeAdded(let anchor):
                addedIn[anchor.identifier] = event.frame
                let p = anchor.plane
                print("frame \(event.frame): planeAdded \(anchor.identifier) \(p.classification.rawValue) \(p.alignment.rawValue) "
                      + CFormat.string("%.2f m², %.2f m away, normal (%.2f, %.2f, %.2f), rms %.1f mm, first seen in frame %d, %d sightings",
                                       p.area, distance(p.centroid, camera), p.normal.x, p.normal.y, p.normal.z, p.rmsError * 1000,
                                       anchor.firstFrame, anchor.observationCount))
            case .planeRemoved(let anchor):
                var line = "frame \(event.frame): planeRemoved \(anchor.identifier) " + CFormat.string("%.2f m²", anchor.area)
                if let added = addedIn[anchor.identifier] { line += ", added in frame \(added)" }
                if let into = event.mergedInto, let keeper = session.plane(into) {
                    line += " → merged into \(into) " + CFormat.string(
                        "(%.2f m²): normals %.1f° apart, centre %.1f cm off its plane",
                        keeper.area, anchor.normal.angle(to: keeper.normal) * 180 / .pi,
                        keeper.plane.plane.signedDistance(to: anchor.center) * 100)
                }
                print(line)
            default:
                break
            }
        }
    }
}

/// The figures of one walk.
struct AnchorBenchReport: Encodable {
    let walk: String
    let frames: Int
    let figures: AnchorChurnFigures

    /// One line.
    var line: String {
        let f = figures
        return "\(walk), \(frames) frames: " + CFormat.string(
            "%d planeAdded, %d planeRemoved, %d anchors alive (%.2f added per alive), %d floor, %d from invalid readings; %d probe points, %.3f identifiers per probe point (max %d)",
            f.added, f.removed, f.alive, f.addedPerAlive, f.floors, f.invalidReadingAnchors, f.probePoints,
            f.meanIdentifiersPerProbePoint, f.maximumIdentifiersPerProbePoint)
    }
}
