#!/usr/bin/env python3
"""Write Tests/Reference/east-asian-ambiguous.tsv: the scalars Unicode's East Asian Width property
calls Ambiguous ("A"), which a terminal set for CJK users (VTE's, iTerm2's and Windows Terminal's
"ambiguous-width characters are wide") draws two columns wide, where tmux and wcwidth draw one.

    python3 scripts/east-asian-ambiguous.py

Read from Python's own `unicodedata` (UCD 14.0 in Python 3.11, the version of the other reference
tables), not from the app's tables. Lines (tab-separated, one header line): the first and last
scalar of a run (hex). Output is deterministic.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "Tests" / "Reference" / "east-asian-ambiguous.tsv"


def main() -> int:
    if unicodedata.unidata_version != "14.0.0":
        print(f"unicodedata is {unicodedata.unidata_version}, the tables are of 14.0.0", file=sys.stderr)
        return 1
    runs: list[tuple[int, int]] = []
    for v in range(0x110000):
        if 0xD800 <= v <= 0xDFFF or unicodedata.east_asian_width(chr(v)) != "A":
            continue
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    lines = [f"# East Asian Width = A, unicodedata {unicodedata.unidata_version}", "first\tlast"]
    lines += [f"{a:X}\t{b:X}" for a, b in runs]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{len(runs)} runs, {sum(b - a + 1 for a, b in runs)} scalars -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
