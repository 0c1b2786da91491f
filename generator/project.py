"""Where a project's settings come from: the ``[tool.fleet-strategy-codegen]``
table of the nearest pyproject.toml (checked against the option table,
generator.options), and the project's root, from which the generated
headers name paths."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Any: pyproject.toml's values as tomllib gives them (checked per key)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .errors import GeneratorError, Problem
from .inputs.files import decode_utf8, read_input
from .options import CONFIG_TABLE, Config, check_table


def find_config(start: Path) -> Config:
    """The table of the nearest pyproject.toml holding one, at ``start`` or
    above (a pyproject.toml without the table is passed by); an empty Config
    naming where it looked when there is none."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if os.path.exists(
            candidate
        ):  # anything there but a regular file is refused, not skipped
            table = _table(candidate)
            if table is not None:
                return Config(check_table(table, candidate), candidate, (start,))
    return Config({}, None, (start,))


def _table(file: Path) -> object | None:
    text = decode_utf8(read_input(file, "pyproject.toml"), file, "pyproject.toml")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GeneratorError(Problem(f"invalid TOML: {exc}", str(file))) from None
    except RecursionError:  # tomllib recurses per level of nested arrays
        raise GeneratorError(
            Problem("invalid TOML: nested too deeply", str(file))
        ) from None
    tool = data.get("tool", {})
    return tool.get(CONFIG_TABLE) if isinstance(tool, dict) else None


def output_config(out: Path) -> Config | None:
    """The table that governs the output folder: the one ``generate`` run in
    the output's project would use (found from the output, never from the
    working folder); None when there is none, or it is unreadable (then it
    governs nothing this run can claim)."""
    try:
        config = find_config(spelled(out).parent)
    except GeneratorError:
        return None
    return config if config.file is not None else None


def spelled(path: Path) -> Path:
    """``path`` made absolute and normalised without resolving links: ``.``
    dropped, and ``x/..`` dropped only where ``x`` is a real folder. After a
    link, ``..`` is kept: the system takes it from the link's target, so
    ``link/../x`` is not ``x``."""
    parts: list[str] = []
    # not os.path.abspath: it drops every "..", links or not
    absolute = path if path.is_absolute() else Path(os.getcwd(), *path.parts)
    anchor, *rest = absolute.parts
    for part in rest:
        if part in ("", "."):
            continue
        if part == ".." and parts and parts[-1] != "..":
            if not os.path.islink(os.path.join(anchor, *parts)):
                parts.pop()
                continue
        parts.append(part)
    return Path(anchor, *parts)


def project_root(out: Path) -> Path:
    """The folder a project's paths are relative to: the nearest one above
    the output folder holding pyproject.toml or .git (else the output
    folder's parent). Found from the output, not the working folder, so that
    the headers naming paths from it are the same from wherever the tool runs."""
    start = spelled(out).parent
    return next(
        (
            f
            for f in (start, *start.parents)
            if (f / "pyproject.toml").exists() or (f / ".git").exists()
        ),
        start,
    )
