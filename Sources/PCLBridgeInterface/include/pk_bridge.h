// The PCL bridge's functions, reached through a table that is loaded at run time.
//
// Why a table: PCL pulls about sixty shared libraries into a process (its modules, flann, HDF5,
// OpenMPI, …), and loading them costs over 100 ms at start-up, although organized depth frames
// never call PCL. So the C++ bridge is built as its own shared library
// (libPlaneKitPCLBridge.so, the `PlaneKitPCLBridge` product), and `pk_bridge_load` opens it the
// first time an unorganized cloud needs it. The library exports one symbol,
// `pk_bridge_functions_v1`, which returns this table; the version in the name changes whenever
// the table or the types it uses change, so a stale library is refused rather than misread.
#ifndef PLANEKIT_PK_BRIDGE_H
#define PLANEKIT_PK_BRIDGE_H

#include "pk_common.h"
#include "pk_segmentation.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The name of the shared library that holds the bridge.
#define PK_BRIDGE_LIBRARY_NAME "libPlaneKitPCLBridge.so"
/// The environment variable that names the bridge library's path explicitly.
#define PK_BRIDGE_PATH_VARIABLE "PLANEKIT_PCL_BRIDGE"
/// The symbol the bridge library exports: a function returning its `pk_bridge_functions`.
#define PK_BRIDGE_TABLE_SYMBOL "pk_bridge_functions_v1"

/// The bridge's functions (never NULL: Swift calls them without unwrapping).
typedef struct pk_bridge_functions {
    /// Releases the planes of `list` and empties it. Accepts NULL and an empty list.
    void (* _Nonnull plane_list_free)(pk_plane_list *_Nullable list);

    /// Fills `params` with the defaults (documented in segmentation.cpp).
    void (* _Nonnull unorganized_plane_params_default)(pk_unorganized_plane_params *_Nullable params);

    /// Extracts planes from an unorganized cloud. Writes `point_count` labels (0 = no plane,
    /// k = `out->planes[k - 1]`) and a bridge-allocated plane list. Returns 1 on success, 0 on
    /// failure with `status` saying why (bad arguments, out of memory, a PCL exception).
    int32_t (* _Nonnull segment_unorganized_planes)(const float *_Nullable points, int64_t point_count, int64_t point_stride,
                                          const pk_unorganized_plane_params *_Nullable params, uint16_t *_Nullable labels,
                                          pk_plane_list *_Nullable out, pk_status *_Nullable status);

    /// Fills `params` with the defaults (documented in organized_segmentation.cpp).
    void (* _Nonnull organized_plane_params_default)(pk_organized_plane_params *_Nullable params);

    /// Segments an organized cloud (`width × height` points, row-major, NaN holes) into planes.
    /// Writes `width × height` labels and a bridge-allocated plane list (normals face the
    /// origin). Returns 1 on success, 0 on failure with `status` saying why.
    int32_t (* _Nonnull segment_organized_planes)(const float *_Nullable points, int32_t width, int32_t height, int64_t point_stride,
                                        const pk_organized_plane_params *_Nullable params, uint16_t *_Nullable labels,
                                        pk_plane_list *_Nullable out, pk_status *_Nullable status);
} pk_bridge_functions;

/// The bridge's table, loading the library on the first call (thread-safe; later calls return
/// the same answer at once). NULL when it cannot be loaded; `status` then says why and what to
/// do. The library is looked for at $PLANEKIT_PCL_BRIDGE when that is set, else beside the
/// running executable, else through the dynamic linker's search path.
const pk_bridge_functions *_Nullable pk_bridge_load(pk_status *_Nullable status);

#ifdef __cplusplus
}
#endif

#endif
