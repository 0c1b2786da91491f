"""Constants and places every stage may need: the bottom of the import graph.

Stages import downward only (compile, schema, annotations, model, render,
format, output); ``pipeline`` chains them and only ``cli`` and ``plugin``
import it. What more than one of them needs lives here.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent
# black's majors the format stage accepts, as pyproject.toml's range: first,
# last + 1. The output is byte-identical on each (.ci/versions.sh proves it).
BLACK_MAJORS = (24, 27)
LINE_LENGTH = 100  # black's line length for generated code


def _templates_folder() -> Path:
    """The jinja2 templates. Installed, they are the package data
    ``fleet_strategy_codegen.templates``, a folder beside this module; run as
    ``python -m generator`` from a source checkout, whose package has no such
    subpackage, the checkout's top-level templates/ folder."""
    installed = GENERATOR / "templates"
    if installed.is_dir():
        return installed
    if (GENERATOR.parent / "templates").is_dir():
        return GENERATOR.parent / "templates"
    import importlib.resources  # an install that is not plain files (a zip)

    return Path(str(importlib.resources.files(f"{__package__}.templates")))


TEMPLATES = _templates_folder()


@functools.cache
def installed_version(distribution: str) -> str:
    """An installed distribution's version ("" without it), without importing it."""
    found = _dist_info_versions().get(_normalized(distribution))
    if found is not None:
        return found
    import importlib.metadata  # rare: an install without a .dist-info folder

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


@functools.cache
def _dist_info_versions() -> dict[str, str]:
    """Versions by normalized name, from the ``NAME-VERSION.dist-info`` folder
    names on sys.path, first entry first as importlib.metadata searches. Every
    run needs three versions; importing importlib.metadata instead puts the
    fast check over its budget (0.20-0.22x betterproto2 against 0.14-0.16x:
    docs/benchmarks.md)."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip, a missing folder
            continue
        for name in names:
            if name.endswith(".dist-info"):
                dist, _, version = name.removesuffix(".dist-info").partition("-")
                found.setdefault(_normalized(dist), version)
    return found


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def black_version() -> str:
    """The installed black's (the format stage requires one of BLACK_MAJORS)."""
    return installed_version("black")


def dependency_versions() -> str:
    """The versions of what the output is made with, within pyproject.toml's
    ranges (the output is the same on each; the fast check's memo is keyed by them)."""
    names = ("black", "grpcio-tools", "protobuf")
    return ", ".join(f"{name} {installed_version(name)}" for name in names)
