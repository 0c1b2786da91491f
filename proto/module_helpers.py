# Hand-written. Only the Paddle build carries a (generated) copy of it
# (targets.paddle.module_members in fleet_strategy.annotations.yaml beside
# it): it imports Paddle, so the standalone package does not ship it.
"""The module-level names of Paddle 3.3.1's ``distributed_strategy.py``
besides its two classes, for code that imports them by path.

Paddle's own classes no longer use them (the generated classes validate and
convert through the runtime), but each behaves as Paddle's does, errors
included: ``get_msg_dict`` and ``get_repeated_msg_dict`` read a message into
dicts, ``assign_configs_value`` and ``assign_repeated_msg`` write a dict into
one (unknown keys skipped, protobuf's errors passed on), ``check_configs_key``
asserts that every key is a field, ``_is_repeated_field`` tells a repeated
field on every protobuf version, ``ReduceStrategyFleet`` is ``int``, and the
two decorators ``is_strict_auto`` and ``__non_auto_func_called__`` clear the
class module's flag ``non_auto_func_called`` when the function they wrap is
called. (The generated ``_is_strict_auto`` looks at its strategy's own fields
instead of that flag; the class docs list this difference.)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

# The class module this one serves: the decorators clear its flag there.
CLASS_MODULE = "paddle.distributed.fleet.base.distributed_strategy"

ReduceStrategyFleet = int


def _is_repeated_field(field_descriptor: Any) -> bool:
    """Whether a field is repeated: protobuf 7's ``is_repeated`` (a property,
    a method on some versions), else the field's label."""
    try:
        repeated = field_descriptor.is_repeated
    except AttributeError:
        return bool(field_descriptor.label == FieldDescriptor.LABEL_REPEATED)
    return repeated if isinstance(repeated, bool) else bool(repeated())


def _field_named(fields: Any, key: object) -> Any:
    """The field of ``fields`` whose name ``key`` equals, else None."""
    for field in fields:
        if key == field.name:
            return field
    return None


def _is_message(field: Any) -> bool:
    return bool(field.type == FieldDescriptor.TYPE_MESSAGE)


def get_repeated_msg_dict(msg: Any) -> list[dict[str, Any]]:
    """Each message of a repeated field as a dict of its fields (repeated ones as lists)."""
    items: list[dict[str, Any]] = []
    for item in msg:
        items.append(
            {field.name: list(getattr(item, field.name)) if _is_repeated_field(field) else getattr(item, field.name)
             for field in item.DESCRIPTOR.fields}
        )
    return items


def get_msg_dict(msg: Any) -> dict[str, Any]:
    """A message's fields as a dict: repeated scalars as lists, repeated
    messages as lists of dicts, the rest as they are (messages stay messages)."""
    result: dict[str, Any] = {}
    for field in msg.DESCRIPTOR.fields:
        value = getattr(msg, field.name)
        if _is_repeated_field(field):
            value = get_repeated_msg_dict(value) if _is_message(field) else list(value)
        result[field.name] = value
    return result


def assign_repeated_msg(msg: Any, config: Any) -> None:
    """Add one message to the repeated field ``msg`` per key of ``config``;
    a key naming a singular field of the message sets it from ``config``."""
    for key in config:
        item = msg.add()
        field = _field_named(item.DESCRIPTOR.fields, key)
        if field is None:
            continue
        if _is_repeated_field(field):
            if config[field.name] is not None:
                target = getattr(msg, field.name)  # read from the container, as Paddle does (AttributeError)
                if _is_message(field):
                    assign_configs_value(target, config[field.name])
                else:
                    target.extend(config[field.name])
        else:
            setattr(item, field.name, config[field.name])


def assign_configs_value(msg: Any, config: Any) -> None:
    """Write each key of ``config`` that names a field of ``msg``: a repeated
    field is extended (messages through ``assign_repeated_msg``), any other is
    assigned, as protobuf checks it (a message field refuses assignment).
    Other keys are skipped; keys before a failing one stay written."""
    fields = msg.DESCRIPTOR.fields
    for key in config:
        field = _field_named(fields, key)
        if field is None:
            continue
        if _is_repeated_field(field):
            if config[field.name] is not None:
                target = getattr(msg, field.name)
                if _is_message(field):
                    assign_repeated_msg(target, config[field.name])
                else:
                    target.extend(config[field.name])
        else:
            setattr(msg, field.name, config[field.name])


def check_configs_key(msg: Any, config: Any, field_name: str) -> None:
    """Assert that every key of ``config`` names a field of ``msg`` (an
    ``assert``, as Paddle's: skipped under ``python -O``)."""
    names = msg.DESCRIPTOR.fields_by_name.keys()
    for key in config:
        assert key in names, f"key:{key} not in {field_name}"


def __non_auto_func_called__(func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``func``: calling it first sets the class module's
    ``non_auto_func_called`` to False."""

    def __impl__(*args: Any, **kwargs: Any) -> Any:
        setattr(sys.modules[CLASS_MODULE], "non_auto_func_called", False)
        return func(*args, **kwargs)

    return __impl__


# Made by Paddle's own decorator factory, as Paddle's is: the wrapper keeps the
# wrapped function's name, docs and signature.
_wrap_decorator = importlib.import_module("paddle.base.wrapped_decorator").wrap_decorator
is_strict_auto = _wrap_decorator(__non_auto_func_called__)
