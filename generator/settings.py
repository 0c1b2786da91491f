"""Constants and places every stage may need: the bottom of the import graph.

Stages import downward only (compile, schema, annotations, model, render,
format, output); ``pipeline`` chains them and only ``cli`` and ``plugin``
import it. What more than one of them needs lives here.
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent
BLACK_VERSION_REQUIRED = "26.10.1"  # pinned in pyproject.toml; the style the output conforms to
LINE_LENGTH = 100  # black's line length for generated code


def _templates_folder() -> Path:
    """The jinja2 templates. Installed, they are the package data
    ``fleet_strategy_codegen.templates`` (found through importlib.resources);
    run as ``python -m generator`` from a source checkout, whose package has no
    such subpackage, the checkout's top-level templates/ folder."""
    try:
        return Path(str(importlib.resources.files(f"{__package__}.templates")))
    except ModuleNotFoundError:
        return GENERATOR.parent / "templates"


TEMPLATES = _templates_folder()


def cache_root() -> Path | None:
    """The user cache folder (None: disabled by FLEET_CODEGEN_NO_CACHE).

    Caches only ever save time: entries are keyed by everything that
    determines them, so a stale or corrupt entry cannot change the output.
    """
    if os.environ.get("FLEET_CODEGEN_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fleet-strategy-codegen"
