#!/usr/bin/env bash
# Writes docs/nimbus.1, the man page, from the command definitions (swift-argument-parser's
# generate-manual plugin), so it never disagrees with `nimbus --help`. Run it after changing a
# command, an option or its help, and commit the result. Read it with `man ./docs/nimbus.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package plugin --allow-writing-to-package-directory generate-manual --multi-page=false \
  --date "$(git log -1 --format=%cs)" --authors "The Nimbus authors" --output-directory .build/manual >/dev/null
cp .build/manual/nimbus.1 docs/nimbus.1
echo "docs/nimbus.1 updated"
