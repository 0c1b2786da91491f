# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""The runtime's base: the mode and the package's logger, the specs (every
field's facts, read from the message descriptors when the package's
``_specs`` module calls ``register``, with what the annotations add) and the
checks of one scalar value."""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Final, NamedTuple, cast

from google.protobuf.internal import api_implementation
from google.protobuf.message import Message

# -- protobuf's methods, whatever the fields are called ------------------------
# upb answers ``message.NAME`` with the message's field NAME when it has one,
# whatever NAME is (``SerializeToString``, ``CopyFrom``, ``DESCRIPTOR``, even
# ``__class__`` and ``__deepcopy__``), and on the message's class a nested type
# may take a method's name. So the runtime never calls a method through a
# message or its class: it calls it unbound, from the class protobuf's backend
# implements the methods in, and finds a message's descriptor through type().


def _backend_class() -> Any:
    """upb's base of every message class; None for the other backends, whose
    classes each find the methods themselves (the C++ one is not built for
    current protobuf releases)."""
    if api_implementation.Type() == "upb":
        import importlib

        backend: Any = importlib.import_module("google._upb._message")  # (no stubs)
        return backend.Message
    return None


_BACKEND: Final[Any] = _backend_class()  # a class, or None


def _method(name: str) -> Any:
    """Protobuf's method ``name``, unbound: called with the message first
    (from the message's class where the backend's base lacks it: older upb
    releases, protobuf 4.x, define some methods in Python)."""
    found = getattr(_BACKEND, name, None) if _BACKEND is not None else None
    if found is not None:
        return found

    def call(message: Any, *args: Any) -> Any:  # the message's class has it
        cls = cast(Any, type(message))  # (pyright: type[Unknown])
        return getattr(cls, name)(message, *args)

    return call


copy_from: Final = _method("CopyFrom")
merge_from: Final = _method("MergeFrom")
clear: Final = _method("Clear")
clear_field: Final = _method("ClearField")
has_field: Final = _method("HasField")
list_fields: Final = _method("ListFields")
set_in_parent: Final = _method("SetInParent")
serialize: Final = _method("SerializeToString")
serialize_partial: Final = _method("SerializePartialToString")
parse_from: Final = _method("ParseFromString")
copy_message: Final = _method("__deepcopy__")  # (message, memo): a copy of its type


# every name a message answers besides its fields (its class's and the backend's)
MESSAGE_MEMBERS: Final = frozenset(dir(Message)) | frozenset(dir(_BACKEND or Message))


def descriptor_of(message: Message) -> Any:
    """The message's Descriptor (``message.DESCRIPTOR`` may be a field)."""
    return type(message).DESCRIPTOR


# Where compatible-mode warnings go: the project's logger object given to
# configure() (a project embedding the package passes its own), else the logger named
# after this package, looked up on first use (importing logging costs a third
# of the package's import time, for a path rarely taken).
_logger: Any = None


def warn(message: str, *args: object) -> None:
    """Log a warning on the package's logger."""
    global _logger
    if _logger is None:
        import logging

        _logger = logging.getLogger(__name__.rpartition(".")[0] or __name__)
    _logger.warning(message, *args)


def configure(*, strict_env: str, logger: Any = None, strict: bool = False) -> None:
    """Bind this copy of the runtime to its package; the package's generated
    ``_specs`` module calls it once, on import, before any instance exists.

    ``strict_env``: the environment variable that chooses the default mode
    (``1``/``true`` strict, ``0``/``false`` compatible); ``strict``: the
    default where it is unset (strict for a schema whose annotations ask for
    no reference's compatibility). ``logger``: an object with ``warning()``
    that compatible-mode warnings go to, instead of the package's own logger.
    """
    global _logger
    if logger is not None:
        _logger = logger
    flag = env_flag(strict_env)
    Mode.strict = strict if flag is None else flag


TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def env_flag(name: str) -> bool | None:
    """Parse a boolean environment variable; None when unset or unreadable."""
    raw = os.environ.get(name)
    if raw is None:
        return None
    text = raw.strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    warn("ignoring %s=%r: expected one of 1/0/true/false/yes/no/on/off", name, raw)
    return None


class Mode:
    strict: bool = False  # until configure() reads the package's variable


def set_default_strict(enabled: bool) -> None:
    """Make strict validation the default for strategies created from now on.

    The initial default is compatible mode for a package whose annotations
    name a reference (they ask for its behaviour), strict mode for any
    other; the environment variable named by the package (``<PACKAGE>_STRICT``
    unless the annotations name another) overrides it (``1``/``true`` strict,
    ``0``/``false`` compatible). A single instance can
    still switch with ``strategy.strict = True`` or ``DistributedStrategy(strict=True)``.
    """
    if type(enabled) is not bool:
        raise TypeError(f"set_default_strict() takes a bool, got {type(enabled).__name__}")
    Mode.strict = enabled


