#!/usr/bin/env python3
"""Reference check of the tapes' asciicast recordings against an independent terminal emulator.

Every Tests/Tapes/*.tape is played with `nimbus tape --cast`; pyte (a VT100/xterm emulator in
Python, `pip install pyte`) then plays each recording's bytes, and at every `Snapshot NAME` marker
its screen must be the text of Tests/Tapes/__snapshots__/NAME.txt. So the bytes a tape records are
the frames, and a player shows what the tape checked.

    python3 scripts/check-casts.py [path/to/nimbus]
"""
import json, os, subprocess, sys, tempfile

import pyte

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
nimbus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/debug/nimbus")
tapes = os.path.join(root, "Tests/Tapes")
snapshots = os.path.join(tapes, "__snapshots__")


def trimmed(rows):
    rows = [r.rstrip() for r in rows]
    while rows and not rows[-1]:
        rows.pop()
    return rows


agree = differ = 0
with tempfile.TemporaryDirectory() as work:
    for name in sorted(f for f in os.listdir(tapes) if f.endswith(".tape")):
        cast = os.path.join(work, name + ".cast")
        subprocess.run([nimbus, "tape", os.path.join(tapes, name), "--cast", cast], stdout=subprocess.DEVNULL, check=True)
        lines = open(cast, encoding="utf-8").read().splitlines()
        header = json.loads(lines[0])
        screen = pyte.Screen(header["width"], header["height"])
        stream = pyte.Stream(screen)
        for line in lines[1:]:
            _, kind, data = json.loads(line)
            if kind == "o":
                stream.feed(data)
            elif kind == "r":
                cols, rows = map(int, data.split("x"))
                screen.resize(rows, cols)
            elif kind == "m" and data.startswith("Snapshot "):
                snapshot = data[len("Snapshot "):]
                text = open(os.path.join(snapshots, snapshot + ".txt"), encoding="utf-8").read()
                want = trimmed(text.split("\n-- styles: ")[0].split("\n"))
                got = trimmed("".join(screen.buffer[y][x].data for x in range(screen.columns)) for y in range(screen.lines))
                if want == got:
                    agree += 1
                else:
                    differ += 1
                    print(f"{name}: {snapshot} differs from what pyte shows")
                    for i, (a, b) in enumerate(zip(want, got)):
                        if a != b:
                            print(f"  row {i + 1}:\n    - {a}\n    + {b}")
print(f"casts: {agree} passed, {differ} failed")
sys.exit(1 if differ else 0)
