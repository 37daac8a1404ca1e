import Foundation

/// Locates the real sensor data in `../shared/data/` beside the repository.
public enum SharedData {
    /// The repository root, found from this file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data/` beside the repository.
    public static let directory: URL = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data", isDirectory: true)

    /// The path of `relative` inside the shared data folder.
    public static func path(_ relative: String) -> String {
        directory.appendingPathComponent(relative).path
    }

    /// `true` when the shared data folder is present (tests that need it are skipped otherwise,
    /// with a message saying where it was looked for).
    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("pcl").path)
    }

    /// A temporary directory unique to one test.
    public static func temporaryDirectory(_ name: String = "planekit-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
