#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests and tapes (swift test), and the tmux end-to-end test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product nimbus
swift test
scripts/e2e-tmux.sh .build/debug/nimbus
