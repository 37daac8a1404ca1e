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

int clinuxio_enter_network_namespace(int fd) {
#if defined(__linux__)
    return setns(fd, CLONE_NEWNET);
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}
