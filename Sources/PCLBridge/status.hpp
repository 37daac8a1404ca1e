// Shared helpers for the bridge's C++ files: turning exceptions into pk_status.
#pragma once

#include "pk_common.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace planekit_bridge {

/// Marks `status` as failed with `message` (truncated to fit).
inline void fail(pk_status *status, const std::string &message) {
    if (!status) return;
    status->ok = 0;
    std::snprintf(status->message, sizeof status->message, "%s", message.c_str());
}

/// Marks `status` as succeeded.
inline void succeed(pk_status *status) {
    if (!status) return;
    status->ok = 1;
    status->message[0] = '\0';
}

/// Runs `body`, converting any C++ exception into a failed status. Returns `body`'s success.
template <typename Body>
bool guarded(pk_status *status, const char *what, Body &&body) {
    try {
        body();
        return true;
    } catch (const std::bad_alloc &) {
        fail(status, std::string(what) + ": out of memory");
    } catch (const std::exception &e) {
        fail(status, std::string(what) + ": " + e.what());
    } catch (...) {
        fail(status, std::string(what) + ": unknown C++ exception");
    }
    return false;
}

}  // namespace planekit_bridge
