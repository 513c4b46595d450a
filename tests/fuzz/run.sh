#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for SECONDS each, from seed corpora made of the shipped configs and
# the shared traces, with dictionaries of their keys and opcodes. A crash, leak or sanitizer report fails the
# run and prints the reproducer (hex) and its file. Usage (from the repository root):
#   tests/fuzz/run.sh BUILD_DIR SECONDS [target ...]      (BUILD_DIR configured with -DMW_FUZZ=ON, clang)
# Prints one line a target: executions, executions per second, corpus size, crashes.
set -uo pipefail
BUILD=$1
SECS=$2
shift 2
TARGETS=${*:-fuzz_config fuzz_trace fuzz_dram_trace fuzz_lua_config fuzz_sweep_spec}
SHARED=${MW_SHARED:-../shared}
WORK=$(mktemp -d /tmp/mwfuzz_run_XXXXXX)
trap 'rm -rf "$WORK"' EXIT

seeds() { # target -> $WORK/<target>/seeds, and a dictionary $WORK/<target>.dict
    local t=$1 s=$WORK/$1/seeds
    mkdir -p "$s"
    : > "$WORK/$t.dict"
    case $t in
    fuzz_config)
        for f in experiments/configs/*.yaml experiments/configs/dram/*.yaml; do cp "$f" "$s/$(basename "$f")"; done
        printf 'sim:\n  seed: 3\n---set\nl1d.assoc=8\npolicies.warp_scheduler=lrr\n' > "$s/with_set"
        grep -ho '^ *[a-z_0-9]*:' experiments/configs/*.yaml | tr -d ' ' | sort -u |
            while read -r k; do printf '"%s"\n' "$k"; done >> "$WORK/$t.dict"
        ;;
    fuzz_trace)
        for d in "$SHARED"/traces/*/; do
            for k in "$d"kernel-*.traceg*; do
                n=$(basename "$d")_$(basename "$k")
                case $k in
                *.xz) { printf '\001'; cat "$k"; } > "$s/$n" ;;
                *) { printf '\000'; head -c 65536 "$k"; } > "$s/$n" ;;
                esac
            done
        done
        for k in "$SHARED"/traces/*/kernel-*.traceg.xz; do xz -dc "$k" | head -c 200000; done |
            awk '/^-/ {sub(/ =.*/, ""); print} /^[0-9a-f]+ 0x/ {print $5}' | sort -u | head -300 |
            while read -r w; do printf '"%s"\n' "$w"; done >> "$WORK/$t.dict"
        ;;
    fuzz_dram_trace)
        for f in "$SHARED"/dram-oracle/traces/*.trace.xz; do xz -dc "$f" | head -c 16384 > "$s/$(basename "$f" .xz)"; done
        printf '"READ"\n"WRITE"\n"0x"\n' >> "$WORK/$t.dict"
        ;;
    fuzz_lua_config)
        head -c 64 /dev/zero > "$s/zero"
        ;;
    fuzz_sweep_spec)
        for f in tests/sweep/*.yaml; do cp "$f" "$s/$(basename "$f")"; done
        grep -ho '^ *-* *[a-z_0-9]*:' tests/sweep/*.yaml | tr -d ' -' | sort -u |
            while read -r k; do printf '"%s"\n' "$k"; done >> "$WORK/$t.dict"
        ;;
    esac
}

fail=0
for t in $TARGETS; do
    bin=$BUILD/tests/fuzz/$t
    [ -x "$bin" ] || { echo "tests/fuzz/run.sh: $bin is not built" >&2; exit 2; }
    seeds "$t"
    mkdir -p "$WORK/$t/corpus" "$WORK/$t/crash"
    dict=()
    [ -s "$WORK/$t.dict" ] && dict=(-dict="$WORK/$t.dict")
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$bin" -max_total_time="$SECS" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$WORK/$t/crash/" "${dict[@]}" "$WORK/$t/corpus" "$WORK/$t/seeds" > "$WORK/$t.log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$WORK/$t.log" | grep -o '[0-9]*$')
    ncorp=$(ls "$WORK/$t/corpus" | wc -l)
    ncrash=$(ls "$WORK/$t/crash" | wc -l)
    printf '%-16s %10s execs  %6s/s  corpus %5s  crashes %s  (%s s)\n' "$t" "${execs:-?}" "${rate:-?}" "$ncorp" \
        "$ncrash" "$SECS"
    if [ "$rc" -ne 0 ] || [ "$ncrash" -ne 0 ]; then
        fail=1
        tail -60 "$WORK/$t.log"
        for c in "$WORK/$t/crash"/*; do
            [ -f "$c" ] || continue
            echo "reproducer $(basename "$c") (hex):"
            od -An -tx1 -v "$c" | head -40
        done
    fi
done
exit $fail
