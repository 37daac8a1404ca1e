#if os(Linux)
import CLinuxIO
import Glibc
import Synchronization

/// Pipe sizes, shared by the writing and the reading end.
enum PipeSize {
    /// Whether `descriptor` is a pipe or FIFO.
    static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// The pipe's capacity in bytes, nil when it cannot be read (not a pipe).
    static func capacity(_ descriptor: Int32) -> Int? {
        let size = clinuxio_pipe_size(descriptor)
        return size > 0 ? Int(size) : nil
    }

    /// Grows the pipe to `size` bytes when it is smaller, silently keeping it when the kernel
    /// refuses; returns its capacity afterwards, nil when it cannot be read (not a pipe).
    @discardableResult
    static func grow(_ descriptor: Int32, to size: Int) -> Int? {
        guard let current = capacity(descriptor) else { return nil }
        guard current < size else { return current }
        let granted = clinuxio_set_pipe_size(descriptor, Int32(clamping: size))
        return granted > 0 ? Int(granted) : current
    }
}

/// Lends large writes to a pipe with `vmsplice(2)` from its own ring of page-aligned buffers.
///
/// vmsplice without SPLICE_F_GIFT puts references to our pages into the pipe instead of copying
/// them; the reader's `read(2)` copies out of them later. So a buffer must not be written again
/// while the pipe may still refer to it. The pipe holds at most `capacity / pageSize` slots and
/// each spliced page fills at least one, first in, first out: once a buffer was fully spliced and
/// at least that many further slots have been pushed, none of its pages can still be in the pipe.
/// Slots are counted from below (spliced pages exactly, written bytes in whole pages only, since
/// a small write may merge into the last slot), and the capacity is read again before every
/// reuse because the reader may have grown the pipe (it can only grow: we never shrink it).
/// When no buffer may be reused yet, the ring grows; it levels off near one pipe's worth.
///
/// The buffers are mapped with `mmap` and unmapped, never freed to malloc: unmapping leaves
/// pages the pipe still refers to intact, while memory handed back to malloc could be reused and
/// overwritten under the reader.
///
/// Not covered: a reader that passes our pages on with splice(2) or tee(2) (to another pipe, a
/// socket) instead of reading them keeps references this count cannot see.
final class PipeSplicer: Sendable {
    /// One buffer of the ring. Unchecked Sendable because of its pointer: the memory is only
    /// touched under the lock, by whichever thread holds it.
    private struct Buffer: @unchecked Sendable {
        var base: UnsafeMutableRawPointer
        var capacity: Int
        /// The slot count when its last splice ended; nil before its first use.
        var splicedAt: Int?
    }

    private struct State: Sendable {
        var prepared = false
        var fellBack = false
        var pipeSize = 0
        /// Buffers, oldest splice first starting at `oldest`, round the ring.
        var buffers: [Buffer] = []
        var oldest = 0
        /// Slots pushed into the pipe so far (a lower bound).
        var pushedSlots = 0
        var splicedWrites = 0
        var splicedBytes = 0
    }

    let options: PipeOptions
    private let descriptor: Int32
    private let pageSize: Int
    private let state = Mutex(State())

