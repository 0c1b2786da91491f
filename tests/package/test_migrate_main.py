"""``python -m PKG migrate`` in generated packages other than Paddle's: the
annotated golden case (old names ``threads`` and ``max_basket``, and lint
rules: one ``__main__`` serves every command), a package with old names and
no rules (``__main__`` holds schema and migrate, no lint), and one with neither
(``__main__`` holds schema alone: every package has its JSON Schemas)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, generate, golden_tree


def run(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(out)}
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=env, cwd=out, timeout=120)


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return golden_tree(ROOT / "tests" / "goldens" / "cases" / "annotated" / "expected", tmp_path_factory.mktemp("mig"))


def test_the_annotated_case_migrates_and_still_lints(annotated: Path) -> None:
    config = annotated / "shop.yaml"
    config.write_text("open: true\nthreads: 3      # workers, once\ncheckout:\n  max_basket: 9\n")
    check = run(annotated, "golden_annotated", "migrate", "--check", str(config))
    assert check.returncode == 1, check.stderr
    assert check.stdout.splitlines() == [
        f"{config}:2:1: uses the old name 'threads' -> 'workers' (workers, renamed in 1.2)",
        f"{config}:4:3: uses the old name 'max_basket' -> 'max_items' (checkout.max_items, renamed in 1.1)",
    ]
    assert run(annotated, "golden_annotated", "migrate", str(config)).returncode == 0
    assert config.read_text() == "open: true\nworkers: 3      # workers, once\ncheckout:\n  max_items: 9\n"
    saved = annotated / "shop.prototxt"
    saved.write_text("open: true\n")
    assert run(annotated, "golden_annotated", "lint", str(saved)).returncode == 0


def test_old_names_without_rules_get_a_main_without_lint(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "kiosk.proto").write_text(
        'syntax = "proto3";\npackage kiosk;\nmessage Kiosk {\n  int32 screens = 1;\n  Till till = 2;\n}\nmessage Till {\n  int32 drawers = 1;\n}\n'
    )
    (source / "kiosk.yaml").write_text(
        'version: "2.0"\nmessages:\n  kiosk.Till:\n    fields:\n      drawers:\n        renamed_from: {boxes: "2.0"}\n'
    )
    out = tmp_path / "out"
    package, _ = generate(out, [source / "kiosk.proto"], source / "kiosk.yaml", package="kiosk_pkg")
    assert (out / package / "__main__.py").exists() and not (out / package / "lint.py").exists()
    config = tmp_path / "kiosk.json"
    config.write_text('{"screens": 2, "till": {"boxes": 3}}\n')
    done = run(out, package, "migrate", str(config))
    assert done.returncode == 0, done.stderr
    assert config.read_text() == '{"screens": 2, "till": {"drawers": 3}}\n'
    assert f"{config}:1:25: renamed 'boxes' -> 'drawers' (till.drawers, renamed in 2.0)" in done.stdout
    other = run(out, package, "lint", str(config))
    assert other.returncode == 2 and "invalid choice: 'lint' (choose from 'schema', 'migrate')" in other.stderr


def test_no_old_names_and_no_rules_a_main_of_schema_alone(tmp_path: Path) -> None:
    source = tmp_path / "plain.proto"
    source.write_text('syntax = "proto3";\npackage plain;\nmessage Plain {\n  int32 a = 1;\n}\n')
    out = tmp_path / "out"
    package, _ = generate(out, [source], package="plain_pkg")
    printed = run(out, package, "schema")
    assert printed.returncode == 0, printed.stderr
    assert '"title": "Plain"' in printed.stdout or '"plain.Plain"' in printed.stdout
    for command in ("lint", "migrate"):
        refused = run(out, package, command, "x.yaml")
        assert refused.returncode == 2 and f"invalid choice: {command!r}" in refused.stderr, refused.stderr
