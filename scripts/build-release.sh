#!/usr/bin/env bash
# Builds the release binaries Nimbus runs and benchmarks: scripts/build-release.sh [PRODUCT...]
# (default: nimbus). run.sh and bench.sh both build through here, so they share one build.
#
# - The Swift runtime and Foundation are linked in statically: a third less start-up.
# - libcurl (FoundationNetworking's, with the ~30 libraries it loads) is left out of the start-up
#   link: Sources/CLazyCurl forwards its functions to the library, loaded on first use. Every
#   module that imports FoundationNetworking asks the linker for -lcurl; the frontend flag drops
#   that request. Without it the binary still works, only loading libcurl at start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
products=("$@")
[ ${#products[@]} -eq 0 ] && products=(nimbus)
# Diagnostics without colour whether or not the output is a terminal: SwiftPM otherwise passes the
# compiler a different flag for each, and a build from a terminal after one piped to a file (or the
# other way round) recompiles everything.
# -z now: every symbol bound at start and the GOT read-only after (full RELRO), as distributions build.
# -disable-concrete-type-metadata-mangled-name-accessors: a generic type the code names (a chain of
# publishers, a Memo of a key) is made by a call that is given its conformances, not from its mangled
# name. From a name, the runtime looks up each conformance the type requires, and the first look-up
# of each type reads all ~8,300 conformance records of the binary: at start-up that was ~85 look-ups
# and half of the first frame's instructions. With the flag: 56 look-ups, the first frame 44.5M -> 32.6M
# instructions (callgrind), a binary 0.8 MB larger.
flags=(-c release --static-swift-stdlib --no-color-diagnostics
       -Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc curl
       -Xlinker -z -Xlinker now
       -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
for product in "${products[@]}"; do
  swift build "${flags[@]}" --product "$product"
done
# The point of the flag above: libcurl must not be among the libraries loaded at start-up.
if command -v readelf >/dev/null && readelf -d .build/release/nimbus | grep 'libcurl' >/dev/null; then
  echo "build-release: libcurl is linked at start-up again: something other than Foundation asks for -lcurl" >&2
  exit 1
fi
