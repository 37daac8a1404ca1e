import CLinuxIO

/// Tells glibc to keep freed blocks for reuse instead of returning them to the system.
///
/// Every frame needs a few buffers of half a megabyte or more (file bytes, inflated rows,
/// samples, payloads, label images, cell grids). By default glibc maps each afresh and unmaps it
/// when freed, so the next frame page-faults all of them in again: a quarter of `encode`'s time
/// on VGA PNGs, and 55 000 page faults in 300 frames of `stream`. Kept, they are reused from
/// frame to frame, and memory stays at one frame's worth.
enum FreedBuffers {
    /// Raises the mmap threshold to 32 MiB and the trim threshold to 128 MiB (through the
    /// CLinuxIO shim, since the Glibc module does not include <malloc.h>; elsewhere it does
    /// nothing but leave the speed as it was).
    static func keepForReuse() {
        _ = clinuxio_mallopt(Int32(CLINUXIO_M_MMAP_THRESHOLD), 32 << 20)
        _ = clinuxio_mallopt(Int32(CLINUXIO_M_TRIM_THRESHOLD), 128 << 20)
    }
}
