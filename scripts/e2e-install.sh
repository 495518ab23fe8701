#!/usr/bin/env bash
# End-to-end test of Nimbus installed like any command-line tool: scripts/install.sh into a
# temporary prefix, the build folder's data made unreachable, then the installed binary run as a
# user would (the Cities and Movies tabs in tmux, a tape, `nimbus weather seoul --oneline` from a
# server on loopback, --version); uninstalled, nothing of it is left but the user's own files. Then
# the Debian package is built (scripts/package-deb.sh) and checked with dpkg-deb, and with lintian
# when it is installed. scripts/test.sh runs it after the release build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

work=$(mktemp -d)
prefix="$work/prefix"
sock="nimbus-e2e-install-$$"
export LC_ALL=C.UTF-8
# The user's data folder is the installed data folder, as with the default prefix (~/.local):
# uninstalling must leave the likes there. No system-wide Nimbus (a package) is looked at, and no
# request leaves the machine (port 9 on loopback refuses the connection at once).
export XDG_DATA_HOME="$prefix/share" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"
export XDG_DATA_DIRS="$work/no-system-data" NIMBUS_WEATHER_URL=http://127.0.0.1:9 NIMBUS_AIR_URL=http://127.0.0.1:9
unset NIMBUS_DATA_DIR NIMBUS_LANG
t() { tmux -u -L "$sock" "$@"; }
hidden=()
# The build folder's data back where it was (or, should a build have made it again meanwhile, the
# hidden copy dropped).
restore_build_data() {
  local d
  for d in "${hidden[@]}"; do
    [ -d "$d.e2e-hidden" ] || continue
    if [ -e "$d" ]; then rm -rf "$d.e2e-hidden"; else mv "$d.e2e-hidden" "$d"; fi
  done
  hidden=()
}
http_pid=
cleanup() {
  t kill-server 2>/dev/null || true
  if [ -n "$http_pid" ]; then kill "$http_pid" 2>/dev/null || true; fi
  restore_build_data
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

passed=0
failed=0
check() { # name, condition-command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok    $name"
  else
    failed=$((failed + 1)); echo "FAIL  $name"
    if [ -f "$work/screen" ]; then echo "----- screen -----"; cat "$work/screen"; echo "------------------"; fi
  fi
}
capture() { t capture-pane -p -t e2e > "$work/screen"; }
wait_for() { # text: up to 5 s
  for _ in $(seq 50); do capture; grep -qF -- "$1" "$work/screen" && return 0; sleep 0.1; done
  return 1
}

# Install.
scripts/install.sh --prefix "$prefix" > "$work/install.out" 2>&1 || { cat "$work/install.out"; exit 1; }
bin="$prefix/bin/nimbus"
check "installs the binary" test -x "$bin"
check "the binary is stripped" bash -c "! readelf -S '$bin' | grep -qw symtab"
for f in share/nimbus/cities15000.bin share/nimbus/movies.sqlite share/nimbus/en.lproj/Localizable.strings \
         share/nimbus/ko.lproj/Localizable.strings share/man/man1/nimbus.1.gz share/bash-completion/completions/nimbus \
         share/zsh/site-functions/_nimbus share/fish/vendor_completions.d/nimbus.fish share/doc/nimbus/SOURCES.md; do
  check "installs $f" test -s "$prefix/$f"
done
check "the man page reads" bash -c "gzip -dc '$prefix/share/man/man1/nimbus.1.gz' | grep -q '^.Dt NIMBUS 1'"
if command -v man >/dev/null; then
  # man -l in a UTF-8 locale keeps the Hangul and accents, and shows the sections people look for.
  check "man -l keeps every character and section" bash -c "LANG=C.UTF-8 MANWIDTH=100 man -l '$prefix/share/man/man1/nimbus.1.gz' 2>/dev/null > '$work/man.txt' &&
    grep -q '서울' '$work/man.txt' && grep -q 'são paulo' '$work/man.txt' && grep -q '≥ 15,000' '$work/man.txt' &&
    for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS KEYS ENVIRONMENT FILES 'EXIT STATUS' EXAMPLES; do grep -qx \"\$s\" '$work/man.txt' || exit 1; done"
fi
check "bash reads the completion script" bash -c "bash -n '$prefix/share/bash-completion/completions/nimbus' && ! head -1 '$prefix/share/bash-completion/completions/nimbus' | grep -q '^#!'"
cp "$prefix/share/nimbus/.installed-files" "$work/manifest"

# The build folder's data out of reach: what SwiftPM copied beside every binary it built.
for d in .build/*/*/Nimbus_*.resources; do
  [ -d "$d" ] || continue
  mv "$d" "$d.e2e-hidden"
  hidden+=("$d")
done
check "the build folder's data is hidden" test "${#hidden[@]}" -gt 0
check "so the build folder's binary finds none (no path compiled in)" \
  bash -c "! .build/release/nimbus search seoul >/dev/null 2>'$work/nodata'"
check "and one line says where it looked" \
  bash -c "test \$(wc -l < '$work/nodata') = 1 && grep -qF 'looked in' '$work/nodata' && grep -qF '$work/no-system-data/nimbus' '$work/nodata'"

"$bin" --version > "$work/version"
check "--version: the version and commit" bash -c "head -1 '$work/version' | grep -qE '^nimbus [0-9]' && sed -n 2p '$work/version' | grep -qE '^commit ([0-9a-f]{12}(-dirty)?|unknown)$'"
check "--version: the data, from the prefix" grep -qF "from $prefix/share/nimbus (the installation prefix)" "$work/version"
check "--version: the catalogue's format and count" grep -qE 'cities15000.bin +city catalogue NMBC v[0-9]+, [0-9,]+ cities' "$work/version"
check "--version: the films" grep -qE 'movies.sqlite +film catalogue \(SQLite\), [0-9,]+ films' "$work/version"

# The Cities tab in Korean (the installed strings and catalogue), a like, the Movies tab.
t new-session -d -s e2e -x 80 -y 24 "env -u LANG -u LC_ALL NIMBUS_LANG=ko TERM=tmux-256color '$bin'; echo \$? > '$work/status'; sleep 30"
check "installed: the Korean Cities tab" wait_for "도시"
t send-keys -t e2e /
t send-keys -t e2e -l "서울"
check "installed: finds 서울" wait_for "› 서울 "
# One match: Enter opens its detail, where f likes it.
t send-keys -t e2e Enter
check "installed: Enter opens the one match" wait_for "서울 · 대한민국"
t send-keys -t e2e f
check "installed: likes it" wait_for "서울 · 대한민국 [좋아요]"
t send-keys -t e2e BTab BTab /
t send-keys -t e2e -l "heat"
check "installed: the film catalogue" wait_for "Heat"
t send-keys -t e2e C-c
for _ in $(seq 50); do [ -s "$work/status" ] && break; sleep 0.1; done
check "installed: quits with 0" test "$(cat "$work/status" 2>/dev/null)" = 0

# A tape on the installed binary.
mkdir -p "$work/tapes"
cat > "$work/tapes/installed.tape" <<'TAPE'
Size 80x24
Expect "Cities"
Press /
Type "lisbon"
Expect "Portugal"
Restart
Env NIMBUS_LANG=ja
Expect "都市"
TAPE
check "installed: a tape passes" bash -c "'$bin' tape '$work/tapes/installed.tape' > '$work/tape.out' 2>&1 || { cat '$work/tape.out'; false; }"

# The one-line weather from a server on loopback (libcurl loaded on first use).
mkdir -p "$work/www/v1"
cp Tests/Tapes/fixtures/open-meteo-seoul.json "$work/www/v1/forecast"
cp Tests/Tapes/fixtures/open-meteo-air-seoul.json "$work/www/v1/air-quality"
python3 -u -m http.server --bind 127.0.0.1 --directory "$work/www" 0 > "$work/http.log" 2>&1 &
http_pid=$!
port=
for _ in $(seq 50); do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log" | sed -n 1p)
  [ -n "$port" ] && break; sleep 0.1
done
oneline=$(env -u LANG -u LC_ALL NIMBUS_WEATHER_URL="http://127.0.0.1:$port" NIMBUS_AIR_URL="http://127.0.0.1:$port" \
  NIMBUS_UNITS=metric "$bin" weather seoul --oneline < /dev/null || true)
check "installed: nimbus weather seoul --oneline" test "$oneline" = "Seoul: ⛅  +23°C →10km/h"

# The build folder's data back before anything builds again.
restore_build_data
rm -f "$work/screen"

# Installing again over it changes nothing; a file it did not put there is not overwritten.
check "installing again replaces its own files" bash -c \
  "scripts/install.sh --prefix '$prefix' > '$work/install2.out' 2>&1 && cmp -s '$work/manifest' '$prefix/share/nimbus/.installed-files'"
echo mine > "$work/mine"
mv "$prefix/share/doc/nimbus/SOURCES.md" "$work/sources"
cp "$work/mine" "$prefix/share/doc/nimbus/SOURCES.md"
sed -i '\| share/doc/nimbus/SOURCES.md$|d' "$prefix/share/nimbus/.installed-files"
check "a file not installed by it is not overwritten" bash -c "! scripts/install.sh --prefix '$prefix' >/dev/null 2>&1 && cmp -s '$work/mine' '$prefix/share/doc/nimbus/SOURCES.md'"
rm "$prefix/share/doc/nimbus/SOURCES.md"
mv "$work/sources" "$prefix/share/doc/nimbus/SOURCES.md"
echo "f share/doc/nimbus/SOURCES.md" >> "$prefix/share/nimbus/.installed-files"

# Uninstall: everything installed goes; the user's likes (in the same folder) stay.
awk '$1 == "f" { print $NF }' "$prefix/share/nimbus/.installed-files" | sort > "$work/ours"
user_files=$(cd "$prefix" && find . -type f ! -name .installed-files | sed 's|^\./||' | sort | comm -23 - "$work/ours")
check "the user's likes are in the installed data folder" test "$user_files" = share/nimbus/nimbus.sqlite
scripts/install.sh --prefix "$prefix" --uninstall > "$work/uninstall.out" 2>&1
left=$(cd "$prefix" && find . -type f | sed 's|^\./||' | sort)
check "uninstall leaves only the user's files" test "$left" = "$user_files"
empty_made=$(sed -n 's/^d //p' "$work/manifest" | while IFS= read -r d; do
  if [ -d "$prefix/$d" ] && [ -z "$(ls -A "$prefix/$d")" ]; then echo "$d"; fi; done)
check "and no folder it made that is now empty" test -z "$empty_made"
check "the like is still in them" test "$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM liked_city").fetchone()[0])' "$prefix/share/nimbus/nimbus.sqlite")" = 1
# What the user's side holds goes now: the likes, and the empty folder Foundation's HTTP cookie
# store makes in XDG_DATA_HOME, named after the executable's folder (here share/bin).
rm -rf "$prefix/share/nimbus"
rmdir "$prefix/share/bin" "$prefix/share" 2>/dev/null || true
left=$(find "$prefix" -mindepth 1)
check "nothing else is left" test -z "$left"
[ -z "$left" ] || echo "$left"
check "uninstalling with nothing installed says so" bash -c "! scripts/install.sh --prefix '$prefix' --uninstall 2>/dev/null"