def default_strict() -> bool:
    """Whether new instances validate strictly."""
    return Mode.strict


class UnknownConfigKeyError(ValueError, AssertionError):
    """A config dict named a key its message does not have.

    A ValueError (strict mode's contract) that is also an AssertionError, so
    code written against an ``assert``-based check still catches it; unlike
    an ``assert``, it does not vanish under ``python -O``.
    """


KEEP: Final = object()  # returned by check_scalar: keep the old value

# kinds of FieldSpec
BOOL, INT, FLOAT, STR, BYTES, ENUM, MESSAGE = (
    "bool",
    "int",
    "float",
    "str",
    "bytes",
    "enum",
    "message",
)

_WORDS = {
    ">": "greater than",
    ">=": "at least",
    "<": "less than",
    "<=": "at most",
    "!=": "different from",
}
_FLOAT32_MAX = 3.4028234663852886e38
# the Python type a scalar of each kind has when read back (a compatible-mode
# value of exactly this type needs no check of ours: protobuf checks the rest)
FAST_TYPES: Final[dict[str, type]] = {BOOL: bool, INT: int, FLOAT: float, STR: str, BYTES: bytes}


class Policy(NamedTuple):
    """Compatible-mode answer to a value of the wrong Python type (annotations)."""

    action: str  # warn | raise | passthrough
    error: type[Exception] | None
    message: str


PASSTHROUGH: Final = Policy("passthrough", None, "")


class FieldSpec(NamedTuple):
    """What the runtime needs to know about one field to validate a value."""

    name: str  # proto field name
    kind: str
    repeated: bool = False
    append: bool = False  # repeated: extend (annotations' repeated: append) instead of replace
    has_presence: bool = True
    low: int | None = None  # integer bounds of the proto type
    high: int | None = None
    float32: bool = False
    allow_nonfinite: bool = False
    constraint: tuple[str, float] | None = None
    constraint_always: bool = False  # also enforced in compatible mode
    choices: tuple[str, ...] | None = None
    enum_values: Mapping[str, int] | None = None
    message: str | None = None  # full name of the message type (MESSAGE)
    map_key: FieldSpec | None = None
    map_value: FieldSpec | None = None
    policy: Policy = PASSTHROUGH
    py_type: str = ""  # the Python type named in messages
    deprecated: bool = False  # [deprecated = true]: setting it warns
    enum_name: str | None = None  # an enum's full name (named in errors)


class MessageSpec:
    """A message type's fields as the runtime validates them, read from its
    descriptor (with what the annotations add), and what its dict view needs."""

    __slots__ = ("full_name", "cls", "fields", "generated", "fast_keys")

    def __init__(self, full_name: str, cls: type[Message], fields: dict[str, FieldSpec]) -> None:
        self.full_name = full_name
        self.cls = cls
        self.fields = fields  # in field order
        self.generated = True  # False: a type of a file the package does not generate
        # keys a compatible-mode config dict may set in one protobuf call when
        # given exactly this Python type (scalars with presence, nothing to warn about)
        self.fast_keys: dict[str, type] = {}

    def finish(self) -> None:
        """Work out ``fast_keys`` once the fields (and their overrides) are final."""
        if self.full_name in JSON_TYPES:  # a dict is JSON content there, not its fields
            self.fast_keys = {}
            return
        self.fast_keys = {
            name: FAST_TYPES[field.kind]
            for name, field in self.fields.items()
            if field.kind in FAST_TYPES
            and field.has_presence
            and not (field.repeated or field.map_key or field.deprecated or field.constraint_always)
        }


SPECS: dict[str, MessageSpec] = {}
# The well-known types that hold JSON-like values, set from such values
# (the configs' _fill_json); protobuf reads them back as it keeps them.
JSON_TYPES: Final = frozenset(
    {"google.protobuf.Value", "google.protobuf.Struct", "google.protobuf.ListValue"}
)


def type_name(value: object) -> str:
    return type(value).__name__


def _fail(error: type[Exception], where: str, text: str) -> Exception:
    return error(f"{where}: {text}")


def check_constraint(spec: FieldSpec, value: Any, label: str) -> None:
    assert spec.constraint is not None  # callers check
    op, bound = spec.constraint
    shown: object = int(bound) if bound.is_integer() else bound
    ok: bool
    if op == ">":
        ok = bool(value > bound)
    elif op == ">=":
        ok = bool(value >= bound)
    elif op == "<":
        ok = bool(value < bound)
    elif op == "<=":
        ok = bool(value <= bound)
    else:
        ok = bool(value != bound)
    if not ok:
        raise ValueError(f"{label} should be {_WORDS[op]} {shown}")


