#if canImport(Glibc)
import Glibc
#endif

/// A program run to completion with its standard output captured: the benchmarks run their
/// Python comparisons this way. Spawned with `posix_spawn` rather than Foundation's `Process`,
/// which would bring Foundation's start-up cost to every command (see ``CFormat``).
package struct ChildProcess {
    /// How the program ended and what it wrote on stdout.
    package struct Outcome {
        /// The exit status, or 128 + the signal's number when a signal ended it.
        package let status: Int32
        /// Everything written on stdout.
        package let output: [UInt8]
    }

    /// The environment that keeps a Python comparison's numerical libraries (OpenMP, TBB, MKL,
    /// OpenBLAS) on one thread, as PlaneKit's own figures are.
    package static let singleThreaded = Dictionary(uniqueKeysWithValues: ["OMP_NUM_THREADS", "TBB_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"].map { ($0, "1") })

    /// Runs `executable` with `arguments`, in this process's environment with `overrides` set,
    /// stdin and stderr inherited; waits for it to end.
    package static func run(_ executable: String, _ arguments: [String], overrides: [String: String] = [:]) throws -> Outcome {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        environment.merge(overrides) { _, new in new }

        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw ChildProcessError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }

        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[..<count]
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros Swift does not import.
        let signal = status & 0x7f
        return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: output)
    }
}

/// A program that could not be started.
struct ChildProcessError: Error, CustomStringConvertible {
    /// What went wrong, on one line.
    let description: String

    init(_ description: String) { self.description = description }
}
