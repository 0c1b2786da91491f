"""The annotations file as YAML (stage 3, generator.annotations.load): every value
with its line, so each problem names file:line (read by yaml_reader); and the checker
that collects problems, mapping by mapping, against the format's declared keys."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

# Any: YAML values before each key's reader checks them

from ..errors import Problem, closest
from ..inputs.files import decode_utf8, read_input
from .keys import Key


class Node:
    """A loaded YAML value with its line, for precise error messages."""

    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line


def load_yaml(path: Path) -> Node:
    text = decode_utf8(read_input(path, "annotations file"), path, "annotations file")
    from .yaml_reader import read_tree  # deferred: PyYAML's import takes ~20 ms

    return _nodes(read_tree(text, str(path)))


def _nodes(tree: list[Any]) -> Node:
    line, value = tree
    if isinstance(value, dict):
        return Node({k: _nodes(v) for k, v in value.items()}, line)
    if isinstance(value, list):
        return Node([_nodes(v) for v in value], line)
    return Node(value, line)


# --------------------------------------------------------------- validation


def yaml_type(value: object) -> str:
    """A YAML value's type as messages name it (``null``, not ``NoneType``)."""
    return "null" if value is None else type(value).__name__


class Checker:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        # how a key's text is checked, by its declared ``check`` (keys.Key):
        # (node, where, key) -> the note's value; set by the loader
        self.checks: dict[str, Callable[[Node, str, str], Any]] = {}

    def error(self, message: str, node: Node | None, hint: str | None = None) -> None:
        self.problems.append(
            Problem(message, self.file, node.line if node else None, hint)
        )

    def unknown(
        self,
        what: str,
        name: str,
        node: Node,
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
        self, node: Node, where: str, allowed: Mapping[str, Any]
    ) -> dict[str, Node]:
        """The keys of a mapping node that ``allowed`` declares (a Key each, or
        the YAML types), of the declared types; a value outside a key's choices
        is reported and kept (the note is not built: loading fails)."""
        if not isinstance(node.value, dict):
            self.error(
                f"{where}: expected a mapping, got {yaml_type(node.value)}", node
            )
            return {}
        result: dict[str, Node] = {}
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
                    f"{where}.{name}: expected {names}, got {yaml_type(child.value)}",
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
        self, given: Mapping[str, Node], declared: Mapping[str, Key], where: str
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
