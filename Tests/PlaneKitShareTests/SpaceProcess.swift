import Foundation

/// A `planekit` pipeline run by `/bin/sh` for the shared-space tests: its stdout and stderr go to
/// files, every wait is bounded, and a run still going at the end of its time is killed.
final class SpaceProcess {
    let process = Process()
    let stdout: URL
    let stderr: URL

    /// The `planekit` binary beside the test bundle.
    static var planekit: String {
        if let path = ProcessInfo.processInfo.environment["PLANEKIT_BINARY"] { return path }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("planekit").path
    }

    /// Starts `script` (with `$PK` the planekit binary) writing to `name.ndjson` and `name.err` in `directory`.
    init(_ script: String, name: String, in directory: URL) throws {
        stdout = directory.appendingPathComponent("\(name).ndjson")
        stderr = directory.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["PK"] = Self.planekit
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits up to `seconds` for the run to end; its exit status, or `nil` (then it is killed).
    @discardableResult
    func wait(seconds: Double) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(-process.processIdentifier, SIGKILL)
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Sends `signal` (SIGTERM: a proper end) to the pipeline's processes: the shell's children
    /// (the stream is one).
    func interrupt(signal: Int32 = SIGTERM) {
        let shell = process.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in entries.compactMap({ Int32($0) }) {
            // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == shell { kill(pid, signal) }
        }
    }

    var errorText: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

    /// Waits up to `seconds` for stderr to contain `text`; the whole stderr when it does.
    func waitForError(containing text: String, seconds: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            let error = errorText
            if error.contains(text) { return error }
            if !process.isRunning { return errorText.contains(text) ? errorText : nil }
            usleep(20_000)
        }
        return nil
    }

    /// The events written so far.
    var events: [[String: Any]] {
        let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Waits up to `seconds` for an event that `matches`; whether one came.
    func waitForEvent(seconds: Double, _ matches: ([String: Any]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            if events.contains(where: matches) { return true }
            if !process.isRunning { return events.contains(where: matches) }
            usleep(50_000)
        }
        return false
    }

    /// The port a host printed (`hosting a shared space on ADDR:PORT`), waiting up to `seconds`.
    func hostPort(seconds: Double) -> Int? {
        guard let error = waitForError(containing: "hosting a shared space on ", seconds: seconds),
              let range = error.range(of: "hosting a shared space on ") else { return nil }
        let rest = error[range.upperBound...]
        guard let colon = rest.firstIndex(of: " ").flatMap({ rest[..<$0].lastIndex(of: ":") }) else { return nil }
        return Int(rest[rest.index(after: colon)...].prefix { $0.isNumber })
    }
}

extension [[String: Any]] {
    /// The events named `name`.
    func named(_ name: String) -> [[String: Any]] { filter { $0["event"] as? String == name } }
}

extension [String: Any] {
    /// An event's object's identifier.
    var objectIdentifier: String? { (self["object"] as? [String: Any])?["identifier"] as? String }

    /// An event's object's position (its transform's translation).
    var objectPosition: SIMD3<Double>? {
        guard let object = self["object"] as? [String: Any], let transform = object["transform"] as? [String: Any],
              let m = transform["columnMajor"] as? [Double], m.count == 16 else { return nil }
        return SIMD3(m[12], m[13], m[14])
    }

    /// An event's `transform` translation.
    var translation: SIMD3<Double>? {
        guard let transform = self["transform"] as? [String: Any], let m = transform["columnMajor"] as? [Double], m.count == 16 else { return nil }
        return SIMD3(m[12], m[13], m[14])
    }
}
