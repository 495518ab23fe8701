#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests and tapes (swift test), and the tmux
# end-to-end test of the release binary scripts/run.sh builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift test
scripts/build-release.sh nimbus
scripts/e2e-tmux.sh .build/release/nimbus
