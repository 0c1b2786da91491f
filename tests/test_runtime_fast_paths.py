"""The runtime's fast paths give what the general paths give.

* a scalar option given its exact type in compatible mode is set by the
  class's ``__setattr__`` from a table, without the property call;
* the dict view of a message with nothing set comes from defaults read once at
  import, with fresh lists and dicts and the live sub-messages.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import pytest

import fleet_strategy
from fleet_strategy import DistributedStrategy, _specs, distributed_strategy, runtime
from fleet_strategy.distributed_strategy_pb2 import DistributedStrategy as StrategyMessage

VIEWS: list[tuple[str, Callable[[Any], Any], type]] = [
    (name, function, _specs.SPECS[spec_name].cls)
    for name, function in inspect.getmembers(_specs, inspect.isfunction)
    if name.endswith("_to_dict")
    for spec_name in [next(s for s in _specs.SPECS if s.rsplit(".", 1)[-1] == name[: -len("_to_dict")])]
]


def _expected_unset(message: Any) -> dict[str, Any]:
    """The view of an empty message, worked out from the descriptor alone."""
    view: dict[str, Any] = {}
    for field in message.DESCRIPTOR.fields:
        if runtime.is_repeated(field):
            is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
            view[field.name] = {} if is_map else []
        else:
            view[field.name] = getattr(message, field.name)
    return view


def test_every_view_is_covered():
    assert len(VIEWS) == len([s for s in _specs.SPECS.values() if not s.full_name.endswith("Entry")]) > 40


@pytest.mark.parametrize(("name", "view", "cls"), VIEWS, ids=[v[0] for v in VIEWS])
def test_the_unset_view_is_the_full_view_of_an_empty_message(name, view, cls):
    message = cls()
    fast = view(message)
    assert list(fast) == [f.name for f in cls.DESCRIPTOR.fields]  # the field order, as the full view
    assert fast == _expected_unset(message)
    for key, value in fast.items():
        if isinstance(value, (list, dict)):
            value.append(1) if isinstance(value, list) else value.update(x=1)  # type: ignore[attr-defined]
            assert view(message)[key] in ([], {})  # fresh on every call
    assert not message.ListFields()  # reading set nothing


def _set_first_field(message: Any) -> str:
    """Give the message's first field a value whatever its kind; returns its name."""
    field = message.DESCRIPTOR.fields[0]
    target = getattr(message, field.name)
    scalar: Any = {field.TYPE_BOOL: True, field.TYPE_STRING: "x", field.TYPE_BYTES: b"x"}.get(field.type, 1)
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        value_field = field.message_type.fields_by_name["value"]
        key_field = field.message_type.fields_by_name["key"]
        key: Any = "k" if key_field.type == key_field.TYPE_STRING else 1
        if value_field.message_type is not None:
            target[key].SetInParent()
        else:
            target[key] = {value_field.TYPE_BOOL: True, value_field.TYPE_STRING: "x", value_field.TYPE_BYTES: b"x"}.get(value_field.type, 1)
    elif runtime.is_repeated(field):
        if field.message_type is not None:
            target.add()
        else:
            target.append(scalar)
    elif field.message_type is not None:
        target.SetInParent()
    else:
        if field.enum_type is not None:
            scalar = field.enum_type.values[-1].number
        setattr(message, field.name, scalar)
    assert message.ListFields(), field.name
    return field.name


@pytest.mark.parametrize(("name", "view", "cls"), VIEWS, ids=[v[0] for v in VIEWS])
def test_setting_one_field_changes_only_that_key(name, view, cls):
    """The general path (some field set) agrees with the fast one on every other key."""
    message = cls()
    changed = _set_first_field(message)
    full, empty = view(message), view(cls())
    assert {k: v for k, v in full.items() if k != changed} == {k: v for k, v in empty.items() if k != changed}


def test_nested_messages_in_an_unset_view_are_live():
    strategy = DistributedStrategy()
    strategy.hybrid_configs["mp_configs"].sync_param = True  # Paddle's idiom: the view holds the message
    assert strategy.strategy.hybrid_configs.mp_configs.sync_param is True


def test_the_direct_setters_are_plain_scalar_options():
    table = distributed_strategy._DistributedStrategy_DIRECT
    assert "amp" in table and "nccl_comm_num" in table
    assert "a_sync" not in table  # its setter has an after-set hook
    assert "last_comm_group_size_MB" not in table  # a constraint enforced in compatible mode too
    field_names = {f.name for f in StrategyMessage.DESCRIPTOR.fields}
    for name, (kind, field) in table.items():
        assert isinstance(getattr(DistributedStrategy, name), property) and field in field_names
        assert kind in (bool, int, float, str)


@pytest.mark.parametrize("strict", [False, True])
def test_the_direct_path_answers_as_the_setter_does(strict, caplog):
    strategy = DistributedStrategy(strict=strict)
    strategy.amp = True
    strategy.nccl_comm_num = 3
    assert strategy.amp is True and strategy.nccl_comm_num == 3
    if strict:
        with pytest.raises(TypeError):
            strategy.amp = 1  # type: ignore[assignment]
        with pytest.raises(ValueError):
            strategy.nccl_comm_num = 0
    else:
        strategy.amp = "yes"  # type: ignore[assignment]  # Paddle's answer: a warning, the old value kept
        assert strategy.amp is True and "amp" in caplog.text
    with pytest.raises(ValueError):
        strategy.nccl_comm_num = 2**40  # out of int32 on either path (protobuf's own check)
    assert strategy.nccl_comm_num == 3


def test_a_subclass_property_is_not_bypassed_for_other_names():
    assert fleet_strategy.DistributedStrategy.__setattr__ is distributed_strategy.DistributedStrategy.__setattr__
