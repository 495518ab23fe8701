#!/usr/bin/env python3
"""Flinn-Engdahl region numbers by obspy's own code, for FlinnEngdahlReferenceTests.

    python3 scripts/feregion_reference.py --fetch            # the pinned obspy wheel into .build/reference-python/wheels
    python3 scripts/feregion_reference.py < points.json      # [[latitude, longitude], ...] -> [number, ...]

The module `obspy/geodetics/flinnengdahl.py` and its data are read out of the pinned wheel (the one
scripts/feregions.py builds Resources/feregions.tsv from, sha256 checked) into a temporary directory
and run there as they are (the module needs only the standard library), so the numbers come from
obspy's implementation over its own files, not from Nimbus's table.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import feregions  # noqa: E402  (the pin: package, version, wheel name, sha256)
import wheels  # noqa: E402

CACHE = Path(__file__).resolve().parent.parent / ".build" / "reference-python" / "wheels"


def wheel() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    cached = CACHE / feregions.WHEEL_NAME
    return wheels.fetch(feregions.PACKAGE, feregions.VERSION, feregions.WHEEL_NAME, feregions.WHEEL_SHA256, CACHE,
                        str(cached) if cached.exists() else None)


def main() -> None:
    path = wheel()
    if "--fetch" in sys.argv:
        print(path)
        return
    points = json.load(sys.stdin)
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name == "obspy/geodetics/flinnengdahl.py" or name.startswith("obspy/geodetics/data/"):
                    z.extract(name, tmp)
        spec = importlib.util.spec_from_file_location("flinnengdahl", Path(tmp) / "obspy/geodetics/flinnengdahl.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        fe = module.FlinnEngdahl()
        json.dump([fe.get_number(lon, lat) for lat, lon in points], sys.stdout)


if __name__ == "__main__":
    main()
