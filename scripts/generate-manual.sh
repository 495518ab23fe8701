#!/usr/bin/env bash
# Writes docs/nimbus.1, the man page, from the command definitions (swift-argument-parser's
# generate-manual plugin), so it never disagrees with `nimbus --help`. Run it after changing a
# command, an option or its help, and commit the result. Read it with `man ./docs/nimbus.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package plugin generate-manual --configuration debug \
  --date "$(git log -1 --format=%cs)" --authors "The Nimbus authors" >/dev/null
page=$(find .build/plugins -name nimbus.1 -newer Package.swift | head -1)
[ -n "$page" ] || { echo "generate-manual wrote no nimbus.1" >&2; exit 1; }
cp "$page" docs/nimbus.1
echo "docs/nimbus.1 updated"
