/*
 * planekit.h: PlaneKit's C API (libPlaneKitC.so, built by `swift build -c release --product PlaneKitC`).
 *
 * Plane detection in depth images and point clouds, a tracking session fed frame by frame, hit
 * tests, world maps and the Hoover evaluation, for C and C++ programs that know nothing of Swift.
 * See docs/c-api.md for a guide.
 *
 * Conventions
 *  - Every function that can fail returns a planekit_status; PLANEKIT_OK (0) is success. On any
 *    other status, planekit_last_error() gives a message in words, kept per thread until the
 *    thread's next failing call. No function aborts the process on bad input: sizes, null
 *    pointers, non-finite numbers and file problems are reported as statuses.
 *  - Coordinates are metres in the camera frame of PCL and OpenCV (+X right, +Y down, +Z forward)
 *    for detection; a session's world is +Y up. 4×4 transforms are 16 floats in column-major
 *    order (the translation is elements 12, 13, 14).
 *  - Handles (planekit_cloud, planekit_detection, planekit_session) are opaque. Each is owned by
 *    the caller from the call that creates it until its planekit_*_free, which accepts NULL.
 *    A handle may be used from any thread, but not from two threads at once.
 *
 * Memory ownership
 *  - Input arrays are borrowed for the duration of the call only: the library reads them in place
 *    (no copy is made before reading) and keeps no pointer to them after it returns.
 *  - Pointers the library hands out (labels, boundaries, cloud points, event text) point into the
 *    handle they came from and stay valid until that handle is freed or, for a session's event
 *    text, until the session's next call. Never free them yourself.
 *  - Structs filled in by the library (planekit_plane, planekit_hit, planekit_evaluation, …) are
 *    plain values in caller-owned memory.
 */
#ifndef PLANEKIT_H
#define PLANEKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this header. planekit_version() returns the library's; they must be equal. */
#define PLANEKIT_API_VERSION 3

/** What a call did: 0 for success, otherwise the kind of failure (planekit_last_error() says more). */
typedef int32_t planekit_status;
enum {
    PLANEKIT_OK = 0,
    /** A null pointer, a size that does not add up, a non-finite or out-of-range number. */
    PLANEKIT_INVALID_ARGUMENT = 1,
    /** A file that cannot be read or is not what it claims to be, or input data the reader refuses. */
    PLANEKIT_INPUT_ERROR = 2,
    /** The detector refused the input (too large, PCL bridge missing, …). */
    PLANEKIT_DETECTION_ERROR = 3,
    /** The session refused a frame or command (timestamp going back, nothing to place on, …). */
    PLANEKIT_SESSION_ERROR = 4,
    /** An index outside the handle's range. */
    PLANEKIT_OUT_OF_RANGE = 5,
};

/** The library's API version (PLANEKIT_API_VERSION of the header it was built with). */
int32_t planekit_version(void);

/**
 * The message of the calling thread's last failure, UTF-8, never NULL ("" before any failure).
 * Owned by the library; valid until the thread's next failing call.
 */
const char *planekit_last_error(void);

/* MARK: Cameras and options */

/** A pinhole camera in pixels; the image size comes from the call it is passed to. */
typedef struct {
    float fx, fy, cx, cy;
} planekit_intrinsics;

/** The sensor's noise profile (`--sensor` of the CLI). */
typedef enum {
    PLANEKIT_SENSOR_AUTO = 0, /**< measured from the data (the default) */
    PLANEKIT_SENSOR_KINECT = 1,
    PLANEKIT_SENSOR_REALSENSE = 2,
    PLANEKIT_SENSOR_TOF = 3,
    PLANEKIT_SENSOR_SCANNER = 4,
} planekit_sensor;

/** How to detect. Zero-initialised options are the defaults (planekit_detect_options_default). */
typedef struct {
    int32_t sensor;  /**< a planekit_sensor */
    float up[3];     /**< against gravity, in the input's coordinates; all 0: the cloud's pose, else camera −Y */
    float max_depth; /**< depth images: readings farther than this (metres along +Z) are holes; 0: no limit */
} planekit_detect_options;

/** The default options: auto sensor, default up, no depth limit. */
planekit_detect_options planekit_detect_options_default(void);

