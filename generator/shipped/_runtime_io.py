# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""What hooks use beyond the classes: environment-backed fields, text-format
files written atomically, dotted-path configs and duck-typed objects."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, cast

from google.protobuf.message import Message

from ._runtime_configs import MAX_DEPTH, depth_bound, spans_more_than
from ._runtime_specs import (
    BOOL,
    ENUM,
    FALSE_WORDS,
    FLOAT,
    INT,
    KEEP,
    MESSAGE_MEMBERS,
    SPECS,
    STR,
    TRUE_WORDS,
    MessageSpec,
    copy_from,
    descriptor_of,
    is_repeated,
    merge_from,
    parse_from,
    serialize_partial,
    spec_of,
    warn,
)

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    Lock = AbstractContextManager[Any]  # what the runtime's functions take as a lock


# -- environment-backed fields ----------------------------------------------


class EnvField(NamedTuple):
    """A field backed by an environment variable (annotations: ``env:``)."""

    variable: str  # FLAGS_...
    field: str  # proto field name
    read: bool = True  # read when an instance is created, where set
    kind: str | None = None  # the variable's kind (BOOL, INT, FLOAT, STR) when not the field's


class FlagStore(Protocol):
    """Where environment-backed fields are read from and exported to instead
    of ``os.environ``: typed flags by name (another project's global flags).
    ``name in store`` says whether the store has (and lets callers use) a flag."""

    def __contains__(self, name: object) -> bool: ...

    def __getitem__(self, name: str) -> Any: ...

    def __setitem__(self, name: str, value: Any) -> None: ...


_CONVERTERS: Final[dict[str, Any]] = {BOOL: bool, INT: int, FLOAT: float, STR: str}


def _env_kind(spec: MessageSpec, entry: EnvField) -> str:
    kind = entry.kind or spec.fields[entry.field].kind
    if kind not in _CONVERTERS:
        raise TypeError(
            f"{entry.variable}: field {entry.field!r} is not a bool, number or string ({kind})"
        )
    return kind


def _env_value(kind: str, variable: str, raw: Any) -> Any:
    """The value of ``variable`` as ``kind``, or KEEP (after a warning naming
    the variable) when it cannot be one.

    Text (the environment) is parsed: booleans as ``env_flag`` does, numbers
    by ``int``/``float``; typed values (a flag store's) are converted."""
    if isinstance(raw, str) and kind != STR:
        text = raw.strip()
        if kind == BOOL:
            lowered = text.lower()
            if lowered in TRUE_WORDS or lowered in FALSE_WORDS:
                return lowered in TRUE_WORDS
            warn("ignoring %s=%r: expected one of 1/0/true/false/yes/no/on/off", variable, raw)
            return KEEP
        try:
            return float(text) if kind == FLOAT else int(text)
        except ValueError:
            warn(
                "ignoring %s=%r: expected %s",
                variable,
                raw,
                "a number" if kind == FLOAT else "an integer",
            )
            return KEEP
    try:
        return _CONVERTERS[kind](raw)
    except (TypeError, ValueError, OverflowError) as exc:  # int(nan), int(inf), an odd object
        warn("ignoring %s=%r: expected %s (%s)", variable, raw, kind, exc)
        return KEEP


def read_env(
    message: Message, fields: tuple[EnvField, ...], source: FlagStore | None = None
) -> None:
    """Set each readable environment-backed field of ``message`` whose
    variable is set in ``source`` (a ``FlagStore``), or in ``os.environ``
    when ``source`` is None. A value that does not parse, or that the field
    cannot hold (a number out of its range), is ignored with a warning naming
    the variable: the environment never makes construction fail."""
    spec: MessageSpec | None = None
    for entry in fields:
        if not entry.read:
            continue
        if source is None:
            raw: Any = os.environ.get(entry.variable)
        else:
            raw = source[entry.variable] if entry.variable in source else None
        if raw is None:
            continue
        spec = spec or spec_of(message)
        value = _env_value(_env_kind(spec, entry), entry.variable, raw)
        if value is KEEP:
            continue
        field = spec.fields[entry.field]
        if field.kind == INT and isinstance(value, int) and not field.low <= value <= field.high:  # type: ignore[operator]
            warn(
                "ignoring %s=%r: out of the field's range [%s, %s]",
                entry.variable,
                raw,
                field.low,
                field.high,
            )
            continue
        try:
            setattr(message, entry.field, value)
        except (TypeError, ValueError) as exc:  # anything else protobuf refuses
            warn("ignoring %s=%r: %s", entry.variable, raw, exc)


