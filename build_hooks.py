"""The wheel's build step (pyproject.toml, [tool.setuptools.cmdclass]): the
templates compiled by jinja2 into the wheel (generator/render/precompiled.py), so
an installed tool compiles none; nothing compiled is committed. An editable
install runs from the checkout, whose templates compile in memory: there the
step byte-compiles the checkout's modules, as pip does a wheel's when it
installs it, so that the first run after the install (README command 1 on a
fresh clone) compiles none of them (~0.1 s: docs/benchmarks.md)."""

from __future__ import annotations

import compileall
import sys
from pathlib import Path

from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            byte_compile(ROOT / "generator")
            return
        sys.path.insert(0, str(ROOT))
        try:
            from generator.render.precompiled import PACKAGE, write_package
        finally:
            sys.path.remove(str(ROOT))
        write_package(
            ROOT / "templates",
            Path(self.build_lib) / "fleet_strategy_codegen" / "render" / PACKAGE,
        )


def byte_compile(folder: Path) -> bool:
    """Each module's bytecode where Python itself keeps it (``__pycache__``,
    checked against the source at import, as for any module); whether all
    compiled."""
    return bool(compileall.compile_dir(folder, quiet=1))
