#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers of outside bytes (Fuzz/NimbusFuzz, one libFuzzer target each).
#
#   scripts/fuzz.sh [--seconds N] [--runs N] [--keep] [TARGET...]
#
# Builds the targets with -sanitize=fuzzer,address (in .build-fuzz, never in .build), then runs each
# named target (all of them when none is named) for N seconds (default 60), or until N executions with
# --runs (whichever comes first), from its seeds in Fuzz/corpus/TARGET. New inputs that reach new code are kept in
# .build-fuzz/corpus/TARGET for the next run; --keep merges those that add coverage into Fuzz/corpus.
# A crash or a broken invariant is kept in Fuzz/crashes/ and printed with a one-line reproduction;
# the script then exits 1. Each target ends with a line of its executions and coverage.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
runs=""
keep=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
all=(keys width remote-text config wishlist usgs nws meteoalarm xml jma open-meteo tape landmask borders catalogue)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz.sh: no target $t (targets: ${all[*]})" >&2; exit 2; }
done

scratch=.build-fuzz
echo "building the fuzz targets (-sanitize=fuzzer,address) in $scratch..." >&2
NIMBUS_FUZZ=1 swift build -c release --scratch-path "$scratch" --product NimbusFuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >&2
binary="$scratch/release/NimbusFuzz"

# Swift's own crash reporter would hold the process for seconds after every crash; libFuzzer and
# AddressSanitizer report instead. Leaks are not checked: the runtime's caches live until exit.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
mkdir -p Fuzz/crashes
status=0
summary=()
for t in "${targets[@]}"; do
    work="$scratch/corpus/$t"
    mkdir -p "$work"
    log="$scratch/fuzz-$t.log"
    limit=(-max_total_time="$seconds")
    [ -n "$runs" ] && limit+=(-runs="$runs")
    echo "== $t" >&2
    set +e
    NIMBUS_FUZZ_TARGET="$t" "$binary" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
        -print_final_stats=1 -artifact_prefix="Fuzz/crashes/$t-" "$work" "Fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    set -e
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
    cov=$(echo "$done_line" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')
    ft=$(echo "$done_line" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
    if [ $rc -ne 0 ]; then
        status=1
        artifact=$(sed -nE 's/.*Test unit written to (.*)$/\1/p' "$log" | tail -1)
        grep -m3 -E 'invariant broken|ERROR: AddressSanitizer|Fatal error|deadly signal|timeout' "$log" >&2 || true
        echo "$t: FAILED (log $log); reproduce with:" >&2
        echo "  NIMBUS_FUZZ_TARGET=$t SWIFT_BACKTRACE=enable=no $binary ${artifact:-<input>}" >&2
        summary+=("$t: FAILED after ${execs:-?} executions")
    else
        summary+=("$t: ${execs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, $(ls "$work" | wc -l) inputs kept")
        if [ $keep -eq 1 ]; then
            NIMBUS_FUZZ_TARGET="$t" "$binary" -merge=1 -max_len=16384 "Fuzz/corpus/$t" "$work" >>"$log" 2>&1
        fi
    fi
done
printf '%s\n' "${summary[@]}"
exit $status
