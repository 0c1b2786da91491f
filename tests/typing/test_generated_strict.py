"""The generated code itself is strict-clean, as a user's linters see it:
ruff's unused-import (F401) and import-order (I001) rules on both builds, every
golden package and fuzzed schemas; pyright --strict on every golden package,
an extension read through ``msg.Extensions[ext]`` included, and pyright and
mypy --strict on fuzzed schemas (mypy --strict on the goldens: test_typing.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from generator.settings import LINE_LENGTH
from tests.fuzz.test_fuzz_schemas import Schema, proto_text, schemas
from tests.support import ROOT, generate, golden_tree, unique_package

BIN = Path(sys.executable).parent
CASES = sorted(
    p.name for p in (ROOT / "tests" / "goldens" / "cases").iterdir() if p.is_dir()
)
# an extension's value read and written as typed as the stubs type it (mypy-protobuf's _ExtensionFieldDescriptor)
EXTENSION_USAGE = """\
from typing_extensions import assert_type

from golden_extensions_and_options import options_pb2

base = options_pb2.Base()
base.Extensions[options_pb2.label] = "shown"
base.Extensions[options_pb2.Holder.weight] = 3
assert_type(base.Extensions[options_pb2.label], str)
assert_type(base.Extensions[options_pb2.Holder.weight], int)
"""


def ruff(folder: Path, *first_party: str) -> subprocess.CompletedProcess[str]:
    """ruff's F401 and I001 at the generated code's line length, run where a
    user's project would run it: the package's top-level name is first-party."""
    known = ", ".join(json.dumps(name) for name in first_party)
    return subprocess.run(
        [
            str(BIN / "ruff"),
            "check",
            "--isolated",
            "--no-cache",
            "--select",
            "F401,I001",
            "--line-length",
            str(LINE_LENGTH),
            "--config",
            f"lint.isort.known-first-party = [{known}]",
            "--output-format",
            "concise",
            ".",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def goldens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every golden case's complete tree, one folder each."""
    root = tmp_path_factory.mktemp("goldens")
    for case in CASES:
        golden_tree(
            ROOT / "tests" / "goldens" / "cases" / case / "expected", root / case
        )
    return root


def test_ruff_finds_the_problems_it_is_asked_for(tmp_path: Path) -> None:
    """The check can fail: an unused import and an unsorted block are reported."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "m.py").write_text("import sys\nimport os\n\nprint(sys)\n")
    result = ruff(tmp_path, "pkg")
    assert "F401" in result.stdout and "I001" in result.stdout, result.stdout


@pytest.mark.parametrize("case", CASES)
def test_golden_packages_are_ruff_clean(goldens: Path, case: str) -> None:
    result = ruff(goldens / case, f"golden_{case}")
    assert result.returncode == 0, result.stdout + result.stderr


def test_both_builds_are_ruff_clean() -> None:
    """generated/: the standalone package and the Paddle build (its modules import paddle.*)."""
    result = ruff(ROOT / "generated", "fleet_strategy", "paddle")
    assert result.returncode == 0, result.stdout + result.stderr


def test_fuzzed_schemas_generate_strict_clean_packages(tmp_path: Path) -> None:
    """Random schemas (two files, well-known types, extensions, hostile field
    names such as ``_message`` or ``__init__``): ruff, mypy --strict and
    pyright --strict find nothing in what they generate."""
    packages: list[str] = []

    @settings(
        max_examples=8,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(schema=schemas(("proto2", "proto3"), files=2, wkt=True, extensions=True))
    def generate_one(schema: Schema) -> None:
        package = unique_package("rf")
        folder = tmp_path / "in" / package
        for d in schema.files:
            (folder / d.name).parent.mkdir(parents=True, exist_ok=True)
            (folder / d.name).write_text(proto_text(d), encoding="utf-8")
        generate(
            tmp_path / "out",
            [folder / d.name for d in schema.files],
            None,
            package,
            proto_paths=(folder,),
        )
        packages.append(package)

    generate_one()
    out = tmp_path / "out"
    result = ruff(out, *packages)
    assert result.returncode == 0, result.stdout + result.stderr
    packages_args = [arg for p in packages for arg in ("-p", p)]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *packages_args],
        cwd=out,
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(out), "PATH": str(BIN)},
    )
    assert result.returncode == 0, result.stdout
    (out / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.10"})
    )
    result = subprocess.run(
        [str(BIN / "pyright"), "--project", str(out), "--pythonpath", sys.executable],
        cwd=out,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_strict_is_clean_on_every_golden_package(goldens: Path) -> None:
    (goldens / "extensions_and_options" / "extension_usage.py").write_text(
        EXTENSION_USAGE
    )
    config = {
        "typeCheckingMode": "strict",
        "pythonVersion": "3.10",
        "include": CASES,
        "extraPaths": CASES,
    }
    (goldens / "pyrightconfig.json").write_text(json.dumps(config))
    result = subprocess.run(
        [
            str(BIN / "pyright"),
            "--project",
            str(goldens),
            "--pythonpath",
            sys.executable,
        ],
        cwd=goldens,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_mypy_strict_types_extensions_as_their_values(goldens: Path) -> None:
    tree = goldens / "extensions_and_options"
    (tree / "extension_usage.py").write_text(EXTENSION_USAGE)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "extension_usage.py",
        ],
        cwd=tree,
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(tree), "PATH": str(BIN)},
    )
    assert result.returncode == 0, result.stdout
