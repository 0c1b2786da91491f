"""Settings that change over time: a field's ``renamed_from`` (old names users
may still write) and ``deprecated`` (on its way out), read and checked.

An old name is accepted wherever the field's name is (a config key, a
file's key, a prototxt field) and, where the field has a property, as a
property of the class: it must not clash with anything of those (a field,
a property, an extra key, a member, another old name). Versions are text
(``"2.10"`` must not read as the number 2.1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ..schema import naming
from ..schema.schema import Message, Schema
from .checker import Checker, Node
from .keys import (
    DEPRECATION_KEYS,
    RENAME_KEYS,
    ClassNote,
    DeprecationNote,
    ExtraKeyNote,
    FieldNote,
    RenameNote,
    member_names,
)

_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def _version(c: Checker, node: Node, where: str) -> str | None:
    """A version: text of letters, digits and ``. _ + -`` (``2.6``, ``3.0.0rc1``)."""
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        c.error(f"{where}: expected a version such as '2.6' (quoted)", node)
        return None
    if not _VERSION.fullmatch(str(value)):
        c.error(
            f"{where}: {value!r} is not a version (letters, digits and . _ + -, such as '2.6')",
            node,
        )
        return None
    return str(value)


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    """A version's order: its dot-separated parts, numbers by value before
    words (``2.10`` after ``2.9``; ``3.0rc1`` before ``3.0.1``)."""
    parts = re.findall(r"\d+|[A-Za-z]+", version)
    return tuple((0, int(p)) if p.isdigit() else (-1, p) for p in parts)


def is_due(removed_in: str | None, version: str | None) -> bool:
    """Whether the schema's ``version`` has reached ``removed_in``."""
    if removed_in is None or version is None:
        return False
    return version_key(version) >= version_key(removed_in)


def read_renamed_from(
    c: Checker, node: Node | None, where: str
) -> tuple[RenameNote, ...]:
    """``renamed_from: {old: version}`` or ``{old: {since, removed_in}}``."""
    if node is None:
        return ()
    where = f"{where}.renamed_from"
    if not isinstance(node.value, dict) or not node.value:
        c.error(f"{where}: expected a mapping of old names to versions", node)
        return ()
    found = []
    for old, entry in node.value.items():
        at = f"{where}.{old}"
        if not isinstance(old, str) or not _is_name(old):
            c.error(f"{at}: an old name is a field name (letters, digits, _)", entry)
            continue
        if isinstance(entry.value, dict):
            keys = c.mapping(entry, at, RENAME_KEYS)
            if "since" not in keys:
                c.error(
                    f"{at}: 'since' is required (the version it was renamed in)", entry
                )
                continue
            since = _version(c, keys["since"], f"{at}.since")
            removed = (
                _version(c, keys["removed_in"], f"{at}.removed_in")
                if "removed_in" in keys
                else None
            )
        else:
            since, removed = _version(c, entry, at), None
        if since is not None:
            found.append(
                RenameNote(old=old, since=since, removed_in=removed, line=entry.line)
            )
    return tuple(found)


def read_deprecated(
    c: Checker, node: Node | None, where: str
) -> DeprecationNote | None:
    """``deprecated: {message, since, removed_in}``."""
    if node is None:
        return None
    where = f"{where}.deprecated"
    keys = c.mapping(node, where, DEPRECATION_KEYS)
    missing = [k for k in DEPRECATION_KEYS.required() if k not in keys]
    if missing:
        c.error(f"{where}: {' and '.join(map(repr, missing))} required", node)
        return None
    since = _version(c, keys["since"], f"{where}.since")
    removed = (
        _version(c, keys["removed_in"], f"{where}.removed_in")
        if "removed_in" in keys
        else None
    )
    if since is None or not str(keys["message"].value).strip():
        if since is not None:
            c.error(f"{where}.message: say what to use instead", keys["message"])
        return None
    return DeprecationNote(
        message=keys["message"].value, since=since, removed_in=removed, line=node.line
    )


def _is_name(text: str) -> bool:
    return text.isidentifier() and text.isascii()


def check_renames(
    c: Checker,
    schema: Schema,
    messages: Mapping[str, Mapping[str, FieldNote]],
    classes: Iterable[ClassNote],
    extra_keys: Mapping[str, Iterable[ExtraKeyNote]],
) -> None:
    """An old name must name nothing else where it is accepted: a field or
    an extra key of its message, another field's old name, and (where the
    field has a property) a property or member of a class wrapping it."""
    wrapping: dict[str, list[ClassNote]] = {}
    for cls in classes:
        wrapping.setdefault(cls.message, []).append(cls)
    for full, notes in messages.items():
        message = schema.messages[full]
        taken = {f.name: "a field" for f in message.fields}
        taken.update((k.name, "an extra key") for k in extra_keys.get(full, ()))
        properties = _properties(message, notes)
        claimed: dict[str, str] = {}
        for fname, note in notes.items():
            for r in note.renamed_from:
                where = f"{full}.{fname}.renamed_from.{r.old}"
                node = Node(r.old, r.line)
                if r.old in taken:
                    c.error(f"{where}: {r.old!r} is {taken[r.old]} of {full}", node)
                elif r.old in claimed:
                    c.error(
                        f"{where}: {r.old!r} is already an old name of {full}.{claimed[r.old]}",
                        node,
                    )
                claimed.setdefault(r.old, fname)
                if not note.hidden:
                    for cls in wrapping.get(full, ()):
                        _check_property(c, cls, properties, r.old, where, node)


def _properties(message: Message, notes: Mapping[str, FieldNote]) -> set[str]:
    """The property names a class wrapping ``message`` has for its fields."""
    names = set()
    for f in message.fields:
        note = notes.get(f.name)
        if note is None or not note.hidden:
            names.add(note.property if note is not None and note.property else f.name)
    return names


def _check_property(
    c: Checker, cls: ClassNote, properties: set[str], old: str, where: str, node: Node
) -> None:
    if old in properties:
        c.error(f"{where}: {old!r} is a property of {cls.name}", node)
    elif old in {p.name for p in cls.extra_properties} or old in member_names(cls):
        c.error(f"{where}: {old!r} is a member of {cls.name} (annotations)", node)
    elif old in naming.WRAPPER_MEMBERS or not naming.is_plain_attribute(old):
        c.error(
            f"{where}: {old!r} cannot be a property of {cls.name} "
            "(a keyword, a private name or a member every class has)",
            node,
        )
