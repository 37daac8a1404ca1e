import Foundation

/// The fuzzers' committed inputs (scripts/fuzz.sh): seeds in `Fuzz/corpus/<target>/` and
/// findings in `Fuzz/regressions/<target>/`, which the test suites replay.
public enum FuzzFiles {
    /// The seeds of fuzz target `target`, sorted by name.
    public static func seeds(_ target: String) -> [URL] { files("corpus", target) }

    /// The findings kept for fuzz target `target`, sorted by name (none when it has had none).
    public static func findings(_ target: String) -> [URL] { files("regressions", target) }

    private static func files(_ folder: String, _ target: String) -> [URL] {
        let directory = SharedData.repositoryRoot.appendingPathComponent("Fuzz/\(folder)/\(target)", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }
}
