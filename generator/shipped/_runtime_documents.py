# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""Reading JSON and YAML text into documents (plain data) that remember
where each value is, within fixed bounds (``_runtime_files`` defines them
and turns documents into messages).

JSON goes through the standard library's own decoder (its pure-Python
scanner, whose object and array steps are wrapped to record each value's
offset); YAML through PyYAML's safe loader, composed into nodes (which carry
their marks) and turned into data here: no tag is ever constructed but the
core schema's, and aliases are expanded against a budget. Duplicate keys are
problems in both."""

from __future__ import annotations

import bisect
from typing import Any, Final, NamedTuple, Union

from ._runtime_configs import MAX_DEPTH
from ._runtime_files import (
    MAX_DOCUMENT_NODES,
    ConfigError,
    ConfigProblem,
    Document,
    Path,
    display_path,
)
from ._runtime_specs import is_repeated

# nesting a document may have: a message MAX_DEPTH levels deep, each level
# possibly a map (2 levels of a document) and a list
_MAX_NESTING: Final = 3 * MAX_DEPTH


class _TooMuch(Exception):
    """Stops a reader: too many values or nested too deep."""

    def __init__(self, code: str, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.offset = offset


def _nodes_exceeded() -> _TooMuch:
    return _TooMuch("too_large", f"more than {MAX_DOCUMENT_NODES} values")


def _too_deep() -> _TooMuch:
    return _TooMuch("too_deep", f"nested more than {_MAX_NESTING} levels deep")


class _Lines:
    """Offsets in a text -> (line, column), both 1-based."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        position = text.find("\n")
        while position >= 0:
            self.starts.append(position + 1)
            position = text.find("\n", position + 1)

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


# -- JSON ---------------------------------------------------------------------


class _JObject(NamedTuple):
    pairs: list[tuple[str, Any, int]]  # key, value, the value's offset


class _JArray(NamedTuple):
    items: list[tuple[Any, int]]


def read_json(name: str, text: str) -> Document:
    """The JSON document of ``text`` (the file ``name``)."""
    import json
    import json.decoder
    import json.scanner

    # the pure-Python steps of the standard decoder (stable since Python 2.7;
    # not in typeshed's stubs)
    make_scanner: Any = getattr(json.scanner, "py_make_scanner")
    parse_object: Any = getattr(json.decoder, "JSONObject")
    parse_array: Any = getattr(json.decoder, "JSONArray")

    counter = [0]

    def counted(scan_once: Any, offsets: list[int]) -> Any:
        def scan(string: str, index: int) -> Any:
            counter[0] += 1
            if counter[0] > MAX_DOCUMENT_NODES:
                raise _nodes_exceeded()
            offsets.append(index)
            return scan_once(string, index)

        return scan

    class Decoder(json.JSONDecoder):
        def __init__(self) -> None:
            super().__init__()  # NaN, Infinity: floats, which the fields then refuse
            self.parse_object = self._object
            self.parse_array = self._array
            self.scan_once = make_scanner(self)
            self.depth = 0

        def _object(self, s_and_end: Any, strict: bool, scan_once: Any, *_: Any) -> Any:
            self.depth += 1
            if self.depth > _MAX_NESTING:
                raise _TooMuch(
                    "too_deep",
                    f"nested more than {_MAX_NESTING} levels deep",
                    s_and_end[1],
                )
            offsets: list[int] = []
            pairs, end = parse_object(
                s_and_end, strict, counted(scan_once, offsets), None, list, {}
            )
            self.depth -= 1
            return _JObject([(k, v, o) for (k, v), o in zip(pairs, offsets)]), end

        def _array(self, s_and_end: Any, scan_once: Any) -> Any:
            self.depth += 1
            if self.depth > _MAX_NESTING:
                raise _TooMuch(
                    "too_deep",
                    f"nested more than {_MAX_NESTING} levels deep",
                    s_and_end[1],
                )
            offsets: list[int] = []
            items, end = parse_array(s_and_end, counted(scan_once, offsets))
            self.depth -= 1
            return _JArray(list(zip(items, offsets))), end

    lines = _Lines(text)
    decoder = Decoder()
    try:
        start = len(text) - len(text.lstrip(" \t\r\n"))
        root, end = decoder.scan_once(text, start) if start < len(text) else (None, 0)
        if start >= len(text):
            raise json.JSONDecodeError("Expecting value", text, start)
        rest = len(text) - len(text[end:].lstrip(" \t\r\n"))
        if rest < len(text):
            raise json.JSONDecodeError("Extra data", text, rest)
    except StopIteration as exc:
        raise _located(name, "syntax", "Expecting value", lines.at(exc.value)) from None
    except json.JSONDecodeError as exc:
        raise _located(name, "syntax", exc.msg, (exc.lineno, exc.colno)) from None
    except _TooMuch as exc:
        where = lines.at(exc.offset) if exc.offset is not None else None
        raise _located(name, exc.code, str(exc), where) from None
    except RecursionError:
        raise _located(name, "too_deep", "nested too deep to read", None) from None
    except ValueError:  # an integer of more digits than Python converts
        raise _located(name, "syntax", _HUGE_INTEGER, None) from None

    locations: dict[Path, tuple[int, int | None]] = {(): lines.at(start)}
    problems: list[ConfigProblem] = []

    def plain(node: Any, path: Path) -> Any:
        if isinstance(node, _JObject):
            result: dict[str, Any] = {}
            for key, value, offset in node.pairs:
                where = (*path, key)
                line, column = lines.at(offset)
                if key in result:
                    problems.append(
                        ConfigProblem(
                            "duplicate_key",
                            display_path(where),
                            f"duplicate key {key!r} (first at line {locations[where][0]})",
                            line,
                            column,
                        )
                    )
                    continue
                locations[where] = (line, column)
                result[key] = plain(value, where)
            return result
        if isinstance(node, _JArray):
            items: list[Any] = []
            for index, (value, offset) in enumerate(node.items):
                where = (*path, index)
                locations[where] = lines.at(offset)
                items.append(plain(value, where))
            return items
        return node

    return Document(plain(root, ()), locations, tuple(problems), "json")


