#!/usr/bin/env python3
"""The auto theme on a real pty: nimbus sends OSC 11 at start-up; this script answers it (or not)
and says which theme the first frames were drawn in. Usage: e2e-osc11.py BINARY [late:]rgb:RRRR/GGGG/BBBB|none
("late:" answers 200 ms after the question: past the 50 ms nimbus waits for, so it stays dark).
Prints "light", "dark" or "none" (no colours), and "queried" or "not-queried"."""
import fcntl, os, pty, select, struct, sys, termios, time

binary, answer = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
    os.execv(binary, [binary])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
query = b"\x1b]11;?\x07"
out, answered, start = b"", False, time.time()
while time.time() - start < 3 and b"Wishlist" not in out.split(query)[-1]:
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            out += os.read(fd, 65536)
        except OSError:
            break
    if not answered and query in out:
        answered = True
        if answer.startswith("late:"):
            time.sleep(0.2)
            os.write(fd, ("\x1b]11;" + answer[5:] + "\x07").encode())
        elif answer != "none":
            os.write(fd, ("\x1b]11;" + answer + "\x07").encode())
time.sleep(0.3)
try:
    while select.select([fd], [], [], 0.2)[0]:
        out += os.read(fd, 65536)
except OSError:
    pass
os.write(fd, b"q")
time.sleep(0.3)
os.kill(pid, 15) if os.waitpid(pid, os.WNOHANG) == (0, 0) else None
theme = "light" if b"48;5;252" in out else "dark" if b"48;5;236" in out else "none"
print(theme, "queried" if query in out else "not-queried")
