# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""Config files rewritten from old setting names to new:
``python -m <package> migrate [--check] FILE...``.

The renames come from the annotations (a field's ``renamed_from``), as the
runtime holds them (``RENAMED``: message full name -> old name ->
``Renamed``). A file is walked
from its root message (``--class``) through the schema, so an old name is
renamed only where that message's settings are (``sharding_configs``'s
``fuse_broadcast_MB``, not a user's own key of that name elsewhere).

Each format is rewritten in place, token by token, so everything else in the
file stays as it was (comments, order, quotes, indentation, blank lines,
line endings):

* YAML (``.yaml``, ``.yml``): parsed by ruamel.yaml's round-trip loader
  (the package's ``migrate`` extra), which gives each key's line and column;
  tags are kept as data and never run, and a mapping reached again through
  an alias is walked once;
* JSON (``.json``): checked by ``json``, then scanned for its keys' spans;
* text format (``.prototxt``, ``.txtpb``, ``.pbtxt``, ``.textproto``), as
  ``save_to_prototxt`` writes it: old names found as ``load_from_prototxt``
  finds them (``text_renames``), and the result must parse
  into the root message (protobuf's own parser), so removed fields and typos
  are reported, with their line.

A file that cannot be read or parsed is an error naming its line (exit 2),
and then no file is written: every file is planned before any is written,
and each is replaced atomically (``write_atomically``). Symbolic links are
refused, never followed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

from ._runtime_aliases import RENAMED, text_renames
from ._runtime_io import write_atomically
from ._runtime_specs import is_repeated

MAX_FILE_BYTES = 32 * 1024 * 1024  # a config file larger than this is refused, unread
MAX_NESTING = 200  # containers nested deeper than this are refused (protobuf parses 100)
FORMATS = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".prototxt": "prototxt",
    ".txtpb": "prototxt",
    ".pbtxt": "prototxt",
    ".textproto": "prototxt",
}
YAML_EXTRA = "migrate"  # the generated package's optional dependency that brings ruamel.yaml


class MigrationChange(NamedTuple):
    """An old name found in a file: where, and what it becomes."""

    line: int  # 1-based
    column: int  # 1-based
    path: str  # the setting's dotted path, with new names
    old: str
    new: str
    since: str

    def describe(self, file: str, check: bool) -> str:
        since = f", renamed in {self.since}" if self.since else ""
        verb = "uses the old name" if check else "renamed"
        return f"{file}:{self.line}:{self.column}: {verb} {self.old!r} -> {self.new!r} ({self.path}{since})"


class MigrateError(ValueError):
    """A file that cannot be migrated: unreadable, not parsed, or ambiguous
    (a setting given under its old and its new name)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        where = "" if line is None else f"{line}:" if column is None else f"{line}:{column}:"
        super().__init__(f"{where} {message}" if where else message)
        self.line, self.column, self.reason = line, column, message


class _Edit(NamedTuple):
    start: int  # offsets into the text
    end: int
    replacement: str
    change: MigrationChange


class _Lines:
    """Offsets <-> 1-based (line, column) for one text; ``breaks`` is what
    ends a line in its format."""

    def __init__(self, text: str, breaks: str = r"\n"):
        self.starts = [0] + [m.end() for m in re.finditer(breaks, text)]

    def offset(self, line0: int, column0: int) -> int:
        return self.starts[line0] + column0 if line0 < len(self.starts) else -1

    def position(self, offset: int) -> tuple[int, int]:
        low, high = 0, len(self.starts) - 1
        while low < high:  # the last line start at or before offset
            middle = (low + high + 1) // 2
            if self.starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1, offset - self.starts[low] + 1


# -- the schema side: which message a value holds ---------------------------


def _child(field: Any) -> tuple[str, Any] | None:
    """What the value of ``field`` holds in a document: ("message", d), a
    list of messages ("list", d), a map to messages ("map", d), or None (a
    scalar, a list of scalars, a map to scalars: nothing to rename inside)."""
    if field is None or field.message_type is None:
        return None
    message = field.message_type
    if message.GetOptions().map_entry:
        value = message.fields_by_name["value"].message_type
        return ("map", value) if value is not None else None
    return ("list", message) if is_repeated(field) else ("message", message)


class _Planner:
    """Collects the edits of one file, key by key in document order."""

    def __init__(self) -> None:
        self.edits: list[_Edit] = []

    def mapping(self, descriptor: Any, path: str) -> _Mapping:
        """The keys of one mapping that holds the message ``descriptor`` (None:
        a mapping the schema does not describe)."""
        return _Mapping(self, descriptor, path)


class _Mapping:
    def __init__(self, planner: _Planner, descriptor: Any, path: str):
        self.planner, self.descriptor, self.path = planner, descriptor, path
        self.table = RENAMED.get(descriptor.full_name, {}) if descriptor is not None else {}
        self.seen: dict[str, str] = {}  # new name -> the spelling that set it

    def key(
        self,
        name: str,
        line: int,
        column: int,
        start: int,
        end: int,
        quoted: bool = False,
    ) -> Any:
        """The field a key names (None if the schema has none), recording a
        rename if it is an old name; the span is the name's in the text
        (``quoted``: the whole JSON string, which gets a new JSON string)."""
        # a field's own name is never an old one (the annotations' checker refuses that)
        fields: Mapping[str, Any] = (
            self.descriptor.fields_by_name if self.descriptor is not None else {}
        )
        rename = self.table.get(name) if name not in fields else None
        target = rename.new if rename is not None else name
        earlier = self.seen.get(target)
        if earlier is not None and (rename is not None or earlier != target):
            raise MigrateError(
                f"{_dotted(self.path, target)} is given twice, as {earlier!r} and {name!r}; keep one",
                line,
                column,
            )
        self.seen[target] = name
        if rename is not None:
            change = MigrationChange(
                line, column, _dotted(self.path, target), name, target, rename.since
            )
            spelling = json.dumps(target) if quoted else target
            self.planner.edits.append(_Edit(start, end, spelling, change))
        return fields.get(target)


def _dotted(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _apply(text: str, edits: Sequence[_Edit]) -> str:
    pieces: list[str] = []
    last = 0
    for edit in sorted(edits, key=lambda e: e.start):
        pieces += [text[last : edit.start], edit.replacement]
        last = edit.end
    pieces.append(text[last:])
    return "".join(pieces)


# -- YAML ---------------------------------------------------------------------

_YAML_BREAKS = "\r\n|[\r\n\x85\u2028\u2029]"  # YAML's line breaks, as ruamel counts lines


def _yaml_library() -> tuple[Any, Any, Any]:
    """ruamel.yaml's YAML class and its two error classes, or a MigrateError
    naming the extra that brings it."""
    try:
        from ruamel.yaml import YAML
        from ruamel.yaml.error import MarkedYAMLError, YAMLError
    except ImportError:
        raise MigrateError(
            "migrating YAML needs ruamel.yaml: pip install 'ruamel.yaml>=0.18' "
            f"(the package's '{YAML_EXTRA}' extra)"
        ) from None
    return YAML, MarkedYAMLError, YAMLError


def _plan_yaml(text: str, root: Any) -> list[_Edit]:
    YAML, MarkedYAMLError, YAMLError = _yaml_library()
    loader = YAML(typ="rt", pure=True)
    try:
        documents = list(loader.load_all(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise MigrateError(f"not valid YAML: {exc.problem or exc.context}", line, column) from None
    except YAMLError as exc:
        raise MigrateError(f"not valid YAML: {exc}") from None
    except RecursionError:
        raise MigrateError("not valid YAML here: nested too deeply") from None
    lines = _Lines(text, _YAML_BREAKS)
    planner = _Planner()
    visited: set[int] = set()  # containers already walked (anchors and aliases share them)

    def walk(node: object, descriptor: Any, path: str, depth: int, in_list: bool = False) -> None:
        identity = id(node)
        positions: Any = getattr(node, "lc", None)  # a ruamel mapping's line and column per key
        if identity in visited or not isinstance(node, (dict, list)):
            return
        visited.add(identity)
        if depth > MAX_NESTING:
            raise MigrateError(f"nested deeper than {MAX_NESTING} levels at {path or 'the top'}")
        if isinstance(node, list):  # a list of messages (or values of an unknown key)
            inner = None if in_list else descriptor  # a list in a list holds none, as load reads it
            for index, item in enumerate(cast("list[object]", node)):
                walk(item, inner, f"{path}[{index}]", depth + 1, True)
            return
        scope = planner.mapping(descriptor, path)
        mapping = cast("dict[object, object]", node)
        for key, value in mapping.items():
            if not isinstance(key, str):
                continue
            line0, column0 = positions.key(key)
            span = _yaml_key_span(text, lines.offset(line0, column0), key, line0, column0)
            field = scope.key(key, line0 + 1, column0 + 1, *span)
            child = _child(field)
            if child is None:  # a scalar, or a key this schema does not know: nothing to rename
                continue
            kind, message = child
            if kind == "map" and isinstance(value, dict):
                for map_key, item in cast("dict[object, object]", value).items():
                    walk(
                        item,
                        message,
                        f"{_dotted(path, field.name)}[{map_key!r}]",
                        depth + 2,
                    )
            elif kind in ("message", "list"):
                walk(value, message, _dotted(path, field.name), depth + 1)

    try:
        for document in documents:
            walk(document, root, "", 0)
    except RecursionError:
        raise MigrateError("nested too deeply to walk") from None
    return planner.edits


def _yaml_key_span(text: str, start: int, key: str, line0: int, column0: int) -> tuple[int, int]:
    """The span of the key's name in the text: a plain key, or the inside of
    a quoted one. A key written otherwise (escapes, a block scalar, a key
    over several lines) cannot be renamed in place and is an error."""
    if start >= 0:
        if text.startswith(key, start):
            after = start + len(key)
            if after == len(text) or not (text[after].isalnum() or text[after] in "_-."):
                return start, after
        quote = text[start : start + 1]
        if quote in ("'", '"') and text.startswith(key + quote, start + 1):
            return start + 1, start + 1 + len(key)
    raise MigrateError(
        f"the key {key!r} is written in a form migrate cannot rewrite in place; "
        "write it as a plain or quoted key",
        line0 + 1,
        column0 + 1,
    )


# -- JSON ---------------------------------------------------------------------

_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_SCALAR = re.compile(r"[^,\]}\s]+")


def _plan_json(text: str, root: Any) -> list[_Edit]:
    try:
        json.loads(text)  # the syntax check, with the standard library's located errors
    except json.JSONDecodeError as exc:
        raise MigrateError(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise MigrateError("not valid JSON: nested too deeply") from None
    lines = _Lines(text)
    planner = _Planner()
    # the json module's own string scanner: (the decoded string, the offset past its quote)
    scan_string = cast("Callable[[str, int], tuple[str, int]]", getattr(json.decoder, "scanstring"))

    def space(position: int) -> int:
        match = _JSON_SPACE.match(text, position)
        return match.end() if match else position

    def value(position: int, descriptor: Any, path: str, depth: int, kind: str) -> int:
        """Scans the value at ``position`` (valid JSON); returns its end."""
        if depth > MAX_NESTING:
            raise MigrateError(
                f"nested deeper than {MAX_NESTING} levels", *lines.position(position)
            )
        opening = text[position]
        if opening == "[":
            position, index = space(position + 1), 0
            while text[position] != "]":  # (a list for a message is walked as load reads it)
                nested = text[position] == "["  # a list in a list holds no message
                item_kind = "message" if kind in ("list", "message") and not nested else "none"
                end = value(position, descriptor, f"{path}[{index}]", depth + 1, item_kind)
                position, index = space(end), index + 1
                if text[position] == ",":
                    position = space(position + 1)
            return position + 1
        if opening == "{":
            return mapping(position, descriptor, path, depth, kind)
        if opening == '"':
            return scan_string(text, position + 1)[1]
        match = _JSON_SCALAR.match(text, position)
        assert match is not None  # the text is valid JSON
        return match.end()

    def mapping(position: int, descriptor: Any, path: str, depth: int, kind: str) -> int:
        """``kind``: "message" (keys are fields of ``descriptor``; so for "list",
        one item given bare, as load reads it), "map" (keys are map keys,
        values messages of ``descriptor``) or "none"."""
        scope = planner.mapping(descriptor if kind in ("message", "list") else None, path)
        position = space(position + 1)
        while text[position] != "}":
            key, key_end = scan_string(text, position + 1)
            field = scope.key(key, *lines.position(position), position, key_end, quoted=True)
            position = space(space(key_end) + 1)  # past the colon
            if kind == "map":
                position = value(position, descriptor, f"{path}[{key!r}]", depth + 1, "message")
            else:
                child = _child(field)
                if child is None:
                    position = value(position, None, "", depth + 1, "none")
                else:
                    position = value(
                        position,
                        child[1],
                        _dotted(path, field.name),
                        depth + 1,
                        child[0],
                    )
            position = space(position)
            if text[position] == ",":
                position = space(position + 1)
        return position + 1

    try:
        value(space(0), root, "", 0, "message")
    except RecursionError:
        raise MigrateError("nested too deeply to walk") from None
    return planner.edits


# -- text format (prototxt) ---------------------------------------------------


def _plan_text_format(text: str, root: Any) -> list[_Edit]:
    """The old names ``text_renames`` finds (the walk ``load_from_prototxt``
    uses); ``_check_text_format`` then has protobuf parse the result."""
    edits: list[_Edit] = []
    for found in text_renames(text, root):
        renamed = RENAMED[found.message][found.old]
        where = f"{found.message.rpartition('.')[2]}.{found.new}"
        change = MigrationChange(
            found.line, found.column, where, found.old, found.new, renamed.since
        )
        edits.append(_Edit(found.offset, found.offset + len(found.old), found.new, change))
    return edits


def _check_text_format(text: str, original_edits: Sequence[_Edit], root: Any) -> None:
    """The migrated text must parse into the root message: protobuf's own
    parser reports fields the schema does not have (removed, misspelt);
    its position is given back in the file's own columns."""
    from google.protobuf import message_factory, text_format

    cls = message_factory.GetMessageClass(root)
    try:
        text_format.Parse(text, cls())
    except text_format.ParseError as exc:
        line, column = exc.GetLine(), exc.GetColumn()
        reason = str(exc).split(" : ", 1)[-1]
        if line is not None and column is not None:
            for edit in original_edits:  # edits before the column on that line moved it
                if edit.change.line == line and edit.change.column < column:
                    column -= len(edit.replacement) - (edit.end - edit.start)
        raise MigrateError(f"not valid for {root.full_name}: {reason}", line, column) from None


# -- files ----------------------------------------------------------------------

_PLANNERS: dict[str, Callable[[str, Any], list[_Edit]]] = {
    "yaml": _plan_yaml,
    "json": _plan_json,
    "prototxt": _plan_text_format,
}


def migrate_text(text: str, form: str, root: Any) -> tuple[str, list[MigrationChange]]:
    """``text`` (a file's content in ``form``: yaml, json or prototxt) with
    every old name under the message ``root`` (a Descriptor) renamed, and
    the changes in file order. Raises ``MigrateError`` (with the line) for a
    text that does not parse."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    edits = _PLANNERS[form](body, root)
    migrated = _apply(body, edits)
    if edits and _PLANNERS[form](migrated, root):  # parses again, with no old name left
        raise MigrateError("could not be rewritten in place")  # (a safety net: never seen)
    if form == "prototxt":
        _check_text_format(migrated, edits, root)
    return bom + migrated, [e.change for e in sorted(edits, key=lambda e: e.start)]


def _read(path: str) -> str:
    """A regular file's text, never through a symbolic link."""
    if os.path.islink(path):
        raise MigrateError(
            "is a symbolic link; migrate never follows links (give the file it points to)"
        )
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as exc:
        raise MigrateError(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):  # a folder, a FIFO, a device: refused unread
            raise MigrateError("not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise MigrateError(f"larger than {MAX_FILE_BYTES} bytes")
        with os.fdopen(os.dup(descriptor), "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        raise MigrateError(f"larger than {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MigrateError(f"not UTF-8 (byte {exc.start})") from None


def _parser(prog: str, classes: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{prog} migrate",
        description="Rewrite config files from old setting names to new, keeping the rest of each file.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="YAML, JSON or text-format files")
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if a file uses an old name (for CI and pre-commit)",
    )
    parser.add_argument(
        "--format",
        choices=sorted(set(FORMATS.values())),
        default=None,
        help="the files' format (default: from each file's extension)",
    )
    parser.add_argument(
        "--class",
        dest="class_name",
        choices=list(classes),
        default=classes[0],
        help="the class the files hold",
    )
    return parser


def main(argv: Sequence[str] | None, classes: Mapping[str, Any], prog: str) -> int:
    """``migrate FILE...`` (``argv``: the arguments after ``migrate``): exit 0
    when done (with ``--check``: when no file uses an old name), 1 when
    ``--check`` finds an old name, 2 for a file that cannot be read or
    parsed (then no file is written) or bad arguments. ``classes``: name ->
    the generated class a file may hold, the first the default. Prints one
    line per rename, ``FILE:LINE:COLUMN: ...``, and a summary on stderr."""
    roots = {name: cls._binding.cls.DESCRIPTOR for name, cls in classes.items()}
    parser = _parser(prog, list(roots))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own exit: 2 for bad arguments, 0 for --help
        return int(exc.code or 0)
    root = roots[args.class_name]
    planned: list[tuple[str, str, str, list[MigrationChange]]] = (
        []
    )  # (file, old text, new text, changes)
    failed = False
    for file in args.files:
        form = args.format or FORMATS.get(os.path.splitext(file)[1].lower())
        try:
            if form is None:
                raise MigrateError(
                    f"unknown format; name it .yaml, .json or .prototxt, or give --format"
                )
            text = _read(file)
            planned.append((file, text, *migrate_text(text, form, root)))
        except MigrateError as exc:
            where = (
                f"{file}:{exc.line}:{exc.column}"
                if exc.column
                else f"{file}:{exc.line}" if exc.line else file
            )
            print(f"{prog} migrate: {where}: {exc.reason}", file=sys.stderr)
            failed = True
    if failed:
        print(f"{prog} migrate: nothing was changed", file=sys.stderr)
        return 2
    found = 0
    for file, _, new, changes in planned:
        for change in changes:
            print(change.describe(file, args.check))
        found += len(changes)
        if changes and not args.check:
            if os.path.islink(file):  # replaced by a link since it was read
                print(
                    f"{prog} migrate: {file}: is a symbolic link; not written",
                    file=sys.stderr,
                )
                return 2
            write_atomically(file, new.encode("utf-8"))
    files = sum(1 for *_, changes in planned if changes)
    if args.check:
        summary = f"{found} old name(s) in {files} file(s)" if found else "no old names"
        print(f"{prog} migrate --check: {summary}", file=sys.stderr)
        return 1 if found else 0
    print(f"{prog} migrate: {found} rename(s) in {files} file(s)", file=sys.stderr)
    return 0