# What is at the prefix is hostile too (scripts/install.sh): an empty prefix, the data folder's mode,
# a wrapper put at bin/nimbus since, a link inside the prefix, an install stopped half-way.
mkdir -p "$work/cwd"
check "--prefix '' is refused, and nothing installed where it runs" bash -c \
  "cd '$work/cwd' && ! '$root/scripts/install.sh' --prefix '' >/dev/null 2>&1 && ! '$root/scripts/install.sh' --prefix= >/dev/null 2>&1 && test -z \"\$(ls -A)\""
p2="$work/p2"
XDG_DATA_HOME="$p2/share" scripts/install.sh --prefix "$p2" > "$work/install-p2.out" 2>&1 || { cat "$work/install-p2.out"; exit 1; }
check "the data folder, the user's data folder too, is made 0700 (README)" test "$(stat -c %a "$p2/share/nimbus")" = 700
check "the manifest holds each file's sha256" bash -c \
  "awk '\$1 == \"f\"' '$p2/share/nimbus/.installed-files' | grep -qE '^f [0-9a-f]{64} bin/nimbus\$'"
mv "$p2/bin/nimbus" "$p2/bin/nimbus.real"
printf '#!/bin/sh\nexec "$(dirname "$0")/nimbus.real" "$@"\n' > "$p2/bin/nimbus"
mkdir -p "$work/elsewhere"
mv "$p2/share/doc" "$work/elsewhere/doc"
ln -s "$work/elsewhere/doc" "$p2/share/doc"
scripts/install.sh --prefix "$p2" --uninstall > "$work/uninstall-p2.out" 2>&1
check "uninstall keeps a wrapper put at bin/nimbus since" grep -q nimbus.real "$p2/bin/nimbus"
check "uninstall removes nothing through a link in the prefix" test -f "$work/elsewhere/doc/nimbus/SOURCES.md"
check "and says what it kept" bash -c "grep -q 'kept $p2/bin/nimbus' '$work/uninstall-p2.out' && grep -q 'through the link' '$work/uninstall-p2.out'"
check "install writes nothing through a link in the prefix" bash -c \
  "! XDG_DATA_HOME='$p2/share' scripts/install.sh --prefix '$p2' --force > '$work/install-p2b.out' 2>&1 && grep -q 'is a link' '$work/install-p2b.out'"
