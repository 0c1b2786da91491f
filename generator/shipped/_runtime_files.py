# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""Configs as documents: a message as plain JSON-like data (``to_dict``,
``from_dict``) and as YAML, JSON or text-format files (``load``, ``save``).

A document holds the message's fields by their proto names, each value in
the JSON mapping (enum names, base64 bytes, nested objects, arrays, objects
for maps); it is checked as strictly as strict mode's setters check, every
problem collected, and applied only when there is none (``ConfigError``
lists them, each with its dotted key path and, from a file, its line). Files
are read within fixed bounds (size, values, nesting depth, YAML alias
expansion): a hostile file is a located error, never a hang.

YAML needs PyYAML (the package's ``yaml`` extra); the rest is the standard
library and protobuf.
"""

from __future__ import annotations

import base64
import math
import os
import re
import stat
from collections.abc import Mapping
from typing import Any, Final, NamedTuple, Union, cast

from google.protobuf.message import Message

from ._runtime_aliases import (
    DEPRECATED,
    RENAMED,
    deprecated_of,
    warn_field_deprecated,
    warn_renamed,
)
from ._runtime_configs import MAX_DEPTH
from ._runtime_specs import (
    BOOL,
    BYTES,
    ENUM,
    FLOAT,
    INT,
    SPECS,
    STR,
    FieldSpec,
    MessageSpec,
    as_mapping,
    check_constraint,
    clear_field,
    copy_from,
    descriptor_of,
    list_fields,
    merge_from,
    set_in_parent,
    spec_of,
)

# -- bounds ---------------------------------------------------------------------

MAX_DOCUMENT_BYTES: Final = 4 * 1024 * 1024  # a config is kilobytes; larger is refused unread
MAX_DOCUMENT_NODES: Final = 200_000  # values in a document, YAML aliases expanded
_FLOAT32_MAX: Final = 3.4028234663852886e38
_DOUBLE_MAX: Final = 1.7976931348623157e308
_DIGITS: Final = re.compile(r"-?[0-9]{1,20}")
_BASE64: Final = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")

FORMATS: Final = ("yaml", "json", "prototxt")
_EXTENSIONS: Final = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".prototxt": "prototxt",
    ".txtpb": "prototxt",
    ".pbtxt": "prototxt",
    ".textproto": "prototxt",
}
_YAML_MISSING: Final = (
    "YAML files need PyYAML: pip install 'PyYAML>=5.4' (the package's [yaml] extra)"
)

# -- the error ------------------------------------------------------------------

Segment = Union[str, int]  # a key, or an index of an array
Path = tuple[Segment, ...]
Locations = Mapping[Path, tuple[int, Union[int, None]]]  # path -> (line, column), 1-based


def display_path(path: Path) -> str:
    """``hybrid_configs.sharding_configs.degree``, ``checkpoints[2]``."""
    text = ""
    for segment in path:
        if isinstance(segment, int):
            text += f"[{segment}]"
        else:
            text += f".{segment}" if text else segment
    return text


class ConfigProblem(NamedTuple):
    """One problem of a document: a stable ``code``, where (the dotted key
    ``path``, and from a file its ``line`` and ``column``, 1-based), what is
    wrong and what was expected (``message``), and the closest valid key or
    choice (``suggestion``)."""

    code: str  # unknown_key wrong_type out_of_range not_a_choice oneof duplicate_key
    # syntax encoding too_large too_deep tag alias format file
    path: str
    message: str
    line: int | None = None
    column: int | None = None
    suggestion: str | None = None

    def __str__(self) -> str:
        where = ":".join(str(part) for part in (self.line, self.column) if part is not None)
        parts = [part for part in (where, self.path) if part]
        return ": ".join([*parts, self.message])

    def as_dict(self) -> dict[str, Any]:
        return dict(self._asdict())


class ConfigError(ValueError):
    """A document (a dict or a file) that cannot be loaded: ``problems``
    lists every problem found (``ConfigProblem``), ``file`` names the file
    (None for a dict). Nothing was applied."""

    def __init__(
        self,
        problems: list[ConfigProblem] | tuple[ConfigProblem, ...],
        file: str | None = None,
    ) -> None:
        self.problems = tuple(problems)
        self.file = file
        count = len(self.problems)
        head = f"{file}: " if file else ""
        lines = [f"{head}{count} problem{'s' if count != 1 else ''}:"] if count != 1 else []
        for problem in self.problems:
            text = str(problem)
            lines.append(f"{file}:{text}" if file and problem.line is not None else head + text)
        super().__init__("\n".join(lines))


class ConfigFileNotFoundError(FileNotFoundError, ConfigError):
    """The file does not exist: a ``ConfigError`` (so a ValueError), and the
    ``FileNotFoundError`` that code written against ``open()`` catches."""

    def __init__(self, file: str) -> None:
        ConfigError.__init__(self, [ConfigProblem("file", "", "no such file")], file)
        self.filename = file
        self.errno = 2
        self.strerror = "No such file or directory"


# -- documents -> messages --------------------------------------------------------


def field_for_key(spec: MessageSpec, key: object) -> FieldSpec | None:
    """The field a document's key names in ``spec``'s message, or None."""
    if not isinstance(key, str):
        return None
    return spec.fields.get(key)


def _describe(value: object) -> str:
    """A value as a document's reader sees it (JSON's words)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 200 else f"{str(value)[:20]}... (a huge number)"
        return f"integer {text}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"string {shown!r}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


