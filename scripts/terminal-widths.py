#!/usr/bin/env python3
"""Write Tests/Reference/terminal-widths.tsv: how many columns a terminal advances for every Unicode
scalar, for the reference test of the app's widths (Tests/NimbusTerminalTests/TerminalWidthReferenceTests.swift).

    python3 scripts/terminal-widths.py                 # downloads the pinned wcwidth wheel (sha256 checked)
    python3 scripts/terminal-widths.py --wheel PATH    # an already downloaded wcwidth wheel

Two independent readers of the Unicode data, neither of them the app's:

- Python's own `unicodedata` (UCD 14.0 in Python 3.11, the version of the C library's tables that
  terminals on Debian 12 measure with) says which scalars a terminal cannot print with a known width:
  controls (Cc), surrogates (Cs), unassigned code points and noncharacters (Cn), and the line and
  paragraph separators (Zl, Zp), which terminals treat as nothing or as a break. Those are -1.
- the `wcwidth` package (Jeff Quast's, pinned; its tables taken at UCD 14.0.0 to match) gives every
  other scalar's columns: 0, 1 or 2.

Lines (tab-separated, one header line): the first and last scalar of a run (hex) and the width all of
the run has. Output is deterministic.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "Reference" / "terminal-widths.tsv"

WCWIDTH = ("wcwidth", "0.7.0", "wcwidth-0.7.0-py3-none-any.whl",
           "5d69154c429a82910e241c738cd0e2976fac8a2dd47a1a805f4afed1c0f136f2")
UNICODE = "14.0.0"
UNPRINTABLE = {"Cc", "Cs", "Cn", "Zl", "Zp"}


def width(wcwidth, cp: int) -> int:
    ch = chr(cp)
    if unicodedata.category(ch) in UNPRINTABLE:
        return -1
    return wcwidth.wcwidth(ch, unicode_version=UNICODE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", help="a downloaded wcwidth wheel")
    args = parser.parse_args()
    if unicodedata.unidata_version != UNICODE:
        sys.exit(f"this Python's unicodedata is UCD {unicodedata.unidata_version}, not {UNICODE} (use Python 3.11)")
    with tempfile.TemporaryDirectory() as work:
        wheel = wheels.fetch(*WCWIDTH, Path(work), args.wheel)
        sys.path.insert(0, str(wheel))  # a pure-Python wheel imports from the zip
        import wcwidth  # noqa: E402
        runs: list[tuple[int, int, int]] = []
        for cp in range(0x110000):
            w = width(wcwidth, cp)
            if runs and runs[-1][2] == w and runs[-1][1] == cp - 1:
                runs[-1] = (runs[-1][0], cp, w)
            else:
                runs.append((cp, cp, w))
    lines = [f"# columns a terminal advances per scalar: unicodedata {UNICODE} for what cannot be printed (-1), "
             f"wcwidth {WCWIDTH[1]} at {UNICODE} for the rest", "first\tlast\twidth"]
    lines += [f"{a:X}\t{b:X}\t{w}" for a, b, w in runs]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts: dict[int, int] = {}
    for a, b, w in runs:
        counts[w] = counts.get(w, 0) + b - a + 1
    print(f"{OUT.relative_to(ROOT)}: {len(runs)} runs; " + ", ".join(f"width {w}: {n}" for w, n in sorted(counts.items())))


if __name__ == "__main__":
    main()
