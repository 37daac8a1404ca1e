#!/usr/bin/env bash
# Installs what PlaneKit needs beyond Swift: PCL (libpcl-dev, which brings Eigen, Boost, FLANN),
# zlib and pkg-config, from Debian's packages; and for the live view three.js (libjs-three, which
# `planekit view` serves from /usr/share/javascript/three) and Chromium (chromium, headless, for
# its browser test). Idempotent: when everything is there it returns at once without touching apt.
set -euo pipefail

needed_pkgconfig=(pcl_segmentation zlib)
three_js=/usr/share/javascript/three/build/three.min.js

have_all() {
    command -v pkg-config >/dev/null 2>&1 || return 1
    local name
    for name in "${needed_pkgconfig[@]}"; do
        pkg-config --exists "$name" || return 1
    done
    [ -f "$three_js" ] || return 1
    command -v chromium >/dev/null 2>&1 || return 1
}

if have_all; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: packages are missing and this is not root; install libpcl-dev, zlib1g-dev, pkg-config, libjs-three and chromium as root" >&2
    exit 1
fi

echo "install-deps: installing libpcl-dev, zlib1g-dev, pkg-config, libjs-three and chromium with apt-get (a few minutes, once)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends libpcl-dev zlib1g-dev pkg-config libjs-three chromium >/dev/null

if ! have_all; then
    echo "install-deps: apt-get finished but something is still missing (pkg-config: ${needed_pkgconfig[*]}; $three_js; chromium)" >&2
    exit 1
fi