class _Reader:
    """Collects the problems of one document while building its message."""

    def __init__(self, locations: Locations | None, file: str | None = None) -> None:
        self.problems: list[ConfigProblem] = []
        self.locations = locations or {}
        self.nodes = 0
        self.file = file  # names the warnings of old names and deprecated fields

    def problem(self, code: str, path: Path, message: str, suggestion: str | None = None) -> None:
        # (the closest enclosing value that has a place: a text-format map's
        # entries are located at the map)
        located = next(
            (path[:n] for n in range(len(path), -1, -1) if path[:n] in self.locations), None
        )
        line, column = self.locations[located] if located is not None else (None, None)
        self.problems.append(
            ConfigProblem(code, display_path(path), message, line, column, suggestion)
        )

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_DOCUMENT_NODES:
            raise _TooManyValues

    def message(self, spec: MessageSpec, data: object, target: Message, path: Path) -> None:
        if len(path) > 2 * MAX_DEPTH:
            self.problem("too_deep", path, f"nested more than {MAX_DEPTH} levels deep")
            return
        mapping = as_mapping(data)
        if mapping is None:
            self.problem(
                "wrong_type",
                path,
                f"expected an object of {spec.full_name}'s fields, got {_describe(data)}",
            )
            return
        if not mapping:
            set_in_parent(target)  # a present, empty message
        oneofs: dict[str, str] = {}
        descriptor: Any = descriptor_of(target)
        for key, value in mapping.items():
            self.count()
            if key == "$schema" and isinstance(value, str):
                continue  # the JSON Schema the document names for editors (no field has a "$")
            where = (*path, key if isinstance(key, (str, int)) else str(key))
            field = field_for_key(spec, key)
            if field is None and RENAMED and key in RENAMED.get(spec.full_name, {}):
                field = self._old_key(spec, cast(str, key), mapping, where)
                if field is None:
                    continue  # given beside its new name: a problem
            if field is None:
                self._unknown_key(spec, key, where)
                continue
            if DEPRECATED and field.name in deprecated_of(spec.full_name):
                warn_field_deprecated(deprecated_of(spec.full_name)[field.name], self.at(where))
            oneof = descriptor.fields_by_name[field.name].containing_oneof
            if oneof is not None and len(oneof.fields) > 1:
                other = oneofs.setdefault(oneof.name, field.name)
                if other != field.name:
                    self.problem(
                        "oneof",
                        where,
                        f"{other!r} and {field.name!r} are both members of oneof "
                        f"{oneof.name!r}: give at most one",
                    )
                    continue
            self.field(field, value, target, where)

    def at(self, path: Path) -> str:
        """Where a value is, for a warning: file:line, or its key path."""
        line = self.locations.get(path, (None, None))[0]
        if self.file is not None:
            return f"{self.file}:{line}" if line is not None else self.file
        return display_path(path)

    def _old_key(
        self, spec: MessageSpec, key: str, mapping: Mapping[Any, Any], where: Path
    ) -> FieldSpec | None:
        """The field an old name (annotations: renamed_from) names, after a
        warning; given beside its new name, a problem (and None)."""
        renamed = RENAMED[spec.full_name][key]
        if renamed.new in mapping:
            self.problem(
                "duplicate_key",
                where,
                f"{key!r} is the old name of {renamed.new!r} (renamed in {renamed.since}), "
                f"which is given too: keep only {renamed.new!r}",
                renamed.new,
            )
            return None
        warn_renamed(renamed, self.at(where))
        return spec.fields.get(renamed.new)

    def _unknown_key(self, spec: MessageSpec, key: object, where: Path) -> None:
        import difflib

        valid = list(spec.fields)
        close = (
            difflib.get_close_matches(key, valid, n=1, cutoff=0.6) if isinstance(key, str) else []
        )
        hint = f"; did you mean {close[0]!r}?" if close else ""
        shown = repr(key) if isinstance(key, str) else _describe(key)
        self.problem(
            "unknown_key",
            where,
            f"unknown key {shown} in {spec.full_name}{hint}",
            close[0] if close else None,
        )

    def field(self, field: FieldSpec, value: object, target: Message, path: Path) -> None:
        name = field.name
        if field.map_key is not None:
            self._map(field, value, getattr(target, name), path)
        elif field.repeated:
            if not isinstance(value, (list, tuple)):
                self.problem("wrong_type", path, f"expected an array, got {_describe(value)}")
                return
            container = getattr(target, name)
            items: list[Any] = []
            for index, item in enumerate(cast("list[Any]", value)):
                self.count()
                where = (*path, index)
                if field.kind == "message":
                    self._sub_message(field, item, container.add(), where)
                else:
                    converted = self.scalar(field, item, where)
                    if converted is not _BAD:
                        items.append(converted)
            if field.kind != "message":
                container.extend(items)
        elif field.kind == "message":
            self._sub_message(field, value, getattr(target, name), path)
        else:
            converted = self.scalar(field, value, path)
            if converted is not _BAD:
                setattr(target, name, converted)

    def _sub_message(self, field: FieldSpec, value: object, target: Message, path: Path) -> None:
        spec = SPECS[field.message]  # type: ignore[index]
        if spec.full_name in _JSON_MAPPED:
            self._well_known(value, target, path)
        else:
            self.message(spec, value, target, path)

    def _well_known(self, value: object, target: Message, path: Path) -> None:
        """A well-known type with a JSON form of its own: protobuf's mapping."""
        from google.protobuf import json_format

        if value is None and descriptor_of(target).full_name != "google.protobuf.Value":
            self.problem("wrong_type", path, f"expected a value, got {_describe(value)}")
            return
        try:
            json_format.ParseDict(value, target)  # type: ignore[arg-type]  # any JSON value
        except (json_format.ParseError, TypeError, ValueError, AttributeError) as exc:
            self.problem("wrong_type", path, f"not a {descriptor_of(target).full_name}: {exc}")

    def _map(self, field: FieldSpec, value: object, container: Any, path: Path) -> None:
        mapping = as_mapping(value)
        if mapping is None:
            self.problem(
                "wrong_type",
                path,
                f"expected an object (a map), got {_describe(value)}",
            )
            return
        key_spec, value_spec = field.map_key, field.map_value
        assert key_spec is not None and value_spec is not None  # a map field has both
        for key, item in mapping.items():
            self.count()
            where = (*path, key if isinstance(key, (str, int)) else str(key))
            converted_key = self._map_key(key_spec, key, where)
            if converted_key is _BAD:
                continue
            if value_spec.kind == "message":
                self._sub_message(value_spec, item, container[converted_key], where)
            else:
                converted = self.scalar(value_spec, item, where)
                if converted is not _BAD:
                    container[converted_key] = converted

    def _map_key(self, spec: FieldSpec, key: object, path: Path) -> Any:
        if spec.kind == STR:
            if isinstance(key, str):
                return key
            self.problem("wrong_type", path, f"expected a string key, got {_describe(key)}")
            return _BAD
        if spec.kind == BOOL:
            if isinstance(key, bool):
                return key
            if key in ("true", "false"):
                return key == "true"
            self.problem(
                "wrong_type",
                path,
                f"expected the key 'true' or 'false', got {_describe(key)}",
            )
            return _BAD
        if isinstance(key, str) and _DIGITS.fullmatch(key):
            number = int(key)
        elif isinstance(key, int) and not isinstance(key, bool):
            number = key
        else:
            self.problem("wrong_type", path, f"expected an integer key, got {_describe(key)}")
            return _BAD
        if not spec.low <= number <= spec.high:  # type: ignore[operator]
            self.problem(
                "out_of_range",
                path,
                f"key {number} is out of range [{spec.low}, {spec.high}]",
            )
            return _BAD
        return number

    def scalar(self, field: FieldSpec, value: object, path: Path) -> Any:
        """The value to store, or ``_BAD`` after recording the problem."""
        kind = field.kind
        if kind == BOOL:
            if isinstance(value, bool):
                return value
            return self._wrong(path, "a boolean (true or false)", value)
        if kind == INT:
            return self._integer(field, value, path)
        if kind == FLOAT:
            return self._float(field, value, path)
        if kind == STR:
            if not isinstance(value, str):
                return self._wrong(path, "a string", value)
            if field.choices is not None and value not in field.choices:
                return self._not_a_choice(path, value, field.choices)
            return value
        if kind == BYTES:
            if isinstance(value, str) and _BASE64.fullmatch(value):
                return base64.b64decode(value)
            return self._wrong(path, "a string of base64 (standard, padded)", value)
        assert kind == ENUM
        names = field.enum_values or {}
        if not isinstance(value, str):
            return self._wrong(path, f"one of {', '.join(map(repr, names))}", value)
        if value not in names:
            return self._not_a_choice(path, value, tuple(names))
        return names[value]

    def _wrong(self, path: Path, expected: str, value: object) -> Any:
        self.problem("wrong_type", path, f"expected {expected}, got {_describe(value)}")
        return _BAD

    def _not_a_choice(self, path: Path, value: str, choices: tuple[str, ...]) -> Any:
        import difflib

        close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        self.problem(
            "not_a_choice",
            path,
            f"{value!r} is not one of {', '.join(map(repr, choices))}{hint}",
            close[0] if close else None,
        )
        return _BAD

    def _integer(self, field: FieldSpec, value: object, path: Path) -> Any:
        wide = field.high is not None and field.high > 2**32
        number: int
        if isinstance(value, bool):
            return self._wrong(path, "an integer", value)
        if isinstance(value, int):
            number = value
        elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
            number = int(value)
        elif wide and isinstance(value, str) and _DIGITS.fullmatch(value):
            number = int(value)
        else:
            expected = "an integer (or a string of digits)" if wide else "an integer"
            return self._wrong(path, expected, value)
        if not field.low <= number <= field.high:  # type: ignore[operator]
            shown = _describe(number).partition(" ")[2]
            self.problem(
                "out_of_range",
                path,
                f"{shown} is out of range [{field.low}, {field.high}]",
            )
            return _BAD
        return self._constrained(field, number, path)

    def _float(self, field: FieldSpec, value: object, path: Path) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return self._wrong(path, "a number", value)
        if isinstance(value, float) and not math.isfinite(value):
            self.problem("out_of_range", path, f"{value!r} is not a finite number")
            return _BAD
        bound = _FLOAT32_MAX if field.float32 else _DOUBLE_MAX
        if not -bound <= value <= bound:  # (an int compares exactly)
            shown = _describe(value).partition(" ")[2]
            width = "32-bit" if field.float32 else "64-bit"
            self.problem("out_of_range", path, f"{shown} does not fit a {width} float")
            return _BAD
        return self._constrained(field, float(value), path)

    def _constrained(self, field: FieldSpec, number: int | float, path: Path) -> Any:
        if field.constraint is None:
            return number
        try:
            check_constraint(field, number, "")
        except ValueError as exc:
            self.problem("out_of_range", path, f"{number!r} is out of range: {str(exc).strip()}")
            return _BAD
        return number


