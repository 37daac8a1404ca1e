#!/usr/bin/env bash
# Installs what PlaneKit needs beyond Swift: PCL (libpcl-dev, which brings Eigen, Boost, FLANN),
# zlib and pkg-config, from Debian's packages. Idempotent: when pkg-config already finds every
# library it returns at once without touching apt.
set -euo pipefail

needed_pkgconfig=(pcl_segmentation zlib)

have_all() {
    command -v pkg-config >/dev/null 2>&1 || return 1
    local name
    for name in "${needed_pkgconfig[@]}"; do
        pkg-config --exists "$name" || return 1
    done
}

if have_all; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: PCL is missing and this is not root; install libpcl-dev, zlib1g-dev and pkg-config as root" >&2
    exit 1
fi

echo "install-deps: installing libpcl-dev, zlib1g-dev and pkg-config with apt-get (a few minutes, once)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends libpcl-dev zlib1g-dev pkg-config >/dev/null

if ! have_all; then
    echo "install-deps: apt-get finished but pkg-config still cannot find: ${needed_pkgconfig[*]}" >&2
    exit 1
fi
