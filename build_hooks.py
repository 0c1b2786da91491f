"""The wheel's build step (pyproject.toml, [tool.setuptools.cmdclass]): the
templates compiled by jinja2 into the wheel (generator/render/precompiled.py), so
an installed tool compiles none; nothing compiled is committed."""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout: it compiles in memory
        sys.path.insert(0, str(ROOT))
        try:
            from generator.render.precompiled import PACKAGE, write_package
        finally:
            sys.path.remove(str(ROOT))
        write_package(
            ROOT / "templates",
            Path(self.build_lib) / "fleet_strategy_codegen" / "render" / PACKAGE,
        )