_BAD: Final = object()


class _TooManyValues(Exception):
    """Stops reading a document of more than MAX_DOCUMENT_NODES values."""


# well-known types protobuf's JSON mapping writes as something other than their fields
_JSON_MAPPED: Final = frozenset(
    f"google.protobuf.{name}"
    for name in (
        "Any Duration Timestamp FieldMask Struct Value ListValue DoubleValue FloatValue "
        "Int64Value UInt64Value Int32Value UInt32Value BoolValue StringValue BytesValue"
    ).split()
)


def document_to_message(
    spec: MessageSpec,
    data: object,
    locations: Locations | None = None,
    file: str | None = None,
    problems: tuple[ConfigProblem, ...] = (),
) -> Message:
    """A new message of ``spec``'s type holding the document ``data``,
    checked strictly; ``ConfigError`` lists every problem (``problems``: those
    found before, such as a file's duplicate keys, come first). ``locations``
    (path -> line, column) locates the problems of a file."""
    reader = _Reader(locations, file)
    reader.problems.extend(problems)
    message: Message = spec.cls()
    try:
        reader.message(spec, data, message, ())
    except RecursionError:  # (a dict nested too deep for Python, built in code)
        reader.problem("too_deep", (), f"nested more than {MAX_DEPTH} levels deep")
    except _TooManyValues:  # (lists shared many times over, built in code)
        reader.problem("too_large", (), f"more than {MAX_DOCUMENT_NODES} values")
    if reader.problems:
        raise ConfigError(_ordered(reader.problems), file)
    return message


