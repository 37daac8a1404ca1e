// CLinuxIO: the few Linux calls PlaneKit needs that Swift's Glibc module does not declare
// (they sit behind _GNU_SOURCE or in <malloc.h>). Plain C functions, defined in CLinuxIO.c,
// which is compiled with _GNU_SOURCE; this header needs no GNU declarations of its own, so it
// imports the same way whatever the Glibc module was built with.
#ifndef CLINUXIO_H
#define CLINUXIO_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The capacity of the pipe `fd` in bytes (fcntl F_GETPIPE_SZ), or -1 with errno set.
int clinuxio_pipe_size(int fd);

/// Asks for the pipe `fd` to hold `size` bytes (fcntl F_SETPIPE_SZ). Returns the capacity the
/// kernel chose, or -1 with errno set (EPERM above /proc/sys/fs/pipe-max-size or the per-user
/// limit, EBUSY when shrinking below what the pipe holds).
int clinuxio_set_pipe_size(int fd, int size);

/// mallopt(3) where glibc has it; returns 0 (failure, as mallopt does) elsewhere.
int clinuxio_mallopt(int parameter, int value);

/// Grows the main malloc heap by `bytes` at once and asks for transparent huge pages on it
/// (madvise MADV_HUGEPAGE), so that buffers later allocated there fault in 2 MiB at a time
/// instead of 4 KiB. Returns how many bytes of the heap now ask for huge pages: 0 where glibc,
/// the kernel or its settings (transparent_hugepage=never) do not allow it, which only leaves
/// the speed as it was.
size_t clinuxio_reserve_huge_page_heap(size_t bytes);

/// Moves the calling thread into the network namespace `fd` refers to (setns(2) with
/// CLONE_NEWNET; for tests that open sockets inside namespaces). 0, or -1 with errno set.
int clinuxio_enter_network_namespace(int fd);

/// mallopt's M_TRIM_THRESHOLD and M_MMAP_THRESHOLD parameter numbers.
enum {
    CLINUXIO_M_TRIM_THRESHOLD = -1,
    CLINUXIO_M_MMAP_THRESHOLD = -3,
};

#ifdef __cplusplus
}
#endif

#endif
