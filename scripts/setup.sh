#!/usr/bin/env bash
# Installs what Nimbus needs to build, test and benchmark on Debian/Ubuntu, when it is missing.
set -euo pipefail

# libcurl4-openssl-dev: the statically linked Foundation of release builds calls libcurl.
# dpkg-dev: dpkg-shlibdeps, for the Debian package's dependencies (scripts/package-deb.sh).
# tzdata: the system's zone database (/usr/share/zoneinfo), which every local time is read from.
# less, vim-tiny: the peers the benchmark scrolls beside the app's lists (nimbus-bench --scroll).
# zsh, fish: the completion test types into each shell; man-db, mandoc, lintian: the man page is read,
# linted, and the Debian package checked (ManualPageTests, scripts/e2e-install.sh).
packages=(libncurses-dev libsqlite3-dev libcurl4-openssl-dev tmux fzf python3 python3-pip dpkg-dev tzdata less vim-tiny
          zsh fish man-db mandoc lintian)
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

# The reference tests' second readers (pinned): IANA 2026f as PyPI ships it (a zone database newer than
# most systems', for ZoneReferenceTests), skyfield with its ephemeris (sunrise and sunset), and pyte
# (the terminal e2e-tmux.sh reads tmux's panes through), into .build/reference-python, never into the
# system's Python.
reference="$(cd "$(dirname "$0")/.." && pwd)/.build/reference-python"
wanted="tzdata==2026.6 skyfield==1.55 skyfield-data==7.0.0 pyte==0.8.2 wcwidth==0.7.0"
if [ "$(cat "$reference/.installed" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing the reference tests' Python packages ($wanted) into $reference"
  rm -rf "$reference"
  # shellcheck disable=SC2086
  python3 -m pip install --quiet --disable-pip-version-check --target "$reference" $wanted
  echo "$wanted" >"$reference/.installed"
fi
# The obspy wheel whose Flinn-Engdahl code FlinnEngdahlReferenceTests runs (sha256 checked; not installed).
python3 "$(dirname "$0")/feregion_reference.py" --fetch >/dev/null
