import CLinuxIO

/// Prepares glibc's heap for commands that work on whole frames.
///
/// Every frame needs a few buffers of half a megabyte or more (file bytes, inflated rows,
/// samples, the cloud, label images, cell grids). By default glibc maps each afresh and unmaps
/// it when freed, so the next frame page-faults all of them in again: a quarter of `encode`'s
/// time on VGA PNGs, and 55 000 page faults in 300 frames of `stream`. And each 4 KiB page a
/// buffer first touches costs a fault of about 2.5 µs on this project's machine: a VGA cloud
/// alone (4.9 MB) is 1 200 of them, a third of `analyze`'s time on one depth image.
enum BufferHeap {
    /// How much heap ``backWithHugePages()`` grows up front: room for the buffers of a few VGA
    /// frames; only the pages touched become memory.
    static let hugePageBytes = 64 << 20

    /// Keeps freed blocks for reuse: mmap threshold 32 MiB and trim threshold 128 MiB, so large
    /// buffers come from the heap and stay there from frame to frame. Through the CLinuxIO shim,
    /// since the Glibc module does not include <malloc.h>; elsewhere it does nothing but leave
    /// the speed as it was.
    static func keepFreedBuffers() {
        _ = clinuxio_mallopt(Int32(CLINUXIO_M_MMAP_THRESHOLD), 32 << 20)
        _ = clinuxio_mallopt(Int32(CLINUXIO_M_TRIM_THRESHOLD), 128 << 20)
    }

    /// Keeps freed blocks (``keepFreedBuffers()``), then grows the heap by ``hugePageBytes`` with
    /// transparent huge pages asked for, so that first touches fault 2 MiB at a time
    /// (`analyze samples/room-depth.png`: 2 500 page faults to about 900). For commands whose
    /// start-up counts; a long stream reuses its buffers anyway, and keeps 4 KiB pages so that
    /// its memory is what it uses, not rounded up to 2 MiB regions (the hostile-stream test
    /// compares peak memory within 10 %). Where glibc or the kernel does not allow it, nothing
    /// changes but the speed.
    static func backWithHugePages() {
        keepFreedBuffers()
        _ = clinuxio_reserve_huge_page_heap(hugePageBytes)
    }
}
