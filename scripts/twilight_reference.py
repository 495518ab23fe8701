#!/usr/bin/env python3
"""Civil dawn, solar noon and civil dusk by skyfield (JPL's DE421 ephemeris from `skyfield-data`),
for OneLineFormatTests (the %D, %z and %d of `nimbus weather --format`).

    PYTHONPATH=.build/reference-python python3 scripts/twilight_reference.py --tzdir /usr/share/zoneinfo < request.json

The request lists places and local dates:
    {"dates": ["2026-03-20", ...], "places": [{"id": 1, "latitude": -45.87, "longitude": 170.5, "zone": "Pacific/Auckland"}]}
For each place and date the answer gives [dawn, noon, dusk] in Unix seconds, chosen as Nimbus
chooses them: the first civil dawn (the Sun's centre rising through 6 degrees below the horizon,
skyfield's dark_twilight_day) between the date's local midnights, the first dusk after it within
a day (past midnight in a short summer night), else the day's first dusk; the Sun's transit of the
meridian nearest the day's middle; null where the day has no such event:
    {"1": [[dawn, noon, dusk], ...]}
Observers at sea level. (astral, which wttr.in's Python version used, is 3 to 15 minutes off
skyfield where the Sun only just reaches 6 degrees below, such as Helsinki at midsummer.)
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
    days = [date.fromisoformat(d) for d in request["dates"]]
    answer = {}
    for place in request["places"]:
        zone = zoneinfo.ZoneInfo(place["zone"])
        position = wgs84.latlon(place["latitude"], place["longitude"])
        twilight = almanac.dark_twilight_day(eph, position)
        transit = almanac.meridian_transits(eph, eph["sun"], position)
        rows = []
        for d in days:
            start = datetime(d.year, d.month, d.day, tzinfo=zone).timestamp()
            nxt = d + timedelta(days=1)
            end = datetime(nxt.year, nxt.month, nxt.day, tzinfo=zone).timestamp()
            t0 = ts.from_datetime(datetime.fromtimestamp(start - 86400, timezone.utc))
            t1 = ts.from_datetime(datetime.fromtimestamp(end + 86400, timezone.utc))
            times, states = almanac.find_discrete(t0, t1, twilight)
            dawns, dusks = [], []
            for t, state in zip(times, states):
                before = twilight(t - 1 / 86400)
                if before == 2 and state >= 3:
                    dawns.append(t.utc_datetime().timestamp())
                elif before >= 3 and state == 2:
                    dusks.append(t.utc_datetime().timestamp())
            dawn = next((x for x in dawns if start <= x < end), None)
            if dawn is not None:
                dusk = next((x for x in dusks if dawn < x < dawn + 86400), None)
            else:
                dusk = next((x for x in dusks if start <= x < end), None)
            ttimes, tkinds = almanac.find_discrete(t0, t1, transit)
            middle = (start + end) / 2
            noons = [t.utc_datetime().timestamp() for t, kind in zip(ttimes, tkinds) if kind == 1]
            noon = min(noons, key=lambda x: abs(x - middle)) if noons else None
            rows.append([round(v, 3) if v is not None else None for v in (dawn, noon, dusk)])
        answer[str(place["id"])] = rows
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
