#!/usr/bin/env bash
# moonwarp set-up for a fresh Debian machine: installs the Debian packages it needs, builds, then either
# runs the demo experiment (./setup.sh demo) or every test (./setup.sh test).
set -euo pipefail
cd "$(dirname "$0")"

PKGS="build-essential cmake pkg-config liblua5.4-dev lua5.4 libyaml-dev libcmocka-dev liblzma-dev
      libreadline-dev libsqlite3-dev gnuplot-nox xz-utils tmux"

install_deps() {
    local missing=()
    for p in $PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j"$(nproc)"
}

case "${1:-}" in
demo)
    install_deps
    build
    exec experiments/demo.sh
    ;;
test)
    install_deps
    build
    cd build && ctest --output-on-failure -j"$(nproc)"
    ;;
*)
    echo "usage: ./setup.sh demo | test" >&2
    exit 2
    ;;
esac
