/*
 * For libPlaneKitC's own Swift code, not for callers: sets the message planekit_last_error()
 * returns. Callers include planekit.h only.
 */
#ifndef PLANEKIT_LIBRARY_H
#define PLANEKIT_LIBRARY_H

#include "planekit.h"

/** Keeps a copy of `message` (truncated to 1 KiB at a UTF-8 boundary) as the thread's last error. */
void planekit_library_set_error(const char *message);

#endif /* PLANEKIT_LIBRARY_H */
