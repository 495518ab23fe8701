#!/usr/bin/env python3
"""Sunrise and sunset by skyfield (JPL's DE421 ephemeris from `skyfield-data`), for SunReferenceTests.

    PYTHONPATH=.build/reference-python python3 scripts/sun_reference.py --tzdir /usr/share/zoneinfo < request.json

The request lists places and local dates:
    {"dates": ["2026-03-20", ...], "places": [{"id": 1, "latitude": -45.87, "longitude": 170.5, "zone": "Pacific/Auckland"}]}
For each place and date the answer gives the Sun's rising between the date's local midnights (the
day's bounds from Python's zoneinfo over the same zone files) and the setting that ends that
daylight, as Nimbus chooses them: the first rising of the day, and the first setting after it
(within a day, so past midnight where the summer night is short), else the day's first setting;
when the Sun neither rises nor sets that day, whether it stays up (polar day) or down:
    {"1": [[sunrise, sunset, "normal"], ...]}   (Unix seconds, null when the day has none)
The horizon is skyfield's standard one for the Sun (its centre 50′ below: refraction and its radius),
as NOAA's. Observers at sea level, no deflection.
"""

from __future__ import annotations

import json
import sys
import zoneinfo
from datetime import date, datetime, timedelta, timezone

import skyfield_reference
from skyfield import almanac
from skyfield.api import wgs84


def main() -> None:
    request, ts, eph = skyfield_reference.start()
    sun, earth = eph["sun"], eph["earth"]
    days = [date.fromisoformat(d) for d in request["dates"]]
    answer = {}
    for place in request["places"]:
        zone = zoneinfo.ZoneInfo(place["zone"])
        observer = earth + wgs84.latlon(place["latitude"], place["longitude"])
        bounds = []
        for d in days:
            start = datetime(d.year, d.month, d.day, tzinfo=zone)
            nxt = d + timedelta(days=1)
            end = datetime(nxt.year, nxt.month, nxt.day, tzinfo=zone)
            bounds.append((first_instant(start), first_instant(end)))
        t0 = ts.from_datetime(datetime.fromtimestamp(min(b[0] for b in bounds) - 86400, timezone.utc))
        t1 = ts.from_datetime(datetime.fromtimestamp(max(b[1] for b in bounds) + 86400, timezone.utc))
        rt, ry = almanac.find_risings(observer, sun, t0, t1)
        st, sy = almanac.find_settings(observer, sun, t0, t1)
        risings = [round(x.timestamp(), 3) for x, real in zip(rt.utc_datetime(), ry) if real]
        settings = [round(x.timestamp(), 3) for x, real in zip(st.utc_datetime(), sy) if real]
        rows = []
        for start, end in bounds:
            rise = next((t for t in risings if start <= t < end), None)
            if rise is not None:
                sets = next((t for t in settings if rise < t < rise + 86400), None)
            else:
                sets = next((t for t in settings if start <= t < end), None)
            if rise is None and sets is None:
                middle = ts.from_datetime(datetime.fromtimestamp((start + end) / 2, timezone.utc))
                altitude = observer.at(middle).observe(sun).apparent().altaz()[0].degrees
                rows.append([None, None, "allDay" if altitude > -50 / 60 else "allNight"])
            else:
                rows.append([rise, sets, "normal"])
        answer[str(place["id"])] = rows
    json.dump(answer, sys.stdout)


def first_instant(local: datetime) -> float:
    """The first instant at which the zone's clock reads `local` (midnight), or the end of a gap over it."""
    t = local.timestamp()  # fold=0: the earlier of two readings, or the instant after a gap
    back = datetime.fromtimestamp(t, local.tzinfo).replace(tzinfo=None)
    if back < local.replace(tzinfo=None):  # a gap: the clock jumped over midnight
        t += (local.replace(tzinfo=None) - back).total_seconds()
    return t


if __name__ == "__main__":
    main()
