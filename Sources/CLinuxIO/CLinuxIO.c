// Definitions of CLinuxIO.h. _GNU_SOURCE is set here, before any system header, because
// F_SETPIPE_SZ/F_GETPIPE_SZ are GNU extensions of <fcntl.h>.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "CLinuxIO.h"

#include <errno.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#endif

int clinuxio_pipe_size(int fd) {
#if defined(__linux__)
    return fcntl(fd, F_GETPIPE_SZ);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

int clinuxio_set_pipe_size(int fd, int size) {
#if defined(__linux__)
    return fcntl(fd, F_SETPIPE_SZ, size);
#else
    (void)fd; (void)size;
    errno = ENOSYS;
    return -1;
#endif
}

int clinuxio_mallopt(int parameter, int value) {
#if defined(__linux__) && defined(__GLIBC__)
    return mallopt(parameter, value);
#else
    (void)parameter; (void)value;
    return 0;
#endif
}

size_t clinuxio_reserve_huge_page_heap(size_t bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge_page = (uintptr_t)2 << 20;
    // One block of a quarter of `bytes` (larger than any free block at start-up, and below
    // the caller's mmap threshold) makes malloc grow the heap by the block and the pad
    // together, in one brk; freeing it leaves all of it as the heap's free top, which the
    // caller's trim threshold keeps.
    size_t block_bytes = bytes / 4;
    if (bytes > (size_t)INT32_MAX || mallopt(M_TOP_PAD, (int)(bytes - block_bytes)) == 0) return 0;
    char *before = sbrk(0);
    // volatile: a compiler may drop a malloc whose block is only freed.
    char *volatile block = malloc(block_bytes);
    char *after = sbrk(0);
    free(block);
    // Later growth goes back to glibc's default pad (128 KiB).
    mallopt(M_TOP_PAD, 128 * 1024);
    if (block == NULL || before == (char *)-1 || after == (char *)-1 || after <= before) return 0;
    uintptr_t start = ((uintptr_t)before + huge_page - 1) & ~(huge_page - 1);
    uintptr_t end = (uintptr_t)after & ~(huge_page - 1);
    if (end <= start || madvise((void *)start, end - start, MADV_HUGEPAGE) != 0) return 0;
    // The free top begins where the block did, below `start` by anything up to 2 MiB (the
    // heap starts at a random 4 KiB page), and the next buffers would land there and fault
    // 4 KiB at a time: up to 512 faults, a millisecond, differing from run to run. A spacer
    // from the block's chunk up to `start`, never written and never freed, puts them on the
    // huge pages. Its request size makes glibc's chunk (request + 8, rounded up to 16) end
    // exactly at `start`; if malloc serves it from elsewhere, it is given back and nothing
    // changes but the speed.
    const uintptr_t chunk_header = 2 * sizeof(size_t);
    uintptr_t chunk = (uintptr_t)block - chunk_header;
    if (start - chunk >= 4 * chunk_header) {
        char *spacer = malloc(start - chunk - sizeof(size_t));
        if (spacer != block) free(spacer);
    }
    return end - start;
#else
    (void)bytes;
    return 0;
#endif
}

int clinuxio_enter_network_namespace(int fd) {
#if defined(__linux__)
    return setns(fd, CLONE_NEWNET);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}
