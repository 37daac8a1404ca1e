#if os(Linux)
import Foundation
import Synchronization
import Testing
@testable import PlaneKitStream

/// The pipe's own cost, without a producer's or consumer's work: the frames of a recorded stream
/// replayed from memory through a real pipe to a reader thread that parses them, once per way
/// of using the pipe. A benchmark, not a test: it runs only when PLANEKIT_PIPE_BENCH names a
/// recorded stream, prints frames per second, and checks only that every frame arrived intact.
///
///     planekit synth --frames 300 --stream-output /tmp/walk.stream
///     PLANEKIT_PIPE_BENCH=/tmp/walk.stream swift test --filter PipeThroughputBenchmark
@Suite struct PipeThroughputBenchmark {
    static let recording = ProcessInfo.processInfo.environment["PLANEKIT_PIPE_BENCH"]

    @Test(.enabled(if: recording != nil))
    func replayThroughAPipe() throws {
        let path = try #require(Self.recording)
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = StreamRecordReader(source: FileDescriptorSource(descriptor: fd, name: path))
        var frames: [StreamFrame] = []
        while let result = reader.next() {
            if case let .success(.frame(frame)) = result { frames.append(frame) }
        }
        try #require(!frames.isEmpty)
        let ways: [(String, PipeOptions, Int?)] = [
            ("write(2), 64 KiB pipe", .plainWrites, nil),
            ("write(2), reader grows the pipe to 1 MiB", .plainWrites, 1 << 20),
            ("write(2), writer grows the pipe to 1 MiB", PipeOptions(pipeSize: 1 << 20, splices: false), nil),
            ("vmsplice, writer grows the pipe to 1 MiB", .automatic, nil),
            ("vmsplice, both grow the pipe to 1 MiB", .automatic, 1 << 20),
        ]
        for round in 0..<3 {
            for (name, options, readerPipeSize) in ways {
                let seconds = try replay(frames, options: options, readerPipeSize: readerPipeSize)
                print(String(format: "round %d  %-44@ %6.1f frames/s  %.3f ms a frame", round, name,
                             Double(frames.count) / seconds, 1000 * seconds / Double(frames.count)))
            }
        }
    }

    /// Seconds to send `frames` through a fresh pipe and read them back, checking their bytes.
    private func replay(_ frames: [StreamFrame], options: PipeOptions, readerPipeSize: Int?) throws -> Double {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }
        let expected = frames.map(\.payload.count)
        let intact = ReplayCheck()
        let thread = Thread {
            let reader = StreamRecordReader(source: FileDescriptorSource(descriptor: readEnd, name: "pipe", pipeSize: readerPipeSize))
            var index = 0
            var good = true
            while let result = reader.next() {
                guard case let .success(.frame(frame)) = result, index < expected.count,
                      frame.payload.count == expected[index] else { good = false; break }
                index += 1
            }
            intact.finish(good && index == expected.count)
        }
        let clock = ContinuousClock()
        let start = clock.now
        thread.start()
        var writer = StreamRecordWriter(sink: FileDescriptorSink(descriptor: writeEnd, name: "pipe", pipe: options))
        for frame in frames { try writer.write(.frame(frame)) }
        try writer.flush()
        close(writeEnd)
        let good = intact.wait()
        let elapsed = clock.now - start
        #expect(good)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}

/// The reader thread's verdict, handed to the test's thread.
private final class ReplayCheck: Sendable {
    private let good = Mutex(false)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ good: Bool) {
        self.good.withLock { $0 = good }
        done.signal()
    }

    func wait() -> Bool {
        done.wait()
        return good.withLock { $0 }
    }
}
#endif
