import ArgumentParser

/// `planekit bench`: benchmarks that compare PlaneKit with PCL and Open3D in the same run.
package struct Bench: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: PlaneKit next to PCL and Open3D on the same data, same run.",
        discussion: """
            Benchmarks report medians over repeated runs on one thread. Run them from a release \
            build (scripts/bench.sh builds one); a debug build prints a warning.
            """,
        subcommands: [BenchDetection.self, BenchRaycast.self, BenchSession.self, BenchTracking.self, BenchRelocalization.self, BenchAnchors.self, BenchShare.self],
        defaultSubcommand: BenchDetection.self)

    package init() {}
}
