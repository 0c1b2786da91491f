"""What the Paddle integration tests share: the interpreters with
``paddlepaddle==3.3.1`` (fixtures over them: conftest.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_PROBE = (
    "import importlib.metadata as m, importlib.util as u, sys; "
    "print(m.version('paddlepaddle')); print(u.find_spec('paddle').submodule_search_locations[0]); print(sys.version_info[:2])"
)


def _interpreters() -> list[tuple[str, str, Path]]:
    """(label, python, installed paddle folder) of each usable Paddle 3.3.1:
    ``.venv-paddle-3.9`` and ``.venv-paddle-3.13`` (tests/integration/setup_paddle.sh),
    or the ``FLEET_PADDLE_PYTHONS`` list (os.pathsep-separated)."""
    listed = os.environ.get("FLEET_PADDLE_PYTHONS")
    candidates = listed.split(os.pathsep) if listed else [str(ROOT / f".venv-paddle-{v}" / "bin" / "python") for v in ("3.9", "3.13")]
    found = []
    for python in candidates:
        if not Path(python).exists():
            continue
        probe = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True)
        lines = probe.stdout.split("\n")
        if probe.returncode == 0 and lines[0] == "3.3.1":
            found.append((f"py{lines[2].strip('()').replace(', ', '.')}", python, Path(lines[1])))
    return found


INTERPRETERS = _interpreters()
requires_paddle = pytest.mark.skipif(not INTERPRETERS, reason="no Python with paddlepaddle==3.3.1: run tests/integration/setup_paddle.sh")
