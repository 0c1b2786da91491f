"""Where a project's settings come from: the ``[tool.fleet-strategy-codegen]``
table of the nearest pyproject.toml (checked key by key), the project's root,
from which the generated headers name paths."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

# Any: pyproject.toml's values as tomllib gives them (checked per key)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .errors import GeneratorError, Problem
from .inputs.files import decode_utf8, read_input

CONFIG_TABLE = "fleet-strategy-codegen"

# The keys of [tool.fleet-strategy-codegen] and the types they take.
TABLE_KEYS: dict[str, tuple[type, ...]] = {
    "proto": (list, str),
    "proto_path": (list, str),
    "annotations": (str,),
    "out": (str,),
    "package": (str,),
    "fail-on-breaking": (bool,),
}
_KINDS = {list: "a list of strings", str: "a string", bool: "true or false"}


def project_defaults(start: Path) -> tuple[dict[str, Any], Path]:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if os.path.exists(
            candidate
        ):  # anything there but a regular file is refused, not skipped
            text = decode_utf8(
                read_input(candidate, "pyproject.toml"), candidate, "pyproject.toml"
            )
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise GeneratorError(
                    Problem(f"invalid TOML: {exc}", str(candidate))
                ) from None
            except RecursionError:  # tomllib recurses per level of nested arrays
                raise GeneratorError(
                    Problem("invalid TOML: nested too deeply", str(candidate))
                ) from None
            tool = data.get("tool", {})
            table = tool.get(CONFIG_TABLE) if isinstance(tool, dict) else None
            if table is not None:
                return _checked_table(table, candidate), folder
    return {}, start


def _checked_table(table: Any, where: Path) -> dict[str, Any]:
    name = f"[tool.{CONFIG_TABLE}]"
    if not isinstance(table, dict):
        raise GeneratorError(Problem(f"{name} must be a table", str(where)))
    problems = []
    for key, value in table.items():
        if key not in TABLE_KEYS:
            from .errors import (
                closest,
            )  # only on this error path: the fast check loads no stage

            guess = closest(key, list(TABLE_KEYS))
            hint = (
                f"did you mean {guess!r}?"
                if guess
                else f"valid: {', '.join(TABLE_KEYS)}"
            )
            problems.append(
                Problem(f"{name}: unknown key {key!r}", str(where), hint=hint)
            )
        elif not isinstance(value, TABLE_KEYS[key]) or (
            isinstance(value, list) and not all(isinstance(item, str) for item in value)
        ):
            kinds = " or ".join(_KINDS[kind] for kind in TABLE_KEYS[key])
            problems.append(
                Problem(f"{name}: {key} must be {kinds}, got {value!r}", str(where))
            )
    if problems:
        raise GeneratorError(problems)
    return {
        **table,
        **{
            key: [table[key]]
            for key in ("proto", "proto_path")
            if isinstance(table.get(key), str)
        },
    }


def project_root(out: Path) -> Path:
    """The folder a project's paths are relative to: the nearest one above
    the output folder holding pyproject.toml or .git (else the output
    folder's parent). Found from the output, not the working folder, so that
    the headers naming paths from it are the same from wherever the tool runs."""
    start = Path(os.path.normpath(out.absolute())).parent
    return next(
        (
            f
            for f in (start, *start.parents)
            if (f / "pyproject.toml").exists() or (f / ".git").exists()
        ),
        start,
    )
