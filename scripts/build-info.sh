#!/bin/sh
# Writes BuildCommit.swift into OUTPUT-DIR: the git commit SOURCE-DIR is at, with "-dirty" when
# tracked files differ from it, or "unknown" outside a git checkout (a source archive) or without
# git. The BuildInfo plugin (Plugins/) runs it before every build: usage SOURCE-DIR OUTPUT-DIR.
# The file is replaced only when its text changes, so an unchanged commit recompiles nothing.
set -eu
source_dir=$1
output_dir=$2
commit=$(git -C "$source_dir" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
case $commit in
  *[!0-9a-f]*|'') commit=unknown ;;
esac
if [ "$commit" != unknown ] && ! git -C "$source_dir" diff --quiet HEAD -- 2>/dev/null; then
  commit="$commit-dirty"
fi
mkdir -p "$output_dir"
text="// Written by scripts/build-info.sh before every build.
let generatedCommit = \"$commit\""
if [ "$(cat "$output_dir/BuildCommit.swift" 2>/dev/null)" != "$text" ]; then
  printf '%s\n' "$text" > "$output_dir/BuildCommit.swift"
fi