    /// A splicer for `descriptor`, which must be a pipe (see ``PipeSize/isPipe(_:)``).
    init(descriptor: Int32, options: PipeOptions) {
        self.descriptor = descriptor
        self.options = options
        pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))
        state.withLock { $0.pipeSize = PipeSize.capacity(descriptor) ?? 0 }
    }

    deinit {
        state.withLock { state in
            for buffer in state.buffers { munmap(buffer.base, buffer.capacity) }
        }
    }

    /// What has been done so far.
    var statistics: PipeStatistics {
        state.withLock {
            PipeStatistics(pipeSize: $0.pipeSize, splicedWrites: $0.splicedWrites, splicedBytes: $0.splicedBytes,
                           ringBuffers: $0.buffers.count, fellBack: $0.fellBack)
        }
    }

    /// Whether a write of `count` bytes should go through ``splice(_:name:)``.
    func wantsSplice(_ count: Int) -> Bool {
        options.splices && count >= options.minimumSpliceBytes
    }

    /// Grows the pipe before the first large write (once).
    func prepare() {
        state.withLock { state in
            guard !state.prepared else { return }
            state.prepared = true
            if let size = options.pipeSize, let granted = PipeSize.grow(descriptor, to: size) { state.pipeSize = granted }
        }
    }

    /// Counts `count` bytes sent with `write(2)`: at least `count / pageSize` new slots.
    func noteWritten(_ count: Int) {
        guard count >= pageSize else { return }
        state.withLock { $0.pushedSlots += count / pageSize }
    }

    /// Copies `bytes` into a free ring buffer and splices it into the pipe. Returns how many
    /// bytes were sent, fewer than all (0 included) when vmsplice is refused here (EINVAL, ENOSYS):
    /// the caller writes the rest, and every later write too.
    func splice(_ bytes: UnsafeRawBufferPointer, name: String) throws(StreamError) -> Int {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        prepare()
        return try state.withLock { (state) throws(StreamError) -> Int in
            guard !state.fellBack, let index = freeBuffer(count: bytes.count, state: &state) else { return 0 }
            let base = state.buffers[index].base
            base.copyMemory(from: source, byteCount: bytes.count)
            var sent = 0
            defer {
                // Even a partly spliced buffer has pages in the pipe.
                state.buffers[index].splicedAt = state.pushedSlots
                state.oldest = (index + 1) % state.buffers.count
            }
            while sent < bytes.count {
                let n = clinuxio_vmsplice(descriptor, base + sent, bytes.count - sent)
                if n < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EINVAL || code == ENOSYS {
                        state.fellBack = true
                        return sent
                    }
                    throw StreamError.cannotWrite(name, code: code)
                }
                let first = (Int(bitPattern: base) + sent) / pageSize
                let last = (Int(bitPattern: base) + sent + n - 1) / pageSize
                state.pushedSlots += last - first + 1
                sent += n
            }
            state.splicedWrites += 1
            state.splicedBytes += sent
            return sent
        }
    }

    /// The index of a ring buffer of at least `count` bytes that the pipe no longer refers to:
    /// the oldest when it is free, else a new one put in front of it. Nil when memory cannot be
    /// mapped (the caller then writes).
    private func freeBuffer(count: Int, state: inout State) -> Int? {
        let size = (count + pageSize - 1) / pageSize * pageSize
        // Read again: the reader may have grown the pipe since.
        guard let capacity = PipeSize.capacity(descriptor) else { return nil }
        state.pipeSize = max(state.pipeSize, capacity)
        let slots = (state.pipeSize + pageSize - 1) / pageSize
        if !state.buffers.isEmpty {
            let index = state.oldest
            let candidate = state.buffers[index]
            if candidate.splicedAt.map({ state.pushedSlots - $0 >= slots }) ?? true {
                if candidate.capacity >= size { return index }
                // Free but too small: replace it (unmapping cannot disturb the pipe, see above).
                guard let base = map(size) else { return nil }
                munmap(candidate.base, candidate.capacity)
                state.buffers[index] = Buffer(base: base, capacity: size, splicedAt: nil)
                return index
            }
        }
        guard let base = map(size) else { return nil }
        // In front of the oldest, so it is the newest once spliced and the order stays a ring.
        let index = state.buffers.isEmpty ? 0 : state.oldest
        state.buffers.insert(Buffer(base: base, capacity: size, splicedAt: nil), at: index)
        return index
    }

    /// `size` bytes of fresh page-aligned anonymous memory, or nil.
    private func map(_ size: Int) -> UnsafeMutableRawPointer? {
        let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // MAP_FAILED is (void *)-1, a macro Swift does not import.
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return address
    }
}
#endif
