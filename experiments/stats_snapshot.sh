#!/bin/sh
# Runs a fixed set of workloads (every benchmark model at its default size under GTO, the shared Accel-Sim
# traces, and small runs of each built-in policy) and keeps each run's stats, so that two binaries can be
# compared counter for counter: a refactor or speed change must leave every stat bit-identical.
# Usage (from the repository root):
#   experiments/stats_snapshot.sh BINARY OUTDIR [quick]      writes OUTDIR/<run>.stats (one "name value" a line)
#   experiments/stats_compare.py OUTDIR_A OUTDIR_B            every counter of every run, new counters listed
# `quick` uses the small size for the benchmark models (about 30 s instead of 3 min).
set -eu
BIN=$1
OUT=$2
SIZE=default
[ "${3:-}" = quick ] && SIZE=small
CONFIG=experiments/configs/gtx480.yaml
TRACES=${MW_TRACES:-../shared/traces}
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

keep() { # run-name, then moonwarp run arguments
    name=$1; shift
    if "$BIN" run --config "$CONFIG" --quiet --out "$TMP/r" "$@" >/dev/null 2>"$TMP/err"; then
        python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["stats"]
for k in sorted(d): print(k, repr(d[k]))' "$TMP/r/stats.json" > "$OUT/$name.stats"
    else
        { echo "FAILED"; cat "$TMP/err"; } > "$OUT/$name.stats"
    fi
}

for n in $("$BIN" list-workloads | awk 'NR > 1 && $1 != "kernels:" && $1 !~ /^micro\./ { print $1 }'); do
    keep "$n" --workload "$n" --size "$SIZE" --set policies.warp_scheduler=gto
done
for t in "$TRACES"/*/; do
    [ -f "$t/kernelslist.g" ] && keep "trace.$(basename "$t")" --trace "$t"
done
for w in micro.colstride rodinia.bfs polybench.syrk rodinia.cfd; do
    for p in warp_scheduler=lrr warp_scheduler=two_level l1d_bypass=all granularity=sector dram_scheduler=fcfs \
             replacement=fifo cta_throttle=static; do
        keep "$w.$p" --workload "$w" --size small --set "policies.$p"
    done
    keep "$w.on_fill" --workload "$w" --size small --set l1d.alloc=on_fill
done
echo "stats_snapshot: $(ls "$OUT" | wc -l) runs in $OUT"