/* MARK: Reading files */

/** A point cloud or depth image read from a file, as the CLI reads it. */
typedef struct planekit_cloud planekit_cloud;

/** How to read a file; zero-initialised fields mean "as the file (or its sidecar) says". */
typedef struct {
    int32_t has_intrinsics;         /**< nonzero: use `intrinsics` for a depth image */
    planekit_intrinsics intrinsics;
    float depth_scale;              /**< metres per 16-bit depth unit; 0: sidecar's, else 0.001 */
    float max_depth;                /**< metres; 0: no limit */
    float unit_scale;               /**< metres per unit of PCD/PLY/xyz files; 0: metres */
} planekit_read_options;

/**
 * Reads a PCD, PLY or x y z text cloud, or a 16-bit PGM/PNG/TIFF depth image (intrinsics from
 * the options or a NAME.xml / NAME.json sidecar). `options` may be NULL. On success *out is a new
 * handle the caller frees with planekit_cloud_free.
 */
planekit_status planekit_read(const char *path, const planekit_read_options *options, planekit_cloud **out);

/** What a cloud handle holds. The pointers point into the handle. */
typedef struct {
    int64_t width, height;      /**< height 1: unorganized */
    const float *points;        /**< width × height points of 4 floats (x, y, z, unused); NaN: no point */
    const uint8_t *colors;      /**< 4 bytes per point (r, g, b, unused), or NULL */
    int32_t has_intrinsics;
    planekit_intrinsics intrinsics;
    float pose[16];             /**< the sensor's pose (PCD VIEWPOINT), column-major */
    float default_up[3];        /**< the up direction detection uses when none is given */
} planekit_cloud_info;

planekit_status planekit_cloud_get_info(const planekit_cloud *cloud, planekit_cloud_info *out);
void planekit_cloud_free(planekit_cloud *cloud);

/* MARK: Detection */

/** The planes found in one input and its label image. */
typedef struct planekit_detection planekit_detection;

/** Detects the planes of a cloud read with planekit_read, exactly as `planekit analyze` does. */
planekit_status planekit_detect_cloud(const planekit_cloud *cloud, const planekit_detect_options *options,
                                      planekit_detection **out);

/**
 * Detects the planes of xyz points (float32). height > 1: an organized width × height grid,
 * row-major; height == 1: an unorganized cloud (detected through PCL). `point_stride` is the
 * distance in floats from one point to the next (3 for packed x y z, 4 for x y z w), at least 3.
 * `intrinsics` (organized clouds only) may be NULL.
 */
planekit_status planekit_detect_points(const float *points, int64_t width, int64_t height, int64_t point_stride,
                                       const planekit_intrinsics *intrinsics,
                                       const planekit_detect_options *options, planekit_detection **out);

/**
 * Detects the planes of a 16-bit depth image (row-major, width × height samples):
 * depth = sample × depth_scale metres; samples 0 and 65535 are no reading.
 */
planekit_status planekit_detect_depth_u16(const uint16_t *depth, int64_t width, int64_t height,
                                          const planekit_intrinsics *intrinsics, float depth_scale,
                                          const planekit_detect_options *options, planekit_detection **out);

/** Detects the planes of a float depth image in metres (0, negative, NaN or ∞: no reading). */
planekit_status planekit_detect_depth_f32(const float *depth, int64_t width, int64_t height,
                                          const planekit_intrinsics *intrinsics,
                                          const planekit_detect_options *options, planekit_detection **out);

/** A plane's orientation relative to up. */
typedef enum {
    PLANEKIT_ALIGNMENT_HORIZONTAL = 0,
    PLANEKIT_ALIGNMENT_VERTICAL = 1,
    PLANEKIT_ALIGNMENT_ANY = 2, /**< neither (tilted) */
} planekit_alignment;

/** What a plane is, from its orientation and height. */
typedef enum {
    PLANEKIT_CLASS_FLOOR = 0,
    PLANEKIT_CLASS_CEILING = 1,
    PLANEKIT_CLASS_WALL = 2,
    PLANEKIT_CLASS_TABLE = 3,
    PLANEKIT_CLASS_SEAT = 4,
    PLANEKIT_CLASS_NONE = 5,
} planekit_classification;

