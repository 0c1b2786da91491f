"""The annotations file as YAML (stage 3, generator.annotations): every value
with its line, so each problem names file:line (read by yaml_reader); and the checker
that collects problems, mapping by mapping, against the format's declared keys."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .annotation_notes import Key
from .errors import Problem
from .inputs import decode_utf8, read_input


class _Node:
    """A loaded YAML value with its line, for precise error messages."""

    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line


def _load_yaml(path: Path) -> _Node:
    text = decode_utf8(read_input(path, "annotations file"), path, "annotations file")
    from .yaml_reader import read_tree  # deferred: PyYAML's import takes ~20 ms

    return _nodes(read_tree(text, str(path)))


def _nodes(tree: list[Any]) -> _Node:
    line, value = tree
    if isinstance(value, dict):
        return _Node({k: _nodes(v) for k, v in value.items()}, line)
    if isinstance(value, list):
        return _Node([_nodes(v) for v in value], line)
    return _Node(value, line)


# --------------------------------------------------------------- validation


def closest(
    name: str, choices: list[str] | tuple[str, ...] | set[str] | frozenset[str]
) -> str | None:
    match = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.6)
    return match[0] if match else None


class _Checker:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        # how a key's text is checked, by its declared ``check`` (annotation_notes.Key):
        # (node, where, key) -> the note's value; set by the loader
        self.checks: dict[str, Callable[[_Node, str, str], Any]] = {}

    def error(self, message: str, node: _Node | None, hint: str | None = None) -> None:
        self.problems.append(
            Problem(message, self.file, node.line if node else None, hint)
        )

    def unknown(
        self,
        what: str,
        name: str,
        node: _Node,
        valid: list[str] | tuple[str, ...] | set[str] | frozenset[str],
    ) -> None:
        guess = closest(name, valid)
        hint = (
            f"did you mean {guess!r}?"
            if guess
            else f"valid: {', '.join(sorted(valid)) or 'none'}"
        )
        self.error(f"unknown {what} {name!r}", node, hint)

    def mapping(
        self, node: _Node, where: str, allowed: Mapping[str, Any]
    ) -> dict[str, _Node]:
        """The keys of a mapping node that ``allowed`` declares (a Key each, or
        the YAML types), of the declared types; a value outside a key's choices
        is reported and kept (the note is not built: loading fails)."""
        if not isinstance(node.value, dict):
            self.error(
                f"{where}: expected a mapping, got {type(node.value).__name__}", node
            )
            return {}
        result: dict[str, _Node] = {}
        for name, child in node.value.items():
            if name not in allowed:
                self.unknown(f"key in {where}", name, child, list(allowed))
                continue
            declared = allowed[name] if isinstance(allowed[name], Key) else None
            expected = declared.types if declared is not None else allowed[name]
            if expected is not None and not isinstance(child.value, expected):
                names = (
                    expected.__name__
                    if isinstance(expected, type)
                    else " or ".join(t.__name__ for t in expected)
                )
                self.error(
                    f"{where}.{name}: expected {names}, got {type(child.value).__name__}",
                    child,
                )
                continue
            if (
                declared is not None
                and declared.choices
                and child.value not in declared.choices
            ):
                self.error(
                    f"{where}.{name} must be one of {', '.join(declared.choices)}",
                    child,
                )
            result[name] = child
        return result

    def values(
        self, given: Mapping[str, _Node], declared: Mapping[str, Key], where: str
    ) -> dict[str, Any]:
        """A note's values for the keys ``given`` (by the note's field names),
        each checked as declared; the keys left out take the note's defaults."""
        values: dict[str, Any] = {}
        for name, node in given.items():
            key = declared[name]
            check = self.checks[key.check] if key.check else None
            values[key.attribute or name] = (
                check(node, where, name) if check else node.value
            )
        return values
