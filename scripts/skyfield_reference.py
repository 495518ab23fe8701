"""What the skyfield reference scripts (sun_reference.py, twilight_reference.py) share: the request on
standard input, the zone database named by --tzdir, and JPL's DE421 ephemeris from `skyfield-data`
(bundled in the wheel: nothing is downloaded)."""
from __future__ import annotations

import argparse
import json
import sys
import warnings
import zoneinfo

warnings.simplefilter("ignore")  # skyfield-data's Earth orientation file "expired": not used for this

from skyfield.api import Loader  # noqa: E402
import skyfield_data  # noqa: E402


def start():
    """Reads `--tzdir` and the JSON request; returns (request, timescale, ephemeris)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--tzdir", required=True)
    args = parser.parse_args()
    request = json.load(sys.stdin)
    zoneinfo.reset_tzpath([args.tzdir])
    load = Loader(skyfield_data.get_skyfield_data_path())
    return request, load.timescale(builtin=True), load("de421.bsp")
