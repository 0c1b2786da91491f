"""The maintainer's path: ``python -m generator patch`` writes the Paddle build
as a diff against a Paddle source tree (paths ``python/paddle/...``). Here the
tree is a scratch git repository holding the installed Paddle's
``distributed/fleet/base`` files at those paths: the diff applies with
``git apply``, leaves exactly the generated files, applies to nothing once
applied, and the patched files pass the fleet cases and the module probes as
the overlay does."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from overlay import build_overlay
from paddle_env import ROOT, probe, requires_paddle, run

pytestmark = requires_paddle
BASE = Path("distributed") / "fleet" / "base"
CASES = ["surface", "static_amp", "static_recompute", "dygraph", "build_strategy", "enable_env"]


def _git(tree: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tree, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _patch(tree: Path, output: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "patch", "--tree", str(tree), "--prefix", "python", "--output", str(output)],
        cwd=ROOT, capture_output=True, text=True,
    )


@pytest.fixture(scope="module")
def patched(paddle_install: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """(python, installed paddle, the patched tree's python/ folder)."""
    python, installed = paddle_install
    tree = tmp_path_factory.mktemp("paddle-tree")
    base = tree / "python" / "paddle" / BASE
    base.mkdir(parents=True)
    for source in (installed / BASE).glob("*.py"):
        shutil.copy(source, base / source.name)
    _git(tree, "init", "-q")
    _git(tree, "add", "-A")
    _git(tree, "commit", "-qm", "Paddle 3.3.1 as installed")
    diff = tree.parent / f"{tree.name}.patch"
    made = _patch(tree, diff)
    # every file of the build is new but the class module, which replaces Paddle's
    new = sum(1 for p in (ROOT / "generated" / "paddle").rglob("*") if p.is_file() and "__pycache__" not in p.parts) - 1
    assert made.returncode == 0 and f"paddle): {new} new, 1 changed" in made.stderr, made.stderr
    _git(tree, "apply", "--check", str(diff))
    _git(tree, "apply", str(diff))
    return python, installed, tree


def test_the_patch_applies_and_leaves_the_generated_files(patched):
    _, _, tree = patched
    status = _git(tree, "status", "--porcelain", "--untracked-files=all").splitlines()
    generated = sorted(  # the modules and the JSON Schemas beside them
        p.relative_to(ROOT / "generated").as_posix()
        for p in (ROOT / "generated" / "paddle").rglob("*")
        if p.suffix == ".py" or p.name.endswith(".schema.json")
    )
    assert sorted(line[3:] for line in status) == sorted(f"python/{p}" for p in generated)
    assert [line[:2] for line in status].count(" M") == 1  # Paddle's module replaced, the rest added
    for relative in generated:
        assert (tree / "python" / relative).read_bytes() == (ROOT / "generated" / relative).read_bytes(), relative
    again = _patch(tree, tree.parent / "again.patch")
    assert again.returncode == 0 and (tree.parent / "again.patch").read_text() == ""
    assert "nothing to change" in again.stderr


@pytest.fixture(scope="module")
def patched_overlay(patched, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The patched files overlaid on the installed Paddle."""
    _, installed, tree = patched
    overlay = tmp_path_factory.mktemp("patched-overlay")
    build_overlay(installed, tree / "python" / "paddle", overlay)
    return overlay


@pytest.mark.parametrize("case", CASES)
def test_fleet_gives_paddles_results_with_the_patched_tree(patched, patched_overlay, case):
    python, _, _ = patched
    assert run(python, patched_overlay, case, "overlay") == run(python, patched_overlay, case, "paddle")


def test_the_patched_module_behaves_as_paddles(patched, patched_overlay):
    python, installed, _ = patched
    assert probe(python, installed, "module", str(patched_overlay)) == probe(python, installed, "module", "")
