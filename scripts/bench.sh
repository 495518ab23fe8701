#!/usr/bin/env bash
# Builds the release binaries as scripts/run.sh does (static Swift runtime) and runs the benchmark.
# Arguments go to nimbus-bench (--pty, --map, --movies, --probe [--warm] [--fold], --frames [--cold], --runs N).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --static-swift-stdlib --product nimbus
swift build -c release --static-swift-stdlib --product nimbus-bench
exec .build/release/nimbus-bench "$@"
