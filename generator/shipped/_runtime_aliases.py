# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""Settings that changed over time: the old names a field may still be
written by (the annotations' ``renamed_from``) and the fields that are on
their way out (``deprecated``).

The package's ``_specs`` module hands the table to ``register_aliases`` at
import; ``RENAMED`` and ``DEPRECATED`` hold it, by message full name. Old
names work everywhere a field name is written: a property of the class (the
generated alias property), a key of a config dict, a key of a dict or file
``from_dict``/``load`` read, a field of a prototxt ``load_from_prototxt``
reads. Each use warns (``DeprecationWarning`` at the user's line, naming the
new name and the version); nothing is ever written under an old name.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeVar, cast

from ._runtime_specs import as_mapping

_F = TypeVar("_F", bound=Callable[..., Any])

if TYPE_CHECKING:
    # PEP 702: type checkers flag every use of a name it decorates
    from typing_extensions import deprecated
else:

    def deprecated(
        message: str, /, *, category: Any = DeprecationWarning, stacklevel: int = 1
    ) -> Callable[[_F], _F]:
        """PEP 702's decorator, for type checkers only: at run time it marks
        the function (``__deprecated__``) and the runtime warns itself
        (``warn_renamed``), so Python 3.9 to 3.12 need no typing_extensions."""

        def mark(function: _F) -> _F:
            function.__deprecated__ = message
            return function

        return mark


__all__ = [
    "DEPRECATED",
    "RENAMED",
    "Deprecated",
    "Renamed",
    "TextRename",
    "current_keys",
    "current_text",
    "deprecated",
    "deprecated_of",
    "register_aliases",
    "renamed_of",
    "resolve_key",
    "text_renames",
    "warn_field_deprecated",
    "warn_renamed",
]


class Renamed(NamedTuple):
    """An old name of a field, still accepted with a warning (``renamed_from``)."""

    message: str  # full name of the message the field is in
    old: str  # the old name (of the field, and of its property where it has one)
    new: str  # the field's name now
    since: str  # the version it was renamed in
    removed_in: str | None = None  # the version the old name goes away in, if planned

    def text(self) -> str:
        """What the warning says."""
        removal = f"; the old name goes away in {self.removed_in}" if self.removed_in else ""
        return f"{self.old!r} was renamed {self.new!r} in {self.since}{removal}: use {self.new!r}"


class Deprecated(NamedTuple):
    """A field on its way out (``deprecated``)."""

    message: str  # full name of the message the field is in
    field: str
    text: str  # what to use instead
    since: str  # the version it was deprecated in
    removed_in: str | None = None  # the version it goes away in, if planned

    def warning(self) -> str:
        """What the warning says."""
        removal = f", to be removed in {self.removed_in}" if self.removed_in else ""
        return f"{self.field!r} is deprecated since {self.since}{removal}: {self.text}"


class TextRename(NamedTuple):
    """An old field name found in a text-format (prototxt) document."""

    line: int  # 1-based
    column: int  # 1-based
    offset: int  # of its first character in the text
    old: str
    new: str
    message: str  # full name of the message the field is in


# message full name -> old name -> Renamed; message full name -> field -> Deprecated
RENAMED: Final[dict[str, dict[str, Renamed]]] = {}
DEPRECATED: Final[dict[str, dict[str, Deprecated]]] = {}


def register_aliases(
    renamed: Iterable[Renamed] = (), deprecated: Iterable[Deprecated] = ()
) -> None:
    """Add the package's old names and deprecations (its ``_specs`` module calls this)."""
    for r in renamed:
        RENAMED.setdefault(r.message, {})[r.old] = r
    for d in deprecated:
        DEPRECATED.setdefault(d.message, {})[d.field] = d


def _full_name(message: Any) -> str:
    """A message's full name, from the name itself, a descriptor, a message or its class."""
    if isinstance(message, str):
        return message
    return str(getattr(message, "DESCRIPTOR", message).full_name)


def renamed_of(message: Any) -> Mapping[str, Renamed]:
    """The old names of ``message``'s fields (full name, descriptor, message or class)."""
    return RENAMED.get(_full_name(message), {})


def deprecated_of(message: Any) -> Mapping[str, Deprecated]:
    """The deprecated fields of ``message`` (full name, descriptor, message or class)."""
    return DEPRECATED.get(_full_name(message), {})


# -- warnings at the user's line ------------------------------------------------

_PACKAGE: Final = __name__.rpartition(".")[0]


def _outside_stacklevel() -> int:
    """The ``stacklevel`` (for a ``warnings.warn`` called by this module's
    caller's caller) of the first frame outside the package: the generated
    modules (their ``_runtime``), the runtime and the hooks are skipped."""
    runtime = sys.modules.get(f"{_PACKAGE}.runtime")
    frame = sys._getframe(2)  # the caller of warn_*  # pyright: ignore[reportPrivateUsage]
    level = 1
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        ours = (
            module == _PACKAGE
            or module.startswith(f"{_PACKAGE}.")
            or (runtime is not None and frame.f_globals.get("_runtime") is runtime)
        )
        if not ours:
            return level
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn_renamed(renamed: Renamed, where: str = "") -> None:
    """Warn that an old name was used (``where``: the dict or file it was found in)."""
    prefix = f"{where}: " if where else ""
    warnings.warn(
        prefix + renamed.text(),
        DeprecationWarning,
        stacklevel=_outside_stacklevel() + 1,
    )


def warn_field_deprecated(deprecation: Deprecated, where: str = "") -> None:
    """Warn that a deprecated field is used."""
    prefix = f"{where}: " if where else ""
    warnings.warn(
        prefix + deprecation.warning(),
        DeprecationWarning,
        stacklevel=_outside_stacklevel() + 1,
    )


def resolve_key(message: str, key: object, where: str = "") -> str | None:
    """The field an old name ``key`` of ``message`` now names (after
    warning), or None when it is no old name."""
    renamed = RENAMED.get(message, {}).get(key) if isinstance(key, str) else None
    if renamed is None:
        return None
    warn_renamed(renamed, where)
    return renamed.new


# -- dicts (from_dict, load) ----------------------------------------------------------

_MAX_LEVELS: Final = 200  # deeper than protobuf parses: the reader refuses it anyway


def current_keys(descriptor: Any, data: Any, where: str = "") -> Any:
    """``data`` (a dict of ``descriptor``'s fields, as ``from_dict`` takes)
    with every old name replaced by its field's, at every level, each with a
    warning; other values are returned as they are. Raises ValueError when a
    mapping gives both an old name and the field it was renamed to."""
    if not RENAMED and not DEPRECATED:
        return data
    return _current(descriptor, data, where or descriptor.full_name, 0)


def _current(descriptor: Any, value: object, where: str, level: int) -> object:
    data = as_mapping(value)
    if data is None or level > _MAX_LEVELS:
        return value  # not a dict of fields: the reader says what is wrong with it
    renamed = RENAMED.get(descriptor.full_name, {})
    deprecated = DEPRECATED.get(descriptor.full_name, {})
    result: dict[Any, Any] = {}
    for key, value in data.items():
        name = key
        if isinstance(key, str) and key in renamed and key not in descriptor.fields_by_name:
            name = renamed[key].new
            if name in data:
                raise ValueError(
                    f"{where}: both {key!r} and {name!r} are given; {key!r} is the old "
                    f"name of {name!r} (renamed in {renamed[key].since}): keep only {name!r}"
                )
            warn_renamed(renamed[key], f"{where}.{key}")
        if isinstance(name, str) and name in deprecated:
            warn_field_deprecated(deprecated[name], f"{where}.{name}")
        field = descriptor.fields_by_name.get(name) if isinstance(name, str) else None
        result[name] = _current_value(field, value, f"{where}.{name}", level)
    return result


def _current_value(field: Any, value: Any, where: str, level: int) -> Any:
    kind = field.message_type if field is not None else None
    if kind is None:
        return value
    if kind.GetOptions().map_entry:
        inner = kind.fields_by_name["value"].message_type
        entries = as_mapping(value)
        if inner is None or entries is None:
            return value
        return {k: _current(inner, v, f"{where}[{k!r}]", level + 1) for k, v in entries.items()}
    if isinstance(value, (list, tuple)):
        items = cast("list[Any]", value)
        return [_current(kind, v, f"{where}[{i}]", level + 1) for i, v in enumerate(items)]
    return _current(kind, value, where, level + 1)


# -- text format (load_from_prototxt) --------------------------------------------------

# a prototxt's tokens: space and comments (group 1), then strings, words, punctuation
_TOKEN: Final = re.compile(
    r"""(\s+|\#[^\n]*)|("(?:[^"\n\\]|\\.)*"?|'(?:[^'\n\\]|\\.)*'?|[\w.+-]+|.)"""
)
_NAME: Final = re.compile(r"[A-Za-z_]\w*")


def text_renames(text: str, descriptor: Any) -> list[TextRename]:
    """Where the prototxt ``text`` (of a ``descriptor`` message) names a
    field by an old name, walking the message types as the text nests them
    (an extension's and an Any's contents are left alone). A text that does
    not parse gives what was found before the fault: the parser reports it."""
    if not RENAMED:
        return []
    tokens = [(m.start(2), m.group(2)) for m in _TOKEN.finditer(text) if m.group(2)]
    found: list[tuple[int, str, str, str]] = []
    # each entry: (in a list?, the message type of what it holds or None, its closing token)
    stack: list[tuple[bool, Any, str | None]] = [(False, descriptor, None)]
    i, count = 0, len(tokens)
    while i < count and stack:
        in_list, kind, close = stack[-1]
        token = tokens[i][1]
        if token == close:
            stack.pop()
            i += 1
            continue
        if token in (",", ";"):
            i += 1
            continue
        if in_list:
            i = _value(tokens, i, kind, stack)
            continue
        field = None
        if token == "[":  # an extension's name or an Any's type
            while i < count and tokens[i][1] != "]":
                i += 1
        elif kind is not None and _NAME.fullmatch(token):
            field = _text_field(kind, token)
            renamed = RENAMED.get(kind.full_name, {}).get(token)
            if field is None and renamed is not None:
                field = kind.fields_by_name.get(renamed.new)
                found.append((tokens[i][0], token, renamed.new, kind.full_name))
        elif close is None and token in ("}", ">"):
            break  # unbalanced: the parser says where
        i += 1
        if i < count and tokens[i][1] == ":":
            i += 1
        if i < count:
            i = _value(tokens, i, field.message_type if field is not None else None, stack)
    return [_located(text, offset, old, new, message) for offset, old, new, message in found]


def _value(tokens: list[tuple[int, str]], i: int, kind: Any, stack: list[Any]) -> int:
    """Past the value at ``tokens[i]``: a message or list opened is pushed on ``stack``."""
    token = tokens[i][1]
    if token in ("{", "<"):
        stack.append((False, kind, "}" if token == "{" else ">"))
        return i + 1
    if token == "[":
        stack.append((True, kind, "]"))
        return i + 1
    i += 2 if token == "-" else 1
    while i < len(tokens) and tokens[i][1][:1] in "\"'" and tokens[i - 1][1][:1] in "\"'":
        i += 1  # adjacent strings are one
    return i


def _text_field(kind: Any, token: str) -> Any:
    """The field ``token`` names in the text format: by its name, a group by its type's."""
    field = kind.fields_by_name.get(token)
    if field is None:
        field = kind.fields_by_name.get(token.lower())
        if field is None or field.message_type is None or field.message_type.name != token:
            return None
    return field


def _located(text: str, offset: int, old: str, new: str, message: str) -> TextRename:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return TextRename(line, column, offset, old, new, message)


def current_text(text: str, descriptor: Any, where: str = "") -> str:
    """The prototxt ``text`` with every old field name replaced by its
    field's (the wire format never changed), each with a warning naming
    ``where``:line."""
    renames = text_renames(text, descriptor)
    if not renames:
        return text
    parts: list[str] = []
    end = 0
    for r in renames:
        warn_renamed(
            RENAMED[r.message][r.old],
            f"{where}:{r.line}" if where else f"line {r.line}",
        )
        parts += [text[end : r.offset], r.new]
        end = r.offset + len(r.old)
    return "".join(parts) + text[end:]
