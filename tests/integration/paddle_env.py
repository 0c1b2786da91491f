"""What the Paddle integration tests share: the interpreters with
``paddlepaddle==3.3.1`` (fixtures over them: conftest.py), and running a
case of ``fleet_cases.py`` or a group of ``paddle_probes.py``."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from forked import Server, unwrap

ROOT = Path(__file__).resolve().parents[2]
CASES_SCRIPT = Path(__file__).with_name("fleet_cases.py")
PROBES = Path(__file__).with_name("paddle_probes.py")

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


_results: dict[tuple[str, str, str, str], dict[str, object]] = {}
_servers: dict[tuple[str, str, str], Server] = {}
atexit.register(lambda: [server.close() for server in _servers.values()])


def run(python: str, overlay: Path, case: str, build: str) -> dict[str, object]:
    """One case with one class: ``paddle`` (pristine), ``standalone`` or
    ``overlay`` (the Paddle build overlaid: ``overlay`` first on PYTHONPATH).
    The cases of one class and PYTHONPATH share one process that imports
    Paddle once and forks each case (forked.py)."""
    path = str(overlay) if build == "overlay" else str(ROOT / "generated")
    key = (python, case, build, path)
    if key not in _results:
        which = "standalone" if build == "standalone" else "paddle"
        if (python, which, path) not in _servers:
            env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
            env.pop("FLAGS_fuse_parameter_memory_size", None)
            _servers[python, which, path] = Server(python, CASES_SCRIPT, [which], env)
        _results[key] = unwrap(_servers[python, which, path].ask(case), f"{case} with {build}")
    return _results[key]


_probed: dict[tuple[str, ...], dict[str, Any]] = {}


def probe(python: str, installed: Path, group: str, pythonpath: str, *flags: str) -> dict[str, Any]:
    """One group of paddle_probes.py: ``pythonpath`` first on PYTHONPATH (an overlay, or nothing for
    Paddle as installed in ``installed``), ``flags`` for the interpreter (``-O``)."""
    key = (python, group, pythonpath, *flags)
    if key not in _probed:
        env = {**os.environ, "PYTHONPATH": pythonpath, "PYTHONHASHSEED": "0",
               "PADDLE_PRISTINE_MODULE": str(installed / "distributed" / "fleet" / "base" / "distributed_strategy.py")}
        done = subprocess.run([python, *flags, str(PROBES), group], capture_output=True, text=True, env=env, timeout=600)
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        assert done.returncode == 0 and lines, f"{group} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        _probed[key] = json.loads(lines[-1][len("RESULT "):])
    return _probed[key]
