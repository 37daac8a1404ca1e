// PlaneKit's C API from a plain C program: detection, the label image, a session, hit tests,
// world maps, the evaluation, and bad input reported as statuses. Run by scripts/check-c-api.sh
// under AddressSanitizer; prints one line per failed check and exits 1 when any failed.
//   c_api_test SAMPLE_DEPTH_PNG SCRATCH_DIR
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planekit.h"

static int failures = 0;

#define CHECK(condition, ...)                                            \
    do {                                                                 \
        if (!(condition)) {                                              \
            fprintf(stderr, "c_api_test:%d: %s: ", __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                \
            fprintf(stderr, " (last error: %s)\n", planekit_last_error()); \
            failures++;                                                  \
        }                                                                \
    } while (0)

// A call that must fail with `expected` and leave a message.
#define CHECK_FAILS(call, expected)                                                         \
    do {                                                                                    \
        planekit_status status_ = (call);                                                   \
        CHECK(status_ == (expected), "status %d, expected %d", (int)status_, (int)(expected)); \
        CHECK(planekit_last_error()[0] != '\0', "no message");                              \
    } while (0)

// The largest difference between two vectors' components (an angle from acos would lose the
// small differences to float rounding near 1).
static float largest_difference(const float a[3], const float b[3]) {
    return fmaxf(fabsf(a[0] - b[0]), fmaxf(fabsf(a[1] - b[1]), fabsf(a[2] - b[2])));
}

// The planes of the sample read from its file and of its z channel as a float depth image agree.
static void check_detection(const planekit_cloud *cloud, const planekit_cloud_info *info,
                            planekit_detection **found) {
    planekit_detection *detection = NULL;
    CHECK(planekit_detect_cloud(cloud, NULL, &detection) == PLANEKIT_OK, "detect_cloud failed");
    int64_t count = planekit_detection_plane_count(detection);
    CHECK(count >= 4, "%lld planes in the sample room, expected at least 4", (long long)count);

    const uint16_t *labels = NULL;
    int64_t width = 0, height = 0;
    CHECK(planekit_detection_labels(detection, &labels, &width, &height) == PLANEKIT_OK, "labels failed");
    CHECK(width == 640 && height == 480, "labels %lldx%lld", (long long)width, (long long)height);
    int64_t labelled[64] = {0};
    for (int64_t i = 0; i < width * height; i++) {
        CHECK(labels[i] <= count, "label %u above the plane count", labels[i]);
        if (labels[i] < 64) labelled[labels[i]]++;
    }
    int floors = 0;
    for (int64_t k = 0; k < count; k++) {
        planekit_plane plane;
        CHECK(planekit_detection_plane(detection, k, &plane) == PLANEKIT_OK, "plane %lld", (long long)k);
        CHECK(plane.label == k + 1, "plane %lld has label %d", (long long)k, plane.label);
        float length = sqrtf(plane.normal[0] * plane.normal[0] + plane.normal[1] * plane.normal[1] +
                             plane.normal[2] * plane.normal[2]);
        CHECK(fabsf(length - 1) < 1e-5f, "normal of length %g", length);
        float residual = plane.normal[0] * plane.center[0] + plane.normal[1] * plane.center[1] +
                         plane.normal[2] * plane.center[2] + plane.offset;
        CHECK(fabsf(residual) < 1e-3f, "centre %g m off its plane", residual);
        CHECK(plane.area > 0 && plane.extent[0] > 0 && plane.extent[1] > 0, "area %g", plane.area);
        CHECK(plane.label < 64 && labelled[plane.label] == plane.point_count, "plane %d: %lld labels, %lld points",
              plane.label, (long long)labelled[plane.label], (long long)plane.point_count);
        const float *xz = NULL;
        int64_t vertices = 0;
        CHECK(planekit_detection_boundary(detection, k, &xz, &vertices) == PLANEKIT_OK, "boundary");
        CHECK(vertices == plane.boundary_count && vertices >= 3 && xz != NULL, "%lld boundary vertices", (long long)vertices);
        floors += plane.classification == PLANEKIT_CLASS_FLOOR;
        CHECK(strlen(planekit_classification_name(plane.classification)) > 0, "unnamed class %d", plane.classification);
    }
    CHECK(floors == 1, "%d floors", floors);
    planekit_plane all[64];
    int64_t listed = -1;
    CHECK(planekit_detection_planes(detection, all, 2, &listed) == PLANEKIT_OK && listed == count, "%lld planes listed",
          (long long)listed);
    planekit_plane second;
    planekit_detection_plane(detection, 1, &second);
    CHECK(memcmp(&all[1], &second, sizeof second) == 0, "planes[1] differs from plane 1");
    CHECK(planekit_detection_milliseconds(detection) > 0, "no time");

    // The same frame as a float depth image (its z channel) with the file's up: the same planes.
    float *depth = malloc(sizeof(float) * 640 * 480);
    for (int i = 0; i < 640 * 480; i++) {
        float z = info->points[4 * i + 2];
        depth[i] = isnan(z) ? 0 : z;
    }
    planekit_detect_options options = planekit_detect_options_default();
    memcpy(options.up, info->default_up, sizeof options.up);
    planekit_detection *again = NULL;
    CHECK(planekit_detect_depth_f32(depth, 640, 480, &info->intrinsics, &options, &again) == PLANEKIT_OK, "depth_f32");
    CHECK(planekit_detection_plane_count(again) == count, "%lld planes from the depth image, %lld from the file",
          (long long)planekit_detection_plane_count(again), (long long)count);
    for (int64_t k = 0; k < count && k < planekit_detection_plane_count(again); k++) {
        planekit_plane a, b;
        planekit_detection_plane(detection, k, &a);
        planekit_detection_plane(again, k, &b);
        CHECK(largest_difference(a.normal, b.normal) < 1e-5f, "plane %lld's normals differ by %g", (long long)k,
              largest_difference(a.normal, b.normal));
    }
    planekit_detection_free(again);
    free(depth);
    *found = detection;
}

static void check_bad_input(const planekit_cloud_info *info) {
    planekit_detection *detection = (planekit_detection *)1;
    uint16_t samples[4] = {1000, 1000, 1000, 1000};
    planekit_intrinsics good = {525, 525, 1, 1}, nan_focal = {NAN, 525, 1, 1}, zero_focal = {0, 525, 1, 1};
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &nan_focal, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK(detection == NULL, "a failed call left a handle");
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &zero_focal, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &good, NAN, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, NULL, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(NULL, 2, 2, &good, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &good, 0.001f, NULL, NULL), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(samples, -2, 2, &good, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_depth_u16(samples, INT64_MAX, 3, &good, 0.001f, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    planekit_detect_options bad_sensor = planekit_detect_options_default();
    bad_sensor.sensor = 99;
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &good, 0.001f, &bad_sensor, &detection), PLANEKIT_INVALID_ARGUMENT);
    planekit_detect_options nan_up = planekit_detect_options_default();
    nan_up.up[1] = NAN;
    CHECK_FAILS(planekit_detect_depth_u16(samples, 2, 2, &good, 0.001f, &nan_up, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_points(info->points, 640, 480, 2, NULL, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK(strstr(planekit_last_error(), "point_stride") != NULL, "message does not name point_stride");

    // A 2×2 image is valid input with no planes in it.
    CHECK(planekit_detect_depth_u16(samples, 2, 2, &good, 0.001f, NULL, &detection) == PLANEKIT_OK, "2x2 image");
    CHECK(planekit_detection_plane_count(detection) == 0, "planes in a 2x2 image");
    planekit_plane plane;
    CHECK_FAILS(planekit_detection_plane(detection, 0, &plane), PLANEKIT_OUT_OF_RANGE);
    CHECK_FAILS(planekit_detection_plane(detection, -1, &plane), PLANEKIT_OUT_OF_RANGE);
    planekit_detection_free(detection);
    planekit_detection_free(NULL);

    planekit_cloud *cloud = (planekit_cloud *)1;
    CHECK_FAILS(planekit_read("/nonexistent/frame.pcd", NULL, &cloud), PLANEKIT_INPUT_ERROR);
    CHECK(strstr(planekit_last_error(), "/nonexistent/frame.pcd") != NULL, "message does not name the file");
    CHECK(cloud == NULL, "a failed read left a handle");
    CHECK_FAILS(planekit_read(NULL, NULL, &cloud), PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_detect_cloud(NULL, NULL, &detection), PLANEKIT_INVALID_ARGUMENT);
    CHECK(planekit_detection_plane_count(NULL) == 0, "planes of NULL");
    CHECK(strcmp(planekit_alignment_name(7), "") == 0, "a name for alignment 7");
}

// Three frames of the sample with its pose, a tap on the floor, hit tests, a map saved and loaded.
static void check_session(const planekit_cloud_info *info, const planekit_detection *detection, const char *scratch) {
    planekit_session *session = NULL;
    CHECK(planekit_session_create(NULL, &session) == PLANEKIT_OK, "session_create");
    uint16_t *depth = malloc(sizeof(uint16_t) * 640 * 480);
    for (int i = 0; i < 640 * 480; i++) {
        float z = info->points[4 * i + 2];
        depth[i] = isnan(z) ? 0 : (uint16_t)lrintf(z * 1000);
    }
    const char *events = NULL;
    int added = 0;
    for (int frame = 0; frame < 3; frame++) {
        planekit_frame_info extras = {.timestamp = frame / 30.0, .pose = info->pose, .gravity = NULL};
        CHECK(planekit_session_update_u16(session, depth, 640, 480, &info->intrinsics, 0.001f, &extras, &events) == PLANEKIT_OK,
              "frame %d", frame);
        CHECK(events != NULL && strstr(events, "\"event\":\"camera\"") != NULL, "frame %d: no camera event", frame);
        for (const char *p = events; p && (p = strstr(p, "\"event\":\"planeAdded\"")); p++) added++;
    }
    CHECK(added >= 3, "%d planes added", added);

    planekit_frame_info late = {.timestamp = 0, .pose = info->pose, .gravity = NULL};
    CHECK_FAILS(planekit_session_update_u16(session, depth, 640, 480, &info->intrinsics, 0.001f, &late, &events),
                PLANEKIT_SESSION_ERROR);
    float not_rigid[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    planekit_frame_info stretched = {.timestamp = 1, .pose = not_rigid, .gravity = NULL};
    CHECK_FAILS(planekit_session_update_u16(session, depth, 640, 480, &info->intrinsics, 0.001f, &stretched, &events),
                PLANEKIT_INVALID_ARGUMENT);
    float no_gravity[3] = {0, 0, 0};
    planekit_frame_info weightless = {.timestamp = 1, .pose = NULL, .gravity = no_gravity};
    CHECK_FAILS(planekit_session_update_u16(session, depth, 640, 480, &info->intrinsics, 0.001f, &weightless, &events),
                PLANEKIT_INVALID_ARGUMENT);

    // A floor pixel, from the detection's label image.
    const uint16_t *labels = NULL;
    int64_t width = 0, height = 0;
    planekit_detection_labels(detection, &labels, &width, &height);
    int floor_label = 0;
    for (int64_t k = 0; k < planekit_detection_plane_count(detection); k++) {
        planekit_plane plane;
        planekit_detection_plane(detection, k, &plane);
        if (plane.classification == PLANEKIT_CLASS_FLOOR) floor_label = plane.label;
    }
    int pixel = -1;
    for (int i = 0; i < 640 * 480 && pixel < 0; i++) {
        int u = i % 640, v = i / 640;
        if (labels[i] == floor_label && u > 200 && u < 440 && v > 300) pixel = i;
    }
    CHECK(pixel >= 0, "no floor pixel");
    float x = (float)(pixel % 640), y = (float)(pixel / 640);

    planekit_hit hits[8];
    int64_t count = 0;
    CHECK(planekit_session_raycast(session, x, y, PLANEKIT_HIT_PLANE_GEOMETRY, PLANEKIT_ALIGNMENT_HORIZONTAL, hits, 8, &count) ==
              PLANEKIT_OK, "raycast");
    CHECK(count >= 1, "the floor pixel (%g, %g) hit nothing", x, y);
    if (count >= 1) {
        CHECK(hits[0].normal[1] > 0.99f, "the floor's normal is (%g, %g, %g), not up", hits[0].normal[0], hits[0].normal[1],
              hits[0].normal[2]);
        CHECK(strncmp(hits[0].plane, "plane-", 6) == 0, "hit plane '%s'", hits[0].plane);
        CHECK(hits[0].distance > 0.3f && hits[0].distance < 10, "distance %g", hits[0].distance);
    }
    CHECK_FAILS(planekit_session_raycast(session, NAN, y, PLANEKIT_HIT_ANY, PLANEKIT_ALIGNMENT_ANY, hits, 8, &count),
                PLANEKIT_INVALID_ARGUMENT);
    CHECK_FAILS(planekit_session_raycast(session, x, y, 42, PLANEKIT_ALIGNMENT_ANY, hits, 8, &count), PLANEKIT_INVALID_ARGUMENT);

    char tap[128];
    snprintf(tap, sizeof tap, "{\"type\":\"tap\",\"x\":%g,\"y\":%g,\"name\":\"chair\"}", x, y);
    CHECK(planekit_session_command(session, tap, &events) == PLANEKIT_OK, "tap");
    CHECK(events && strstr(events, "\"event\":\"objectAdded\"") && strstr(events, "\"chair\""), "tap events: %s", events);
    CHECK_FAILS(planekit_session_command(session, "{\"type\":\"tap\"", &events), PLANEKIT_SESSION_ERROR);
    CHECK_FAILS(planekit_session_command(session, "{\"type\":\"remove\",\"object\":\"object-99\"}", &events),
                PLANEKIT_SESSION_ERROR);

    char map[512];
    snprintf(map, sizeof map, "%s/room.pkmap", scratch);
    CHECK(planekit_session_save_map(session, map, &events) == PLANEKIT_OK, "save_map");
    CHECK(events && strstr(events, "\"event\":\"mapSaved\""), "save events: %s", events);
    planekit_session *second = NULL;
    planekit_session_create(NULL, &second);
    CHECK(planekit_session_load_map(second, map, &events) == PLANEKIT_OK, "load_map");
    CHECK(events && strstr(events, "\"event\":\"mapLoaded\"") && strstr(events, "\"objects\":1"), "load events: %s", events);
    CHECK_FAILS(planekit_session_load_map(second, "/nonexistent/room.pkmap", &events), PLANEKIT_SESSION_ERROR);
    planekit_session_free(second);
    planekit_session_free(session);

    // Each tracking option (against the fused surface; without learning the depth pattern): the
    // same view twice without a pose is tracked, and a flag other than 0 or 1 is refused.
    const planekit_session_options tracking[] = {{.fused_surface = 1}, {.no_depth_calibration = 1}};
    const planekit_session_options odd[] = {{.fused_surface = 2}, {.no_depth_calibration = -1}};
    for (int option = 0; option < 2; option++) {
        planekit_session *tracked = NULL;
        CHECK(planekit_session_create(&tracking[option], &tracked) == PLANEKIT_OK, "session_create with option %d", option);
        for (int frame = 0; frame < 2; frame++) {
            planekit_frame_info extras = {.timestamp = frame / 30.0, .pose = NULL, .gravity = NULL};
            CHECK(planekit_session_update_u16(tracked, depth, 640, 480, &info->intrinsics, 0.001f, &extras, &events) == PLANEKIT_OK,
                  "option %d, frame %d", option, frame);
        }
        CHECK(events && strstr(events, "\"tracking\":\"normal\""), "option %d, the second frame: %s", option, events ? events : "(none)");
        planekit_session_free(tracked);
        planekit_session *refused = (planekit_session *)1;
        CHECK_FAILS(planekit_session_create(&odd[option], &refused), PLANEKIT_INVALID_ARGUMENT);
        CHECK(refused == NULL, "a refused session left a handle");
    }
    free(depth);
}

static void check_evaluation(const planekit_detection *detection) {
    const uint16_t *labels = NULL;
    int64_t width = 0, height = 0;
    planekit_detection_labels(detection, &labels, &width, &height);
    planekit_evaluation score;
    CHECK(planekit_evaluate(labels, labels, width, height, 0.8, 1, NULL, 0, &score) == PLANEKIT_OK, "evaluate");
    CHECK(score.correct == planekit_detection_plane_count(detection) && score.recall == 1 && score.precision == 1,
          "labels against themselves: %lld correct, recall %g", (long long)score.correct, score.recall);
    CHECK(isnan(score.mean_orientation_error), "an orientation error without points");
    CHECK_FAILS(planekit_evaluate(labels, labels, width, height, 0.4, 1, NULL, 0, &score), PLANEKIT_INVALID_ARGUMENT);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: c_api_test SAMPLE_DEPTH_PNG SCRATCH_DIR\n");
        return 2;
    }
    CHECK(planekit_version() == PLANEKIT_API_VERSION, "library %d, header %d", planekit_version(), PLANEKIT_API_VERSION);
    planekit_cloud *cloud = NULL;
    if (planekit_read(argv[1], NULL, &cloud) != PLANEKIT_OK) {
        fprintf(stderr, "c_api_test: cannot read %s: %s\n", argv[1], planekit_last_error());
        return 1;
    }
    planekit_cloud_info info;
    CHECK(planekit_cloud_get_info(cloud, &info) == PLANEKIT_OK, "cloud info");
    CHECK(info.width == 640 && info.height == 480 && info.has_intrinsics && info.intrinsics.fx == 525, "sample layout");
    planekit_detection *detection = NULL;
    check_detection(cloud, &info, &detection);
    check_bad_input(&info);
    check_session(&info, detection, argv[2]);
    check_evaluation(detection);
    planekit_detection_free(detection);
    planekit_cloud_free(cloud);
    if (failures) {
        fprintf(stderr, "c_api_test: %d checks failed\n", failures);
        return 1;
    }
    printf("c_api_test: all checks passed\n");
    return 0;
}
