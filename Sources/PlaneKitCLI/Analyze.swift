#if canImport(Glibc)
import Glibc
#endif
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
import PlaneKitPictures
import PlaneKitCloudIO

/// `planekit analyze`: find the planes in point-cloud files and depth images.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Find the planes in point clouds and depth images.",
        discussion: """
            Reads each FILE (PCD, PLY, x y z text, or a 16-bit PGM/PNG/TIFF depth image), finds its \
            planes and prints them largest first: a table, or JSON with --json. Organized clouds \
            and depth images use PlaneKit's grid-based detector; clouds with no image layout go \
            through PCL (normals + RANSAC with normal constraints).

            Depth images need intrinsics: --intrinsics, or NAME.xml / NAME.json beside the image \
            (the format of PCL's test data). Up is taken from --up, else from the cloud's pose \
            (PCD VIEWPOINT) when it has one, else it is camera −Y (+Y is down in the PCL/OpenCV \
            camera frame, so a level camera needs nothing). Laser scans and registered clouds are \
            usually Y-up or Z-up: pass --up 0,1,0 or --up 0,0,1. When no up is known and the \
            frame looks tilted (no plane horizontal, a large one within 30° of it), a hint on \
            stderr says which --up its floor suggests. Values may start with a minus sign \
            (--up -0.1,-0.9,-0.4).

            Units: clouds (PCD, PLY, x y z) are read as metres; --units cm, mm or a number of \
            metres per unit reads scans stored otherwise. Depth images use --depth-scale.

            Tuning: --distance-threshold (σ, or metres with an m), --min-plane (points, or m² \
            with m2) and --merge-angle (degrees) override what --sensor sets (docs/outputs.md).

            Outputs (docs/outputs.md): --labels (16-bit PGM), --png (organized input only; \
            otherwise a warning), --ply (coloured, with a uint label per point), --pcd (PCL's \
            PointXYZL: x y z label, image layout kept), --mesh (each plane's outline \
            triangulated, a colour per plane; .obj for OBJ, else PLY), and --json --indices (each \
            plane's inlier indices, row-major). An output that cannot be written is one line \
            with the path and the reason; the table is still printed and the exit status is 1.

            Invalid readings: 16-bit depth samples of 0 and 65535 are "no reading" (65535 is how \
            7-Scenes, TUM and some RealSense modes mark it) and become holes. --max-depth METRES \
            also drops readings farther than that along the camera's +Z: depth-image pixels, and \
            cloud points whose z in the sensor frame is larger (organized clouds keep a hole, \
            unorganized ones lose the point).

            With several files, --labels/--png/--ply paths may contain {name}, replaced by each \
            input's base name; without it the base name is added before the extension.

            A file that cannot be read gets one line on stderr and the others go on; the exit \
            status is then 1. With several files and stderr on a terminal, a progress bar shows \
            how far the batch has got; in a pipe or a log it stays silent.

            Examples:
              planekit analyze samples/room-depth.png
              planekit analyze --json frame.pcd | python3 -m json.tool
              planekit analyze --labels out/{name}-labels.pgm --png out/{name}.png *.pcd
              planekit analyze --intrinsics 525,525,320,240 --depth-scale 0.001 depth.png
              planekit analyze --intrinsics 525,525,320,240 --max-depth 4 depth.png
              planekit analyze --units cm --up 0,1,0 scan.pcd
              planekit analyze --mesh planes.obj --pcd labelled.pcd --json --indices \\
                  samples/room-depth.png
              planekit analyze --min-plane 0.5m2 --distance-threshold 0.01m \\
                  --merge-angle 10 samples/room-depth.png
            """)

    @Argument(help: "Point-cloud files or depth images.", completion: .file())
    var files: [String]

    @Flag(help: "Print JSON (one object per file, as a JSON array) instead of a table.")
    var json = false

    @Option(name: .customLong("labels"), help: ArgumentHelp("Write the label image as 16-bit PGM (0 = no plane, k = k-th plane printed).", valueName: "OUT.pgm"))
    var labelsPath: String?

    @Option(name: .customLong("png"), help: ArgumentHelp("Write a coloured picture of the segmentation.", valueName: "OUT.png"))
    var pngPath: String?

    @Option(name: .customLong("ply"), help: ArgumentHelp(
        "Write the cloud coloured by plane as binary PLY, with each point's plane as a uint 'label' property (0 = none).",
        valueName: "OUT.ply"))
    var plyPath: String?

    @Option(name: .customLong("pcd"), help: ArgumentHelp(
        "Write the cloud with each point's plane as PCD in PCL's PointXYZL layout (x y z label; 0 = none), image layout kept.",
        valueName: "OUT.pcd"))
    var pcdPath: String?

    @Option(name: .customLong("mesh"), help: ArgumentHelp(
        "Write the planes as a triangle mesh, each boundary polygon triangulated in its plane's colour: PLY, or OBJ for a .obj path.",
        valueName: "OUT.ply|OUT.obj"))
    var meshPath: String?

    @Flag(help: "With --json: give each plane its inlier indices (row-major pixel or point indices, as in the label image).")
    var indices = false

    @Option(help: ArgumentHelp("The up direction (against gravity) in the cloud's coordinates.", valueName: "x,y,z"))
    var up: VectorArgument?

    @OptionGroup var depth: DepthImageOptions

    @OptionGroup var sensor: SensorOption

    @OptionGroup var tuning: DetectionTuningOptions

    mutating func run() throws {
        // Even one file frees buffers that a later step of the same file can reuse.
        BufferHeap.backWithHugePages()
        let templates = OutputTemplates(labels: labelsPath, png: pngPath, ply: plyPath, mesh: meshPath, pcd: pcdPath,
                                        inputCount: files.count)
        var reports: [AnalysisReport] = []
        var failures = 0
        // One file needs no bar; for a batch, the bar is cleared before anything else is printed
        // so tables and warnings never share a line with it.
        var progress = ProgressBar(total: files.count, label: "analyze")
        for (index, file) in files.enumerated() {
            do {
                var outputFailed = false
                let report = try analyze(file, outputs: templates, outputFailed: &outputFailed)
                if outputFailed { failures += 1 }
                if json {
                    reports.append(report)
                } else {
                    progress.finish()
                    print(PlaneTable(report: report).text, terminator: "")
                }
            } catch {
                failures += 1
                progress.finish()
                Diagnostics.warn("\(error)")
            }
            if files.count > 1 {
                fflush(nil)  // the table reaches the terminal before the bar is redrawn under it
                progress.update(index + 1)
            }
        }
        progress.finish()
        if json {
            print(try JSONOutput.string(reports))
        }
        if failures > 0 {
            throw ExitCode(1)
        }
    }

    /// Reads and analyses one file and writes its outputs. An output that cannot be written, or
    /// does not apply to this input, is one warning and sets `outputFailed`; the planes are
    /// still returned for printing.
    private func analyze(_ file: String, outputs: OutputTemplates, outputFailed: inout Bool) throws -> AnalysisReport {
        let cloud = try PointCloudReader.read(path: file, options: try depth.readOptions())
        let upDirection = up?.vector ?? cloud.defaultUp
        let start = ContinuousClock.now
        var finder = sensor.finder(up: upDirection)
        try tuning.apply(to: &finder)
        let result = try finder.detect(in: cloud)
        let elapsed = ContinuousClock.now - start
        if up == nil { UpHint.warnIfTilted(file: file, cloud: cloud, result: result, up: upDirection) }
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        if let path = outputs.labels(for: name) {
            outputFailed = !OutputFile.write(path) {
                try PGMWriter.write(try GrayImage(width: result.width, height: result.height, bitDepth: 16, samples: result.labels), to: path)
            } || outputFailed
        }
        if let path = outputs.png(for: name) {
            if cloud.isOrganized {
                outputFailed = !OutputFile.write(path) {
                    try PNGWriter.write(try SegmentationPicture(cloud: cloud, result: result).image(), to: path)
                } || outputFailed
            } else {
                Diagnostics.warn("\(file): --png does not apply to a cloud with no image layout; \(path) not written")
            }
        }
        if let path = outputs.ply(for: name) {
            outputFailed = !OutputFile.write(path) {
                try PLYWriter.write(SegmentationPicture.colouredCloud(cloud, result: result), labels: result.labels, to: path)
            } || outputFailed
        }
        if let path = outputs.pcd(for: name) {
            outputFailed = !OutputFile.write(path) { try PCDWriter.write(cloud, labels: result.labels, to: path) } || outputFailed
        }
        if let path = outputs.mesh(for: name) {
            outputFailed = !OutputFile.write(path) { try PlaneMesh(planes: result.planes).write(to: path) } || outputFailed
        }
        return AnalysisReport(file: file, cloud: cloud, result: result, up: upDirection, elapsed: elapsed, withIndices: indices)
    }
}

/// Writing one output file of a command.
enum OutputFile {
    /// Runs `body`, which writes `path`; a failure is one warning naming the path and the reason
    /// (never a raw error dump) and returns `false`.
    static func write(_ path: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch let error as InputError {
            // Its description already names the path.
            Diagnostics.warn(error.source == path ? error.description : "cannot write \(path): \(error.problem)")
        } catch {
            Diagnostics.warn("cannot write \(path): \(error)")
        }
        return false
    }
}
