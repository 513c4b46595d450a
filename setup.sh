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

# Profile-guided (gcc): a counting binary runs experiments/pgo_train.sh, then everything is compiled with the
# profile it wrote (MW_PGO in CMakeLists.txt; about a minute more than a plain build). The profile is kept: later
# runs of this script reuse it (delete build/pgo-profile to train again). MW_PGO=off in the environment builds
# without one.
build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    local pgo=off
    if [ "${MW_PGO:-use}" != off ] && grep -qs 'CMAKE_C_COMPILER_ID "GNU"' build/CMakeFiles/*/CMakeCCompiler.cmake; then
        pgo=use
        if ! [ -f build/pgo-profile/trained ]; then
            rm -rf build/pgo-profile
            cmake -S . -B build -DMW_PGO=generate >/dev/null
            cmake --build build -j"$(nproc)" --target moonwarp
            experiments/pgo_train.sh build/moonwarp
            touch build/pgo-profile/trained
        fi
    fi
    cmake -S . -B build -DMW_PGO=$pgo >/dev/null
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