_HUGE_INTEGER: Final = "an integer of thousands of digits: no field holds one"


def _located(name: str, code: str, message: str, where: tuple[int, int] | None) -> ConfigError:
    line, column = where if where is not None else (None, None)
    return ConfigError([ConfigProblem(code, "", message, line, column)], name)


# -- YAML ---------------------------------------------------------------------

_CORE: Final = "tag:yaml.org,2002:"
# tags whose values are plain data (constructed by PyYAML's safe constructor)
_SCALARS: Final = frozenset(f"{_CORE}{name}" for name in ("null", "bool", "int", "float", "str"))
_TEXT: Final = frozenset({f"{_CORE}timestamp", f"{_CORE}value"})  # kept as their text
_MERGE: Final = f"{_CORE}merge"

Scalar = Union[None, bool, int, float, str]


def read_yaml(name: str, text: str) -> Document:
    """The YAML document of ``text`` (the file ``name``): one document; an
    empty one is ``{}``."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else None
        message = " ".join(part for part in (exc.context, exc.problem) if part)
        raise _located(name, "syntax", message or str(exc), where) from None
    except yaml.YAMLError as exc:
        raise _located(name, "syntax", str(exc), None) from None
    except RecursionError:
        raise _located(name, "too_deep", "nested too deep to read", None) from None
    if root is None:
        return Document({}, {(): (1, 1)}, (), "yaml")
    return _YamlData(name, loader).document(root)


class _YamlData:
    """Composed YAML nodes -> plain data, locations and duplicate keys."""

    def __init__(self, name: str, loader: Any) -> None:
        self.name = name
        self.loader = loader
        self.locations: dict[Path, tuple[int, int | None]] = {}
        self.problems: list[ConfigProblem] = []
        self.count = 0
        self.seen: set[int] = set()  # the collection nodes met (met again: an alias)
        self.aliased = False

    def document(self, root: Any) -> Document:
        try:
            data = self.value(root, (), 0)
        except _TooMuch as exc:
            code = exc.code
            message = str(exc)
            if self.aliased:  # an alias bomb (or an alias to itself) looks small: say why
                code, message = "alias", f"{message} once its aliases are expanded"
            where = self.where
            raise _located(self.name, code, message, where) from None
        return Document(data, self.locations, tuple(self.problems), "yaml")

    where: tuple[int, int] | None = None

    def _mark(self, node: Any) -> tuple[int, int]:
        mark = node.start_mark
        return mark.line + 1, mark.column + 1

    def value(self, node: Any, path: Path, depth: int) -> Any:
        import yaml

        self.count += 1
        self.where = self._mark(node)
        if self.count > MAX_DOCUMENT_NODES:
            raise _nodes_exceeded()
        if depth > _MAX_NESTING:
            raise _too_deep()
        tag = node.tag
        if not isinstance(node, yaml.ScalarNode):
            if id(node) in self.seen:
                self.aliased = True
            self.seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if tag in _TEXT:
                return node.value
            if tag in _SCALARS:
                try:
                    return self.loader.construct_object(node)
                except ValueError as exc:  # an integer of more digits than Python converts
                    raise _located(self.name, "syntax", str(exc), self._mark(node)) from None
        elif isinstance(node, yaml.SequenceNode) and tag == f"{_CORE}seq":
            items: list[Any] = []
            for index, item in enumerate(node.value):
                where = (*path, index)
                self.locations.setdefault(where, self._mark(item))
                items.append(self.value(item, where, depth + 1))
            return items
        elif isinstance(node, yaml.MappingNode) and tag == f"{_CORE}map":
            return self.mapping(node, path, depth)
        raise _located(
            self.name,
            "tag",
            f"the tag {tag!r} is not allowed: a config holds plain values only",
            self._mark(node),
        )

    def mapping(self, node: Any, path: Path, depth: int) -> dict[Any, Any]:
        import yaml

        result: dict[Any, Any] = {}
        merged: list[tuple[Any, Any]] = []  # (key node, value node) from `<<` merge keys
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                sources = (
                    value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
                )
                for source in sources:
                    if not isinstance(source, yaml.MappingNode):
                        raise _located(
                            self.name,
                            "syntax",
                            "a merge key (<<) takes a mapping or a list of mappings",
                            self._mark(source),
                        )
                    merged.extend(source.value)
                continue
            self._entry(result, key_node, value_node, path, depth, duplicate_is_problem=True)
        for key_node, value_node in merged:  # explicit keys win, then the first merged
            self._entry(result, key_node, value_node, path, depth, duplicate_is_problem=False)
        return result

    def _entry(
        self,
        result: dict[Any, Any],
        key_node: Any,
        value_node: Any,
        path: Path,
        depth: int,
        duplicate_is_problem: bool,
    ) -> None:
        import yaml

        if not isinstance(key_node, yaml.ScalarNode):
            raise _located(
                self.name,
                "syntax",
                "a key must be a plain value, not a list or mapping",
                self._mark(key_node),
            )
        key = self.value(key_node, path, depth + 1)
        try:
            hash(key)
        except TypeError:  # (a scalar always hashes; kept as a guard)
            key = str(key)
        where = (*path, key if isinstance(key, (str, int)) else str(key))
        line, column = self._mark(key_node)
        if key in result:
            if duplicate_is_problem:
                first = self.locations.get(where, (None, None))[0]
                self.problems.append(
                    ConfigProblem(
                        "duplicate_key",
                        display_path(where),
                        f"duplicate key {key!r}" + (f" (first at line {first})" if first else ""),
                        line,
                        column,
                    )
                )
            return
        self.locations[where] = (line, column)
        result[key] = self.value(value_node, where, depth + 1)


# -- text format --------------------------------------------------------------


def text_locations(text: str, descriptor: Any) -> dict[Path, tuple[int, int | None]]:
    """Where each field of a text-format message is (the line and column of
    its name), by the paths documents use: a repeated field's items by index,
    a map's entries at the map. Walks the tokens as the text nests them (an
    extension's or an Any's fields are skipped); a text that does not parse
    was refused before."""
    from ._runtime_io import TEXT_TOKEN, text_field

    lines = _Lines(text)
    tokens = [(m.start(2), m.group(2)) for m in TEXT_TOKEN.finditer(text) if m.group(2)]
    count = len(tokens)
    found: dict[Path, tuple[int, int | None]] = {}

    def value(i: int, kind: Any, path: Path) -> int:
        token = tokens[i][1]
        if token in ("{", "<"):
            return fields(i + 1, kind, "}" if token == "{" else ">", path)
        i += 2 if token == "-" else 1
        while i < count and tokens[i][1][:1] in "\"'" and tokens[i - 1][1][:1] in "\"'":
            i += 1  # adjacent strings are one
        return i

    def fields(i: int, kind: Any, close: str | None, path: Path) -> int:
        seen: dict[str, int] = {}  # a repeated field's items so far
        while i < count and tokens[i][1] != close:
            start, token = tokens[i]
            field = None
            if token == "[":  # an extension's name or an Any's type
                while i < count and tokens[i][1] != "]":
                    i += 1
            elif kind is not None:
                field = text_field(kind, token)
            where: Path = path
            repeated = False
            if field is not None:
                where = (*path, field.name)
                found.setdefault(where, lines.at(start))
                entry = field.message_type
                repeated = is_repeated(field) and not (
                    entry is not None and entry.GetOptions().map_entry
                )
            i += 1
            if i < count and tokens[i][1] == ":":
                i += 1
            inner = field.message_type if field is not None else None
            if inner is not None and inner.GetOptions().map_entry:
                inner = None  # a map's entries are located at the map
            if i < count and tokens[i][1] == "[":  # a list of values
                i += 1
                while i < count and tokens[i][1] != "]":
                    item = where
                    if repeated and field is not None:
                        index = seen.get(field.name, 0)
                        seen[field.name] = index + 1
                        item = (*where, index)
                        found.setdefault(item, lines.at(tokens[i][0]))
                    i = value(i, inner, item)
                    if i < count and tokens[i][1] == ",":
                        i += 1
                i += 1
            elif i < count:
                item = where
                if repeated and field is not None:
                    index = seen.get(field.name, 0)
                    seen[field.name] = index + 1
                    item = (*where, index)
                    found.setdefault(item, lines.at(start))
                i = value(i, inner, item)
            if i < count and tokens[i][1] in (",", ";"):
                i += 1
        return i + 1

    fields(0, descriptor, None, ())
    return found
