#!/bin/sh
# Runs every built-in benchmark model (all but micro.*) at its default size on the GTX480 config under GTO and
# writes docs/benchmarks.md: warp instructions, L1D miss rate, IPC and simulated cycles per benchmark, and the
# cycles again with perfect instruction fetch (what the L1 instruction cache costs each benchmark).
# Usage (from the repository root): experiments/bench_table.sh [build-dir] [output.md]
set -eu
BUILD=${1:-build}
OUT=${2:-docs/benchmarks.md}
BIN="$BUILD/moonwarp"
CONFIG=experiments/configs/gtx480.yaml
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -x "$BIN" ] || { echo "bench_table: no $BIN (build first)" >&2; exit 1; }
names=$("$BIN" list-workloads | awk 'NR > 1 && $1 != "kernels:" && $1 !~ /^micro\./ { print $1 }')

{
    echo "# Built-in benchmarks on the GTX480 model"
    echo
    echo "Every built-in benchmark model at its \`default\` size on \`$CONFIG\` with the GTO warp scheduler"
    echo "(seed 1). IPC counts thread instructions per core cycle (\`gpu.ipc\`); the L1D miss rate is"
    echo "\`l1d.miss_rate\`. Regenerate with \`experiments/bench_table.sh [build-dir]\` from the repository root."
    echo "Sizes: \`moonwarp list-workloads\` lists each model's sizes (tiny, small, default, paper). The 1-D"
    echo "PolyBench kernels (ATAX, BICG, MVT, GESUMMV) launch N/256 CTAs that each loop N times over a"
    echo "column-strided load, so their default is N = 3840, the smallest N with a CTA on each of the 15 SMs:"
    echo "they are the longest runs in the table. \`--size small\` (N = 384) runs them in under a second."
    echo "The CUDA SDK models run the samples' default inputs once: \`sdk.histogram\` (64 MB, 52.9 M warp instructions)"
    echo "and \`sdk.convsep\` (3072 x 3072, 23.3 M) take minutes; their \`--size small\` runs take seconds."
    echo
    echo "\`perfect fetch\` is the same run with \`l1i.enabled=false\` (instructions arrive when the buffer has room, as"
    echo "moonwarp did before it had an instruction cache); \`L1I\` is the change in cycles the instruction cache makes."
    echo "The L1D miss rate is moonwarp's accounting (loads only; GPGPU-Sim's, with stores, is \`l1d.gpgpusim_miss_rate\`,"
    echo "see docs/fidelity.md). The last two columns are this machine's simulation speed (wall seconds, warp"
    echo "instructions per second); they vary with load, the other columns do not."
    echo
    echo "| benchmark | kernels | SMs used | warp instructions | L1D miss rate | IPC | cycles | perfect fetch | L1I | wall s | warp insts/s |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$TMP/table.md"

for n in $names; do
    "$BIN" run --config "$CONFIG" --workload "$n" --set policies.warp_scheduler=gto --quiet --out "$TMP/$n" >/dev/null
    "$BIN" run --config "$CONFIG" --workload "$n" --set policies.warp_scheduler=gto --set l1i.enabled=false --quiet \
        --out "$TMP/$n.pf" >/dev/null
    python3 - "$TMP/$n/stats.json" "$n" "$TMP/$n.pf/stats.json" >> "$TMP/table.md" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, r = d["stats"], d["run"]
pf = json.load(open(sys.argv[3]))["stats"]["gpu.cycles"]
used = 0
while "sm.%d.warp_insts" % used in s: used += 1
sms = sum(1 for i in range(used) if s["sm.%d.warp_insts" % i] > 0)
print("| %s | %d | %d | %d | %.3f | %.2f | %d | %d | %+.1f %% | %.1f | %.0f |" % (sys.argv[2], s["gpu.kernels"], sms,
      s["gpu.warp_insts"], s["l1d.miss_rate"], s["gpu.ipc"], s["gpu.cycles"], pf, 100.0 * (s["gpu.cycles"] - pf) / pf,
      r["wall_s"], r["warp_insts_per_s"]))
PY
done
mkdir -p "$(dirname "$OUT")"
cp "$TMP/table.md" "$OUT"
echo "wrote $OUT"
