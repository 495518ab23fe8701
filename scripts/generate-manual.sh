#!/usr/bin/env bash
# Writes docs/nimbus.1, the man page, from the command definitions (swift-argument-parser's
# generate-manual tool reads `nimbus --experimental-dump-help`), so it never disagrees with
# `nimbus --help`. Run it after changing a command, an option or its help, and commit the result.
# Read it with `man ./docs/nimbus.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product nimbus >/dev/null
swift build --product generate-manual >/dev/null
# The tool's executable is generate-manual-tool in some SwiftPM versions, generate-manual in others.
tool=.build/debug/generate-manual-tool
[ -x "$tool" ] || tool=.build/debug/generate-manual
"$tool" .build/debug/nimbus --date "$(git log -1 --format=%cs)" \
  --authors "The Nimbus authors" --output-directory docs
echo "docs/nimbus.1 updated"