/** One detected plane, in the input's coordinates. */
typedef struct {
    int32_t label;           /**< its value in the label image (1-based) */
    float normal[3];         /**< unit, facing the sensor */
    float offset;            /**< normal·p + offset = 0 */
    float center[3];         /**< the centre of the extent */
    float centroid[3];       /**< the mean of the supporting points */
    float transform[16];     /**< the plane's frame, column-major: origin at center, +Y the normal */
    float extent[2];         /**< width (local X) and length (local Z) of the bounding rectangle */
    float area;              /**< m² covered by supporting points */
    float rms_error;         /**< metres */
    int64_t point_count;     /**< supporting points */
    int32_t alignment;       /**< a planekit_alignment */
    int32_t classification;  /**< a planekit_classification */
    int64_t boundary_count;  /**< vertices of the boundary polygon (planekit_detection_boundary) */
} planekit_plane;

/** How many planes were found (0 for a NULL handle). */
int64_t planekit_detection_plane_count(const planekit_detection *detection);

/** Plane `index` (0-based, largest first; its label is index + 1). */
planekit_status planekit_detection_plane(const planekit_detection *detection, int64_t index, planekit_plane *out);

/**
 * Every plane at once, largest first: writes up to `capacity` planes to `planes` (NULL when
 * capacity is 0); *count is how many there are in all.
 */
planekit_status planekit_detection_planes(const planekit_detection *detection, planekit_plane *planes, int64_t capacity,
                                          int64_t *count);

/** Plane `index`'s outline: *count (x, z) pairs in the plane's local frame, counter-clockwise. */
planekit_status planekit_detection_boundary(const planekit_detection *detection, int64_t index, const float **xz,
                                            int64_t *count);

/** The label image: width × height labels, row-major; 0 = no plane, k = plane k − 1. */
planekit_status planekit_detection_labels(const planekit_detection *detection, const uint16_t **labels,
                                          int64_t *width, int64_t *height);

/**
 * Milliseconds the library spent in the call that made this detection: checking, converting the
 * input, detecting and releasing its working buffers (everything but creating the handle).
 */
double planekit_detection_milliseconds(const planekit_detection *detection);

void planekit_detection_free(planekit_detection *detection);

/** "horizontal", "vertical", "any", or "" for an unknown value. Static strings. */
const char *planekit_alignment_name(int32_t alignment);
/** "floor", "ceiling", "wall", "table", "seat", "none", or "" for an unknown value. Static strings. */
const char *planekit_classification_name(int32_t classification);

/* MARK: Sessions */

/** A tracking session: planes anchored in a world, objects placed on them, world maps. */
typedef struct planekit_session planekit_session;

/**
 * How a session works; zero-initialised: world up +Y, auto sensor, no depth limit, frames without
 * a pose tracked against keyframes.
 */
typedef struct {
    float up[3];           /**< the world's up; all 0: (0, 1, 0) */
    int32_t sensor;        /**< a planekit_sensor */
    float max_depth;       /**< readings farther than this (metres) are holes; 0: no limit */
    int32_t fused_surface; /**< 1: track frames without a pose against the surface fused from the
                                frames before them, as `planekit stream --fused-surface`; 0: against
                                the nearest keyframe (docs/tracking.md says when each does better) */
    int32_t no_depth_calibration; /**< 1: do not learn and correct the depth camera's fixed-pattern
                                       error while tracking, as `planekit stream
                                       --without-depth-calibration`; 0: learn it (docs/tracking.md) */
} planekit_session_options;

planekit_status planekit_session_create(const planekit_session_options *options, planekit_session **out);
void planekit_session_free(planekit_session *session);

/** What comes with a frame besides its depth. */
typedef struct {
    double timestamp;     /**< seconds, not before the previous frame's */
    const float *pose;    /**< world-from-camera, 16 floats column-major; NULL: tracked from the depth */
    const float *gravity; /**< the accelerometer's down in camera coordinates, 3 floats; NULL: none */
} planekit_frame_info;

