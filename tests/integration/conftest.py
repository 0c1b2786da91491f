"""Fixtures of the Paddle integration tests: per interpreter with
``paddlepaddle==3.3.1`` (paddle_env.py), its installed Paddle and the Paddle
build overlaid on it (built once a session)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from overlay import build_overlay  # noqa: E402
from paddle_env import INTERPRETERS, ROOT  # noqa: E402


@pytest.fixture(scope="session", params=INTERPRETERS, ids=[label for label, _, _ in INTERPRETERS])
def paddle_install(request: pytest.FixtureRequest) -> tuple[str, Path]:
    """(python, its installed paddle folder)."""
    _, python, installed = request.param
    return python, installed


@pytest.fixture(scope="session")
def paddle_python(paddle_install: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """(python, the folder to put first on PYTHONPATH for the overlaid Paddle build)."""
    python, installed = paddle_install
    overlay = tmp_path_factory.mktemp("overlay")
    build_overlay(installed, ROOT / "generated" / "paddle", overlay)
    return python, overlay
