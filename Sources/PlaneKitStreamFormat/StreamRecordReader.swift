#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitInput

/// Reads the records of a frame stream (see `docs/stream-format.md`) from a byte source, one at
/// a time, checking every field.
///
/// Each call to ``read()`` returns the next good record, `nil` at the end of the stream, or
/// throws a ``StreamError`` for a bad one after skipping it — its payload included when its
/// header said how long that is — so the caller may report the error and call ``read()``
/// again. Memory stays flat over an endless stream: the line buffer has a fixed size and a
/// frame's payload storage is reused when the caller no longer holds the previous frame.
public final class StreamRecordReader<Source: ByteSource> {
    /// The longest header line accepted, in bytes (without its `\n`).
    public let maximumHeaderBytes: Int
    /// The number of the last record returned or rejected (1-based; blank lines do not count).
    public private(set) var recordNumber = 0

    private var source: Source
    /// The line buffer: `buffer[start..<end]` holds bytes read but not yet used.
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0, end = 0
    private var sourceEnded = false
    /// Payload storage handed out with the last frame, reused when it comes back unshared.
    private var payloadStorage: [UInt8] = []
    /// The first bytes of the source (up to 64), to tell a file that is not a record stream at all.
    public private(set) var leadingBytes: [UInt8] = []

    /// The default cap on header lines: 1 MiB.
    public static var defaultMaximumHeaderBytes: Int { 1 << 20 }

    /// A reader of `source` accepting header lines of up to `maximumHeaderBytes` bytes.
    public init(source: Source, maximumHeaderBytes: Int = StreamRecordReader.defaultMaximumHeaderBytes) {
        self.source = source
        self.maximumHeaderBytes = max(64, maximumHeaderBytes)
        // Room for a whole header line plus 64 KiB, so every refill reads a good chunk.
        buffer = .allocate(byteCount: self.maximumHeaderBytes + (64 << 10), alignment: 16)
        // Bound to bytes once, so header lines can be read as UInt8 in place.
        _ = buffer.bindMemory(to: UInt8.self)
    }

    deinit { buffer.deallocate() }

    /// The capacity of the frame payload storage in bytes (for checking that memory stays flat).
    public var payloadCapacity: Int { payloadStorage.capacity }

    /// The size of the line buffer in bytes (fixed).
    public var lineBufferSize: Int { buffer.count }