/**
 * Feeds a 16-bit depth frame. *events receives the frame's events as NDJSON, one event a line,
 * exactly as `planekit stream` writes them (docs/stream-format.md); it stays valid until the
 * session's next call.
 */
planekit_status planekit_session_update_u16(planekit_session *session, const uint16_t *depth, int64_t width,
                                            int64_t height, const planekit_intrinsics *intrinsics, float depth_scale,
                                            const planekit_frame_info *frame, const char **events);

/** Feeds a float depth frame in metres (0 or NaN: no reading); as planekit_session_update_u16. */
planekit_status planekit_session_update_f32(planekit_session *session, const float *depth, int64_t width,
                                            int64_t height, const planekit_intrinsics *intrinsics,
                                            const planekit_frame_info *frame, const char **events);

/**
 * Carries out one command record of the stream format, as JSON text: tap (place an object),
 * drag, rotate, remove, raycast, saveMap or loadMap (docs/stream-format.md), e.g.
 * {"type":"tap","x":320,"y":400}. *events as for planekit_session_update_u16.
 */
planekit_status planekit_session_command(planekit_session *session, const char *record_json, const char **events);

/** What a hit test may hit. */
typedef enum {
    PLANEKIT_HIT_PLANE_GEOMETRY = 0, /**< a plane, inside its boundary polygon */
    PLANEKIT_HIT_PLANE_EXTENT = 1,   /**< a plane, inside its rectangle */
    PLANEKIT_HIT_PLANE_INFINITE = 2, /**< a plane, unbounded */
    PLANEKIT_HIT_ESTIMATED_PLANE = 3,
    PLANEKIT_HIT_FEATURE_POINT = 4,
    PLANEKIT_HIT_ANY = 5,            /**< as a query: every kind */
} planekit_hit_target;

/** One hit, nearest first. */
typedef struct {
    float distance;         /**< metres along the ray */
    float position[3];      /**< world coordinates */
    float normal[3];        /**< the surface's normal, facing the ray */
    float transform[16];    /**< world transform of the hit, column-major */
    int32_t target;         /**< a planekit_hit_target */
    int32_t alignment;      /**< a planekit_alignment */
    char plane[32];         /**< "plane-N" of the plane hit, or "" */
} planekit_hit;

/**
 * Hit tests the ray through pixel (x, y) of the latest frame against `target`, keeping planes of
 * `alignment` (PLANEKIT_ALIGNMENT_ANY: all). Writes up to `capacity` hits; *count is how many
 * there were in all (may exceed capacity).
 */
planekit_status planekit_session_raycast(const planekit_session *session, float x, float y, int32_t target,
                                         int32_t alignment, planekit_hit *hits, int64_t capacity, int64_t *count);

/** Writes the session's world map to `path`; *events: the saveMap event (may be NULL). */
planekit_status planekit_session_save_map(planekit_session *session, const char *path, const char **events);

/** Loads a world map and starts relocalizing into it; *events: the loadMap event (may be NULL). */
planekit_status planekit_session_load_map(planekit_session *session, const char *path, const char **events);

/* MARK: Evaluation */

/** Hoover et al.'s (1996) scores of one label image against ground truth (`planekit evaluate`). */
typedef struct {
    double threshold;
    int64_t true_regions, detected_regions;
    int64_t correct, over_segmented, under_segmented, missed, noise;
    double recall;                  /**< correct / true regions */
    double precision;               /**< correct / detected regions */
    double mean_orientation_error;  /**< degrees over the correct detections; NaN without points */
} planekit_evaluation;

/**
 * Scores `detected` against `truth` (width × height labels each, 0 = none) at overlap threshold
 * T (0.5 … 1; 0.8 is usual), leaving out true regions smaller than `min_pixels`. `points`
 * (one xyz point per pixel, `point_stride` floats apart) may be NULL; with it, each correct
 * detection's orientation error is measured.
 */
planekit_status planekit_evaluate(const uint16_t *detected, const uint16_t *truth, int64_t width, int64_t height,
                                  double threshold, int64_t min_pixels, const float *points, int64_t point_stride,
                                  planekit_evaluation *out);

#ifdef __cplusplus
}
#endif

#endif /* PLANEKIT_H */
