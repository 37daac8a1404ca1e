#if os(Linux)
import Foundation
import PlaneKitGeometry
import Synchronization
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

/// What a reader thread saw: the records, or the error that stopped it.
private final class ReaderOutcome: Sendable {
    let results = Mutex<[Result<StreamRecord, StreamError>]>([])
    let done = DispatchSemaphore(value: 0)
}

/// A pipe, closed on deinit (each end at most once).
private final class TestPipe {
    let readEnd: Int32
    let writeEnd: Int32
    private var writeOpen = true

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func closeWriteEnd() {
        if writeOpen { close(writeEnd) }
        writeOpen = false
    }

    deinit {
        closeWriteEnd()
        close(readEnd)
    }
}

/// A depth16 frame whose every byte depends on `index`, so a page overwritten before the reader
/// got it shows up as a wrong byte.
private func numberedFrame(_ index: Int, width: Int, height: Int) -> StreamFrame {
    var payload = [UInt8](repeating: 0, count: width * height * 2)
    var state = UInt32(truncatingIfNeeded: index &* 2_654_435_761 &+ 1)
    for i in payload.indices {
        state = state &* 1_664_525 &+ 1_013_904_223
        payload[i] = UInt8(truncatingIfNeeded: state >> 24)
    }
    return StreamFrame(timestamp: Double(index) / 30, width: width, height: height, encoding: .depth16, depthScale: 0.001,
                       intrinsics: .test(width: width, height: height), pose: .identity, payload: payload)
}

/// Reads every record from `descriptor` on its own thread (blocking reads must not sit on the
/// test's cooperative pool), pausing every `pauseEvery` records so the writer fills the pipe.
private func startRecordReader(_ descriptor: Int32, pauseEvery: Int) -> ReaderOutcome {
    let outcome = ReaderOutcome()
    let thread = Thread {
        let reader = StreamRecordReader(source: FileDescriptorSource(descriptor: descriptor, name: "pipe", pipeSize: nil))
        var count = 0
        while let result = reader.next() {
            outcome.results.withLock { $0.append(result) }
            count += 1
            if count % pauseEvery == 0 { usleep(2000) }
        }
        outcome.done.signal()
    }
    thread.start()
    return outcome
}

@Suite struct PipeSinkTests {
    @Test func theWriterGrowsItsPipeAndFramesArriveIntact() throws {
        let pipe = try TestPipe()
        #expect(PipeSize.capacity(pipe.writeEnd) == 64 << 10)
        // 96 KiB frames with small records between them, to a reader that pauses now and then.
        let width = 256, height = 192, frameCount = 120
        let outcome = startRecordReader(pipe.readEnd, pauseEvery: 7)
        var writer = StreamRecordWriter(sink: FileDescriptorSink(descriptor: pipe.writeEnd, name: "pipe", pipeSize: 256 << 10))
        #expect(PipeSize.capacity(pipe.writeEnd) == 256 << 10)
        for index in 0..<frameCount {
            try writer.write(.frame(numberedFrame(index, width: width, height: height)))
            if index % 10 == 0 { try writer.write(.remove(RemoveRecord(object: "obj-\(index)"))) }
        }
        try writer.flush()
        pipe.closeWriteEnd()
        outcome.done.wait()

        let results = outcome.results.withLock { $0 }
        let frames = results.compactMap(\.frame)
        #expect(results.allSatisfy { $0.error == nil })
        #expect(frames.count == frameCount)
        #expect(results.count == frameCount + 12)
        // Counted rather than compared one by one, so a failure prints numbers, not payloads.
        let damaged = frames.indices.filter { frames[$0].payload != numberedFrame($0, width: width, height: height).payload }
        #expect(damaged == [])
    }

    @Test func filesAreWrittenPlainly() throws {
        let path = NSTemporaryDirectory() + "planekit-pipe-sink-\(getpid()).stream"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        var reference = StreamRecordWriter(sink: MemoryByteSink())
        var writer = StreamRecordWriter(sink: FileDescriptorSink(descriptor: fd, name: path))
        for index in 0..<5 {
            let frame = numberedFrame(index, width: 320, height: 240)
            try writer.write(.frame(frame))
            try reference.write(.frame(frame))
        }
        try writer.flush()
        try reference.flush()
        close(fd)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.count == reference.output.sink.bytes.count)
        #expect(written == reference.output.sink.bytes)
    }

    @Test func withoutAPipeSizeThePipeIsLeftAlone() throws {
        let pipe = try TestPipe()
        let outcome = startRecordReader(pipe.readEnd, pauseEvery: 1000)
        var writer = StreamRecordWriter(sink: FileDescriptorSink(descriptor: pipe.writeEnd, name: "pipe", pipeSize: nil))
        for index in 0..<4 { try writer.write(.frame(numberedFrame(index, width: 320, height: 240))) }
        try writer.flush()
        #expect(PipeSize.capacity(pipe.writeEnd) == 64 << 10)
        pipe.closeWriteEnd()
        outcome.done.wait()
        let frames = outcome.results.withLock { $0 }.compactMap(\.frame)
        #expect(frames.map(\.payload) == (0..<4).map { numberedFrame($0, width: 320, height: 240).payload })
    }

    @Test func theReaderGrowsItsPipeOnItsFirstRead() throws {
        let pipe = try TestPipe()
        #expect(PipeSize.capacity(pipe.readEnd) == 64 << 10)
        let message = Array("{\"type\":\"remove\",\"object\":\"a\"}\n".utf8)
        _ = message.withUnsafeBytes { write(pipe.writeEnd, $0.baseAddress!, $0.count) }
        pipe.closeWriteEnd()
        var source = FileDescriptorSource(descriptor: pipe.readEnd, name: "pipe", pipeSize: 512 << 10)
        var buffer = [UInt8](repeating: 0, count: 100)
        let n = try buffer.withUnsafeMutableBytes { raw throws(StreamError) in try source.read(into: raw) }
        #expect(n == message.count)
        #expect(PipeSize.capacity(pipe.readEnd) == 512 << 10)
    }
}
#endif
