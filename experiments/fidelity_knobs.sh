#!/bin/sh
# Which mechanism closes which part of the gap to Accel-Sim: runs every trace of a reference CSV on
# gtx480_accelsim.yaml, then again with one knob at a time set back to what moonwarp did before it (or to the
# GPGPU-Sim 3.2.x value), and prints cycles and the error against the reference per trace.
# Usage (from the repository root): experiments/fidelity_knobs.sh [BINARY] [REFERENCE.csv] [TRACES_DIR]
set -eu
BIN=${1:-build/moonwarp}
REF=${2:-../shared/accelsim-ref/reference.csv}
TRACES=${3:-../shared/traces}
CONFIG=experiments/configs/gtx480_accelsim.yaml
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { # label, then --set arguments
    label=$1; shift
    sets=""
    for a in "$@"; do sets="$sets --set $a"; done
    tail -n +2 "$REF" | while IFS=, read -r trace cfg kernels cycles rest; do
        # shellcheck disable=SC2086
        if "$BIN" run --config "$CONFIG" --trace "$TRACES/$trace/kernelslist.g" --quiet --out "$TMP/r" $sets \
            >/dev/null 2>"$TMP/err"; then
            python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["stats"]; c=d["gpu.cycles"]; r=float(sys.argv[2])
print("%-26s %-28s %8d %8d %+7.1f%%" % (sys.argv[3], sys.argv[4], c, r, 100 * (c - r) / r))' \
                "$TMP/r/stats.json" "$cycles" "$label" "$trace"
        else
            echo "$label $trace FAILED: $(cat "$TMP/err")"
        fi
    done
}
printf '%-26s %-28s %8s %8s %8s\n' setting trace cycles accelsim error
run "preset (all knobs)"
run "perfect fetch" l1i.enabled=false
run "L2 not sectored" l2.sectored=false
run "no L1D flush" l1d.flush_at_kernel_end=false
run ".CG bypasses L1D" l1d.bypass_cg=true
run "L1D linear index" l1d.index=linear
run "L1D hit latency 20" l1d.hit_latency=20
run "no L1D latency pipe" l1d.latency_pipe=false
run "DRAM delay both ways" dram.latency=200
run "no 9-flit inject buffer" icnt.inject_flits=0
run "L1D 32 MSHRs" l1d.mshr_entries=32
run "flit 32 B" icnt.flit_bytes=32
run "icnt latency 8" icnt.latency=8
run "ALU interval 2" sm.alu_interval=2
run "L2 16-way, 32 MSHRs" l2.assoc=16 l2.mshr_entries=32
run "DRAM queue 16, 1 bank grp" dram.queue_size=16 dram.bank_groups=1
