#!/usr/bin/env bash
# End-to-end test of the real binary in tmux: Korean search, moving, resizing, quitting,
# the exit status, that the terminal is restored afterwards (after q, Ctrl-C and every signal whose
# default action ends a process, a truncated catalogue's SIGBUS included), the mouse and OSC 52, COLUMNS/LINES losing to
# the terminal's real size, the user's data surviving kill -9, the wishlist exported and imported into a second data folder, a forecast fetched over HTTP, a session recorded as a tape and played back, and every scrolled list equal to a fresh draw. scripts/test.sh runs it on the release binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/.build/release/nimbus}")
[ -x "$bin" ] || { echo "e2e: no binary at $bin" >&2; exit 1; }

work=$(mktemp -d)
sock="nimbus-e2e-$$"
export LC_ALL=C.UTF-8
# The user's own likes and forecasts stay untouched, and no request leaves the machine
# (port 9 on loopback refuses the connection at once).
export XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" NIMBUS_WEATHER_URL=http://127.0.0.1:9 NIMBUS_AIR_URL=http://127.0.0.1:9
t() { tmux -u -L "$sock" "$@"; }
http_pid=
scroll_server_pid=
cleanup() {
  t kill-server 2>/dev/null || true
  if [ -n "$http_pid" ]; then kill "$http_pid" 2>/dev/null || true; fi
  if [ -n "$scroll_server_pid" ]; then kill "$scroll_server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

passed=0
failed=0
check() { # name, condition-command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok    $name"
  else failed=$((failed + 1)); echo "FAIL  $name"; echo "----- screen -----"; cat "$work/screen"; echo "------------------"; fi
}
capture() { t capture-pane -p -t e2e > "$work/screen"; }
# Waits up to 5 s for the pane to show a text.
wait_for() {
  for _ in $(seq 50); do capture; grep -qF -- "$1" "$work/screen" && return 0; sleep 0.1; done
  return 1
}
# stty -a prints "-icanon" for a raw terminal and "icanon" for a restored one.
restored() { grep -qE '(^| )icanon( |$)' "$1" && grep -qE '(^| )echo( |$)' "$1"; }
shows() { grep -qF -- "$1" "$work/screen"; }
# Waits up to 5 s for the pane to stop showing a text.
wait_gone() {
  for _ in $(seq 50); do capture; grep -qF -- "$1" "$work/screen" || return 0; sleep 0.1; done
  return 1
}
# "11" while the pane asks for SGR button-event mouse reports, "00" when it does not.
mouse_flags() { t display -p -t e2e '#{mouse_sgr_flag}#{mouse_button_flag}'; }

# The pane runs nimbus, then records its exit status and the terminal modes left behind.
t new-session -d -s e2e -x 80 -y 24 \
  "env -u LANG -u LC_ALL NIMBUS_LANG=ko TERM=tmux-256color '$bin'; echo \$? > '$work/status'; stty -a > '$work/stty'; sleep 30"

check "starts and draws the Korean UI" wait_for "도시"
t send-keys -t e2e /
t send-keys -t e2e -l "서울"
check "Korean query finds Seoul, by its Korean name" wait_for "› 서울 "
check "one result, counted in Korean" shows "도시 1개 / 전체 34,006개"
check "country name in Korean" shows "대한민국"
t send-keys -t e2e BSpace
check "shorter query, more cities" wait_for "검색: 서 "
t send-keys -t e2e Enter Down Down
sleep 0.3; capture
check "selection moved to the third row" bash -c "sed -n 6p '$work/screen' | grep -q '^› '"
t resize-window -t e2e -x 30 -y 8
check "tiny terminal shows the notice" wait_for "터미널이 너무 작습니다"
t resize-window -t e2e -x 80 -y 24
check "enlarged again, the list and selection are back" bash -c "sleep 0.3; tmux -u -L '$sock' capture-pane -p -t e2e | sed -n 6p | grep -q '^› '"
t send-keys -t e2e q
for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
check "exit status 0" test "$(cat "$work/status" 2>/dev/null)" = 0
check "terminal restored: echo and canonical mode on" restored "$work/stty"

# Ctrl-C from inside the search field quits too, and SIGTERM restores the terminal.
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL TERM=tmux-256color '$bin'; echo \$? > '$work/status2'; stty -a > '$work/stty2'; sleep 30"
check "English UI starts" wait_for "Cities"
t send-keys -t e2e / q C-c
for _ in $(seq 50); do [ -s "$work/stty2" ] && break; sleep 0.1; done
check "Ctrl-C in the search field quits with status 0" test "$(cat "$work/status2" 2>/dev/null)" = 0
check "terminal restored after Ctrl-C" restored "$work/stty2"

# Each signal: a fresh run, the signal from outside, then the exit status and the terminal modes.
signal_case() { # SIGNAL expected-status
  local sig=$1 want=$2
  rm -f "$work/pid" "$work/status" "$work/stty"
  t respawn-pane -k -t e2e \
    "sh -c 'echo \$\$ > $work/pid; exec env -u LANG -u LC_ALL TERM=tmux-256color $bin'; echo \$? > '$work/status'; stty -a > '$work/stty'; sleep 30"
  check "started for $sig" wait_for "Cities"
  kill -"$sig" "$(cat "$work/pid")"
  for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
  check "$sig ends it with status $want" test "$(cat "$work/status" 2>/dev/null)" = "$want"
  check "terminal restored after $sig" restored "$work/stty"
  check "mouse reporting off after $sig" test "$(mouse_flags)" = 00
}
signal_case TERM 143
signal_case HUP 129
# A crash (here SIGSEGV from outside) still leaves the terminal usable.
signal_case SEGV 139
# Every other signal whose default action ends the process: the terminal is restored first, then
# the process dies of that signal (status 128 + its number).
signal_case QUIT 131
signal_case USR1 138
signal_case USR2 140
signal_case ALRM 142
signal_case VTALRM 154
signal_case PROF 155
signal_case XCPU 152
signal_case XFSZ 153
signal_case SYS 159
signal_case RTMIN+5 $((128 + $(kill -l RTMIN) + 5))

# SIGPIPE is ignored (writes handle EPIPE): the app keeps running and quits normally.
rm -f "$work/pid" "$work/status" "$work/stty"
t respawn-pane -k -t e2e \
  "sh -c 'echo \$\$ > $work/pid; exec env -u LANG -u LC_ALL TERM=tmux-256color $bin'; echo \$? > '$work/status'; stty -a > '$work/stty'; sleep 30"
check "started for PIPE" wait_for "Cities"
kill -PIPE "$(cat "$work/pid")"
sleep 0.3
t send-keys -t e2e 2
check "still running after SIGPIPE" wait_for "Your places"
t send-keys -t e2e q
for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
check "quits with 0 after SIGPIPE" test "$(cat "$work/status" 2>/dev/null)" = 0
check "terminal restored after SIGPIPE and q" restored "$work/stty"

# A catalogue truncated while mapped: SIGBUS restores the terminal and names the file.
catalogue=$(find "$(dirname "$bin")" -name cities15000.bin | sed -n 1p)
cp "$catalogue" "$work/cities.bin"
rm -f "$work/status" "$work/stty" "$work/stderr"
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL TERM=tmux-256color '$bin' --catalog '$work/cities.bin' 2> '$work/stderr'; echo \$? > '$work/status'; stty -a > '$work/stty'; sleep 30"
check "started on a copied catalogue" wait_for "Cities"
truncate -s 4096 "$work/cities.bin"
t send-keys -t e2e /
t send-keys -t e2e -l "lisbon"
for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
check "SIGBUS ends it with status 135" test "$(cat "$work/status" 2>/dev/null)" = 135
check "terminal restored after SIGBUS" restored "$work/stty"
check "the message names the truncated file" grep -qF "nimbus: $work/cities.bin changed while nimbus was using it" "$work/stderr"

# COLUMNS and LINES that disagree with the terminal lose to its real size, which is not the
# terminfo entry's 80×24 either.
rm -f "$work/status"
t resize-window -t e2e -x 100 -y 30
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL COLUMNS=99999 LINES=99999 TERM=tmux-256color '$bin'; echo \$? > '$work/status'; sleep 30"
check "COLUMNS=99999 LINES=99999: starts at the terminal's size" wait_for "GeoNames"
check "the status bar is on the terminal's last row (30 of a 100×30 pane)" bash -c "tmux -u -L '$sock' capture-pane -p -t e2e | sed -n 30p | grep -q GeoNames"
check "and ends at its last column" bash -c "tmux -u -L '$sock' capture-pane -p -t e2e | sed -n 30p | grep -q 'cities\$'"
t send-keys -t e2e q
for _ in $(seq 50); do [ -s "$work/status" ] && break; sleep 0.1; done
check "and quits with 0" test "$(cat "$work/status" 2>/dev/null)" = 0
t resize-window -t e2e -x 80 -y 24

# A like is on disk as soon as it shows: kill -9 right after it, and it is still there.
rm -f "$work/pid"
t respawn-pane -k -t e2e \
  "sh -c 'echo \$\$ > $work/pid; exec env -u LANG -u LC_ALL TERM=tmux-256color $bin'; sleep 30"
check "started for the like" wait_for "Cities"
t send-keys -t e2e f
check "f marks the first city as liked" wait_for "›*Shanghai"
kill -9 "$(cat "$work/pid")"
t respawn-pane -k -t e2e "env -u LANG -u LC_ALL TERM=tmux-256color '$bin'; sleep 30"
check "restarted after kill -9" wait_for "Cities"
t send-keys -t e2e 3
check "the like survived kill -9" wait_for "› Shanghai"
t send-keys -t e2e 1
check "and shows in the list" wait_for "›*Shanghai"
t send-keys -t e2e q

# Ctrl-Z under an interactive shell: the job stops with the terminal given back, fg redraws it.
t respawn-pane -k -t e2e "env -u LANG -u LC_ALL PS1='$ ' TERM=tmux-256color bash --norc --noprofile -i"
sleep 0.5
t send-keys -t e2e "'$bin'" Enter
check "started under bash" wait_for "GeoNames"
t send-keys -t e2e C-z
check "Ctrl-Z stops the job and gives the shell back" wait_for "Stopped"
t send-keys -t e2e "stty -a > '$work/stty5'" Enter
for _ in $(seq 50); do [ -s "$work/stty5" ] && break; sleep 0.1; done
check "terminal usable while suspended" restored "$work/stty5"
t send-keys -t e2e clear Enter
t send-keys -t e2e fg Enter
check "fg redraws the whole screen" wait_for "GeoNames"
t send-keys -t e2e q
# The shell's line is typed only once the app has given the terminal back: typed sooner, the app's
# exit (which flushes pending input as it restores the terminal) could swallow it.
wait_gone "GeoNames"
sleep 0.3
t send-keys -t e2e "echo status=\$?" Enter
check "quits with 0 after resuming" wait_for "status=0"

# Wishlist: a film added and the process killed with SIGKILL right after is there on the next start.
# (Shift-Tab from the first tab reaches the last one, Wishlist; once more, Movies.)
rm -f "$work/pid"
t respawn-pane -k -t e2e \
  "sh -c 'echo \$\$ > $work/pid; exec env -u LANG -u LC_ALL XDG_DATA_HOME=$work/data TERM=tmux-256color $bin'; sleep 30"
check "started for the wishlist" wait_for "Cities"
t send-keys -t e2e BTab BTab /
t send-keys -t e2e -l "heat"
check "the Movies tab finds Heat" wait_for "› Heat"
t send-keys -t e2e Enter w
check "w adds it to the wishlist" wait_for "Added “Heat” to the wishlist"
kill -KILL "$(cat "$work/pid")"
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL XDG_DATA_HOME=$work/data TERM=tmux-256color '$bin'; sleep 30"
check "restarted after kill -9" wait_for "Cities"
t send-keys -t e2e BTab
check "the film survived kill -9" wait_for "› Heat"
t send-keys -t e2e q

# Wishlist export and import, the way a person moves it to another machine: Letterboxd-style CSV in,
# JSON out, JSON into a second data folder, and the same films on the Japanese Wishlist tab there.
printf 'Title,Year,Directors\nOldboy,2003,Park Chan-wook\nNo Such Film,1901,\n' > "$work/letterboxd.csv"
XDG_DATA_HOME="$work/data" "$bin" wishlist import "$work/letterboxd.csv" > "$work/import.out" 2>&1 || true
check "import adds what matches and names what does not" \
  bash -c "grep -qF 'not found: No Such Film (1901)' '$work/import.out' && grep -qF 'added 1 film' '$work/import.out'"
XDG_DATA_HOME="$work/data" "$bin" wishlist export --format json > "$work/wishlist.json"
XDG_DATA_HOME="$work/data2" "$bin" wishlist import "$work/wishlist.json" > /dev/null 2>&1
XDG_DATA_HOME="$work/data" "$bin" wishlist export --format csv > "$work/one.csv"
XDG_DATA_HOME="$work/data2" "$bin" wishlist export --format csv > "$work/two.csv"
check "the second machine exports the same wishlist" \
  bash -c "grep -q '^Oldboy,2003,Park Chan-wook' '$work/two.csv' && diff -q '$work/one.csv' '$work/two.csv' >/dev/null"
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL NIMBUS_LANG=ja XDG_DATA_HOME=$work/data2 TERM=tmux-256color '$bin'; sleep 30"
check "started in Japanese on the second machine" wait_for "都市"
t send-keys -t e2e BTab
check "its Wishlist tab shows the imported films" wait_for "Oldboy"
check "and the film saved before" shows "Heat"
t send-keys -t e2e q

# Weather over HTTP from a server on loopback: the request goes through libcurl, which release
# builds load on first use (Sources/CLazyCurl).
mkdir -p "$work/www/v1"
cp "$root/Tests/Tapes/fixtures/open-meteo-seoul.json" "$work/www/v1/forecast"
cp "$root/Tests/Tapes/fixtures/open-meteo-air-seoul.json" "$work/www/v1/air-quality"
: > "$work/http.log"
python3 -u -m http.server --bind 127.0.0.1 --directory "$work/www" 0 > "$work/http.log" 2>&1 &
http_pid=$!
port=
for _ in $(seq 50); do
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log" | sed -n 1p)
  [ -n "$port" ] && break; sleep 0.1
done
[ -n "$port" ] || { echo "e2e: python3 -m http.server printed no port:"; cat "$work/http.log"; exit 1; }
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL NIMBUS_WEATHER_URL=http://127.0.0.1:$port NIMBUS_AIR_URL=http://127.0.0.1:$port TERM=tmux-256color '$bin'; sleep 30"
check "started for the weather" wait_for "Cities"
t send-keys -t e2e /
t send-keys -t e2e -l "seoul"
check "found Seoul" wait_for "› Seoul"
t send-keys -t e2e Enter Enter
check "the detail shows the served weather" wait_for "Partly cloudy"
check "the server was asked for Seoul's forecast" grep -q "GET /v1/forecast?latitude=37.566" "$work/http.log"
t send-keys -t e2e q

# One-shot output for status bars, from the same server, with no terminal at all.
oneline=$(env -u LANG -u LC_ALL NIMBUS_WEATHER_URL="http://127.0.0.1:$port" NIMBUS_AIR_URL="http://127.0.0.1:$port" NIMBUS_UNITS=metric "$bin" weather seoul --oneline < /dev/null)
check "nimbus weather seoul --oneline prints one line" test "$oneline" = "Seoul: ⛅  +23°C →10km/h"
# wttr.in's own one-line format prints what wttr.in prints for the same weather.
wttr=$(env -u LANG -u LC_ALL NIMBUS_WEATHER_URL="http://127.0.0.1:$port" NIMBUS_AIR_URL="http://127.0.0.1:$port" NIMBUS_UNITS=metric "$bin" weather seoul --format "%l: %c %t %h %w" < /dev/null)
check "nimbus weather seoul --format as wttr.in's" test "$wttr" = "Seoul: ⛅  +23°C 64% →10km/h"
printed=$(env -u LANG -u LC_ALL NIMBUS_WEATHER_URL="http://127.0.0.1:$port" NIMBUS_AIR_URL="http://127.0.0.1:$port" "$bin" weather seoul | sed -n 1p)
check "nimbus weather seoul into a pipe prints the screen" test "$printed" = " Seoul · South Korea"

# The auto theme asks the terminal for its background (OSC 11) and follows its answer; the first
# frame is drawn dark without waiting, an answer within 50 ms redraws it, a later one is ignored;
# NO_COLOR is never asked and stays colourless.
osc() { env -u NO_COLOR python3 "$root/scripts/e2e-osc11.py" "$bin" "$1"; }
check "OSC 11 white background → light theme" test "$(osc rgb:ffff/ffff/ffff)" = "light queried"
check "OSC 11 black background → dark theme" test "$(osc rgb:0000/0000/0000)" = "dark queried"
check "no OSC 11 answer → dark theme" test "$(osc none)" = "dark queried"
check "OSC 11 answered after 200 ms → stays dark (the first frame never waits)" test "$(osc late:rgb:ffff/ffff/ffff)" = "dark queried"
check "NO_COLOR: not asked, no colours" test "$(NO_COLOR=1 python3 "$root/scripts/e2e-osc11.py" "$bin" rgb:ffff/ffff/ffff)" = "none not-queried"
check "NIMBUS_THEME=dark: not asked" test "$(env -u NO_COLOR NIMBUS_THEME=dark python3 "$root/scripts/e2e-osc11.py" "$bin" rgb:ffff/ffff/ffff)" = "dark not-queried"
# The mouse: the terminal is asked for SGR 1006 reports, clicks and the wheel (written as the bytes
# a terminal sends; X;Y from 1) select, open and switch tabs; y copies through OSC 52 into tmux's
# buffer; reporting is off again after q, and never on with --no-mouse.
rm -f "$work/stty"
t set -s set-clipboard on
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL NIMBUS_LANG=en TERM=tmux-256color '$bin'; stty -a > '$work/stty'; sleep 30"
check "started for the mouse" wait_for "Cities"
check "SGR mouse reporting on" test "$(mouse_flags)" = 11
t send-keys -t e2e -l $'\e[<0;6;5M\e[<0;6;5m'
check "a click selects Beijing" wait_for "› Beijing"
t send-keys -t e2e -l $'\e[<65;6;10M'
check "the wheel moves the selection three rows" wait_for "› Kinshasa"
t send-keys -t e2e -l $'\e[<0;6;8M\e[<0;6;8m'
check "a click on the selected row opens it" wait_for "4.33°S 15.31°E"
t send-keys -t e2e y
check "y says what was copied" wait_for "Copied: Kinshasa 4.33°S 15.31°E"
check "OSC 52 reached tmux's buffer" test "$(t show-buffer)" = "Kinshasa 4.33°S 15.31°E"
t send-keys -t e2e -l $'\e[<0;42;1M\e[<0;42;1m'
check "a click on a tab's title switches to it" wait_for "search titles"
capture
check "no report leaked as text" bash -c "! grep -qF '[<' '$work/screen'"
t send-keys -t e2e q
for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
check "mouse reporting off after q" test "$(mouse_flags)" = 00
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL TERM=tmux-256color '$bin' --no-mouse; sleep 30"
check "started with --no-mouse" wait_for "Cities"
check "no mouse reporting with --no-mouse" test "$(mouse_flags)" = 00
# --no-mouse decides the Mouse row for the run: the settings box says so and refuses to change it.
t send-keys -t e2e ,
check "the settings open" wait_for "Mouse"
check "the Mouse row says where its value comes from" wait_for "from --no-mouse"
t send-keys -t e2e Down Down Down Down Down Down Right
check "changing it is refused, and says why" wait_for "Not changed: this run follows --no-mouse"
check "no mouse reporting after the refusal" test "$(mouse_flags)" = 00
t send-keys -t e2e Escape q
# Mouse turned on in the settings over `mouse = false` in the file: the terminal reports it and every
# click is taken (they were all dropped while the old value was still believed).
mkdir -p "$XDG_CONFIG_HOME/nimbus"
printf 'mouse = false\n' > "$XDG_CONFIG_HOME/nimbus/config.toml"
t respawn-pane -k -t e2e \
  "env -u LANG -u LC_ALL TERM=tmux-256color '$bin'; sleep 30"
check "started with mouse = false" wait_for "Cities"
check "no mouse reporting with mouse = false" test "$(mouse_flags)" = 00
t send-keys -t e2e ,
check "the settings open again" wait_for "Mouse"
t send-keys -t e2e Down Down Down Down Down Down Right
check "the settings' Mouse row says On" wait_for "Mouse"
check "SGR mouse reporting on after the setting" test "$(mouse_flags)" = 11
t send-keys -t e2e Escape
t send-keys -t e2e -l $'\e[<0;6;5M\e[<0;6;5m'
check "a click after the setting selects Beijing" wait_for "› Beijing"
t send-keys -t e2e q
# The setting was saved: the runs after this one start without it.
rm -f "$XDG_CONFIG_HOME/nimbus/config.toml"

# SIGTERM, SIGHUP and SIGINT from outside: the terminal is restored, then the app dies of the signal
# as its default action would end it. Its parent (here a Python one that tells the two apart) sees
# it killed by the signal, not exit with status 128 + n, which a shell's $? cannot tell apart.
cat > "$work/parent.py" <<'PY'
import subprocess, sys
child = subprocess.Popen(sys.argv[2:])
open(sys.argv[1] + ".pid", "w").write(str(child.pid))
code = child.wait()
open(sys.argv[1], "w").write("killed by %d" % -code if code < 0 else "exit %d" % code)
PY
death_case() { # SIGNAL
  local sig=$1
  rm -f "$work/ending" "$work/ending.pid" "$work/stty"
  t respawn-pane -k -t e2e \
    "python3 '$work/parent.py' '$work/ending' env -u LANG -u LC_ALL TERM=tmux-256color '$bin'; stty -a > '$work/stty'; sleep 30"
  check "started for the death by $sig" wait_for "Cities"
  kill -"$sig" "$(cat "$work/ending.pid")"
  for _ in $(seq 50); do [ -s "$work/stty" ] && break; sleep 0.1; done
  check "$sig kills it (its parent sees the signal, not an exit status)" test "$(cat "$work/ending" 2>/dev/null)" = "killed by $(kill -l "$sig")"
  check "terminal restored before dying of $sig" restored "$work/stty"
  check "mouse reporting off before dying of $sig" test "$(mouse_flags)" = 00
}
death_case TERM
death_case HUP
death_case INT

# ---- Scrolled lists equal a fresh draw ------------------------------------------------------------
# Frames move the lines the terminal already shows (scroll regions, insert and delete line) before
# drawing what changed; tmux is a terminal emulator of its own. After scrolling each list down past
# its last row and back up, the pane (text and colours) must equal what Ctrl-L draws from nothing.
# Korean and Japanese names are wide; at 40×10 the lists are five rows.
# The lists' data come from a loopback server that keeps answering the same (scripts/e2e-scroll-server.py):
# 60 quakes, forecasts, Seattle's warnings in force; 40 liked cities and 60 films on the wishlist.
scroll_data="$work/scroll-data"
: > "$work/scroll-server.log"
python3 -u "$root/scripts/e2e-scroll-server.py" "$root/Tests/Tapes/fixtures" > "$work/scroll-server.log" 2>&1 &
scroll_server_pid=$!
scroll_port=
for _ in $(seq 50); do scroll_port=$(sed -n 1p "$work/scroll-server.log"); [ -n "$scroll_port" ] && break; sleep 0.1; done
films=$(find "$(dirname "$bin")" -name movies.sqlite | sed -n 1p)
python3 - "$films" "$work/films.csv" <<'PY'
import csv, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("select title, year from movie where year is not null order by renown_order limit 60").fetchall()
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["Title", "Year"])
    w.writerows(rows)
