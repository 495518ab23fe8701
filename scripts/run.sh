#!/usr/bin/env bash
# Installs what is missing, builds Nimbus (release) and starts it. Arguments go to nimbus.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh nimbus
exec .build/release/nimbus "$@"
