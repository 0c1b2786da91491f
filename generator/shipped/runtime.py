# The runtime of the packages fleet-strategy-codegen generates: a module of the
# tool itself (generator/shipped/runtime.py), which `generate` copies verbatim
# into each package it writes, as runtime.py below a one-line generated header.
"""What the generated classes run on.

* Specs: every field's facts (kind, integer bounds, presence, enum values,
  defaults, message types) are read from the message descriptors when the
  package's ``_specs`` module calls ``register``, which also applies what the
  annotations add (policies, constraints, choices, append, ...).
* ``dict_view``: the dict view of any message, driven by its spec.
* ``Wrapper``: the base of the generated classes (construction, the attribute
  lock, copies and pickling, ``strict``, and ``_set``, which every generated
  setter calls).

Two modes answer bad values:

* compatible (the default) answers a value of the wrong Python type as the
  field's policy in the annotations file says (log a warning and keep the old
  value, or raise a given exception class; without a policy, protobuf checks
  it); values protobuf accepts are accepted.
* strict raises TypeError/ValueError for every wrong type, out-of-range
  number, non-finite float, unknown config key and str-for-list, naming the
  property and key.

In both modes a rejected assignment changes nothing: config dicts are built
into a scratch message first and merged only when every key was accepted, and
callers' objects are never mutated. An accepted one is applied in one step:
what takes more than one protobuf operation (a config, list or map
assignment, and reading a dict view) runs under the instance's lock, so
threads sharing an instance see each assignment whole. Nothing set can be
nested deeper than protobuf parses (``MAX_DEPTH``), so whatever is set can
be copied and pickled; files are written atomically (``write_atomically``).
"""

from __future__ import annotations

import copy
import math
import os
import stat
import sys
from _thread import RLock  # (threading.RLock: a Python function around it)
from collections.abc import Callable, Mapping
from operator import attrgetter
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, Protocol, TypeVar, cast

from google.protobuf.message import Message

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    Lock = AbstractContextManager[Any]  # what the runtime's functions take as a lock

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


def configure(*, strict_env: str, logger: Any = None) -> None:
    """Bind this copy of the runtime to its package; the package's generated
    ``_specs`` module calls it once, on import, before any instance exists.

    ``strict_env``: the environment variable that makes strict validation the
    default (``1``/``true``). ``logger``: an object with ``warning()`` that
    compatible-mode warnings go to, instead of the package's own logger.
    """
    global _logger
    if logger is not None:
        _logger = logger
    _Mode.strict = env_flag(strict_env) or False


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def env_flag(name: str) -> bool | None:
    """Parse a boolean environment variable; None when unset or unreadable."""
    raw = os.environ.get(name)
    if raw is None:
        return None
    text = raw.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    warn("ignoring %s=%r: expected one of 1/0/true/false/yes/no/on/off", name, raw)
    return None


class _Mode:
    strict: bool = False  # until configure() reads the package's variable


def set_default_strict(enabled: bool) -> None:
    """Make strict validation the default for strategies created from now on.

    The initial default is compatible mode, or strict when the environment
    variable named by the package (``<PACKAGE>_STRICT`` unless the annotations
    name another) is ``1``/``true``. A single instance can
    still switch with ``strategy.strict = True`` or ``DistributedStrategy(strict=True)``.
    """
    if type(enabled) is not bool:
        raise TypeError(f"set_default_strict() takes a bool, got {type(enabled).__name__}")
    _Mode.strict = enabled


def default_strict() -> bool:
    """Whether new instances validate strictly."""
    return _Mode.strict


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
_FAST_TYPES: Final[dict[str, type]] = {BOOL: bool, INT: int, FLOAT: float, STR: str, BYTES: bytes}


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
        self.fast_keys = {
            name: _FAST_TYPES[field.kind]
            for name, field in self.fields.items()
            if field.kind in _FAST_TYPES
            and field.has_presence
            and not (field.repeated or field.map_key or field.deprecated or field.constraint_always)
        }


SPECS: dict[str, MessageSpec] = {}


def _type_name(value: object) -> str:
    return type(value).__name__


def _fail(error: type[Exception], where: str, text: str) -> Exception:
    return error(f"{where}: {text}")


