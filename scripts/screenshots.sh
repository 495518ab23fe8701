#!/usr/bin/env bash
# Makes the README's screenshots: every Tests/Tapes/readme-*.tape played headless, each of its
# snapshots written as docs/screenshots/NAME.svg (the terminal's colours, a monospace font). A test
# (ReadmeScreenshotTests) fails when a committed picture no longer matches what its tape draws; run
# this then, and commit the pictures with the change that moved them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift build --product nimbus >/dev/null
out="$root/docs/screenshots"
mkdir -p "$out"
rm -f "$out"/*.svg
.build/debug/nimbus tape --svg "$out" Tests/Tapes/readme-*.tape
ls "$out"
