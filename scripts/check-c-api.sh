#!/usr/bin/env bash
# Checks the C API (Sources/CPlaneKit/include/planekit.h, libPlaneKitC.so) from a plain C program,
# Tests/CAPI/c_api_test.c, compiled with AddressSanitizer and UndefinedBehaviorSanitizer: every
# leak, overflow or misuse of memory across the boundary fails the check.
#   scripts/check-c-api.sh            # after `swift test -c release -Xswiftc -enable-testing` (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/check-common.sh check-c-api

library_dir=$PWD/.build/release
# The test build makes every product; built here only when run on its own, with the test build's
# flags, so the two share their modules instead of rebuilding each other's.
[[ -f $library_dir/libPlaneKitC.so ]] || swift build -c release -Xswiftc -enable-testing --product PlaneKitC
"${CC:-gcc}" -std=c11 -Wall -Wextra -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    -I Sources/CPlaneKit/include Tests/CAPI/c_api_test.c -L "$library_dir" -lPlaneKitC -Wl,-rpath,"$library_dir" -lm \
    -o "$OUT/c_api_test"
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 "$OUT/c_api_test" samples/room-depth.png "$OUT" ||
    fail "the C API test program failed (above)"

# The header stands alone in C++ too (extern "C", no C-only constructs in the declarations).
printf '#include "planekit.h"\nint main() { return planekit_version() == PLANEKIT_API_VERSION ? 0 : 1; }\n' > "$OUT/header.cpp"
"${CXX:-g++}" -Wall -Wextra -Werror -I Sources/CPlaneKit/include "$OUT/header.cpp" -L "$library_dir" -lPlaneKitC \
    -Wl,-rpath,"$library_dir" -o "$OUT/header_cpp" && "$OUT/header_cpp" || fail "planekit.h does not build and link as C++"

((failures == 0)) || exit 1
echo "check-c-api: the C API test program passed under ASan and UBSan; planekit.h builds as C++"
