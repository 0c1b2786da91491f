"""Helpers shared by the tests: run the pipeline into a temp folder, import it."""

from __future__ import annotations

import importlib
import itertools
import sys
from pathlib import Path
from types import ModuleType

from generator.output import apply, plan
from generator.pipeline import Options, Result, build

ROOT = Path(__file__).resolve().parent.parent
# What Paddle 3.3.1's class really does, recorded by running it (see its README).
REFERENCE = ROOT / "tests" / "reference" / "paddle-3.3.1"
_counter = itertools.count()


def unique_package(prefix: str = "gen") -> str:
    return f"{prefix}_{next(_counter)}"


def generate(
    out: Path,
    protos: list[Path],
    annotations: Path | None = None,
    package: str | None = None,
    proto_paths: tuple[Path, ...] = (),
) -> tuple[str, Result]:
    """Generate into ``out``; returns (package name, pipeline result)."""
    package = package or unique_package()
    options = Options(protos=tuple(protos), annotations=annotations, out=out, package=package, proto_paths=proto_paths)
    result = build(options)
    apply(plan(out, result.files, package))
    return package, result


def import_generated(out: Path, package: str) -> ModuleType:
    """Import a freshly generated package (each test uses its own name)."""
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    return importlib.import_module(package)
