#!/usr/bin/env bash
# The Slurm backend on a real cluster: installs Debian's slurm-wlm and munge if they are missing, starts a
# single-node cluster on this machine (tests/slurm/cluster.sh: munged, slurmctld and slurmd, two CPUs), runs the
# 6-run sweep of tests/lua/slurm_sweep.lua and the 4-run tests/sweep/good.yaml through the Slurm backend and
# checks that the store holds what the local backend stores (the same keys, identical stats); then a rerun
# submits nothing. Stops every daemon it started and removes its folder on exit, whatever happens.
#   tests/slurm/run_slurm_test.sh [BUILD_DIR]      (default: build; root, or sudo for apt-get)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
bin=$(cd "$build" && pwd)/moonwarp
[ -x "$bin" ] || { echo "run_slurm_test: $bin is not built" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
    [ "$(id -u)" -ne 0 ] && sudo=sudo || sudo=""
    $sudo apt-get update -qq
    # Debian's policy-rc.d convention (exit 101) keeps the packages from starting their own munge, slurmd and
    # slurmctld services: the only daemons are the ones this test starts and stops
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod 755 "$policy"
    fi
    rc=0
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq slurm-wlm munge >/dev/null || rc=$?
    [ -n "$policy" ] && $sudo rm -f "$policy"
    [ "$rc" -eq 0 ] || { echo "run_slurm_test: FAIL: apt-get install slurm-wlm munge failed" >&2; exit 1; }
fi

work=$(mktemp -d /tmp/mw-slurm-test.XXXXXX)
# shellcheck source=tests/slurm/cluster.sh
source tests/slurm/cluster.sh
cleanup()
{
    local rc=$?
    set +e
    cluster_stop
    rm -rf "$work"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail()
{
    echo "run_slurm_test: FAIL: $*" >&2
    local f
    for f in "$work"/*.out "$work"/*.err; do
        [ -f "$f" ] && { echo "---- $f" >&2; tail -n 30 "$f" >&2; }
    done
    for f in "$work"/shared*/sub-*/logs/*.out; do
        [ -s "$f" ] && { echo "---- $f" >&2; tail -n 10 "$f" >&2; }
    done
    cluster_logs
    exit 1
}

t0=$(date +%s)
cluster_start "$work/cluster" || fail "the Slurm cluster did not come up"
echo "run_slurm_test: cluster up in $(($(date +%s) - t0)) s: $(sinfo -h -o '%P %D nodes %c CPUs %t')"

# The store's rows without where and how long each ran: key, status, the whole stats text, description.
rows() { "$bin" tests/slurm/rows.lua "$1"; }
count() { "$bin" tests/slurm/rows.lua "$1" | grep -c '^[0-9a-f]\{64\} '; }

# 1. The 6-run sweep: local backend, then Slurm (two tasks at once), waiting for the array.
timeout 120 "$bin" tests/lua/slurm_sweep.lua "$work/local.db" local "" >"$work/local.out" 2>"$work/local.err" ||
    fail "the local sweep failed"
timeout 150 "$bin" tests/lua/slurm_sweep.lua "$work/slurm.db" slurm "$work/shared" wait max2 \
    >"$work/slurm.out" 2>"$work/slurm.err" || fail "the Slurm sweep failed"
grep -q "^ran	6	stored	0	failed	0	pending	0$" "$work/slurm.out" || fail "the Slurm sweep did not collect 6 runs"
grep -q "submitted 6 runs as job [0-9]* (array 0-5%2)" "$work/slurm.err" || fail "no 6-task array was submitted"
diff <(grep '^ROW' "$work/local.out") <(grep '^ROW' "$work/slurm.out") >&2 ||
    fail "the Slurm sweep's rows (keys, stats, IPC) differ from the local backend's"
[ "$(count "$work/local.db")" -eq 6 ] || fail "the local store does not hold 6 runs"
diff <(rows "$work/local.db") <(rows "$work/slurm.db") >/dev/null ||
    fail "the Slurm store's rows differ from the local store's"
nres=$(find "$work/shared/results" -name '*.result' | wc -l)
[ "$nres" -eq 6 ] || fail "$nres result files in the shared folder, not 6"
[ "$("$bin" results "$work/slurm.db" --csv --stats gpu.ipc | cut -d, -f8 | grep -cx "$(hostname)")" -eq 6 ] ||
    fail "the stored runs do not name the node they ran on"
echo "run_slurm_test: 6 runs through Slurm: keys and stats identical to the local backend's"

# 2. A rerun collects nothing new and submits nothing: every run comes from the store.
timeout 60 "$bin" tests/lua/slurm_sweep.lua "$work/slurm.db" slurm "$work/shared" wait \
    >"$work/rerun.out" 2>"$work/rerun.err" || fail "the rerun failed"
grep -q "^ran	0	stored	6	failed	0	pending	0$" "$work/rerun.out" || fail "the rerun did not take all 6 from the store"
[ "$(find "$work/shared" -maxdepth 1 -name 'sub-*' | wc -l)" -eq 1 ] || fail "the rerun submitted again"

# 3. A new store collects the finished result files without submitting (the collector, rerunnable).
timeout 60 "$bin" tests/lua/slurm_sweep.lua "$work/collected.db" slurm "$work/shared" nosubmit \
    >"$work/collect.out" 2>"$work/collect.err" || fail "collecting into a new store failed"
grep -q "^ran	6	stored	0	failed	0	pending	0$" "$work/collect.out" || fail "the collector did not import 6 runs"
diff <(rows "$work/local.db") <(rows "$work/collected.db") >/dev/null || fail "the collected rows differ"

# 4. moonwarp sweep SPEC --backend slurm: the 4-run spec, against the same spec run locally.
timeout 120 "$bin" sweep tests/sweep/good.yaml --store "$work/spec_local.db" --jobs 2 \
    >"$work/spec_local.out" 2>"$work/spec_local.err" || fail "moonwarp sweep (local) failed"
timeout 150 "$bin" sweep tests/sweep/good.yaml --store "$work/spec_slurm.db" --backend slurm \
    --shared "$work/shared_spec" --time 5 --wait --poll 0.5 >"$work/spec_slurm.out" 2>"$work/spec_slurm.err" ||
    fail "moonwarp sweep --backend slurm failed"
[ "$(count "$work/spec_local.db")" -eq 4 ] || fail "the spec's local store does not hold 4 runs"
diff <(rows "$work/spec_local.db") <(rows "$work/spec_slurm.db") >/dev/null ||
    fail "moonwarp sweep --backend slurm stored other rows than the local backend"
diff <(grep -v '^csv\|^plot' "$work/spec_local.out") <(grep -v '^csv\|^plot' "$work/spec_slurm.out") >&2 ||
    fail "moonwarp sweep --backend slurm printed another table"
echo "run_slurm_test: moonwarp sweep --backend slurm: 4 runs, rows identical to the local backend's"
echo "run_slurm_test: PASS in $(($(date +%s) - t0)) s"