def strict_value(spec: FieldSpec, value: Any, where: str) -> Any:
    """Validate one scalar strictly; return the value to store (maybe converted)."""
    kind = spec.kind
    if kind == BOOL:
        if type(value) is not bool:
            raise _fail(TypeError, where, f"expected bool, got {type_name(value)} {value!r}")
        return value
    if kind == INT:
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise _fail(TypeError, where, f"expected int, got {type_name(value)} {value!r}")
        value = value.__index__()
        if not spec.low <= value <= spec.high:
            raise _fail(ValueError, where, f"{value} is out of range [{spec.low}, {spec.high}]")
    elif kind == FLOAT:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            and not hasattr(value, "__float__")
        ):
            raise _fail(TypeError, where, f"expected float, got {type_name(value)} {value!r}")
        value = float(value)
        if not spec.allow_nonfinite and not math.isfinite(value):
            raise _fail(ValueError, where, f"{value!r} is not a finite number")
        if spec.float32 and math.isfinite(value) and abs(value) > _FLOAT32_MAX:
            raise _fail(ValueError, where, f"{value!r} does not fit a 32-bit float")
    elif kind == STR:
        if not isinstance(value, str):
            raise _fail(TypeError, where, f"expected str, got {type_name(value)} {value!r}")
        if spec.choices is not None and value not in spec.choices:
            hint = suggest(value, spec.choices)
            raise _fail(
                ValueError,
                where,
                f"{value!r} is not one of {', '.join(map(repr, spec.choices))}{hint}",
            )
        return value
    elif kind == BYTES:
        if not isinstance(value, (bytes, bytearray)):
            raise _fail(TypeError, where, f"expected bytes, got {type_name(value)} {value!r}")
        return bytes(value)
    elif kind == ENUM:
        return enum_number(spec, value, where, strict=True)
    if spec.constraint is not None:
        check_constraint(spec, value, where)
    return value


def enum_number(spec: FieldSpec, value: Any, where: str, strict: bool) -> Any:
    """Enum values may be given by name or number."""
    names = spec.enum_values or {}
    of = f"{spec.enum_name}'s " if spec.enum_name else ""
    if isinstance(value, str):
        if value in names:
            return names[value]
        hint = suggest(value, list(names))
        raise _fail(ValueError, where, f"{value!r} is not one of {of}{', '.join(names)}{hint}")
    if strict:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(
                TypeError,
                where,
                f"expected an enum name or number, got {type_name(value)} {value!r}",
            )
        if value not in names.values():
            raise _fail(
                ValueError,
                where,
                f"{value} is not a number of {of}{', '.join(f'{k}={v}' for k, v in names.items())}",
            )
    return value


def check_scalar(strict: bool, spec: FieldSpec, value: Any, prop: str) -> Any:
    """Validate a value assigned to a scalar property.

    Returns the value to store, or KEEP to leave the field unchanged (after
    logging the compatible-mode warning). Raises on rejection.
    """
    if strict:
        return strict_value(spec, value, prop)
    policy = spec.policy
    if policy.action != "passthrough" and not _python_type_matches(spec, value):
        text = policy.message.format(
            field=spec.name, property=prop, type=spec.py_type, received=value.__class__
        )
        if policy.action == "warn":
            warn("%s", text)
            return KEEP
        raise policy.error(text)  # type: ignore[misc]
    if spec.kind == ENUM:
        value = enum_number(spec, value, prop, strict=False)
    elif spec.kind == INT and isinstance(value, bool):
        raise bool_for_int(prop)
    if spec.constraint_always:
        check_constraint(spec, value, spec.name)
    return value


def named_error(spec: FieldSpec, value: Any, where: str, error: Exception) -> Exception:
    """The error to raise for a value protobuf refused with ``error``: strict
    mode's, which names the field, the type expected and the value, when
    strict mode refuses it too; else protobuf's, after ``where``."""
    try:
        strict_value(spec, value, where)
    except (TypeError, ValueError) as named:
        return named
    return type(error)(f"{where}: {error} (got {type_name(value)} {value!r})")


def bool_for_int(where: str) -> TypeError:
    """What protobuf >= 7 answers to a bool stored in an integer field (older
    versions stored 0 or 1): answered here, so every protobuf version behaves
    as protobuf 7 does."""
    return TypeError(f"{where}: expected an int, got a boolean")