def export_env(
    message: Message, fields: tuple[EnvField, ...], target: FlagStore | None = None
) -> None:
    """Write every environment-backed field of ``message`` to its variable,
    converted to the variable's kind (a float field exported to an integer
    variable is truncated).

    Into ``os.environ`` when ``target`` is None (booleans as ``true``/``false``,
    numbers as text), where a process started later reads them; else into
    the ``FlagStore`` ``target``, only the flags it has."""
    spec = spec_of(message)
    for entry in fields:
        kind = _env_kind(spec, entry)
        value = _CONVERTERS[kind](getattr(message, entry.field))
        if target is None:
            os.environ[entry.variable] = (
                ("true" if value else "false") if kind == BOOL else str(value)
            )
        elif entry.variable in target:
            target[entry.variable] = value


# -- text format -------------------------------------------------------------


class TextFormatFileError(ValueError):
    """A text-format file could not be loaded: the message names the file and
    says why (not found, not a regular file, not UTF-8, a parse error with its
    line, nested too deep)."""


class TextFormatFileNotFoundError(FileNotFoundError, TextFormatFileError):
    """The file does not exist: a ``TextFormatFileError`` (so a ValueError) like
    every other load failure, and still the ``FileNotFoundError`` that code
    written against ``open()`` catches."""


