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

from google.protobuf.message import Message

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
    "_runtime_wrapper",
)
# Modules every generated package has: a proto file's modules must not take their names.
PACKAGE_MODULES = frozenset({"types", "_specs", "_pool", *RUNTIME_MODULES})
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


def module_path_for_proto(proto_file: str) -> tuple[str, ...]:
    """Where a proto file's modules go inside the package: its folders, then
    its stem, each made a Python name (``google/api/http.proto`` ->
    ``("google", "api", "http")``: wrapper classes in ``google/api/http.py``,
    protobuf classes in ``google/api/http_pb2.py``). So files with equal names
    in different folders coexist. A name the package's own modules use
    (``types``, ``_runtime``, ...) or ending in ``_pb2`` gets a trailing ``_``."""
    *folders, file = proto_file.split("/")
    parts = [_module_part(x) for x in folders] + [
        _module_part(file.removesuffix(".proto"))
    ]
    for i, part in enumerate(parts):
        while (i == 0 and part in PACKAGE_MODULES) or part.endswith("_pb2"):
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
