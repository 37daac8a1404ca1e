// Loads the PCL bridge library the first time it is needed (see pk_bridge.h for why).
#define _GNU_SOURCE
#include "pk_bridge.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef const pk_bridge_functions *(*pk_table_function)(void);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const pk_bridge_functions *loaded_table = NULL;
static char load_failure[512];

/// Opens `path` and looks up the table. On failure writes the reason to `reason`.
static const pk_bridge_functions *open_table(const char *path, char *reason, size_t capacity) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *error = dlerror();
        snprintf(reason, capacity, "%s", error ? error : "dlopen failed without a message");
        return NULL;
    }
    pk_table_function table = (pk_table_function)dlsym(library, PK_BRIDGE_TABLE_SYMBOL);
    if (!table) {
        // A library of another table version: refuse it rather than call into a layout we
        // do not know. It stays loaded; unloading C++ libraries is not reliably safe.
        snprintf(reason, capacity, "%s has no %s (built from another PlaneKit version)", path,
                 PK_BRIDGE_TABLE_SYMBOL);
        return NULL;
    }
    return table();
}

/// The directory of the running executable with the bridge's file name, or 0 when unknown.
static int beside_executable(char *path, size_t capacity) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return 0;
    executable[length] = '\0';
    char *slash = strrchr(executable, '/');
    if (!slash) return 0;
    *slash = '\0';
    int written = snprintf(path, capacity, "%s/%s", executable, PK_BRIDGE_LIBRARY_NAME);
    return written > 0 && (size_t)written < capacity;
}

static void load(void) {
    char reason[400] = "";
    const char *explicit_path = getenv(PK_BRIDGE_PATH_VARIABLE);
    if (explicit_path && explicit_path[0] != '\0') {
        loaded_table = open_table(explicit_path, reason, sizeof reason);
        if (!loaded_table) {
            snprintf(load_failure, sizeof load_failure, "the PCL bridge named by %s could not be loaded: %s",
                     PK_BRIDGE_PATH_VARIABLE, reason);
        }
        return;
    }
    char path[PATH_MAX + 64];
    if (beside_executable(path, sizeof path) && access(path, F_OK) == 0) {
        // The file is there: if it does not load (PCL's libraries missing, say), that is the
        // reason worth reporting, not the search path's.
        loaded_table = open_table(path, reason, sizeof reason);
    } else {
        loaded_table = open_table(PK_BRIDGE_LIBRARY_NAME, reason, sizeof reason);
    }
    if (!loaded_table) {
        snprintf(load_failure, sizeof load_failure,
                 "the PCL bridge is not available (%s); unorganized clouds need it: build it with "
                 "`swift build -c release --product PlaneKitPCLBridge` so that %s sits beside the "
                 "executable, or set %s to its path",
                 reason, PK_BRIDGE_LIBRARY_NAME, PK_BRIDGE_PATH_VARIABLE);
    }
}

const pk_bridge_functions *pk_bridge_load(pk_status *status) {
    pthread_once(&load_once, load);
    if (status) {
        status->ok = loaded_table != NULL;
        snprintf(status->message, sizeof status->message, "%s", loaded_table ? "" : load_failure);
    }
    return loaded_table;
}
