# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""Config dicts, lists and maps applied all-or-nothing (built into a scratch
message, then applied in one step), the depth limit, the JSON-like
well-known types, and the dict views."""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from google.protobuf.message import Message

from ._runtime_specs import (
    ENUM,
    INT,
    JSON_TYPES,
    MESSAGE,
    SPECS,
    STR,
    FieldSpec,
    MessageSpec,
    as_mapping,
    bool_for_int,
    check_constraint,
    clear,
    clear_field,
    copy_from,
    descriptor_of,
    enum_number,
    is_list_like,
    is_repeated,
    list_fields,
    merge_from,
    parse_from,
    serialize_partial,
    set_in_parent,
    strict_value,
    type_name,
    unknown_key,
)

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    Lock = AbstractContextManager[Any]  # what the runtime's functions take as a lock


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
    if not empty_sets and not clears and not list_fields(patch) and not isinstance(config, Message):
        return None
    return ConfigChange(patch, tuple(clears))


def apply_config(target: Message, change: ConfigChange) -> None:
    """Apply a staged config to ``target`` in one protobuf operation: a merge,
    or, when the config replaces lists or maps, a copy of the whole result
    built aside. So a reader never sees a list cleared and not yet refilled.
    Either sets ``target`` in its parent, an empty config too."""
    if change.clears:
        result = type(target)()
        copy_from(result, target)
        for path in change.clears:
            if not path:  # the target itself is replaced (a JSON value)
                clear(result)
                continue
            node = result
            for step in path[:-1]:
                node = getattr(node, step)
            clear_field(node, path[-1])
        merge_from(result, change.patch)
        copy_from(target, result)
    else:
        merge_from(target, change.patch)


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
                merge_from(target, patch)
            else:
                with lock:
                    merge_from(target, patch)
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


def depth_bound(spec: MessageSpec) -> int:
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
                below = 1 + (depth_bound(SPECS[value.message]) if value and value.message else 0)
            elif field.message is not None:
                below = depth_bound(SPECS[field.message])
            deepest = max(deepest, below)
        bound = _DEPTHS[spec.full_name] = min(_UNBOUNDED, 1 + deepest)
    return bound


def spans_more_than(message: Message, allowed: int) -> bool:
    """Whether ``message`` nests more than ``allowed`` levels (itself 1, a map
    entry 1 more, as on the wire); stops at the first node too deep."""
    stack: list[tuple[Any, int]] = [(message, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > allowed:
            return True
        for field, value in list_fields(node):
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
    if depth_bound(spec) > allowed and spans_more_than(message, allowed):
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
    binding: Any = getattr(config.__class__, "_binding", None)
    if binding is not None:  # an instance of a generated class: its message
        config = getattr(config, binding.attribute)
    if isinstance(config, Message) and descriptor_of(config).full_name == spec.full_name:
        _check_depth(config, spec, level, where)
        _copy_message(patch, config, spec)
        if spec.full_name in JSON_TYPES:
            clears.append(path)  # replaced, not merged: a JSON value is one value
        return
    items = as_mapping(config)
    if spec.full_name in JSON_TYPES and _fill_json(patch, config, spec, where):
        _check_depth(patch, spec, level, where)
        clears.append(path)
        return
    if items is None:
        raise TypeError(
            f"{where}: expected a dict of {spec.full_name} keys, got {type_name(config)}"
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
            set_in_parent(sub)  # an empty dict or message is still set
            _fill(sub, value, SPECS[field.message], at, strict, clears, (*path, key), level + 1)  # type: ignore[index]
        else:
            _set_scalar(patch, field, value, at, strict)
            if not field.has_presence:
                clears.append((*path, key))


def _copy_message(patch: Message, config: Message, spec: MessageSpec) -> None:
    """``patch`` becomes a copy of ``config``, a message of its type: of its
    class, or of another class of the same type (protoc's own module for a
    well-known type, another pool's), copied in its wire form."""
    if isinstance(config, spec.cls):
        copy_from(patch, config)
    else:
        parse_from(patch, serialize_partial(config))


# The well-known types holding JSON-like values take that value: a Value any
# JSON-like Python value (None, bool, number, str, a dict, a list or tuple), a
# Struct a dict (its update()), a ListValue a list (its extend()). A ListValue
# still takes a dict of its proto fields ({"values": [...]}); a Value takes no
# dict of its own fields: a dict is a JSON object there.
def _fill_json(patch: Any, config: Any, spec: MessageSpec, where: str) -> bool:
    """Fill ``patch`` (of one of JSON_TYPES) from a JSON-like ``config``;
    False when ``config`` is not the JSON-like shape the type takes."""
    name = spec.full_name
    try:
        if name == "google.protobuf.Struct":
            if as_mapping(config) is None:
                return False
            patch.update(config)
        elif name == "google.protobuf.ListValue":
            if not is_list_like(config):
                return False
            patch.extend(config)
        else:
            _fill_value(patch, config, where)
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise TypeError(f"{where}: {exc}") from None
    except RecursionError:
        raise _too_deep(where) from None
    return True


def _fill_value(patch: Any, config: Any, where: str) -> None:
    """A google.protobuf.Value holding the JSON-like ``config``."""
    if config is None:
        patch.null_value = 0
    elif isinstance(config, bool):
        patch.bool_value = config
    elif isinstance(config, (int, float)):
        patch.number_value = config
    elif isinstance(config, str):
        patch.string_value = config
    elif as_mapping(config) is not None:
        set_in_parent(patch.struct_value)  # {} is still an object
        patch.struct_value.update(config)
    elif is_list_like(config):
        set_in_parent(patch.list_value)  # [] is still a list
        patch.list_value.extend(config)
    else:
        raise TypeError(
            "expected a JSON-like value (None, bool, int, float, str, dict, list),"
            f" got {type_name(config)}"
        )


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
        raise bool_for_int(at)
    if field.constraint_always and isinstance(value, (int, float)):  # enforce_constraint: always
        check_constraint(field, value, at)  # (other types: protobuf's own error follows)
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
    if strict and not is_list_like(value):
        raise TypeError(f"{at}: expected a list, got {type_name(value)} {value!r}")
    container = getattr(patch, field.name)
    if field.kind == MESSAGE:
        if not is_list_like(value):
            raise TypeError(f"{at}: expected a list of dicts, got {type_name(value)}")
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
            raise bool_for_int(at)
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
        raise TypeError(f"{at}: expected a dict, got {type_name(value)}")
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
    spec = SPECS[descriptor_of(target).full_name]
    scratch = spec.cls()
    if field.map_key is not None:
        _fill_map(scratch, field, value, where, strict, 0)
    else:
        if not strict and isinstance(value, (str, bytes)) and field.kind != STR:
            raise TypeError(f"{where}: expected a list, got {type_name(value)}")
        _fill_repeated(scratch, field, value, where, strict, 0)
    if lock is None:
        _swap_in(target, field, scratch)
    else:
        with lock:
            _swap_in(target, field, scratch)


def _swap_in(target: Message, field: FieldSpec, scratch: Message) -> None:
    if not field.append:
        clear_field(target, field.name)
    merge_from(target, scratch)


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
    cls = type(message)
    view = _VIEWS.get(cls)
    if view is None:
        view = _VIEWS[cls] = _View(SPECS[cls.DESCRIPTOR.full_name])
    if not list_fields(message):  # nothing set (one protobuf call): the defaults read once
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
