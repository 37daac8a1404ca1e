// The one symbol the bridge library exports for PlaneKit's loader (pk_bridge.h).
#include "pk_bridge.h"

#include "bridge_functions.hpp"

extern "C" __attribute__((visibility("default"))) const pk_bridge_functions *pk_bridge_functions_v1(void) {
    static const pk_bridge_functions table = {
        pk_plane_list_free,
        pk_unorganized_plane_params_default,
        pk_segment_unorganized_planes,
        pk_organized_plane_params_default,
        pk_segment_organized_planes,
    };
    return &table;
}
