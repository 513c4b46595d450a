#!/usr/bin/env bash
# The demo experiment: the micro-kernels on the GTX480 baseline under GTO and LRR, with and without L1D
# bypassing, as a table of IPC, L1D miss rate and LDST reservation stalls, plus the simulator's own speed.
set -euo pipefail
cd "$(dirname "$0")/.."
MW=build/moonwarp
CFG=experiments/configs/gtx480.yaml
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
printf '%-16s %-10s %-8s %10s %8s %10s %12s %14s\n' workload scheduler bypass cycles ipc l1d_miss line_alloc_fail "sim cycles/s"
for wl in micro.stream micro.colstride micro.reuse micro.compute; do
    for sched in gto lrr; do
        for byp in none all; do
            d="$OUT/$wl-$sched-$byp"
            $MW run --config $CFG --workload $wl --set policies.warp_scheduler=$sched \
                --set policies.l1d_bypass=$byp --out "$d" --quiet >/dev/null
            get() { grep -o "\"$1\": [-0-9.e+]*" "$d/stats.json" | head -1 | sed 's/.*: //'; }
            printf '%-16s %-10s %-8s %10s %8.3f %10.3f %12s %14.0f\n' $wl $sched $byp "$(get gpu.cycles)" \
                "$(get gpu.ipc)" "$(get l1d.miss_rate)" "$(get l1d.line_alloc_fail)" "$(get cycles_per_s)"
        done
    done
done
