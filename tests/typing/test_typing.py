"""mypy --strict and pyright --strict: clean on the package and on user code,
and they catch every mistake in tests/typing/negative.py (lines marked '# E:')."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, golden_tree

TYPING = ROOT / "tests" / "typing"
BIN = Path(sys.executable).parent


def _marked_lines(path: Path) -> set[int]:
    return {i for i, line in enumerate(path.read_text().splitlines(), 1) if "# E:" in line}


def _mypy(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *targets],
        cwd=ROOT, capture_output=True, text=True,
    )


def _pyright(*targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "pyright"), "--project", str(ROOT), "--pythonpath", sys.executable, *targets],
        cwd=ROOT, capture_output=True, text=True,
    )


def test_mypy_strict_is_clean_on_package_and_usage():
    # the runtime as shipped (generator/shipped/runtime.py) and as copied into the package
    for targets in (("-p", "fleet_strategy"), ("tests/typing/usage.py",), ("generator/shipped/runtime.py",)):
        result = _mypy(*targets)
        assert result.returncode == 0, result.stdout


def test_pyright_strict_is_clean_on_package_and_usage():
    result = _pyright()  # [tool.pyright] in pyproject.toml: the package, the shipped runtime + usage.py, strict
    assert result.returncode == 0, result.stdout


def test_mypy_catches_every_negative_case():
    result = _mypy("tests/typing/negative.py")
    lines = {int(m) for m in re.findall(r"negative\.py:(\d+): error", result.stdout)}
    assert lines == _marked_lines(TYPING / "negative.py"), result.stdout


def test_pyright_catches_every_negative_case():
    result = _pyright("tests/typing/negative.py")
    lines = {int(m) for m in re.findall(r"negative\.py:(\d+):\d+ - error", result.stdout)}
    assert lines == _marked_lines(TYPING / "negative.py"), result.stdout


@pytest.mark.parametrize("case", sorted(p.name for p in (ROOT / "tests" / "goldens" / "cases").iterdir() if p.is_dir()))
def test_golden_packages_pass_mypy_strict(case, tmp_path):
    expected = golden_tree(ROOT / "tests" / "goldens" / "cases" / case / "expected", tmp_path / "tree")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "-p", f"golden_{case}"],
        cwd=expected, capture_output=True, text=True, env={"MYPYPATH": str(expected), "PATH": str(BIN)},
    )
    assert result.returncode == 0, result.stdout