PY
XDG_DATA_HOME="$scroll_data" "$bin" wishlist import "$work/films.csv" > /dev/null 2>&1
# The pane as a person sees it: a read-only client attached through a pseudo-terminal, its screen
# played on pyte, each character with its colours and attributes, a space with those that show on a
# space (background, reverse, underline), plain blanks at the ends of rows left out. Not
# `capture-pane -e`: it leaves out the cells at the end of a row that an erase filled with a
# background colour (ECH with bce), though tmux shows them, and drops or keeps trailing spaces by
# whether anything was written after them.
pane_view() { PYTHONPATH="$root/.build/reference-python${PYTHONPATH:+:$PYTHONPATH}" python3 "$root/scripts/pane-view.py" "$sock" e2e; }
# Two pictures 0.5 s apart that agree: the screen has settled.
settled() {
  local a b
  for _ in $(seq 30); do
    a=$(pane_view); sleep 0.5; b=$(pane_view)
    [ "$a" = "$b" ] && break
  done
  printf '%s\n' "$b"
}
# The pane as it is, then after Ctrl-L redrew it from nothing: the same, or the difference on $work/screen.
same_as_fresh() {
  settled > "$work/scrolled"
  t send-keys -t e2e C-l
  sleep 0.3
  settled > "$work/fresh"
  diff "$work/scrolled" "$work/fresh" > "$work/screen" && return 0
  { echo "(rows of the scrolled pane that differ from the fresh draw: characters and what shows of their styles)"; cat "$work/screen"; } > "$work/screen.tmp"
  mv "$work/screen.tmp" "$work/screen"
  return 1
}
keys() { # KEY COUNT: the key COUNT times, a few at a time, as a held key sends them
  local i
  for i in $(seq "$2"); do t send-keys -t e2e "$1"; [ $((i % 5)) -eq 0 ] && sleep 0.05; done
  return 0
}
scroll_run() { # SIZE LANGUAGE READY-TEXT [TERM: tmux-256color, whose terminfo has no ech]
  local label="$1 $2${4:+ $4}"
  t resize-window -t e2e -x "${1%x*}" -y "${1#*x}"
  t respawn-pane -k -t e2e \
    "env -u LANG -u LC_ALL NIMBUS_LANG=$2 NIMBUS_UNITS=metric XDG_DATA_HOME=$scroll_data XDG_CACHE_HOME=$work/scroll-cache-$2-$1 NIMBUS_WEATHER_URL=http://127.0.0.1:$scroll_port NIMBUS_AIR_URL=http://127.0.0.1:$scroll_port NIMBUS_QUAKES_URL=http://127.0.0.1:$scroll_port NIMBUS_NWS_URL=http://127.0.0.1:$scroll_port NIMBUS_ARCHIVE_URL=http://127.0.0.1:$scroll_port TERM=${4:-tmux-256color} '$bin'; sleep 60"
  check "scroll $label: started" wait_for "$3"
  sleep 0.5
  keys Down 45; keys Up 30; keys PageDown 2; keys Down 3
  check "scroll $label: Cities, scrolled down and up, equals a fresh draw" same_as_fresh
  # The help over Cities (it scrolls where the screen is short of its lines: at 80×24, not 100×30).
  t send-keys -t e2e '?'
  sleep 0.3
  keys Down 12; keys Up 4
  check "scroll $label: the help over Cities equals a fresh draw" same_as_fresh
  t send-keys -t e2e Escape
  sleep 0.3
  if [ ! -e "$work/scroll-liked" ]; then
    t send-keys -t e2e Home
    for _ in $(seq 40); do t send-keys -t e2e f Down; done
    sleep 0.5
    : > "$work/scroll-liked"
  fi
  t send-keys -t e2e 3
  sleep 0.5
  keys Down 45; keys Up 30; keys Down 2
  check "scroll $label: Liked (beside the map of them all) equals a fresh draw" same_as_fresh
  t send-keys -t e2e 4
  sleep 0.5
  keys Down 45; keys Up 30; keys End 1; keys Up 3
  check "scroll $label: Quakes, 60 events, equals a fresh draw" same_as_fresh
  t send-keys -t e2e 5
  sleep 0.5
  keys Down 45; keys Up 30; keys PageDown 3
  check "scroll $label: Movies, paged, equals a fresh draw" same_as_fresh
  # (An Escape and the key after it sent together read as Alt and that key: a pause between.)
  t send-keys -t e2e /
  t send-keys -t e2e -l "forrest gump"
  sleep 0.5
  t send-keys -t e2e Enter Enter
  check "scroll $label: Forrest Gump's details open (142 min)" wait_for "142"
  keys Down 15; keys Up 4
  check "scroll $label: a film's details (Forrest Gump's cast) equal a fresh draw" same_as_fresh
  t send-keys -t e2e Escape
  sleep 0.3
  t send-keys -t e2e 6
  sleep 0.5
  keys Down 45; keys Up 30; keys Down 5
  check "scroll $label: Wishlist, 60 films, equals a fresh draw" same_as_fresh
  t send-keys -t e2e 1 /
  t send-keys -t e2e -l "seattle"
  sleep 0.5
  t send-keys -t e2e Enter Enter
  sleep 1
  t send-keys -t e2e a
  sleep 0.5
  keys Down 20; keys Up 5
  check "scroll $label: Seattle's warnings equal a fresh draw" same_as_fresh
  if [ "$2" = en ]; then check "scroll $label: and they were shown" bash -c "tmux -u -L '$sock' capture-pane -p -t e2e | grep -q 'Warnings in force · Seattle'"; fi
  t send-keys -t e2e Escape
  sleep 0.3
  t send-keys -t e2e Escape
  sleep 0.3
  t send-keys -t e2e q
}
scroll_run 100x30 en Cities
scroll_run 80x24 ko 도시
scroll_run 40x10 ja 都市
# With xterm's sequences (tmux reads them too): runs of blanks erased with ech, which tmux-256color's
# entry lacks.
scroll_run 100x30 en Cities xterm-256color
kill "$scroll_server_pid" 2>/dev/null || true
t resize-window -t e2e -x 80 -y 24

