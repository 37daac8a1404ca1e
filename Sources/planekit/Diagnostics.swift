import Foundation

/// One-line messages on stderr, so stdout stays clean for tables, JSON and streams.
enum Diagnostics {
    /// Prints `planekit: message` on stderr.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("planekit: \(message)\n".utf8))
    }
}
