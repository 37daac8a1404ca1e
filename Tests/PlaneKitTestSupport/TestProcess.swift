import Foundation

/// A child process for tests, its output in files (no pipe can fill up and stall it), stopped
/// for sure at the end: every wait is bounded.
///
/// Started with `posix_spawn` and reaped with `waitpid` here rather than through Foundation's
/// `Process`, whose exit monitoring missed children's exits once Avahi's client library was
/// running in the same process (the child stayed a zombie).
public final class TestProcess: @unchecked Sendable {
    // Unchecked: the exit status is only touched under `lock`; the rest is immutable.
    /// Its process identifier.
    public let processIdentifier: pid_t
    /// The file standard output goes to.
    public let outputPath: String
    /// The file standard error goes to.
    public let errorPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `arguments[0]` (a path, or a name looked up in `PATH`) with the rest as arguments;
    /// `environment` adds to (or overrides) this process's.
    public init(_ arguments: [String], environment: [String: String] = [:], directory: URL) throws {
        precondition(!arguments.isEmpty, "a command needs a program")
        let stamp = UUID().uuidString.prefix(8)
        let base = directory.appendingPathComponent("\((arguments[0] as NSString).lastPathComponent)-\(stamp)").path
        outputPath = base + ".out"
        errorPath = base + ".err"
        guard let program = Self.locate(arguments[0]) else { throw TestProcessError.notFound(arguments[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0.key)=\($0.value)" }
        let argv = ([program] + arguments.dropFirst()).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard status == 0 else { throw TestProcessError.spawnFailed(program, String(cString: strerror(status))) }
        processIdentifier = pid
    }

    /// The path of the package's executable `name` (`planekit`, …) beside the running test
    /// bundle, where `swift build --build-tests` puts them.
    public static func product(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The full path of `program`, searching `PATH` (and the sbin directories root's tools live in).
    public static func locate(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Standard output so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// Standard error so far.
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Its exit status (128 + signal when a signal ended it), or `nil` while it runs. Reaps it.
    public var status: Int32? {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus == nil {
            var raw: Int32 = 0
            if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier {
                // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
                let signal = raw & 0x7F
                exitStatus = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            }
        }
        return exitStatus
    }

    /// Whether it still runs.
    public var isRunning: Bool { status == nil }

    /// Waits up to `timeout` for it to exit; its exit status, or `nil` if it still runs.
    @discardableResult
    public func waitForExit(timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while status == nil, ContinuousClock.now < deadline { usleep(5_000) }
        return status
    }

    /// Waits up to `timeout` until `text` appears in its standard output or standard error.
    public func waitForOutput(containing text: String, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if output.contains(text) || errorOutput.contains(text) { return true }
            if !isRunning { return output.contains(text) || errorOutput.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// Sends SIGTERM, then SIGKILL if it has not exited within `grace`; waits for it to go.
    public func stop(grace: Duration = .seconds(2)) {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        if waitForExit(timeout: grace) == nil {
            kill(processIdentifier, SIGKILL)
            waitForExit(timeout: .seconds(5))
        }
    }

    /// Runs a command to its end (at most `timeout`, then it is killed) and returns its exit
    /// status (`nil` when killed) and output.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL, timeout: Duration = .seconds(10)
    ) throws -> (status: Int32?, output: String, error: String) {
        let child = try TestProcess(arguments, environment: environment, directory: directory)
        let status = child.waitForExit(timeout: timeout)
        if status == nil { child.stop() }
        return (status, child.output, child.errorOutput)
    }

    deinit { stop() }
}

/// Why a test's child process could not start.
public enum TestProcessError: Error, CustomStringConvertible {
    /// The program is not installed.
    case notFound(String)
    /// `posix_spawn` refused.
    case spawnFailed(String, String)

    public var description: String {
        switch self {
        case .notFound(let program): "\(program) not found in PATH"
        case .spawnFailed(let program, let reason): "cannot start \(program): \(reason)"
        }
    }
}
