#!/usr/bin/env bash
# The training set of the profile-guided build (./setup.sh; MW_PGO in CMakeLists.txt): runs the counting binary
# BIN on a few built-in benchmark models at size small, compute- and memory-bound, regular and graph, under GTO,
# CCWS and the Linebacker bundle, and one of them exported as an Accel-Sim trace and run from it (text, then its
# .mwtrace cache), so that the profile covers the engine's common paths (about 5 s). The stats are
# thrown away: only the profile the counting binary writes when each run exits is kept.
# Usage: experiments/pgo_train.sh BIN
set -euo pipefail
bin=${1:?usage: experiments/pgo_train.sh BIN}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { "$bin" run --quiet --out "$out/run" "$@" >/dev/null 2>&1 || { echo "pgo_train: failed: $*" >&2; exit 1; }; }
for w in polybench.gemm polybench.atax rodinia.bfs rodinia.hotspot parboil.spmv rodinia.kmeans; do
    run --config gtx480 --workload "$w" --size small
done
run --config gtx480 --workload rodinia.bfs --size small --set policies.warp_scheduler=ccws
run --config linebacker --workload polybench.atax --size small --set policies.bundle=linebacker
"$bin" trace --workload rodinia.hotspot --size small --out "$out/trace" >/dev/null 2>&1 || { echo "pgo_train: trace export failed" >&2; exit 1; }
run --config gtx480 --trace "$out/trace"
run --config gtx480 --trace "$out/trace"