def _ordered(problems: list[ConfigProblem]) -> list[ConfigProblem]:
    """Problems in the file's order (those without a line keep theirs, last)."""
    return sorted(
        problems,
        key=lambda p: (p.line is None, p.line or 0, p.column or 0),
    )


# -- messages -> documents ---------------------------------------------------------


def message_to_document(message: Message) -> dict[str, Any]:
    """The document of ``message``: its set fields, by proto name, in field
    order, as JSON-compatible values (see the module's docstring)."""
    spec = spec_of(message)
    if spec.full_name in _JSON_MAPPED:
        raise TypeError(f"{spec.full_name}: a well-known type's document is not an object")
    present = {field.name: value for field, value in list_fields(message)}
    document: dict[str, Any] = {}
    for name, field in spec.fields.items():
        if name not in present:
            continue
        value = present[name]
        if field.map_key is not None:
            value_spec = field.map_value
            assert value_spec is not None
            document[name] = {
                _key_text(key): _value_of(value_spec, item) for key, item in value.items()
            }
        elif field.repeated:
            document[name] = [_value_of(field, item) for item in value]
        else:
            document[name] = _value_of(field, value)
    return document


def _key_text(key: object) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def _value_of(field: FieldSpec, value: Any) -> Any:
    kind = field.kind
    if kind == "message":
        if field.message in _JSON_MAPPED:
            from google.protobuf import json_format

            return json_format.MessageToDict(value, preserving_proto_field_name=True)
        return message_to_document(value)
    if kind == ENUM:
        for name, number in (field.enum_values or {}).items():
            if number == value:
                return name
        return value  # a number without a name (an open enum's)
    if kind == BYTES:
        return base64.b64encode(value).decode("ascii")
    if kind == FLOAT and field.float32:
        return _shortest_float32(value)
    return value


