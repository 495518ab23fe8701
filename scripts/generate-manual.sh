#!/usr/bin/env bash
# Writes docs/nimbus.1, the man page, from what `nimbus --help` is made from (the commands'
# definitions, CommandLineDocs and the key bindings: see Sources/NimbusApp/CLI/ManualPage.swift),
# so it never disagrees with the help. Run it after changing a command, an option, its help or a
# key, and commit the result; ManualPageTests fails while the committed page is out of date.
# Read it with `man -l docs/nimbus.1`.
set -euo pipefail
cd "$(dirname "$0")/.."
NIMBUS_RECORD=1 swift test --filter ManualPageTests.testTheCommittedPageIsTheOneTheCommandsMake >/dev/null
echo "docs/nimbus.1 updated"
