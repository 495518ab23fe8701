#!/usr/bin/env python3
"""Offsets of time zones read by Python's zoneinfo, for ZoneReferenceTests (Tests/NimbusDataTests).

    python3 scripts/zone_reference.py --tzdir /usr/share/zoneinfo < request.json > answer.json

The request names the zones and, per zone, instants (Unix seconds) to give offsets at:
    {"zones": ["Europe/Berlin", ...], "instants": {"Europe/Berlin": [1774746000, ...]}, "from": 1970, "to": 2038}
The answer gives, for every zone, each instant in [from, to) at which its UTC offset changes, found
here independently of Nimbus (the transitions Python's own TZif parser reads from the file, and
after the last of them a scan of every week with a bisection to the second, for the footer rule), and
the offsets one second before, at and one second after each of those and of the instants asked:
    {"version": "2025b", "zones": {"Europe/Berlin": {"transitions": [[t, before, at, after], ...],
                                                     "instants": [[t, before, at, after], ...]}},
     "missing": ["Zone/Unknown"]}
Only the standard library: zoneinfo (CPython's C implementation answers the offsets; its pure-Python
twin lists the file's transitions).
"""

from __future__ import annotations

import argparse
import calendar
import json
import sys
import zoneinfo
from datetime import datetime, timezone
from pathlib import Path
from zoneinfo import _zoneinfo as pure


def offset(zone: zoneinfo.ZoneInfo, t: int) -> int:
    return int(datetime.fromtimestamp(t, timezone.utc).astimezone(zone).utcoffset().total_seconds())


def transitions(zone: zoneinfo.ZoneInfo, path: Path, start: int, end: int) -> list[int]:
    found: set[int] = set()
    # The file's own transitions, as Python's pure-Python reader parses them.
    with open(path, "rb") as handle:
        twin = pure.ZoneInfo.from_file(handle, key=zone.key)
    found.update(t for t in twin._trans_utc if start <= t < end)
    # After the file's last transition the footer's rule decides (at most two changes a year, months
    # apart): every week from there is scanned, each change bisected to its second.
    step = 7 * 86400
    t = max(start, max(twin._trans_utc, default=start))
    before = offset(zone, t)
    while t < end:
        nxt = min(t + step, end)
        after = offset(zone, nxt)
        if after != before:
            low, high = t, nxt  # offset(low) == before, offset(high) != before
            while high - low > 1:
                mid = (low + high) // 2
                if offset(zone, mid) == before:
                    low = mid
                else:
                    high = mid
            found.add(high)
        t, before = nxt, after
    return sorted(u for u in found if offset(zone, u - 1) != offset(zone, u))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tzdir", required=True)
    args = parser.parse_args()
    request = json.load(sys.stdin)
    tzdir = Path(args.tzdir)
    zoneinfo.reset_tzpath([str(tzdir)])
    start = calendar.timegm((int(request.get("from", 1970)), 1, 1, 0, 0, 0))
    end = calendar.timegm((int(request.get("to", 2038)), 1, 1, 0, 0, 0))
    version = None
    zi = tzdir / "tzdata.zi"
    if zi.exists():
        first = zi.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        if first.startswith("# version "):
            version = first[len("# version "):].strip()
    answer: dict = {"version": version, "zones": {}, "missing": []}
    asked = request.get("instants", {})
    for key in request["zones"]:
        path = tzdir / key
        if not path.is_file():  # never the `tzdata` package's copy, which zoneinfo would fall back on
            answer["missing"].append(key)
            continue
        try:
            zone = zoneinfo.ZoneInfo.no_cache(key)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            answer["missing"].append(key)
            continue
        def triple(t: int) -> list[int]:
            return [t, offset(zone, t - 1), offset(zone, t), offset(zone, t + 1)]
        answer["zones"][key] = {
            "transitions": [triple(t) for t in transitions(zone, path, start, end)],
            "instants": [triple(int(t)) for t in asked.get(key, [])],
        }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