# ---- Tapes: a live session recorded as a tape (nimbus tape --record), played back ----------------
# The pane's shell first reads a line typed into it (not into Nimbus); then a short run in Korean is
# recorded: typing, a move, a resize, a click. The tape says at the top what it is, holds only the
# keys Nimbus read, and played back headless shows the screen the run ended on (its snapshot is
# that last live screen, styles and cursor included). With asciinema installed (pip install
# asciinema), the tape's recording also plays in it to the same screen.
rec="$work/recorded"
mkdir -p "$rec"
t respawn-pane -k -t e2e "cd '$rec' && read -r typed_in_shell && env -u LANG -u LC_ALL NIMBUS_LANG=ko TERM=tmux-256color '$bin' tape --record demo.tape -- --units metric 2> '$rec/stderr'; echo \$? > '$rec/status'; sleep 30"
sleep 0.3
t send-keys -t e2e -l "shell-secret-42"
t send-keys -t e2e Enter
check "recording: the app starts" wait_for "도시"
t send-keys -t e2e /
t send-keys -t e2e -l "서울"
check "recording: the search shows Seoul" wait_for "› 서울"
sleep 0.5
t send-keys -t e2e Enter Down Down
t resize-window -t e2e -x 100 -y 30
sleep 0.5
t send-keys -t e2e -l $'\e[<0;38;1M\e[<0;38;1m'
check "recording: a click on a tab's title switches to it" wait_for "인기순"
sleep 0.4
capture
cp "$work/screen" "$rec/live"
t send-keys -t e2e q
for _ in $(seq 50); do [ -s "$rec/status" ] && break; sleep 0.1; done
check "recording: exit status 0" test "$(cat "$rec/status" 2>/dev/null)" = 0
check "recording: the tape says what it is" grep -q '^# A tape recorded by `nimbus tape --record`' "$rec/demo.tape"
check "recording: size, language, clock and arguments" bash -c "grep -qx 'Size 80x24' '$rec/demo.tape' && grep -qx 'Env NIMBUS_LANG=ko' '$rec/demo.tape' && grep -q '^Now 20' '$rec/demo.tape' && grep -qx 'Args --units metric' '$rec/demo.tape'"
check "recording: typed text, keys with counts, the resize and the click" bash -c "grep -qx 'Type \"/서울\"' '$rec/demo.tape' && grep -qx 'Press Down 2' '$rec/demo.tape' && grep -qx 'Resize 100x30' '$rec/demo.tape' && grep -qx 'Click 37 0' '$rec/demo.tape' && grep -q '^Wait [0-9]*ms' '$rec/demo.tape'"
check "recording: nothing typed into the shell, and not the q that quit" bash -c "! grep -q 'shell-secret' '$rec/demo.tape' && ! grep -qE '^(Press q|Type \"q\")' '$rec/demo.tape' && tail -1 '$rec/demo.tape' | grep -qx 'Snapshot demo'"
check "recording: plays back to the screen the run ended on" "$bin" tape "$rec/demo.tape"
check "recording: its snapshot is the live screen" bash -c "diff <(sed -n '1,/^-- styles/p' '$rec/__snapshots__/demo.txt' | sed '\$d' | sed 's/ *\$//') <(sed 's/ *\$//' '$rec/live')"
if command -v asciinema > /dev/null; then
  "$bin" tape "$rec/demo.tape" --cast "$rec/demo.cast" > /dev/null
  t respawn-pane -k -t e2e "asciinema play -i 0.2 '$rec/demo.cast'; sleep 30"
  for _ in $(seq 50); do capture; grep -qF "인기순" "$work/screen" && break; sleep 0.1; done
  sleep 0.5
  capture
  check "recording: the tape's asciicast plays in asciinema to the same screen" diff <(sed 's/ *$//' "$work/screen") <(sed 's/ *$//' "$rec/live")
else
  echo "skip  recording: asciinema is not installed (pip install asciinema) to play the tape's asciicast"
fi
t resize-window -t e2e -x 80 -y 24
# ---- end of tapes ----------------------------------------------------------------------------------

echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
