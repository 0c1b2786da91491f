"""All renaming in one place: proto names -> Python names that always work.

The rule (documented in the README): a name that is a Python keyword, a
dunder, shadows a name the generated class body itself uses, or collides with
a member the class already has gets one trailing underscore (repeated until it
is free). The annotations file can choose any other name with ``property:``.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterable, Mapping

from google.protobuf.message import Message

from ..errors import Problem

# Names the generated class bodies use at class level, or members every
# wrapper class has; a property with one of these names would break them.
CLASS_BODY_NAMES = frozenset(
    {"property", "staticmethod", "classmethod", "super", "object", "self"}
)
# what every wrapper class has (the runtime's Wrapper) or its body defines
WRAPPER_MEMBERS = frozenset(
    {
        "strict",
        "_strict",
        "__slots__",
        "__init__",
        "__setattr__",
        "__repr__",
        "__eq__",
        "__hash__",
        "_construct",
        "_named",
        "_set",
        "_direct",
        "_renamed",
        "_message",
        "_binding",
        "_lock",
        "_mutex",
        "__getstate__",
        "__setstate__",
        "__copy__",
        "__deepcopy__",
    }
)
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
BUILTIN_NAMES = frozenset(dir(builtins))
# what every protobuf message has: a field named so is not reachable as an
# attribute (msg.__init__ is the method), only through the descriptor
MESSAGE_MEMBERS = frozenset(dir(Message))


def is_identifier(name: str) -> bool:
    return bool(_IDENTIFIER.match(name)) and not keyword.iskeyword(name)


def is_plain_attribute(name: str) -> bool:
    """``obj.name`` works anywhere, class bodies included (no keyword, no name mangling)."""
    return is_identifier(name) and not (
        name.startswith("__") and not name.endswith("__")
    )


def _taken(name: str, reserved: frozenset[str] | set[str]) -> bool:
    return (
        keyword.iskeyword(name)
        # a dunder, or a private name (mangled in a class body); "___" ends the run
        or (name.startswith("__") and not name.endswith("___"))
        or name in CLASS_BODY_NAMES
        or name in reserved
    )


def python_member_name(proto_name: str, reserved: frozenset[str] | set[str]) -> str:
    """Property/attribute name for a proto field; see the module docstring."""
    name = proto_name
    while _taken(name, reserved):
        name += "_"
    return name


def message_class_name(local_name: str) -> str:
    """``Outer.Inner`` -> ``Outer_Inner`` (flat names for module-level types)."""
    return local_name.replace(".", "_")


def typed_dict_names(local_name: str) -> tuple[str, str]:
    base = message_class_name(local_name)
    return f"{base}Dict", f"{base}Input"


def enum_literal_name(local_name: str) -> str:
    return f"{message_class_name(local_name)}Name"


def needs_functional_typed_dict(keys: list[str]) -> bool:
    """Class syntax cannot hold keywords (and mangles ``__private`` keys)."""
    return any(not is_plain_attribute(k) for k in keys)


# The runtime's modules, copied verbatim into every package from generator/shipped/.
RUNTIME_MODULES = (
    "runtime",
    "_runtime_configs",
    "_runtime_io",
    "_runtime_specs",
    "_runtime_values",
    "_runtime_wrapper",
)
# The modules a generated package holds besides those made from the .proto
# files: its support modules, the runtime, and the linter with its rules and
# `python -m` entry (where a class has rules). A proto file's top-level module
# or folder must not take one of these names, nor one equal but for case (one
# file on a case-insensitive file system): module_path_for_proto renames it.
# (The pipeline checks every rendered path against the package's own files
# before anything is written, so a name this list lacks is an error, never a
# silent replacement: see package_clashes.)
PACKAGE_MODULES = frozenset(
    {
        "__init__",
        "__main__",
        "types",
        "_specs",
        "_pool",
        "_rules",
        "lint",
        *RUNTIME_MODULES,
    }
)
# Names the generated modules use at module level (besides builtins): not for classes.
MODULE_LEVEL_NAMES = PACKAGE_MODULES | {
    "annotations",
    "TYPE_CHECKING",
    "Any",
    "UnknownConfigKeyError",
    "default_strict",
    "set_default_strict",
    "Mapping",
    "copy",
}


def _module_part(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if not name or name[0].isdigit() or keyword.iskeyword(name):
        name = f"_{name}"
    return name


def strict_env(package: str) -> str:
    """The environment variable that turns strict mode on: ``fleet_strategy`` ->
    ``FLEET_STRATEGY_STRICT`` (the annotations' ``strict_env`` overrides it)."""
    return re.sub(r"[^A-Z0-9_]", "_", package.upper()) + "_STRICT"


def _is_dunder(part: str) -> bool:
    """``__init__``, ``__main__``, ``__pycache__``: names Python gives a meaning
    in a package, at any depth ("___" ends the run, as in _taken)."""
    return (
        len(part) > 4
        and part.startswith("__")
        and part.endswith("__")
        and not part.endswith("___")
    )


_PACKAGE_MODULES_FOLDED = frozenset(m.casefold() for m in PACKAGE_MODULES)


def module_path_for_proto(proto_file: str) -> tuple[str, ...]:
    """Where a proto file's modules go inside the package: its folders, then
    its stem, each made a Python name (``google/api/http.proto`` ->
    ``("google", "api", "http")``: wrapper classes in ``google/api/http.py``,
    protobuf classes in ``google/api/http_pb2.py``). So files with equal names
    in different folders coexist. A top-level name the package's own modules
    use, ignoring case (``types``, ``Lint``, ``_runtime``, ...), a dunder
    name at any depth (``__init__``) and a name ending in ``_pb2`` (any case)
    get a trailing ``_``."""
    *folders, file = proto_file.split("/")
    parts = [_module_part(x) for x in folders] + [
        _module_part(file.removesuffix(".proto"))
    ]
    for i, part in enumerate(parts):
        while (
            (i == 0 and part.casefold() in _PACKAGE_MODULES_FOLDED)
            or _is_dunder(part)
            or part.casefold().endswith("_pb2")
        ):
            part += "_"
        parts[i] = part
    return tuple(parts)


def flat_type_names(types: list[tuple[str, str]]) -> dict[str, str]:
    """(full name, dotted name inside its package) of every message and enum ->
    the flat name the package's module-level names are built from
    (``XDict``, ``XInput``, ``XName``, wrapper classes):
    ``Outer.Inner`` -> ``Outer_Inner``; where packages define equal names,
    each is qualified by its package (``google.api.Thing`` -> ``google_api_Thing``,
    ``google.rpc.Thing`` -> ``google_rpc_Thing``)."""
    base = {full: message_class_name(local) for full, local in types}
    counts: dict[str, int] = {}
    for name in base.values():
        counts[name] = counts.get(name, 0) + 1
    flat = {
        full: message_class_name(full) if counts[name] > 1 else name
        for full, name in base.items()
    }
    taken: set[str] = set()
    for full in sorted(
        flat, key=lambda f: (flat[f] != base[f], f)
    ):  # unqualified names keep theirs
        while flat[full] in taken:
            flat[full] += "_"
        taken.add(flat[full])
    return flat


def is_usable_class_name(name: str) -> bool:
    """A wrapper class may not be a keyword, a builtin or a name the generated
    modules use; a leading underscore would get its helpers name-mangled."""
    return (
        is_identifier(name)
        and not name.startswith("_")
        and name not in BUILTIN_NAMES | MODULE_LEVEL_NAMES
    )


def python_class_name(local_name: str, modules: frozenset[str] | set[str]) -> str:
    """Class name of a message the annotations do not name: the flat name, with
    the renaming rule's trailing underscore while it is not usable or names one
    of the package's ``modules``."""
    name = message_class_name(local_name)
    while not name.startswith("_") and (
        not is_usable_class_name(name) or name in modules
    ):
        name += "_"
    return name


def _module_key(path: str) -> str:
    """The module a file is, as a case-insensitive file system and Python's
    import see it: ``pkg/x/__init__.py`` and ``pkg/X.py`` are both ``pkg/x.py``
    (a folder hides a module of its name)."""
    key = path.casefold()
    for suffix in (".py", ".pyi"):
        if key.endswith(f"/__init__{suffix}"):
            return key[: -len(f"/__init__{suffix}")] + suffix
    return key


def package_clashes(
    files: Iterable[tuple[str, str | None]], others: Mapping[str, str]
) -> list[Problem]:
    """A problem for each file made from a .proto file that would replace or
    hide another file of the package: ``files`` are every rendered file
    ``(path, the .proto it is made from or None for the package's own)``,
    ``others`` the other files the package has (path -> what it is): the
    manifest, the hand-written modules generated code imports. Paths are compared as a case-insensitive
    file system compares them, a folder's ``__init__.py`` as the folder's module."""
    groups: dict[str, list[tuple[str, str | None, str | None]]] = {}
    for path, what in others.items():
        groups.setdefault(_module_key(path), []).append((path, None, what))
    for path, proto in files:
        groups.setdefault(_module_key(path), []).append((path, proto, None))
    problems: dict[tuple[str, frozenset[str]], Problem] = {}
    for group in groups.values():
        made = [(path, proto) for path, proto, _ in group if proto is not None]
        if len(group) < 2 or not made:
            continue
        path, proto = made[0]
        rest = [
            (o, source, what)
            for o, source, what in group
            if (o, source) != (path, proto)
        ]
        shown = [
            (
                f"{other}, generated from {source}"
                if source is not None
                else (
                    f"{other}, {what}"
                    if what is not None
                    else f"the package's own {other}"
                )
            )
            + _how_they_clash(path, other)
            for other, source, what in rest
        ]
        # one problem per .proto file and what it clashes with (not one per .py, _pb2.py, .pyi)
        key = (proto, frozenset(source or other for other, source, _ in rest))
        problems.setdefault(
            key,
            Problem(
                f"generates {path}, which would "
                + ("replace " if any(o == path for o, _, _ in rest) else "clash with ")
                + " and ".join(shown),
                proto,
                hint="rename the .proto file (or its folder)",
            ),
        )
    return list(problems.values())


def _how_they_clash(path: str, other: str) -> str:
    if path == other:
        return ""
    if path.casefold() == other.casefold():
        return " (equal but for case: one file on a case-insensitive file system)"
    return " (a folder hides the module of its name on import)"
