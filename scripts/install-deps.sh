#!/usr/bin/env bash
# Installs what PlaneKit needs beyond Swift: PCL (libpcl-dev, which brings Eigen, Boost, FLANN),
# zlib, libdeflate and pkg-config, from Debian's packages; and for the live view three.js (libjs-three, which
# `planekit view` serves from /usr/share/javascript/three) and Chromium (chromium, headless, for
# its browser test); for DNS-SD discovery of shared spaces Avahi's client library
# (libavahi-client-dev) and, for its tests, avahi-daemon, avahi-utils (avahi-browse, avahi-publish)
# and the D-Bus daemon, started by the tests themselves inside network namespaces made with
# iproute2 (ip, tc); and GNU time (/usr/bin/time), with which a test measures a child's peak
# memory. Idempotent: when everything is there it returns at once without touching apt.
set -euo pipefail

needed_pkgconfig=(pcl_segmentation zlib libdeflate avahi-client)
needed_commands=(chromium avahi-daemon avahi-browse avahi-publish dbus-daemon ip tc)
packages=(libpcl-dev zlib1g-dev libdeflate-dev pkg-config libjs-three chromium libavahi-client-dev avahi-daemon avahi-utils dbus-daemon iproute2 time)
three_js=/usr/share/javascript/three/build/three.min.js

have_all() {
    command -v pkg-config >/dev/null 2>&1 || return 1
    local name
    for name in "${needed_pkgconfig[@]}"; do
        pkg-config --exists "$name" || return 1
    done
    [ -f "$three_js" ] || return 1
    [ -x /usr/bin/time ] || return 1
    for name in "${needed_commands[@]}"; do
        command -v "$name" >/dev/null 2>&1 || [ -x "/usr/sbin/$name" ] || return 1
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
    echo "install-deps: packages are missing and this is not root; install ${packages[*]} as root" >&2
    exit 1
fi

echo "install-deps: installing ${packages[*]} with apt-get (a few minutes, once)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null

if ! have_all; then
    echo "install-deps: apt-get finished but something is still missing (pkg-config: ${needed_pkgconfig[*]}; $three_js; ${needed_commands[*]})" >&2
    exit 1
fi
