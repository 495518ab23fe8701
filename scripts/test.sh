#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit tests and tapes (swift test), the tmux
# end-to-end test of the release binary scripts/run.sh builds, and the test of that binary
# installed (scripts/install.sh) and packaged (scripts/package-deb.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift test
scripts/build-release.sh nimbus
scripts/e2e-tmux.sh .build/release/nimbus
scripts/e2e-install.sh
