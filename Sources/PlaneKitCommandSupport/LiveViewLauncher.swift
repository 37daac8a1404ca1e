import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps

/// A running live view, as `view` and `stream --view` use it.
public protocol LiveViewSession {
    /// What to set as the stream runner's observer.
    var observer: any StreamObserver { get }
    /// Where the page is.
    var url: String { get }
    /// The frames the view has been shown so far.
    var framesSeen: Int { get }
    /// What the view cost the stream's thread over `frames` frames, for `--stats`.
    func costSummary(frames: Int) -> String
    /// Gives connected viewers up to `seconds` to take what is queued for them.
    func drain(seconds: Double)
    /// Shows a saved world map instead of a stream: its planes, objects and keyframe path.
    func show(_ map: WorldMap)
}

/// Starts the live view, or hands the command over to the executable that has it.
///
/// Why two executables: the view's web server (Hummingbird) links Foundation, whose
/// internationalization libraries and ICU would cost every start of `planekit` several
/// milliseconds. So `planekit` is built without it, and `planekit view` / `planekit stream
/// --view` replace the process (`execv`) with `planekit-view` from the same folder, which runs the
/// same command with the server. The input and output are the same descriptors, untouched.
public enum LiveViewLauncher {
    /// How this executable starts a live view: set by `planekit-view` before it parses its
    /// arguments, nil in `planekit`. Written once at start-up, before any other thread exists.
    nonisolated(unsafe) public static var starter: ((ListenAddress, String) throws -> any LiveViewSession)?

    /// The view on `address`, for `command`; in an executable without the server, the process
    /// continues as `planekit-view` and this does not return. One line and exit status 1 when
    /// neither works.
    package static func start(_ address: ListenAddress, command: String) throws -> any LiveViewSession {
        if let starter { return try starter(address, command) }
        try ViewExecutable.handOver(command: command, purpose: "the live view")
    }
}

/// `planekit-view`, the executable with the network libraries linked in.
package enum ViewExecutable {
    /// Replaces this process with `planekit-view` from the same folder, with the same arguments
    /// and descriptors; when that fails, one line naming `purpose` and exit status 1.
    package static func handOver(command: String, purpose: String) throws -> Never {
        let path = executablePath()
        let arguments = [path] + CommandLine.arguments.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execv(path, argv)
        // Only reached when the exec failed.
        Diagnostics.warn("\(command): \(purpose) runs in \(path), which cannot be started (\(String(cString: strerror(errno)))); build it with `swift build -c release` (the planekit-view product)")
        throw ExitCode(1)
    }

    /// planekit-view beside the running executable.
    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        let folder = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "." : folder) + "/planekit-view"
    }
}

extension ListenAddress: ExpressibleByArgument {
    /// `ADDR:PORT`, `[IPv6]:PORT` or `PORT` (on loopback).
    public init?(argument: String) { self.init(parsing: argument) }
}
