"""The annotations file as YAML (stage 3, generator.annotations): every value
with its line, so each problem names file:line; plain YAML only (no alias,
merge key or tag the format does not use); and the checker that collects
problems, mapping by mapping, against the format's declared keys."""

from __future__ import annotations

import difflib
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from .annotation_notes import Key
from .errors import GeneratorError, Problem
from .inputs import decode_utf8, read_input

try:  # libyaml is much faster; marks (line numbers) work the same
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML build
    _Loader = yaml.SafeLoader


class _Node:
    """A loaded YAML value with its line, for precise error messages."""

    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line


_YAML = "tag:yaml.org,2002:"
# the types the annotations are written in (JSON's): any other tag, explicit
# (!foo, !!python/name:...) or resolved (a date, a merge key), is refused
_SCALAR_TAGS = frozenset(
    _YAML + name for name in ("str", "int", "float", "bool", "null")
)
_COLLECTION_TAGS: dict[type[yaml.Node], str] = {
    yaml.MappingNode: _YAML + "map",
    yaml.SequenceNode: _YAML + "seq",
}
MAX_DEPTH = (
    50  # nested mappings and lists; the deepest key of the format is 6 levels down
)
MAX_DIGITS = (
    4300  # an integer's digits, as Python's default limit on int(str) on every version
)
_PLAIN_YAML = "write plain YAML: strings, numbers, booleans, null, lists and mappings; quote a value to make it text"


def _convert(
    node: yaml.Node,
    problems: list[Problem],
    file: str,
    seen: set[int],
    used_at: int | None = None,
    depth: int = 0,
) -> _Node:
    """The node as _Nodes. An alias is the same node object met again: it is
    refused, not expanded, so a few hundred bytes of nested aliases (a "billion
    laughs" file) cost no more than their own size. ``used_at``: the line of
    the key or list holding ``node``, where an alias is written."""
    line = node.start_mark.line + 1
    if id(node) in seen:
        problems.append(
            Problem(
                "YAML aliases (*name) are not supported in the annotations file; write the value out",
                file,
                used_at or line,
                hint=f"its anchor is on line {line}",
            )
        )
        return _Node(None, line)
    seen.add(id(node))
    if depth > MAX_DEPTH:  # refused before Python's recursion limit is near
        problems.append(_nested_too_deep(file, line))
        return _Node(None, line)
    expected = _COLLECTION_TAGS.get(type(node))
    if node.tag != expected if expected else node.tag not in _SCALAR_TAGS:
        shown = (
            "!!" + node.tag.removeprefix(_YAML)
            if node.tag.startswith(_YAML)
            else node.tag
        )
        problems.append(
            Problem(
                f"the YAML type {shown} is not supported in the annotations file",
                file,
                line,
                hint=_PLAIN_YAML,
            )
        )
        return _Node(None, line)
    if isinstance(node, yaml.MappingNode):
        return _Node(_mapping(node, problems, file, seen, depth), line)
    if isinstance(node, yaml.SequenceNode):
        return _Node(
            [_convert(n, problems, file, seen, line, depth + 1) for n in node.value],
            line,
        )
    # the tag check above let only scalars through
    assert isinstance(node, yaml.ScalarNode)
    return _Node(_scalar(node, problems, file, line), line)


def _mapping(
    node: yaml.MappingNode,
    problems: list[Problem],
    file: str,
    seen: set[int],
    depth: int,
) -> dict[str, _Node]:
    """A mapping's entries as _Nodes, each value with its key's line."""
    line = node.start_mark.line + 1
    out: dict[str, _Node] = {}
    for key_node, value_node in node.value:
        if key_node.tag == _YAML + "merge":
            problems.append(
                Problem(
                    "YAML merge keys (<<) are not supported in the annotations file; write the keys out",
                    file,
                    key_node.start_mark.line + 1,
                )
            )
            continue
        key = _convert(key_node, problems, file, seen, line, depth + 1)
        if not isinstance(key.value, str):
            problems.append(
                Problem(f"keys must be strings, got {key.value!r}", file, key.line)
            )
            continue
        if key.value in out:
            problems.append(
                Problem(
                    f"duplicate key {key.value!r}",
                    file,
                    key.line,
                    hint=f"first given on line {out[key.value].line}",
                )
            )
            continue
        out[key.value] = _convert(value_node, problems, file, seen, key.line, depth + 1)
        out[key.value].line = key.line
    return out


def _nested_too_deep(file: str, line: int | None) -> Problem:
    return Problem(
        f"nested more than {MAX_DEPTH} levels deep",
        file,
        line,
        hint="the annotations never need that",
    )


def _scalar(
    node: yaml.ScalarNode, problems: list[Problem], file: str, line: int
) -> Any:
    """A scalar's value (str, int, float, bool or None); an unreadable one is a problem."""
    if (
        node.tag == _YAML + "int" and len(node.value) > MAX_DIGITS
    ):  # int() of it would be refused, or take minutes
        problems.append(
            Problem(
                f"an integer of {len(node.value)} digits is too long (at most {MAX_DIGITS})",
                file,
                line,
            )
        )
        return None
    try:
        return _SCALARS.construct_object(node, deep=True)
    except (
        ValueError,
        KeyError,
        yaml.YAMLError,
    ):  # an explicit tag on text it does not fit: !!bool maybe
        text = node.value if len(node.value) <= 40 else node.value[:40] + "..."
        problems.append(
            Problem(
                f"cannot read {text!r} as !!{node.tag.removeprefix(_YAML)}",
                file,
                line,
                hint=_PLAIN_YAML,
            )
        )
        return None


_SCALARS = (
    yaml.constructor.SafeConstructor()
)  # resolves tagged scalars (bool, int, str...)


def _too_deep(text: str) -> int | None:
    """The line of the first collection nested deeper than MAX_DEPTH (the
    event stream is read without recursion)."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if depth > MAX_DEPTH and event.start_mark is not None:
                return int(event.start_mark.line) + 1
            depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _load_yaml(path: Path) -> _Node:
    text = decode_utf8(read_input(path, "annotations file"), path, "annotations file")
    try:
        root = yaml.compose(text, Loader=_Loader)
    except (
        yaml.reader.ReaderError
    ) as exc:  # a character YAML refuses: the line holding it
        at = text.count("\n", 0, max(text.find(chr(exc.character)), 0)) + 1
        raise GeneratorError(
            Problem(f"YAML syntax error: {exc.reason}", str(path), at)
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        raise GeneratorError(
            Problem(f"YAML syntax error: {reason}", str(path), line)
        ) from None
    except (
        RecursionError
    ):  # the pure-Python composer (no libyaml) recurses per level; libyaml stops at 1,000
        raise GeneratorError(_nested_too_deep(str(path), _too_deep(text))) from None
    problems: list[Problem] = []
    if root is None:
        return _Node({}, 1)
    converted = _convert(root, problems, str(path), set())
    if problems:
        raise GeneratorError(
            list(dict.fromkeys(problems))
        )  # several aliases on one line: one message
    return converted


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
