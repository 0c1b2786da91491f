"""The generated packages run on Python 3.9 (Paddle 3.3.1's oldest): no newer syntax.

The integration tests import and run them on a real 3.9; this is the quick
check the main suite makes on every run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import ROOT

# the committed trees (not build/, where an editable install keeps its links)
FILES = sorted(
    p for p in (ROOT / "generated").rglob("*.py")
    if "__pycache__" not in p.parts and p.relative_to(ROOT / "generated").parts[0] != "build"
)


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT / "generated").as_posix() for p in FILES])
def test_parses_as_python_3_9(path: Path) -> None:
    ast.parse(path.read_text(encoding="utf-8"), filename=str(path), feature_version=(3, 9))


def test_every_build_is_covered() -> None:
    assert {p.relative_to(ROOT / "generated").parts[0] for p in FILES} == {"fleet_strategy", "paddle"}