def _shortest_float32(value: float) -> float:
    """The shortest decimal that reads back as the same 32-bit float."""
    if not math.isfinite(value):
        return value
    import struct

    packed = struct.pack("<f", value)
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits}g}")
        try:
            if struct.pack("<f", candidate) == packed:
                return candidate
        except OverflowError:  # rounded past the largest 32-bit float
            continue
    return value


# -- files -----------------------------------------------------------------------


def document_format(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format of the file ``path``: ``format`` when given, else by its
    extension; ConfigError (code ``format``) when neither says."""
    name = os.fsdecode(os.fspath(path))
    if format is not None:
        if format not in FORMATS:
            raise ConfigError(
                [
                    ConfigProblem(
                        "format",
                        "",
                        f"format must be one of {', '.join(FORMATS)}, got {format!r}",
                    )
                ],
                name,
            )
        return format
    found = _EXTENSIONS.get(os.path.splitext(name)[1].lower())
    if found is None:
        known = ", ".join(_EXTENSIONS)
        raise ConfigError(
            [
                ConfigProblem(
                    "format",
                    "",
                    f"cannot tell the format from the extension: use {known} or format=",
                )
            ],
            name,
        )
    return found


def _file_error(
    name: str,
    code: str,
    message: str,
    line: int | None = None,
    column: int | None = None,
) -> ConfigError:
    return ConfigError([ConfigProblem(code, "", message, line, column)], name)


def _read_bytes(name: str) -> bytes:
    """The bytes of the regular file ``name``, at most MAX_DOCUMENT_BYTES."""
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        descriptor = os.open(name, flags)  # non-blocking: opening a pipe must not wait
    except FileNotFoundError:
        raise ConfigFileNotFoundError(name) from None
    except OSError as exc:
        raise _file_error(name, "file", f"cannot open it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise _file_error(name, "file", f"{what}, expected a config file")
        if info.st_size > MAX_DOCUMENT_BYTES:
            raise _file_error(name, "too_large", _too_large(info.st_size))
        with open(descriptor, "rb", closefd=False) as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as exc:
        raise _file_error(name, "file", f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_DOCUMENT_BYTES:  # (it grew since fstat)
        raise _file_error(name, "too_large", _too_large(len(data)))
    return data


def _too_large(size: int) -> str:
    return f"{size} bytes: a config file may have at most {MAX_DOCUMENT_BYTES} bytes"


def _decode(name: str, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _file_error(
            name,
            "encoding",
            f"not UTF-8 text ({exc.reason} at byte {exc.start})",
            line,
            column,
        ) from None


class Document(NamedTuple):
    """A file's document: its data, where each value is, and the problems
    found while reading it that do not stop it (duplicate keys)."""

    data: object
    locations: Locations
    problems: tuple[ConfigProblem, ...]
    format: str


def read_document(path: str | os.PathLike[str], format: str | None = None) -> Document:
    """Read the YAML or JSON file ``path`` as a document (parse only: no
    message is involved); ConfigError for a file that cannot be read."""
    name = os.fsdecode(os.fspath(path))
    kind = document_format(name, format)
    if kind == "prototxt":
        raise ValueError("read_document reads YAML and JSON; text format is read as a message")
    if kind == "yaml":
        _yaml_module(name)  # before reading: a missing library is said first
    text = _decode(name, _read_bytes(name))
    if kind == "json":
        from ._runtime_documents import read_json

        return read_json(name, text)
    from ._runtime_documents import read_yaml

    return read_yaml(name, text)


def _yaml_module(name: str | None) -> Any:
    try:
        import yaml
    except ImportError:
        raise ConfigError([ConfigProblem("format", "", _YAML_MISSING)], name) from None
    return yaml


def load_message(
    spec: MessageSpec, path: str | os.PathLike[str], format: str | None = None
) -> tuple[Message, Locations]:
    """A new message of ``spec``'s type holding the file ``path`` (YAML,
    JSON or text format), checked strictly, and where each of its values is."""
    name = os.fsdecode(os.fspath(path))
    kind = document_format(name, format)
    if kind == "prototxt":
        return _load_text(spec, name)
    document = read_document(name, kind)
    message = document_to_message(spec, document.data, document.locations, name, document.problems)
    return message, document.locations


def _load_text(spec: MessageSpec, name: str) -> tuple[Message, Locations]:
    from ._runtime_io import (
        TextFormatFileError,
        TextFormatFileNotFoundError,
        merge_text_file,
    )

    parsed: Message = spec.cls()
    try:
        merge_text_file(parsed, name)
    except TextFormatFileNotFoundError:
        raise ConfigFileNotFoundError(name) from None
    except TextFormatFileError as exc:
        text = str(exc)
        if text.startswith(f"{name}: "):
            text = text[len(name) + 2 :]
        found = re.match(r"(?:[^:\n]*:)?(\d+):(\d+) : (.*)", text, re.S)
        if found:
            line, column, text = int(found[1]), int(found[2]), found[3]
            raise _file_error(name, "syntax", text, line, column) from None
        raise _file_error(name, "syntax", text) from None
    # text format checks types and ranges; the annotations' choices and
    # bounds are checked on the document of what it read, located by where
    # its fields are in the text
    from ._runtime_documents import text_locations
    from ._runtime_io import read_text_file

    locations = text_locations(read_text_file(name), descriptor_of(parsed))
    message = document_to_message(spec, message_to_document(parsed), locations, name)
    return message, locations


def save_message(
    message: Message,
    path: str | os.PathLike[str],
    format: str | None = None,
    lock: Any = None,
) -> None:
    """Write ``message`` to ``path`` as YAML, JSON or text format, atomically."""
    from ._runtime_io import save_text, write_atomically

    name = os.fsdecode(os.fspath(path))
    kind = document_format(name, format)
    if kind == "prototxt":
        save_text(message, name, lock)
        return
    yaml = _yaml_module(name) if kind == "yaml" else None
    if lock is not None:
        with lock:
            document = message_to_document(message)
    else:
        document = message_to_document(message)
    if yaml is not None:
        text = yaml.safe_dump(
            document, sort_keys=False, allow_unicode=True, default_flow_style=False
        )
    else:
        import json

        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    write_atomically(name, text.encode("utf-8"))


def load_instance(
    cls: Any, path: str | os.PathLike[str], format: str | None = None
) -> tuple[Any, Locations]:
    """A new instance of the generated class ``cls`` (``cls()``) with the
    file ``path`` applied (see ``Wrapper.load``), and where each value is."""
    message, locations = load_message(cls._binding.spec, path, format)
    instance = cls()
    apply_document(instance._message, message)
    return instance, locations


def apply_document(target: Message, loaded: Message, lock: Any = None) -> None:
    """Replace each field ``loaded`` sets in ``target`` by ``loaded``'s, in one step."""
    staged: Message = type(target)()
    copy_from(staged, target)
    for field, _ in list_fields(loaded):
        clear_field(staged, field.name)
    merge_from(staged, loaded)
    if lock is None:
        copy_from(target, staged)
    else:
        with lock:
            copy_from(target, staged)


__all__ = [
    "ConfigError",
    "ConfigFileNotFoundError",
    "ConfigProblem",
    "Document",
    "FORMATS",
    "Locations",
    "MAX_DOCUMENT_BYTES",
    "MAX_DOCUMENT_NODES",
    "apply_document",
    "display_path",
    "document_format",
    "document_to_message",
    "field_for_key",
    "load_instance",
    "load_message",
    "message_to_document",
    "read_document",
    "save_message",
]
