#!/usr/bin/env bash
# Installs what Nimbus needs to build, test and benchmark on Debian/Ubuntu, when it is missing.
set -euo pipefail

# libcurl4-openssl-dev: the statically linked Foundation of release builds calls libcurl.
# dpkg-dev: dpkg-shlibdeps, for the Debian package's dependencies (scripts/package-deb.sh).
# less, vim-tiny: the peers the benchmark scrolls beside the app's lists (nimbus-bench --scroll).
packages=(libncurses-dev libsqlite3-dev libcurl4-openssl-dev tmux fzf python3 dpkg-dev less vim-tiny)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6 toolchain required)" >&2; exit 1; }