def _check_constraint(spec: FieldSpec, value: Any, label: str) -> None:
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
            raise _fail(TypeError, where, f"expected bool, got {_type_name(value)} {value!r}")
        return value
    if kind == INT:
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise _fail(TypeError, where, f"expected int, got {_type_name(value)} {value!r}")
        value = value.__index__()
        if not spec.low <= value <= spec.high:
            raise _fail(ValueError, where, f"{value} is out of range [{spec.low}, {spec.high}]")
    elif kind == FLOAT:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            and not hasattr(value, "__float__")
        ):
            raise _fail(TypeError, where, f"expected float, got {_type_name(value)} {value!r}")
        value = float(value)
        if not spec.allow_nonfinite and not math.isfinite(value):
            raise _fail(ValueError, where, f"{value!r} is not a finite number")
        if spec.float32 and math.isfinite(value) and abs(value) > _FLOAT32_MAX:
            raise _fail(ValueError, where, f"{value!r} does not fit a 32-bit float")
    elif kind == STR:
        if not isinstance(value, str):
            raise _fail(TypeError, where, f"expected str, got {_type_name(value)} {value!r}")
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
            raise _fail(TypeError, where, f"expected bytes, got {_type_name(value)} {value!r}")
        return bytes(value)
    elif kind == ENUM:
        return enum_number(spec, value, where, strict=True)
    if spec.constraint is not None:
        _check_constraint(spec, value, where)
    return value


