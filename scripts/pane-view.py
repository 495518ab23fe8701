#!/usr/bin/env python3
"""What a tmux pane shows, read as a terminal attached to it shows it: a read-only client is attached
through a pseudo-terminal of the window's size, its output is played on pyte (an emulator of its own),
and each row of the pane is printed as its cells with what shows of their styles (a space: its
background, underline and reverse; anything else: all of them), trailing plain spaces left out.

    pane-view.py SOCKET TARGET

Used by e2e-tmux.sh instead of `capture-pane -e`, which leaves out the cells at the end of a row that
an erase filled with a background colour (ECH or EL with bce) though tmux shows them: the client's
screen is what a person sees.
"""
import fcntl, os, pty, select, signal, struct, subprocess, sys, termios, time
import pyte

sock, target = sys.argv[1], sys.argv[2]
def tmux(*args):
    return subprocess.run(["tmux", "-u", "-L", sock, *args], capture_output=True, text=True, check=True).stdout.strip()
cols, rows, pane_top, pane_left = map(int, tmux("display", "-p", "-t", target,
    "#{window_width} #{window_height} #{pane_top} #{pane_left}").split())
pane_cols, pane_rows = map(int, tmux("display", "-p", "-t", target, "#{pane_width} #{pane_height}").split())
status = tmux("show", "-gv", "status")
status_rows = 0 if status == "off" else (int(status) if status.isdigit() else 1)
position = tmux("show", "-gv", "status-position")
height = rows + status_rows
top = pane_top + (status_rows if position == "top" else 0)

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", height, cols, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    os.execvpe("tmux", ["tmux", "-u", "-L", sock, "attach", "-r", "-t", target], env)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, cols, 0, 0))
screen = pyte.Screen(cols, height)
stream = pyte.ByteStream(screen)
# Until the client has drawn the window and then written nothing for 0.4 s (at most 5 s).
start = time.time()
last = None
while time.time() - start < 5:
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        stream.feed(data)
        last = time.time()
    elif last is not None and time.time() - last > 0.4:
        break
os.kill(pid, signal.SIGTERM)
os.waitpid(pid, 0)

out = []
for y in range(top, top + pane_rows):
    cells = []
    x = pane_left
    while x < pane_left + pane_cols:
        c = screen.buffer[y][x]
        if c.data == "":  # the right half of a wide character
            x += 1
            continue
        shows = {"bg": c.bg} if c.bg != "default" else {}
        if c.underscore: shows["underline"] = True
        if c.reverse: shows["reverse"] = True
        if c.data != " ":
            if c.fg != "default": shows["fg"] = c.fg
            if c.bold: shows["bold"] = True
        elif c.reverse or c.underscore:
            if c.fg != "default": shows["fg"] = c.fg
        cells.append((c.data, sorted(shows.items())))
        x += 1
    while cells and cells[-1] == (" ", []):
        cells.pop()
    out.append(repr(cells))
print("\n".join(out))
