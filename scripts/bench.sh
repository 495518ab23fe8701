#!/usr/bin/env bash
# Builds the release binaries as scripts/run.sh does (scripts/build-release.sh) and runs the benchmark.
# Arguments go to nimbus-bench (--pty [--wide: also at 180×40], --search, --map, --movies, --quakes, --detail, --probe [--warm] [--fold], --frames [--cold], --scroll [--before PATH], --runs N).
# --cold alone: first frame from a cold page cache (dropped before each start when run as root),
# nimbus against fzf, then warm, in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh nimbus nimbus-bench
exec .build/release/nimbus-bench "$@"