def enum_number(spec: FieldSpec, value: Any, where: str, strict: bool) -> Any:
    """Enum values may be given by name or number."""
    names = spec.enum_values or {}
    if isinstance(value, str):
        if value in names:
            return names[value]
        hint = suggest(value, list(names))
        raise _fail(ValueError, where, f"{value!r} is not one of {', '.join(names)}{hint}")
    if strict:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(
                TypeError,
                where,
                f"expected an enum name or number, got {_type_name(value)} {value!r}",
            )
        if value not in names.values():
            raise _fail(
                ValueError,
                where,
                f"{value} is not a number of {', '.join(f'{k}={v}' for k, v in names.items())}",
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
        raise _bool_for_int(prop)
    if spec.constraint_always:
        _check_constraint(spec, value, spec.name)
    return value


def _bool_for_int(where: str) -> TypeError:
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
            value = message_class.FromString(value)
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


def _is_list_like(value: Any) -> bool:
    return not isinstance(value, (str, bytes, bytearray, Mapping)) and hasattr(value, "__iter__")


class ConfigChange(NamedTuple):
    """A config dict checked and built aside (``stage_config``), for
    ``apply_config`` to apply in one step."""

    patch: Message  # every key given, in a message of the config's type
    clears: tuple[tuple[str, ...], ...]  # paths of the lists and maps the patch replaces


def stage_config(
    config: Any,
    spec: MessageSpec,
    where: str,
    strict: bool,
    empty_sets: bool = True,
    level: int = 1,
) -> ConfigChange | None:
    """Check a config dict and build what it changes aside, touching nothing
    else; None when it changes nothing (an empty dict and ``empty_sets``
    False). ``level``: how deep below its wrapper's message the config's
    message sits (1 for a field of that message), for the depth limit."""
    if not strict and config.__class__ is dict and config:
        patch = _flat_patch(config, spec)
        if patch is not None:
            return ConfigChange(patch, ())
    return _stage(config, spec, where, strict, empty_sets, level)


def _flat_patch(config: dict[str, Any], spec: MessageSpec) -> Message | None:
    """The common case, a flat dict of scalars each of exactly its field's
    type: protobuf builds the patch in one call and checks what is left
    (ranges). None for anything else, or anything it rejects: the general
    path then names the key."""
    fast = spec.fast_keys
    for key, value in config.items():
        if fast.get(key) is not value.__class__:
            return None
    try:
        return spec.cls(**config)
    except (TypeError, ValueError):
        return None


def _stage(
    config: Any, spec: MessageSpec, where: str, strict: bool, empty_sets: bool, level: int
) -> ConfigChange | None:
    clears: list[tuple[str, ...]] = []
    patch = spec.cls()
    _fill(patch, config, spec, where, strict, clears, (), level)
    if not empty_sets and not clears and not patch.ListFields() and not isinstance(config, Message):
        return None
    return ConfigChange(patch, tuple(clears))


def apply_config(target: Message, change: ConfigChange) -> None:
    """Apply a staged config to ``target`` in one protobuf operation: a merge,
    or, when the config replaces lists or maps, a copy of the whole result
    built aside. So a reader never sees a list cleared and not yet refilled.
    Either sets ``target`` in its parent, an empty config too."""
    if change.clears:
        result = type(target)()
        result.CopyFrom(target)
        for path in change.clears:
            node = result
            for step in path[:-1]:
                node = getattr(node, step)
            node.ClearField(path[-1])
        result.MergeFrom(change.patch)
        target.CopyFrom(result)
    else:
        target.MergeFrom(change.patch)


def assign_config(
    target: Message,
    config: Any,
    spec: MessageSpec,
    where: str,
    strict: bool,
    empty_sets: bool = True,
    lock: Lock | None = None,
    level: int = 1,
) -> None:
    """Apply a config dict to ``target`` all-or-nothing.

    Every key is checked and written into a scratch message first
    (``stage_config``; protobuf's own checks run there), then applied in one
    step (``apply_config``), under ``lock`` when given (the wrapper's, so
    assignments from several threads apply one after the other). Repeated
    fields are replaced unless their spec says append. Presence is never
    lost: ``{}`` or an empty message still sets ``target`` (and selects it in
    its oneof), as nested empty dicts set theirs; unless ``empty_sets`` is
    False (the annotations' ``empty_config: unset``), where an empty dict
    leaves ``target`` alone. ``level``: as for ``stage_config``.
    """
    if not strict and config.__class__ is dict and config:
        patch = _flat_patch(config, spec)
        if patch is not None:  # one merge, as apply_config would do it
            if lock is None:
                target.MergeFrom(patch)
            else:
                with lock:
                    target.MergeFrom(patch)
            return
    change = _stage(config, spec, where, strict, empty_sets, level)
    if change is None:
        return
    if lock is None:
        apply_config(target, change)
    else:
        with lock:
            apply_config(target, change)


def build_message(config: Any, spec: MessageSpec, where: str, strict: bool) -> Message:
    """A new message holding ``config`` (a mapping or a message of the type)."""
    message = spec.cls()
    _fill(message, config, spec, where, strict, [], (), 0)
    return message


# -- the depth limit -----------------------------------------------------------

# Protobuf parses (so copies and pickles: the wrapper's message travels in its
# wire form) no message nested more than this many levels below the top-level
# message; a deeper one makes a parse fail (protobuf 4.22 even crashes). A
# config nested deeper is refused before anything changes.
MAX_DEPTH: Final = 100
_UNBOUNDED: Final = sys.maxsize
_DEPTHS: dict[str, int] = {}  # message type -> the most levels one of its messages can span


def _too_deep(where: str) -> ValueError:
    return ValueError(
        f"{where}: nested more than {MAX_DEPTH} levels deep, protobuf's limit "
        "(an instance holding it could not be copied, pickled or parsed)"
    )


def _depth_bound(spec: MessageSpec) -> int:
    """How many levels a message of this type can span (itself 1, a map
    entry 1 more, as on the wire); ``_UNBOUNDED`` for a type that can hold
    itself (a recursive one)."""
    bound = _DEPTHS.get(spec.full_name)
    if bound is None:
        _DEPTHS[spec.full_name] = _UNBOUNDED  # while in progress: reaching it again is recursion
        deepest = 0
        for field in spec.fields.values():
            below = 0
            if field.map_key is not None:
                value = field.map_value
                below = 1 + (_depth_bound(SPECS[value.message]) if value and value.message else 0)
            elif field.message is not None:
                below = _depth_bound(SPECS[field.message])
            deepest = max(deepest, below)
        bound = _DEPTHS[spec.full_name] = min(_UNBOUNDED, 1 + deepest)
    return bound


def _spans_more_than(message: Message, allowed: int) -> bool:
    """Whether ``message`` nests more than ``allowed`` levels (itself 1, a map
    entry 1 more, as on the wire); stops at the first node too deep."""
    stack: list[tuple[Any, int]] = [(message, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > allowed:
            return True
        for field, value in node.ListFields():
            kind = field.message_type
            if kind is None:
                continue
            if kind.GetOptions().map_entry:
                if depth + 1 > allowed:
                    return True
                if kind.fields_by_name["value"].message_type is not None:
                    stack.extend((item, depth + 2) for item in value.values())
            elif is_repeated(field):
                stack.extend((item, depth + 1) for item in value)
            else:
                stack.append((value, depth + 1))
    return False


def _check_depth(message: Message, spec: MessageSpec, level: int, where: str) -> None:
    """Refuse ``message``, to sit ``level`` levels below the top, when it nests too deep."""
    allowed = MAX_DEPTH - level + 1
    if _depth_bound(spec) > allowed and _spans_more_than(message, allowed):
        raise _too_deep(where)


def _fill(
    patch: Message,
    config: Any,
    spec: MessageSpec,
    where: str,
    strict: bool,
    clears: list[tuple[str, ...]],
    path: tuple[str, ...],
    level: int,
) -> None:
    if isinstance(config, spec.cls):
        _check_depth(config, spec, level, where)
        patch.CopyFrom(config)
        return
    items = as_mapping(config)
    json_method = _JSON_VALUES.get(spec.full_name)
    if json_method is not None and (
        items is not None if json_method == "update" else _is_list_like(config)
    ):
        _fill_json(patch, config, json_method, where)
        _check_depth(patch, spec, level, where)
        return
    if items is None:
        raise TypeError(
            f"{where}: expected a dict of {spec.full_name} keys, got {_type_name(config)}"
        )
    fields = spec.fields
    for key, value in items.items():
        field = fields.get(key) if isinstance(key, str) else None
        if field is None:
            raise unknown_key(where, key, spec)
        at = f"{where}[{key!r}]"
        if field.deprecated:
            warn_deprecated(at)
        if field.map_key is not None:
            _fill_map(patch, field, value, at, strict, level)
            clears.append((*path, key))
        elif field.repeated:
            _fill_repeated(patch, field, value, at, strict, level)
            if not field.append:
                clears.append((*path, key))
        elif field.kind == MESSAGE:
            if level >= MAX_DEPTH:
                raise _too_deep(at)
            sub = getattr(patch, key)
            sub.SetInParent()  # an empty dict or message is still set
            _fill(sub, value, SPECS[field.message], at, strict, clears, (*path, key), level + 1)  # type: ignore[index]
        else:
            _set_scalar(patch, field, value, at, strict)
            if not field.has_presence:
                clears.append((*path, key))


# Well-known types holding JSON-like values: a Struct takes a dict of its
# content (and a ListValue a list), as their own update()/extend() do; a dict
# of their proto fields still works for the ListValue.
_JSON_VALUES: Final = {"google.protobuf.Struct": "update", "google.protobuf.ListValue": "extend"}


def _fill_json(patch: Message, config: Any, method: str, where: str) -> None:
    try:
        getattr(patch, method)(config)
    except (TypeError, ValueError, AttributeError) as exc:
        raise TypeError(f"{where}: {exc}") from None
    except RecursionError:
        raise _too_deep(where) from None


def warn_deprecated(where: str, stacklevel: int = 3) -> None:
    """A field the schema marks ``[deprecated = true]`` is being set (the
    warning points at the user's assignment, ``stacklevel`` frames up)."""
    import warnings

    warnings.warn(
        f"{where} is deprecated ([deprecated = true] in the schema)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def _value(field: FieldSpec, value: Any, at: str, strict: bool) -> Any:
    """One scalar of a config: checked strictly, or (compatible mode) passed on
    for protobuf to check, enum names turned into numbers either way."""
    if strict:
        return strict_value(field, value, at)
    if field.kind == ENUM:
        return enum_number(field, value, at, strict=False)
    if field.kind == INT and isinstance(value, bool):
        raise _bool_for_int(at)
    if field.constraint_always and isinstance(value, (int, float)):  # enforce_constraint: always
        _check_constraint(field, value, at)  # (other types: protobuf's own error follows)
    return value


def _set_scalar(patch: Message, field: FieldSpec, value: Any, at: str, strict: bool) -> None:
    value = _value(field, value, at, strict)
    try:
        setattr(patch, field.name, value)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{at}: {exc}") from None


def _fill_repeated(
    patch: Message, field: FieldSpec, value: Any, at: str, strict: bool, level: int
) -> None:
    if value is None:  # None for a repeated key changes nothing
        return
    if strict and not _is_list_like(value):
        raise TypeError(f"{at}: expected a list, got {_type_name(value)} {value!r}")
    container = getattr(patch, field.name)
    if field.kind == MESSAGE:
        if not _is_list_like(value):
            raise TypeError(f"{at}: expected a list of dicts, got {_type_name(value)}")
        if level >= MAX_DEPTH:
            raise _too_deep(at)
        item_spec = SPECS[field.message]  # type: ignore[index]
        for index, item in enumerate(value):
            _fill(container.add(), item, item_spec, f"{at}[{index}]", strict, [], (), level + 1)
        return
    if strict or field.kind == ENUM:
        items = [_value(field, item, f"{at}[{i}]", strict) for i, item in enumerate(value)]
    elif field.kind == INT:
        items = list(value)
        if any(isinstance(item, bool) for item in items):
            raise _bool_for_int(at)
    else:
        items = value  # as is: a huge list is extended in one protobuf call
    try:
        container.extend(items)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{at}: {exc}") from None


def _fill_map(
    patch: Message, field: FieldSpec, value: Any, at: str, strict: bool, level: int
) -> None:
    items = as_mapping(value)
    if items is None:
        raise TypeError(f"{at}: expected a dict, got {_type_name(value)}")
    container = getattr(patch, field.name)
    key_spec, value_spec = field.map_key, field.map_value
    if items and level + 1 > MAX_DEPTH:  # each entry is a message one level down
        raise _too_deep(at)
    for k, v in items.items():
        item_at = f"{at}[{k!r}]"
        if strict:
            k = strict_value(key_spec, k, item_at)  # type: ignore[arg-type]
        if value_spec.kind == MESSAGE:  # type: ignore[union-attr]
            if level + 2 > MAX_DEPTH:  # the map entry is a level, its value the next
                raise _too_deep(item_at)
            value_message = SPECS[value_spec.message]  # type: ignore[union-attr,index]
            _fill(container[k], v, value_message, item_at, strict, [], (), level + 2)
            continue
        v = _value(value_spec, v, item_at, strict)  # type: ignore[arg-type]
        try:
            container[k] = v
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{item_at}: {exc}") from None


def replace_repeated(
    target: Message,
    field: FieldSpec,
    value: Any,
    where: str,
    strict: bool,
    lock: Lock | None = None,
) -> None:
    """Set a repeated (or map) property of ``target``, a wrapper's message:
    build aside, then swap in (under ``lock`` when given)."""
    spec = SPECS[target.DESCRIPTOR.full_name]
    scratch = spec.cls()
    if field.map_key is not None:
        _fill_map(scratch, field, value, where, strict, 0)
    else:
        if not strict and isinstance(value, (str, bytes)) and field.kind != STR:
            raise TypeError(f"{where}: expected a list, got {_type_name(value)}")
        _fill_repeated(scratch, field, value, where, strict, 0)
    if lock is None:
        _swap_in(target, field, scratch)
    else:
        with lock:
            _swap_in(target, field, scratch)


def _swap_in(target: Message, field: FieldSpec, scratch: Message) -> None:
    if not field.append:
        target.ClearField(field.name)
    target.MergeFrom(scratch)


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
    spec = SPECS.get(message.DESCRIPTOR.full_name)
    if spec is not None:
        return spec
    return imported_spec(message if isinstance(message, type) else type(message))


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


# -- dict views ----------------------------------------------------------------


class _View:
    """What the dict view of one message type needs, worked out once."""

    __slots__ = ("names", "read", "convert", "unset", "fresh_lists", "fresh_dicts", "live")

    def __init__(self, spec: MessageSpec) -> None:
        names = tuple(spec.fields)
        self.names = names
        # every field in one C call; attrgetter returns a bare value for one name
        self.read: Callable[[Message], tuple[Any, ...]] = (
            attrgetter(*names) if len(names) > 1 else lambda m: tuple(getattr(m, n) for n in names)
        )
        self.convert: list[tuple[str, Callable[[Any], Any]]] = []
        self.fresh_lists: list[str] = []
        self.fresh_dicts: list[str] = []
        # sub-messages: the view holds the live message (`view["sub"].x = 1` sets it)
        self.live: list[str] = []
        empty = spec.cls()
        self.unset: dict[str, Any] = {}
        for name, field in spec.fields.items():
            self.unset[name] = None
            if field.map_key is not None:
                self.fresh_dicts.append(name)
                self.convert.append((name, dict))
            elif field.repeated:
                self.fresh_lists.append(name)
                item = SPECS.get(field.message or "")
                if item is not None and item.generated:
                    self.convert.append((name, _dicts))
                else:
                    self.convert.append((name, list))
            elif field.kind == MESSAGE:
                self.live.append(name)
            else:
                self.unset[name] = getattr(empty, name)


def _dicts(items: Any) -> list[dict[str, Any]]:
    return [dict_view(item) for item in items]


_VIEWS: dict[type, _View] = {}


def dict_view(message: Message, lock: Lock | None = None) -> dict[str, Any]:
    """The dict view of a message: every field, in field order; repeated
    fields as fresh lists (messages of generated types as dicts), maps as
    fresh dicts, sub-messages as the live messages. ``lock``: the wrapper's,
    held while a set message is read field by field, so the view is of one
    state, never half of an assignment made meanwhile."""
    view = _VIEWS.get(message.__class__)
    if view is None:
        view = _VIEWS[message.__class__] = _View(SPECS[message.DESCRIPTOR.full_name])
    if not message.ListFields():  # nothing set (one protobuf call): the defaults read once
        result = view.unset.copy()
        # (each loop guarded: most messages have none of a kind, and an empty loop costs)
        if view.fresh_lists:
            for name in view.fresh_lists:
                result[name] = []
        if view.fresh_dicts:
            for name in view.fresh_dicts:
                result[name] = {}
        if view.live:
            for name in view.live:
                result[name] = getattr(message, name)
        return result
    if lock is None:
        return _read_view(view, message)
    with lock:
        return _read_view(view, message)


def _read_view(view: _View, message: Message) -> dict[str, Any]:
    result = dict(zip(view.names, view.read(message)))
    for name, convert in view.convert:
        result[name] = convert(result[name])
    return result


# -- the base of the generated classes ---------------------------------------

_W = TypeVar("_W", bound="Wrapper")


class _Binding(NamedTuple):
    """What a generated class is bound to (its class keywords)."""

    cls: type[Message]
    attribute: str  # the slot holding the message
    spec: MessageSpec
    init: Callable[[Any], None] | None
    empty_config_sets: bool
    owner: type[Wrapper]  # the generated class (its _direct properties are the plain ones)


class Wrapper:
    """Base of the generated classes: construction, the attribute lock with
    its fast path for plain scalar options, copies and pickling, ``strict``,
    and ``_set``, what every generated setter calls.

    A generated class names its message class and slot as class keywords
    (``message=``, ``attribute=``, and ``init=`` a hook run by ``__init__``,
    ``empty_config_sets=False`` where ``{}`` leaves a config unset), and lists
    in ``_direct`` the scalar options whose setter does nothing but ``_set``,
    and in ``_renamed`` the properties not named as their fields.
    """

    __slots__ = ("_mutex",)

    _binding: ClassVar[_Binding]
    _direct: ClassVar[tuple[str, ...]] = ()
    _renamed: ClassVar[Mapping[str, str]] = {}
    _message: Message  # the message's slot under a fixed name (set by __init_subclass__)
    _strict: bool
    _mutex: RLock  # the lock's slot, unset until the lock is first needed

    @property
    def _lock(self) -> RLock:
        """Serializes what is more than one protobuf operation: a config,
        list or map assignment (built aside, then swapped in under it) and
        the reads of the dict, list and map views. Plain scalar options are
        one protobuf operation each and never take it (their fast path stays
        lock-free). Made on first use: construction and copies make none."""
        try:
            return self._mutex
        except AttributeError:
            return _first_lock(self)

    def __init_subclass__(
        cls,
        *,
        message: type[Message] | None = None,
        attribute: str = "",
        init: Callable[[Any], None] | None = None,
        empty_config_sets: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if message is not None:
            spec = SPECS[message.DESCRIPTOR.full_name]
            cls._binding = _Binding(message, attribute, spec, init, empty_config_sets, cls)
            setattr(cls, "_message", cls.__dict__[attribute])  # the slot's descriptor
        binding = cls._binding
        settable = {
            name
            for klass in cls.__mro__
            for name, member in vars(klass).items()
            if isinstance(member, property) and member.fset is not None
        }
        for klass in cls.__mro__:
            slots = vars(klass).get("__slots__", ())
            settable.update((slots,) if isinstance(slots, str) else slots)
        settable.discard("_strict")  # through `strict` only
        settable.discard("_mutex")
        # A subclass that redefines one of the options gets its own setter called.
        direct = {
            name: (_FAST_TYPES[field.kind], field.name)
            for name in binding.owner._direct
            if getattr(cls, name) is vars(binding.owner)[name]
            for field in [binding.spec.fields[binding.owner._renamed.get(name, name)]]
        }
        locked = frozenset(settable)

        def __setattr__(self: Wrapper, name: str, value: Any) -> None:
            entry = direct.get(name)
            if entry is not None and value.__class__ is entry[0] and not self._strict:
                # what the option's setter would do, without the property call
                setattr(self._message, entry[1], value)
                return
            # The attribute lock: a misspelt option must not silently become a
            # new attribute that configures nothing.
            if name in locked:
                object.__setattr__(self, name, value)
                return
            raise TypeError(unknown_attribute(self, name, locked))

        setattr(cls, "__setattr__", __setattr__)
        layout = _LAYOUTS[cls] = _layout(cls, binding)
        setattr(cls, "__copy__", _copy_function(cls, layout))

    def __init__(self, *, strict: bool | None = None) -> None:
        if strict is not None and type(strict) is not bool:
            raise TypeError(f"strict must be a bool or None, got {type(strict).__name__}")
        binding = self._binding
        object.__setattr__(self, binding.attribute, binding.cls())
        object.__setattr__(self, "_strict", _Mode.strict if strict is None else strict)
        if binding.init is not None:
            binding.init(self)

    @property
    def strict(self) -> bool:
        """Whether this instance validates strictly (see ``set_default_strict``).

        Type:
            ``bool``
        """
        return self._strict

    @strict.setter
    def strict(self, value: bool) -> None:
        if type(value) is not bool:
            raise TypeError(f"strict: expected bool, got {type(value).__name__}")
        object.__setattr__(self, "_strict", value)

    # Copies and pickles are built here, slot by slot, not by the copy
    # module's generic protocol (a state dict, deep-copied item by item):
    # fleet deep-copies the strategy on every fleet.init and
    # distributed_optimizer. (``__copy__`` is made per class, by
    # __init_subclass__: _copy_function.)

    def __deepcopy__(self: _W, memo: dict[int, Any]) -> _W:
        layout = _LAYOUTS[self.__class__]
        clone: _W = layout.new(self.__class__)
        memo[id(self)] = clone
        layout.set_message(clone, self._message.__deepcopy__(None))
        layout.set_strict(clone, self._strict)
        for name, put in zip(layout.names, layout.setters):
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                put(clone, _deep_copy(value, memo))
        return clone

    def __getstate__(self) -> tuple[bytes, bool, tuple[str, ...], tuple[Any, ...]]:
        # What pickle stores: the message in its wire form, which keeps
        # everything (unknown fields too) and pickles even where the message
        # class cannot be found by name (another project's), strict, and the
        # plain attributes (names, values); the class is the only name a
        # pickle holds.
        layout = _LAYOUTS[self.__class__]
        try:
            values = layout.read(self)  # (message, strict, *plain)
        except AttributeError:  # a plain attribute was deleted: the others
            names = tuple(name for name in layout.names if hasattr(self, name))
            plain = tuple(getattr(self, name) for name in names)
            return self._message.SerializeToString(), self._strict, names, plain
        return values[0].SerializeToString(), values[1], layout.names, values[2:]

    def __setstate__(self, state: Any) -> None:
        layout = _LAYOUTS[self.__class__]
        if isinstance(state, dict):  # a pickle an earlier runtime made: every slot by name
            restore_slots(
                self, cast("dict[str, Any]", state), layout.attribute, layout.message_class
            )
            return
        wire, strict, names, values = state
        layout.set_message(self, layout.message_class.FromString(wire))
        layout.set_strict(self, strict)
        setter_of = layout.setter_of
        for name, value in zip(names, values):
            put = setter_of.get(name)
            if put is None:
                raise AttributeError(
                    f"cannot unpickle: {type(self).__name__} has no attribute {name!r} (pickled by another version?)"
                )
            put(self, value)

    def _set(self, name: str, value: Any) -> None:
        """Assign ``value`` to the option ``name`` (the property's name) as its
        field's kind and the mode say: a scalar checked, a config dict applied
        all-or-nothing, a list or dict replacing a repeated field or map."""
        binding = self._binding
        field = binding.spec.fields[binding.owner._renamed.get(name, name)]
        if field.deprecated:
            warn_deprecated(name, 4)
        if field.map_key is not None or field.repeated:
            replace_repeated(self._message, field, value, name, self._strict, self._lock)
        elif field.kind == MESSAGE:
            assign_config(
                getattr(self._message, field.name),
                value,
                SPECS[field.message],  # type: ignore[index]
                name,
                self._strict,
                binding.empty_config_sets,
                self._lock,
            )
        else:
            if (
                value.__class__ is not _FAST_TYPES.get(field.kind)
                or self._strict
                or field.constraint_always
            ):
                value = check_scalar(self._strict, field, value, name)
                if value is KEEP:
                    return
            setattr(self._message, field.name, value)


class _Layout(NamedTuple):
    """How copies and pickles build an instance of a wrapper class: its slots'
    setters (member descriptors, past the attribute lock), worked out once."""

    new: Callable[[type[Any]], Any]
    attribute: str  # the message's slot
    message_class: type[Message]
    set_message: Callable[[Any, Any], None]
    set_strict: Callable[[Any, Any], None]
    names: tuple[str, ...]  # the other slots: the plain attributes
    setters: tuple[Callable[[Any, Any], None], ...]
    setter_of: dict[str, Callable[[Any, Any], None]]
    # (message, strict, *plain values) in one call; AttributeError when one is unset
    read: Callable[[Any], Any]


_LAYOUTS: dict[type, _Layout] = {}
_UNSET: Final = object()
_IMMUTABLE: Final = frozenset({str, int, float, bool, bytes, type(None)})
_CONTAINERS: Final = frozenset({list, dict, set})


def _layout(cls: type[Wrapper], binding: _Binding) -> _Layout:
    own = {binding.attribute, "_strict", "_mutex"}
    declared: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        declared.extend((slots,) if isinstance(slots, str) else slots)
    names = tuple(name for name in declared if name not in own)

    def setter(name: str) -> Callable[[Any, Any], None]:
        return cast("Callable[[Any, Any], None]", getattr(cls, name).__set__)

    setters = tuple(setter(name) for name in names)
    return _Layout(
        cls.__new__,
        binding.attribute,
        binding.cls,
        setter(binding.attribute),
        setter("_strict"),
        names,
        setters,
        dict(zip(names, setters)),
        attrgetter(binding.attribute, "_strict", *names),
    )


def _copy_function(cls: type[_W], layout: _Layout) -> Callable[[_W], _W]:
    """``cls.__copy__``: a copy owning its message and its lists (changing the
    copy must not change the original: fleet copies the strategy it is
    given); other plain values are shared, as ``copy.copy`` shares them.

    Made per class, unrolled for a class with two plain attributes (the
    usual case): a loop over them costs a fifth of the copy, which is to be
    no slower than the shallow copy of the class it replaces."""
    new, set_message, set_strict = layout.new, layout.set_message, layout.set_strict
    attribute, names, setters, read = layout.attribute, layout.names, layout.setters, layout.read
    containers = _CONTAINERS

    def copy_each(source: _W) -> _W:
        clone: _W = new(cls)
        set_message(clone, getattr(source, attribute).__deepcopy__(None))
        set_strict(clone, getattr(source, "_strict"))
        for name, put in zip(names, setters):
            value: Any = getattr(source, name, _UNSET)
            if value is not _UNSET:
                put(clone, value.copy() if value.__class__ in containers else value)
        return clone

    if len(names) != 2:
        return copy_each
    first, second = setters

    def copy_two(source: _W) -> _W:
        try:
            message, strict, one, two = read(source)
        except AttributeError:  # a plain attribute was deleted: the other
            return copy_each(source)
        clone: _W = new(cls)
        set_message(clone, message.__deepcopy__(None))
        set_strict(clone, strict)
        first(clone, one.copy() if one.__class__ in containers else one)
        second(clone, two.copy() if two.__class__ in containers else two)
        return clone

    return copy_two


def _deep_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of a plain attribute's value; a list of immutable items
    (the usual: a list of names) is copied without the copy module."""
    if value.__class__ is list:
        for item in value:
            if item.__class__ not in _IMMUTABLE:
                break
        else:
            copied = memo.get(id(value))
            if copied is None:
                copied = memo[id(value)] = value[:]
            return copied
    if value.__class__ in _IMMUTABLE:
        return value
    return copy.deepcopy(value, memo)


# ===========================================================================
# Public API for the hand-written hooks module and for the generated members
# that are not fields (environment-backed fields, method aliases). A hooks
# module uses only public names of this module (no leading underscore), so it
# never reaches into the package's private modules. Keep additions here.
# ===========================================================================


def message_class(full_name: str) -> type[Message]:
    """The message class this package uses for ``full_name`` (in a build bound
    to another project's ``*_pb2`` modules, that project's class)."""
    spec = SPECS.get(full_name)
    if spec is None:
        hint = suggest(full_name, SPECS)
        raise KeyError(f"no message {full_name!r} in this package{hint}")
    return spec.cls


def lock_of(instance: object) -> RLock:
    """The lock of a generated class's instance (re-entrant). A hook holds it
    around whatever it changes or reads in more than one protobuf operation
    (``apply_config`` of a ``stage_config``, ``merge_keyed``, several fields
    read together), so other threads see all of it or none; the checks and
    the building go before, outside it."""
    return cast(RLock, getattr(instance, "_lock"))  # (private to the class: read by name)


_FIRST_LOCKS: Final = RLock()  # taken once per instance, when it first needs its lock


def _first_lock(instance: Wrapper) -> RLock:
    with _FIRST_LOCKS:  # two threads must not each make one
        try:
            return cast(RLock, getattr(instance, "_mutex"))
        except AttributeError:
            lock = RLock()
            object.__setattr__(instance, "_mutex", lock)
            return lock


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
            if lowered in _TRUE or lowered in _FALSE:
                return lowered in _TRUE
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
            snapshot.CopyFrom(message)
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
    parsed = type(message)()
    try:
        text_format.Merge(text, parsed)
    except text_format.ParseError as exc:
        raise TextFormatFileError(f"{name}: {exc}") from None
    except RecursionError:
        raise TextFormatFileError(f"{name}: nested too deep to parse") from None
    spec = spec_of(message)
    if _depth_bound(spec) > MAX_DEPTH + 1 and _spans_more_than(parsed, MAX_DEPTH + 1):
        raise TextFormatFileError(
            f"{name}: nested more than {MAX_DEPTH} levels deep, protobuf's limit"
        )

    def merge() -> None:
        if _merges_as_text(spec):
            message.MergeFrom(parsed)  # one step, as the text would merge
            return
        # A field without presence set to its default in the text: a merge of
        # the parsed message would skip it, the text's merge sets it.
        staged = type(message)()
        staged.CopyFrom(message)
        text_format.Merge(text, staged)
        message.CopyFrom(staged)

    if lock is None:
        merge()
    else:
        with lock:
            merge()


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
    for field in message.DESCRIPTOR.fields:
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
    for field in message.DESCRIPTOR.fields:
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
            survivor.CopyFrom(item)
            survivors.append(survivor)
        del container[:]
        container.extend(survivors)
    container.extend(items)