def save_text(message: Message, path: str | os.PathLike[str], lock: Lock | None = None) -> None:
    """Write ``message`` to ``path`` in protobuf's text format (UTF-8), as
    ``write_atomically`` does: the file holds the old text or the new, never a
    part. ``lock``: the wrapper's, held while the message is copied, so the
    text is of one state."""
    if lock is not None:
        with lock:
            snapshot = type(message)()
            copy_from(snapshot, message)
        message = snapshot
    write_atomically(path, str(message).encode("utf-8"))


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file ``path`` with ``data`` in one step.

    ``data`` goes to a new file in the same folder, which is flushed to disk
    (fsync) and then renamed over ``path`` (``os.replace``): whatever fails
    on the way (a full disk, a file size limit, an interruption, a crash),
    ``path`` holds the old text or the new, and a new file that failed is
    removed. The new file keeps the old
    file's permission bits (a new one gets ``open()``'s: 0o666 less the
    umask). A symbolic link is written through, as ``open()`` does; a target
    that is not a regular file (a device, a pipe) is written in place, as
    there is no file to keep. The folder must be writable."""
    name = os.fspath(path)
    target = os.path.realpath(name)
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        with open(target, "wb") as handle:  # (a folder: IsADirectoryError, as open() raises)
            handle.write(data)
        return
    folder, base = os.path.split(target)
    descriptor, temporary = _create_beside(folder, base, name)
    try:
        try:
            if info is not None and hasattr(os, "fchmod"):
                os.fchmod(descriptor, stat.S_IMODE(info.st_mode))
            remaining = memoryview(data)
            while remaining:
                remaining = remaining[os.write(descriptor, remaining) :]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _create_beside(folder: str, base: str, name: str) -> tuple[int, str]:
    """A new empty file in ``folder`` named after ``base``: (descriptor, path)."""
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | os.O_EXCL
        | getattr(os, "O_BINARY", 0)
        | getattr(os, "O_CLOEXEC", 0)
    )
    while True:
        temporary = os.path.join(folder, f".{base[:200]}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary  # the umask applies, as for open()
        except FileExistsError:
            continue
        except OSError as exc:  # name the file asked for, and what was tried
            raise type(exc)(
                exc.errno, f"{exc.strerror} (creating a temporary file beside it in {folder})", name
            ) from None


def merge_text_file(
    message: Message, path: str | os.PathLike[str], lock: Lock | None = None
) -> None:
    """Merge the text-format file ``path`` into ``message``, all or nothing.

    Every failure raises ``TextFormatFileError`` (a ValueError) naming the
    file and leaves ``message`` unchanged: a missing file
    (``TextFormatFileNotFoundError``, also a FileNotFoundError), a folder, a
    pipe or a device (refused before reading: a pipe would block), bytes that
    are not UTF-8, a parse error (with its line), a message nested deeper than
    protobuf parses. The file is parsed aside and merged in one step, under
    ``lock`` when given (the wrapper's)."""
    from google.protobuf import text_format

    name = os.fsdecode(os.fspath(path))
    text = _read_text_file(name)
    spec = spec_of(message)
    # protobuf's text parser calls a message's methods by name, and upb answers
    # a field of that name: such a type is parsed as its twin (see _twin)
    shadowing = _SHADOWING.get(spec.full_name, _UNKNOWN)
    if shadowing is _UNKNOWN:
        shadowing = _SHADOWING[spec.full_name] = _shadowing_field(spec, set())
    twin = _twin(type(message)) if shadowing else None
    try:
        if twin is None:
            parsed = type(message)()
            text_format.Merge(text, parsed)
        else:
            text = _renamed_text(text, descriptor_of(message), twin.renames)
            parsed = _from_twin(type(message), _twin_merged(twin, None, text))
    except text_format.ParseError as exc:
        raise TextFormatFileError(f"{name}: {exc}") from None
    except RecursionError:
        raise TextFormatFileError(f"{name}: nested too deep to parse") from None
    if depth_bound(spec) > MAX_DEPTH + 1 and spans_more_than(parsed, MAX_DEPTH + 1):
        raise TextFormatFileError(
            f"{name}: nested more than {MAX_DEPTH} levels deep, protobuf's limit"
        )

    def merge() -> None:
        if _merges_as_text(spec):
            merge_from(message, parsed)  # one step, as the text would merge
            return
        # A field without presence set to its default in the text: a merge of
        # the parsed message would skip it, the text's merge sets it.
        if twin is None:
            staged = type(message)()
            copy_from(staged, message)
            text_format.Merge(text, staged)
        else:
            staged = _from_twin(type(message), _twin_merged(twin, message, text))
        copy_from(message, staged)

    if lock is None:
        merge()
    else:
        with lock:
            merge()


_UNKNOWN: Final = object()
_SHADOWING: dict[str, object] = {}  # message full name -> _shadowing_field's answer


class _Twin(NamedTuple):
    cls: type[Message]
    renames: dict[str, dict[str, str]]  # message full name -> {field name: its twin's name}


_TWINS: dict[type, _Twin] = {}


def _twin(cls: type[Message]) -> _Twin:
    """``cls``'s type in a descriptor pool of its own, where no field takes a
    name of protobuf's messages (``NAME`` is ``NAME_<number>_``): protobuf's
    text parser fills it (from the text with those names replaced,
    _renamed_text), and its wire form is ``cls``'s."""
    twin = _TWINS.get(cls)
    if twin is None:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

        pool = descriptor_pool.DescriptorPool()
        renames: dict[str, dict[str, str]] = {}
        added: set[str] = set()

        def add(file: Any) -> None:
            if file.name in added:
                return
            added.add(file.name)
            for dependency in file.dependencies:
                add(dependency)
            proto = descriptor_pb2.FileDescriptorProto()
            file.CopyToProto(proto)
            for message in proto.message_type:
                _rename_fields(message, f"{proto.package}." if proto.package else "", renames)
            pool.Add(proto)

        descriptor: Any = cls.DESCRIPTOR
        add(descriptor.file)
        found = pool.FindMessageTypeByName(descriptor.full_name)
        twin = _TWINS[cls] = _Twin(message_factory.GetMessageClass(found), renames)
    return twin


def _rename_fields(message: Any, scope: str, renames: dict[str, dict[str, str]]) -> None:
    full_name = scope + message.name
    taken = {field.name for field in message.field}
    for field in message.field:
        if field.name in MESSAGE_MEMBERS:
            new = f"{field.name}_{field.number}_"
            while new in taken:
                new += "_"
            taken.add(new)
            renames.setdefault(full_name, {})[field.name] = new
            field.name = new
    for nested in message.nested_type:
        _rename_fields(nested, f"{full_name}.", renames)


def _twin_merged(twin: _Twin, message: Message | None, text: str) -> Message:
    """A twin holding ``message`` (or nothing), then the text merged into it."""
    from google.protobuf import text_format

    staged: Message = twin.cls()
    if message is not None:
        parse_from(staged, serialize_partial(message))
    text_format.Merge(text, staged)
    return staged


def _from_twin(cls: type[Message], staged: Message) -> Message:
    message = cls()
    parse_from(message, serialize_partial(staged))  # (unknown fields too)
    return message


# a token of the text format: whitespace or a comment (group 1), else one token
_TEXT_TOKEN = re.compile(
    r"""(\s+|\#[^\n]*)|("(?:[^"\n\\]|\\.)*"?|'(?:[^'\n\\]|\\.)*'?|[\w.+-]+|.)"""
)


def _renamed_text(text: str, descriptor: Any, renames: Mapping[str, Mapping[str, str]]) -> str:
    """``text`` with each renamed field's name replaced by its twin's, where
    the text format puts field names (walking the message types as the text
    nests them; an extension's or an Any's fields are left as they are)."""
    tokens = [(m.start(2), m.group(2)) for m in _TEXT_TOKEN.finditer(text) if m.group(2)]
    count = len(tokens)
    edits: list[tuple[int, str, str]] = []

    def value(i: int, kind: Any) -> int:
        token = tokens[i][1]
        if token in ("{", "<"):
            return fields(i + 1, kind, "}" if token == "{" else ">")
        i += 2 if token == "-" else 1
        while i < count and tokens[i][1][:1] in "\"'" and tokens[i - 1][1][:1] in "\"'":
            i += 1  # adjacent strings are one
        return i

    def fields(i: int, kind: Any, close: str | None) -> int:
        while i < count and tokens[i][1] != close:
            token, field = tokens[i][1], None
            if token == "[":  # an extension's name or an Any's type
                while i < count and tokens[i][1] != "]":
                    i += 1
            elif kind is not None:
                field = _text_field(kind, token)
                new = renames.get(kind.full_name, {}).get(token)
                if field is not None and new is not None:
                    edits.append((tokens[i][0], token, new))
            i += 1
            if i < count and tokens[i][1] == ":":
                i += 1
            inner = field.message_type if field is not None else None
            if i < count and tokens[i][1] == "[":  # a list of values
                i += 1
                while i < count and tokens[i][1] != "]":
                    i = value(i, inner)
                    if i < count and tokens[i][1] == ",":
                        i += 1
                i += 1
            elif i < count:
                i = value(i, inner)
            if i < count and tokens[i][1] in (",", ";"):
                i += 1
        return i + 1

    fields(0, descriptor, None)
    parts: list[str] = []
    end = 0
    for start, old, new in edits:
        parts += [text[end:start], new]
        end = start + len(old)
    return "".join(parts) + text[end:]


def _text_field(kind: Any, token: str) -> Any:
    """The field ``token`` names in the text format: by its name, a group by its type's."""
    field = kind.fields_by_name.get(token)
    if field is None:
        field = kind.fields_by_name.get(token.lower())
        if field is None or field.message_type is None or field.message_type.name != token:
            return None
    return field


def _shadowing_field(spec: MessageSpec, seen: set[str]) -> str | None:
    """The full name of a field, of ``spec``'s type or one it holds, named as
    a member of protobuf's messages; None if there is none."""
    seen.add(spec.full_name)
    for field in spec.fields.values():
        if field.name in MESSAGE_MEMBERS:
            return f"{spec.full_name}.{field.name}"
        inner = (field.map_value or field).message
        if inner is not None and inner not in seen and inner in SPECS:
            found = _shadowing_field(SPECS[inner], seen)
            if found is not None:
                return found
    return None


_MERGES_AS_TEXT: dict[str, bool] = {}


def _merges_as_text(spec: MessageSpec) -> bool:
    """Whether merging a message parsed from text equals merging the text:
    true unless some singular field reachable from ``spec`` has no presence."""
    known = _MERGES_AS_TEXT.get(spec.full_name)
    if known is None:
        _MERGES_AS_TEXT[spec.full_name] = True  # while in progress (a recursive type)
        known = True
        for field in spec.fields.values():
            inner = field.map_value if field.map_key is not None else field
            if inner is None:
                continue
            if inner.message is not None:
                known = _merges_as_text(SPECS[inner.message])
            elif not (field.repeated or field.map_key or field.has_presence):
                known = False
            if not known:
                break
        _MERGES_AS_TEXT[spec.full_name] = known
    return known


def _read_text_file(name: str) -> str:
    """The text of the regular file ``name``, or TextFormatFileError naming it."""
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        descriptor = os.open(name, flags)  # non-blocking: opening a pipe must not wait for a writer
    except FileNotFoundError as exc:
        raise TextFormatFileNotFoundError(exc.errno, exc.strerror, name) from None
    except OSError as exc:
        raise TextFormatFileError(f"{name}: cannot open it: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            what = (
                "a folder"
                if stat.S_ISDIR(mode)
                else "a pipe" if stat.S_ISFIFO(mode) else "not a regular file"
            )
            raise TextFormatFileError(f"{name}: {what}, expected a text-format file")
        with open(descriptor, "rb", closefd=False) as handle:
            data = handle.read()
    except OSError as exc:
        raise TextFormatFileError(f"{name}: cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TextFormatFileError(
            f"{name}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


# -- dotted paths and duck-typed objects --------------------------------------


def fill_dotted(
    message: Message, prefix: str, config: Mapping[str, Any], where: str, index: int = 0
) -> set[str]:
    """Set fields of ``message`` from keys that are dotted paths below ``prefix``
    (``<prefix>.<field>.<sub field>``); returns the keys used.

    A repeated message field takes ``<path>.num`` items, each filled from the
    same keys; a list value of a singular field gives item ``index`` its
    element; a repeated scalar field is extended by its value. Errors name
    ``where`` and the key."""
    used: set[str] = set()
    for field in descriptor_of(message).fields:
        path = f"{prefix}.{field.name}"
        repeated = is_repeated(field)
        if field.message_type is not None:
            if repeated:
                count_key = path + ".num"
                if count_key not in config:
                    continue
                used.add(count_key)
                for item_index in range(config[count_key]):
                    used |= fill_dotted(
                        getattr(message, field.name).add(), path, config, where, item_index
                    )
            else:
                used |= fill_dotted(getattr(message, field.name), path, config, where, index)
            continue
        if path not in config:
            continue
        used.add(path)
        value = config[path]
        try:
            if repeated:
                getattr(message, field.name).extend(value)
            elif isinstance(value, list):
                setattr(message, field.name, value[index])
            else:
                setattr(message, field.name, value)
        except (TypeError, ValueError, IndexError) as exc:
            raise type(exc)(f"{where}[{path!r}]: {exc}") from None
    return used


def object_config(value: Any, spec: MessageSpec) -> Any:
    """What ``assign_config`` takes for ``value``: a mapping or a message of
    the type as it is; any other object as a dict of the fields it has as
    attributes (missing ones are left out; an integer or enum field takes an
    object with ``__int__``, such as an IntEnum of another library)."""
    if isinstance(value, (Mapping, spec.cls)):
        return cast(Any, value)
    config: dict[str, Any] = {}
    for name, field in spec.fields.items():
        if not hasattr(value, name):
            continue
        item = getattr(value, name)
        if field.kind in (INT, ENUM) and not isinstance(item, int) and hasattr(item, "__int__"):
            item = int(item)
        config[name] = item
    return config


def copy_to_object(message: Message, target: Any, convert: Mapping[str, Any] | None = None) -> Any:
    """Set every field of ``message`` as an attribute of ``target`` (repeated
    fields as lists, maps as dicts), through ``convert[field]`` where given;
    returns ``target``."""
    for field in descriptor_of(message).fields:
        value: Any = getattr(message, field.name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value = dict(value)
        elif is_repeated(field):
            value = list(value)
        if convert and field.name in convert:
            value = convert[field.name](value)
        setattr(target, field.name, value)
    return target


def merge_keyed(container: Any, items: list[Any], key: str) -> None:
    """Add ``items`` (messages) to the repeated message field ``container`` in
    one step; an existing item whose ``key`` field equals a new item's is
    replaced (removed; the new items are appended in their order)."""
    names = {getattr(item, key) for item in items}
    kept: list[Any] = [item for item in container if getattr(item, key) not in names]
    if len(kept) != len(container):
        survivors: list[Message] = []
        for item in kept:  # detached copies: clearing the field releases the originals
            survivor: Message = type(item)()
            copy_from(survivor, item)
            survivors.append(survivor)
        del container[:]
        container.extend(survivors)
    container.extend(items)
