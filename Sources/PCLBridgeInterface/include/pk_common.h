#ifndef PLANEKIT_PK_COMMON_H
#define PLANEKIT_PK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of a bridge call: `ok` is 1 on success; otherwise `message` says what failed.
typedef struct pk_status {
    int32_t ok;
    char message[512];
} pk_status;

#ifdef __cplusplus
}
#endif

#endif
