"""The annotations file's YAML, read (stage 3, for generator.annotations.checker):
text -> a plain tree, every value with its line, so each problem names
file:line; plain YAML only (no alias, merge key or tag the format does not
use). The tree is plain data (``[line, value]`` pairs).
"""

from __future__ import annotations

from typing import Any

# Any: YAML values as the parser gives them, before any key is checked

import yaml

from ..errors import GeneratorError, Problem

try:  # libyaml is much faster; marks (line numbers) work the same
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML build
    _Loader = yaml.SafeLoader

# A tree: [line, value], value a scalar (str, int, float, bool, None), a list
# of trees or a dict of trees by key.
Tree = list[Any]

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
_SCALARS = (
    yaml.constructor.SafeConstructor()
)  # resolves tagged scalars (bool, int, str...)


def read_tree(text: str, file: str) -> Tree:
    """The annotations text as a tree; a YAML error, or anything the format
    does not use, is a GeneratorError naming the line."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except (
        yaml.reader.ReaderError
    ) as exc:  # a character YAML refuses: the line holding it
        at = text.count("\n", 0, max(text.find(chr(exc.character)), 0)) + 1
        raise GeneratorError(
            Problem(f"YAML syntax error: {exc.reason}", file, at)
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        raise GeneratorError(
            Problem(f"YAML syntax error: {reason}", file, line)
        ) from None
    except (
        RecursionError
    ):  # the pure-Python composer (no libyaml) recurses per level; libyaml stops at 1,000
        raise GeneratorError(_nested_too_deep(file, _too_deep(text))) from None
    problems: list[Problem] = []
    if root is None:
        return [1, {}]
    converted = _convert(root, problems, file, set())
    if problems:
        raise GeneratorError(
            list(dict.fromkeys(problems))
        )  # several aliases on one line: one message
    return converted


def _convert(
    node: yaml.Node,
    problems: list[Problem],
    file: str,
    seen: set[int],
    used_at: int | None = None,
    depth: int = 0,
) -> Tree:
    """The node as a tree. An alias is the same node object met again: it is
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
        return [line, None]
    seen.add(id(node))
    if depth > MAX_DEPTH:  # refused before Python's recursion limit is near
        problems.append(_nested_too_deep(file, line))
        return [line, None]
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
        return [line, None]
    if isinstance(node, yaml.MappingNode):
        return [line, _mapping(node, problems, file, seen, depth)]
    if isinstance(node, yaml.SequenceNode):
        return [
            line,
            [_convert(n, problems, file, seen, line, depth + 1) for n in node.value],
        ]
    # the tag check above let only scalars through
    assert isinstance(node, yaml.ScalarNode)
    return [line, _scalar(node, problems, file, line)]


def _mapping(
    node: yaml.MappingNode,
    problems: list[Problem],
    file: str,
    seen: set[int],
    depth: int,
) -> dict[str, Tree]:
    """A mapping's entries as trees, each value with its key's line."""
    line = node.start_mark.line + 1
    out: dict[str, Tree] = {}
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
        key_line, key = _convert(key_node, problems, file, seen, line, depth + 1)
        if not isinstance(key, str):
            problems.append(
                Problem(f"keys must be strings, got {key!r}", file, key_line)
            )
            continue
        if key in out:
            problems.append(
                Problem(
                    f"duplicate key {key!r}",
                    file,
                    key_line,
                    hint=f"first given on line {out[key][0]}",
                )
            )
            continue
        value = _convert(value_node, problems, file, seen, key_line, depth + 1)
        out[key] = [key_line, value[1]]
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