def _python_type_matches(spec: FieldSpec, value: Any) -> bool:
    """Compatible mode's isinstance() checks: int accepts bool, float rejects int."""
    kind = spec.kind
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == INT or kind == ENUM:
        return isinstance(value, int)
    if kind == FLOAT:
        return isinstance(value, float)
    if kind == STR:
        return isinstance(value, str)
    return isinstance(value, bytes)


def suggest(name: str, valid: Any) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``valid`` to ``name``, or ``""``."""
    import difflib  # only on the error path: keeps `import` fast

    match = difflib.get_close_matches(name, list(valid), n=1, cutoff=0.6)
    return f"; did you mean {match[0]!r}?" if match else ""


def unknown_attribute(instance: object, name: str, settable: frozenset[str]) -> str:
    hint = suggest(name, sorted(settable))
    return f"{name} is not an attribute of {type(instance).__name__}{hint}"


def restore_slots(
    instance: object, state: Mapping[str, Any], message_attribute: str, message_class: type[Message]
) -> None:
    """Set the slots of an instance from a pickle an earlier runtime made
    (a dict of every slot, the message's wire form under its slot's name),
    past the attribute lock (which refuses private slots such as ``_strict``)."""
    for name, value in state.items():
        if name == message_attribute:
            message = message_class()
            parse_from(message, value)
            value = message
        object.__setattr__(instance, name, value)


def unknown_key(where: str, key: object, spec: MessageSpec) -> UnknownConfigKeyError:
    valid = list(spec.fields)
    hint = suggest(key, valid) if isinstance(key, str) else ""
    return UnknownConfigKeyError(
        f"{where}: unknown key {key!r}{hint}; valid keys: {', '.join(valid)}"
    )


def as_mapping(value: object) -> Mapping[Any, Any] | None:
    """``value`` as a Mapping (typed for the checkers), or None if it is not one."""
    if not isinstance(value, Mapping):
        return None
    # pyright leaves the key/value types unknown without the cast; mypy calls it redundant
    return cast("Mapping[Any, Any]", value)  # type: ignore[redundant-cast]


def is_list_like(value: Any) -> bool:
    return not isinstance(value, (str, bytes, bytearray, Mapping)) and hasattr(value, "__iter__")


# -- specs from descriptors ------------------------------------------------

_INT32: Final = (-(2**31), 2**31 - 1)
_UINT32: Final = (0, 2**32 - 1)
_INT64: Final = (-(2**63), 2**63 - 1)
_UINT64: Final = (0, 2**64 - 1)
# FieldDescriptor.TYPE_* numbers -> (kind, integer bounds); a group (10: proto2 groups and
# Editions' DELIMITED fields) is a message field with another wire encoding
_DESCRIPTOR_TYPES: Final[dict[int, tuple[str, tuple[int, int] | None]]] = {
    1: (FLOAT, None),  # double
    2: (FLOAT, None),  # float
    3: (INT, _INT64),
    4: (INT, _UINT64),
    5: (INT, _INT32),
    6: (INT, _UINT64),  # fixed64
    7: (INT, _UINT32),  # fixed32
    8: (BOOL, None),
    9: (STR, None),
    10: (MESSAGE, None),  # group
    11: (MESSAGE, None),
    12: (BYTES, None),
    13: (INT, _UINT32),
    14: (ENUM, None),
    15: (INT, _INT32),  # sfixed32
    16: (INT, _INT64),  # sfixed64
    17: (INT, _INT32),  # sint32
    18: (INT, _INT64),  # sint64
}
_ENUM_VALUES: dict[str, Mapping[str, int]] = {}  # one mapping per enum type, shared by its fields


def is_repeated(field: Any) -> bool:
    """Whether a FieldDescriptor is repeated (protobuf 7 dropped ``label``; before 6.31 there is no ``is_repeated``)."""
    if hasattr(field, "is_repeated"):
        return bool(field.is_repeated)
    from google.protobuf.descriptor import FieldDescriptor

    return bool(field.label == FieldDescriptor.LABEL_REPEATED)


def field_spec(field: Any, allow_nonfinite: bool = False) -> FieldSpec:
    """What a FieldDescriptor says about a field, as a FieldSpec (nothing from
    the annotations: ``register`` adds that)."""
    kind, bounds = _DESCRIPTOR_TYPES[field.type]
    # interned, as the names in code are: getattr/setattr with a name that is
    # not interned interns it again on every call (a dict lookup per set)
    name = sys.intern(field.name)
    entry = field.message_type
    deprecated = field.GetOptions().deprecated
    if entry is not None and entry.GetOptions().map_entry:
        fields = entry.fields_by_name
        return FieldSpec(
            name,
            MESSAGE,
            has_presence=False,
            map_key=field_spec(fields["key"], allow_nonfinite),
            map_value=field_spec(fields["value"], allow_nonfinite),
            py_type=MESSAGE,
            deprecated=deprecated,
        )
    enum_values = None
    if kind == ENUM:
        enum = field.enum_type
        enum_values = _ENUM_VALUES.get(enum.full_name)
        if enum_values is None:
            enum_values = _ENUM_VALUES[enum.full_name] = {v.name: v.number for v in enum.values}
    return FieldSpec(
        name,
        kind,
        repeated=is_repeated(field),
        has_presence=field.has_presence,
        low=bounds[0] if bounds else None,
        high=bounds[1] if bounds else None,
        float32=field.type == 2,
        allow_nonfinite=allow_nonfinite,
        enum_values=enum_values,
        message=entry.full_name if entry is not None else None,
        py_type=kind,
        deprecated=deprecated,
        enum_name=field.enum_type.full_name if kind == ENUM else None,
    )


def message_spec(cls: type[Message], generated: bool = True) -> MessageSpec:
    """The spec of a message class read from its descriptor, registered in SPECS."""
    descriptor: Any = cls.DESCRIPTOR  # the C and Python descriptors' stubs differ
    fields = {spec.name: spec for spec in (field_spec(f, not generated) for f in descriptor.fields)}
    spec = SPECS[descriptor.full_name] = MessageSpec(descriptor.full_name, cls, fields)
    spec.generated = generated
    spec.finish()
    return spec


def spec_of(message: Message | type[Message]) -> MessageSpec:
    """The spec of a message (or message class) the package registered, or
    of a well-known type, read from its descriptor on first use."""
    cls = message if isinstance(message, type) else type(message)
    spec = SPECS.get(cls.DESCRIPTOR.full_name)
    if spec is not None:
        return spec
    return imported_spec(cls)


def imported_spec(cls: type[Message]) -> MessageSpec:
    """The spec of a message type this package does not generate (a
    well-known type such as ``timestamp_pb2.Timestamp``), read from its
    descriptor, and those of the message types its fields use: a dict then
    sets its fields by name, as for generated messages."""
    spec = SPECS.get(cls.DESCRIPTOR.full_name)
    if spec is None:
        spec = message_spec(cls, generated=False)
        _read_used_types(spec)
    return spec


def register(
    *modules: ModuleType,
    policies: Mapping[str, Policy] | None = None,
    fields: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Read the specs of every message of the package's ``*_pb2`` modules from
    their descriptors, then apply what the annotations add: ``policies`` (a
    message's full name -> the compatible-mode policy of its scalar fields)
    and ``fields`` (a field's full name -> FieldSpec attributes to replace,
    e.g. ``{"constraint": (">", 0.0)}``). Message types of other files that
    fields use (well-known types) are read from their descriptors too."""

    def walk(owner: Any, descriptors: Any) -> None:
        for descriptor in descriptors:
            if descriptor.GetOptions().map_entry:
                continue
            cls = getattr(owner, descriptor.name)
            message_spec(cls)
            walk(cls, descriptor.nested_types)

    for module in modules:
        walk(module, module.DESCRIPTOR.message_types_by_name.values())
    for full_name, policy in (policies or {}).items():
        spec = SPECS[full_name]
        for name, field in spec.fields.items():
            if field.kind != MESSAGE and not field.repeated:
                spec.fields[name] = field._replace(policy=policy)
    for full_name, changes in (fields or {}).items():
        message, _, name = full_name.rpartition(".")
        spec = SPECS[message]
        spec.fields[name] = spec.fields[name]._replace(**changes)
    for spec in list(SPECS.values()):
        spec.finish()
        _read_used_types(spec)


def _read_used_types(spec: MessageSpec) -> None:
    """Read the specs of the message types ``spec``'s fields use that no
    package registered (well-known types) from their descriptors."""
    from google.protobuf import message_factory

    for field in spec.fields.values():
        used = (field.map_value or field).message
        if used is not None and used not in SPECS:
            pool: Any = spec.cls.DESCRIPTOR.file.pool
            imported_spec(message_factory.GetMessageClass(pool.FindMessageTypeByName(used)))


def message_class(full_name: str) -> type[Message]:
    """The message class this package uses for ``full_name`` (in a build bound
    to another project's ``*_pb2`` modules, that project's class)."""
    spec = SPECS.get(full_name)
    if spec is None:
        hint = suggest(full_name, SPECS)
        raise KeyError(f"no message {full_name!r} in this package{hint}")
    return spec.cls
