#!/usr/bin/env bash
# CI's second part, after scripts/test.sh: a short run of every fuzz target from its corpus (10 s
# each, scripts/fuzz.sh) and the tests of what runs work on several threads under ThreadSanitizer
# (scripts/sanitize.sh thread).
#
#   scripts/ci-sanitizers.sh SECONDS
#
# Both steps together stay within SECONDS (what is left of CI's time): a finding (a crash, a broken
# invariant, a data race) or a failed build fails the run; a step the time left would not let finish
# is stopped, or not started with less than five minutes left, and the log says so.
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:?usage: scripts/ci-sanitizers.sh SECONDS}"
start=$SECONDS

step() { # NAME COMMAND...
    local name="$1" left rc
    shift
    left=$((budget - (SECONDS - start)))
    if [ "$left" -lt 300 ]; then
        echo "ci-sanitizers: $name NOT RUN: ${left} s left of CI's time" >&2
        return 0
    fi
    echo "ci-sanitizers: $name (at most ${left} s)" >&2
    local began=$SECONDS
    set +e
    timeout -k 30 "$left" "$@"
    rc=$?
    set -e
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        echo "ci-sanitizers: $name STOPPED after $((SECONDS - began)) s: CI's time ran out (no finding)" >&2
        return 0
    fi
    [ $rc -eq 0 ] || { echo "ci-sanitizers: $name FAILED (exit $rc)" >&2; return $rc; }
    echo "ci-sanitizers: $name passed in $((SECONDS - began)) s" >&2
}

step "fuzz targets, 10 s each" scripts/fuzz.sh --seconds 10
step "tests under ThreadSanitizer" scripts/sanitize.sh thread