    /// The next good record, `nil` at the end of the stream, or a ``StreamError`` for a bad one
    /// (after which reading may go on).
    public func read() throws(StreamError) -> StreamRecord? {
        while true {
            guard let (lineStart, lineEnd) = try nextLine() else { return nil }
            var last = lineEnd
            if last > lineStart && buffer[last - 1] == 0x0D { last -= 1 }
            let line = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + lineStart,
                                           count: last - lineStart)
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            recordNumber += 1
            let number = recordNumber
            // Everything about the header is settled before the payload is touched, because the
            // payload reads below reuse the line buffer.
            let header = RecordHeader(line)
            if let skip = header.payloadToSkip {
                try skipPayload(skip, record: number, problem: header.problem)
            }
            if let problem = header.problem { throw StreamError(recordNumber: number, message: problem) }
            guard case var .frame(frame)? = header.record else { return header.record }
            frame.payload = try readPayload(count: frame.byteCount, record: number)
            return .frame(frame)
        }
    }

    // MARK: Lines

    /// The bounds in `buffer` of the next line without its `\n`, or nil at the end of the
    /// stream. A line longer than ``maximumHeaderBytes`` is discarded up to its end and reported.
    private func nextLine() throws(StreamError) -> (Int, Int)? {
        // Bytes after `start` already searched for a newline.
        var searched = 0
        while true {
            let from = start + searched
            if from < end, let newline = memchr(buffer.baseAddress! + from, 0x0A, end - from) {
                let offset = buffer.baseAddress!.distance(to: UnsafeMutableRawPointer(newline))
                let line = (start, offset)
                start = offset + 1
                guard line.1 - line.0 <= maximumHeaderBytes else { throw overlong(length: line.1 - line.0) }
                return line
            }
            searched = end - start
            if searched > maximumHeaderBytes { throw try discardOverlongLine() }
            if sourceEnded {
                guard start < end else { return nil }
                // A last line without its newline still counts.
                let line = (start, end)
                start = end
                return line
            }
            compact()
            try fill()
        }
    }

    /// Moves the unused bytes to the front of the buffer.
    private func compact() {
        guard start > 0 else { return }
        let count = end - start
        if count > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count) }
        start = 0
        end = count
    }

    /// The most bytes one refill of the line buffer asks for. A header line is a few hundred
    /// bytes; whatever a refill brings in beyond it is usually payload, which then has to be
    /// copied out of the line buffer. Asking for the whole buffer (over 1 MiB) pulled a VGA
    /// frame's entire payload through that copy; with 16 KiB at most that much is copied, and
    /// the rest is read straight into the payload.
    static var refillBytes: Int { 16 << 10 }

    /// Reads more bytes after `end`; marks the end of the source when there are none.
    private func fill() throws(StreamError) {
        guard end < buffer.count else { return }
        let limit = min(buffer.count, end + Self.refillBytes)
        let n = try readSource(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<limit]))
        if leadingBytes.isEmpty, n > 0 {
            // The source's first bytes: nothing is read before the first line.
            leadingBytes = Array(UnsafeRawBufferPointer(start: buffer.baseAddress! + end, count: min(n, 64)))
        }
        if n == 0 { sourceEnded = true } else { end += n }
    }

    /// Reads from the source; a read error ends the stream and is reported as a stream error.
    private func readSource(into target: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        do throws(StreamError) {
            return try source.read(into: target)
        } catch {
            sourceEnded = true
            throw error
        }
    }

    /// Discards the rest of an over-long line (whose start is at `start`, with no newline in
    /// the buffer) and returns the error reporting it.
    private func discardOverlongLine() throws(StreamError) -> StreamError {
        var length = 0
        while true {
            if start < end, let newline = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
                let offset = buffer.baseAddress!.distance(to: UnsafeMutableRawPointer(newline))
                length += offset - start
                start = offset + 1
                break
            }
            length += end - start
            start = 0
            end = 0
            if sourceEnded { break }
            try fill()
        }
        return overlong(length: length)
    }

    /// The error for an over-long line of `length` bytes, counted as the next record.
    private func overlong(length: Int) -> StreamError {
        recordNumber += 1
        return StreamError(recordNumber: recordNumber,
                           message: "header line is \(length) bytes, longer than the \(maximumHeaderBytes) allowed; skipped to the next line")
    }

    // MARK: Payloads

    /// The most payload storage allocated ahead of the bytes received: 1 MiB (as much as a
    /// header line may take), or as much again as has arrived. A VGA depth16 frame (600 KiB)
    /// is then read in one step, a larger one in a few, and a claim that is never paid costs
    /// at most twice what arrived plus this.
    static var payloadGrowthBytes: Int { 1 << 20 }

    /// Reads exactly `count` payload bytes into the reused payload storage.
    ///
    /// The storage grows with the bytes that actually arrive, never to the claimed `count` up
    /// front: a header can claim 768 MiB (64 Mi pixels of `xyz32f`) and then the stream ends
    /// or goes on with something else, and the process must not grow for the claim. Beyond
    /// the capacity already held from earlier frames, the storage is at most twice the bytes
    /// received plus ``payloadGrowthBytes``.
    private func readPayload(count: Int, record: Int) throws(StreamError) -> [UInt8] {
        // Take the storage out so it is uniquely referenced when the caller let go of the last frame.
        var payload = payloadStorage
        payloadStorage = []
        // Bytes already in the storage are overwritten, not cleared: a stream of same-sized
        // frames reuses it as it is.
        if payload.count > count { payload.removeLast(payload.count - count) }
        let buffered = min(count, end - start)
        if buffered > 0 {
            if payload.count < buffered { payload.append(contentsOf: repeatElement(0, count: buffered - payload.count)) }
            payload.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: buffered) }
            start += buffered
        }
        var done = buffered
        var failure: StreamError?
        while done < count && !sourceEnded && failure == nil {
            // Room for the next step: the capacity already held, else as much again as has
            // arrived (at least payloadGrowthBytes), never more than the claim.
            let room = min(count, max(payload.capacity, done + max(done, Self.payloadGrowthBytes)))
            if payload.count < room {
                // Exactly the room: append alone would double the capacity on its own.
                payload.reserveCapacity(room)
                payload.append(contentsOf: repeatElement(0, count: room - payload.count))
            }
            payload.withUnsafeMutableBytes { target in
                // The rest goes straight from the source into the payload, without a copy.
                while done < room && !sourceEnded {
                    do throws(StreamError) {
                        let n = try readSource(into: UnsafeMutableRawBufferPointer(rebasing: target[done..<room]))
                        if n == 0 { sourceEnded = true } else { done += n }
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        }
        payloadStorage = payload
        if let failure { throw failure }
        guard done == count else {
            throw StreamError(recordNumber: record, message: "payload truncated: the stream ended after \(done) of \(count) bytes")
        }
        return payload
    }

    /// Reads and discards `count` payload bytes, a buffer at a time, never allocating for them.
    /// `problem` is the header's own problem, reported instead of a truncation when there is one.
    private func skipPayload(_ count: Int, record: Int, problem: String?) throws(StreamError) {
        var remaining = count
        let buffered = min(remaining, end - start)
        start += buffered
        remaining -= buffered
        while remaining > 0 && !sourceEnded {
            start = 0
            end = 0
            let n = try readSource(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
            if n == 0 { sourceEnded = true } else { remaining -= n }
        }
        if remaining > 0 {
            let truncated = "payload truncated: the stream ended after \(count - remaining) of \(count) bytes"
            throw StreamError(recordNumber: record, message: problem.map { "\($0); \(truncated)" } ?? truncated)
        }
    }
}

/// What one header line says: the record (frames without payload yet) or the problem with it,
/// and how many payload bytes follow that must be skipped rather than read.
struct RecordHeader {
    var record: StreamRecord?
    var problem: String?
    /// Bytes to discard after the line: the whole payload of a bad record, or of a record kind
    /// that has no use for one.
    var payloadToSkip: Int?

    init(_ line: UnsafeBufferPointer<UInt8>) {
        if let offset = UTF8Validation.firstInvalidOffset(line) {
            problem = "header is not valid UTF-8 (byte \(offset + 1))"
            payloadToSkip = RecordHeader.salvageByteCount(line)
            return
        }
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(line)
        } catch {
            problem = "not valid JSON: \(error.message) at byte \(error.offset + 1)"
            payloadToSkip = RecordHeader.salvageByteCount(line)
            return
        }
        guard case let .object(members) = value else {
            problem = "a record must be a JSON object, got \(value.kindName)"
            return
        }
        let fields = HeaderFields(members: members)
        var bytes: Int?
        do throws(HeaderProblem) {
            bytes = try fields.integer("bytes")
        } catch {
            problem = error.message
            return
        }
        do throws(HeaderProblem) {
            let record = try RecordDecoding.record(fields)
            self.record = record
            if case .frame = record {} else { payloadToSkip = bytes.flatMap { $0 > 0 ? $0 : nil } }
        } catch {
            problem = error.message
            payloadToSkip = bytes.flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// The `"bytes": N` of a line that is not valid JSON, found by a plain text search, so that
    /// a payload after a damaged header is still skipped; nil when no such text is there.
    static func salvageByteCount(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Array("\"bytes\"".utf8)
        guard line.count >= key.count else { return nil }
        var i = 0
        while i + key.count <= line.count {
            if line[i] == key[0], (0..<key.count).allSatisfy({ line[i + $0] == key[$0] }) {
                var k = i + key.count
                while k < line.count, line[k] == 0x20 || line[k] == 0x09 { k += 1 }
                guard k < line.count, line[k] == UInt8(ascii: ":") else { i += 1; continue }
                k += 1
                while k < line.count, line[k] == 0x20 || line[k] == 0x09 { k += 1 }
                var value = 0, digits = 0
                while k < line.count, line[k] >= 0x30, line[k] <= 0x39, digits < 16 {
                    value = value * 10 + Int(line[k] - 0x30)
                    digits += 1
                    k += 1
                }
                return digits > 0 && value > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }
}

extension StreamRecordReader: IteratorProtocol {
    /// The next record or error, `nil` at the end: ``read()`` as a `Result`.
    public func next() -> Result<StreamRecord, StreamError>? {
        do throws(StreamError) {
            guard let record = try read() else { return nil }
            return .success(record)
        } catch {
            return .failure(error)
        }
    }
}
