import ArgumentParser
import PlaneKitBenchmarks

/// The `planekit` command: plane detection, ray casting and placement from the shell.
public struct PlaneKitCommand: ParsableCommand {
    /// The command's name, help text and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "planekit",
        abstract: "Find planes in point clouds and depth frames, cast rays against them, place objects on them.",
        discussion: """
            Every command reads files PlaneKit knows (PCD ascii/binary/binary_compressed, PLY, \
            x y z text, 16-bit PGM/PNG/TIFF depth images with intrinsics) and writes a readable \
            table or, with --json, machine-readable output.

            Examples:
              planekit analyze samples/room-depth.png
              planekit analyze --json --labels labels.pgm --png planes.png frame.pcd
              planekit evaluate --cloud scans/ predicted/ truth/
              planekit synth --seed 7 --output room.pcd --labels room-labels.pgm
              planekit raycast --pixel 320,400 --target all samples/room-depth.png
              planekit synth --frames 120 --taps 3 | planekit stream > events.ndjson
              planekit encode frame_*.pcd | planekit stream
              planekit synth --frames 600 --taps 3 | planekit view
              planekit bench detection --runs 30
            """,
        subcommands: [Analyze.self, Evaluate.self, Raycast.self, Stream.self, View.self, Synth.self, Encode.self, MapCommand.self, Bench.self, Pointer.self])

    /// The root command (its subcommands do the work).
    public init() {}
}