rm -rf "$p2"
p3="$work/p3"
setsid scripts/install.sh --prefix "$p3" > "$work/install-p3.out" 2>&1 &
installer=$!
for _ in $(seq 2000); do [ -e "$p3/bin/nimbus" ] && break; sleep 0.005; done
kill -9 -- "-$installer" 2>/dev/null || true
wait "$installer" 2>/dev/null || true
written=$(find "$p3" -type f ! -name '.*' 2>/dev/null | wc -l)
echo "      (the install was stopped after $written of its files)"
check "an install stopped half-way is finished by the next, without --force" bash -c \
  "scripts/install.sh --prefix '$p3' > '$work/install-p3b.out' 2>&1 || { cat '$work/install-p3b.out'; false; }"
check "and uninstalled whole" bash -c \
  "scripts/install.sh --prefix '$p3' --uninstall >/dev/null 2>&1 && test -z \"\$(find '$p3' -type f 2>/dev/null)\""
rm -rf "$p3"

# The Debian package.
if command -v dpkg-deb >/dev/null; then
  scripts/package-deb.sh --compress gzip "$work/deb" > "$work/package.out" 2>&1 || { cat "$work/package.out"; exit 1; }
  deb=$(ls "$work"/deb/nimbus_*_amd64.deb 2>/dev/null | sed -n 1p)
  check "package-deb.sh builds nimbus_<version>_amd64.deb" test -f "$deb"
  version=$(sed -n '1s/^nimbus //p' "$work/version")
  check "named after nimbus --version ($version)" test "$(basename "$deb")" = "nimbus_${version}_amd64.deb"
  dpkg-deb --info "$deb" > "$work/info"
  check "control: Package, Version, Architecture" \
    bash -c "grep -qx ' Package: nimbus' '$work/info' && grep -qx ' Version: $version' '$work/info' && grep -qx ' Architecture: amd64' '$work/info'"
  check "control: Depends on libc6 and ncurses" bash -c "grep -q '^ Depends:.*libc6 (>=' '$work/info' && grep -q '^ Depends:.*libncursesw6' '$work/info'"
  check "control: libcurl is recommended, not a dependency" \
    bash -c "grep -q '^ Recommends:.*libcurl' '$work/info' && ! grep -q '^ Depends:.*libcurl' '$work/info'"
  dpkg-deb --contents "$deb" > "$work/contents"
  for f in ./usr/bin/nimbus ./usr/share/nimbus/cities15000.bin ./usr/share/nimbus/movies.sqlite \
           ./usr/share/nimbus/ja.lproj/Localizable.strings ./usr/share/man/man1/nimbus.1.gz \
           ./usr/share/bash-completion/completions/nimbus ./usr/share/zsh/vendor-completions/_nimbus \
           ./usr/share/fish/vendor_completions.d/nimbus.fish ./usr/share/doc/nimbus/copyright \
           ./usr/share/doc/nimbus/changelog.gz; do
    check "contents: $f" grep -qE " $f\$" "$work/contents"
  done
  check "contents: every file owned by root" bash -c "! grep -v ' root/root ' '$work/contents'"
  check "copyright: machine-readable, with the data's licences" bash -c \
    "dpkg-deb --fsys-tarfile '$deb' | tar -xOf - ./usr/share/doc/nimbus/copyright > '$work/copyright' &&
     head -1 '$work/copyright' | grep -qF 'https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' &&
     grep -q '^Files: usr/share/nimbus/cities15000.bin' '$work/copyright' && grep -q '^License: CC-BY-4.0' '$work/copyright'"
  if command -v lintian >/dev/null; then
    lintian --no-tag-display-limit "$deb" > "$work/lintian" 2>&1 || true
    check "lintian: no errors" bash -c "! grep -q '^E: ' '$work/lintian' || { cat '$work/lintian'; false; }"
    grep -E '^(W|I): ' "$work/lintian" | sed 's/^/lintian: /' || true
  else
    echo "skip  lintian is not installed (apt-get install lintian to check the package with it)"
  fi
else
  echo "skip  dpkg-deb is not installed: no package built"
fi

echo "e2e-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
