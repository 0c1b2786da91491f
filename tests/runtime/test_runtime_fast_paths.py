"""The runtime's fast paths give what the general paths give.

* a scalar option given its exact type in compatible mode is set by the
  class's ``__setattr__`` from a table, without the property call;
* the dict view of a message with nothing set comes from defaults read once at
  import, with fresh lists and dicts and the live sub-messages.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import fleet_strategy
from fleet_strategy import DistributedStrategy, distributed_strategy, distributed_strategy_pb2, runtime
from fleet_strategy.distributed_strategy_pb2 import DistributedStrategy as StrategyMessage

# every message type the package registered (well-known types included)
VIEWS: list[tuple[str, Callable[[Any], Any], type]] = [
    (name, runtime.dict_view, spec.cls) for name, spec in sorted(runtime.SPECS.items())
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


def test_every_message_is_covered():
    messages = distributed_strategy_pb2.DESCRIPTOR.message_types_by_name
    assert {f"paddle.fleet.{name}" for name in messages} <= {name for name, _, _ in VIEWS}
    assert len(VIEWS) == 45


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
    table = DistributedStrategy._direct
    assert "amp" in table and "nccl_comm_num" in table and "_fuse_grad_size_in_TFLOPS" in table
    assert "a_sync" not in table  # its setter has an after-set hook
    assert "last_comm_group_size_MB" not in table  # a constraint enforced in compatible mode too
    assert "hybrid_configs" not in table and "amp_configs" not in table
    field_names = {f.name for f in StrategyMessage.DESCRIPTOR.fields}
    for name in table:
        assert isinstance(getattr(DistributedStrategy, name), property)
        assert DistributedStrategy._renamed.get(name, name) in field_names


def test_a_renamed_direct_option_sets_its_field():
    strategy = DistributedStrategy()
    strategy._fuse_grad_size_in_TFLOPS = 2.5
    assert strategy.strategy.fuse_grad_size_in_TFLOPS == 2.5


def test_a_subclass_that_redefines_an_option_gets_its_own_setter_called():
    calls = []

    class Mine(DistributedStrategy):
        __slots__ = ()

        @property
        def amp(self) -> bool:
            return self.strategy.amp

        @amp.setter
        def amp(self, value: bool) -> None:
            calls.append(value)
            self._set("amp", value)

    mine = Mine()
    mine.amp = True
    mine.recompute = True  # still the table's
    assert calls == [True] and mine.strategy.amp is True and mine.strategy.recompute is True
    with pytest.raises(TypeError, match="nope is not an attribute of Mine"):
        mine.nope = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "config",
    [
        {"init_loss_scaling": 1024.0, "use_dynamic_loss_scaling": False, "custom_white_list": ["x"]},
        {"init_loss_scaling": 1024.0, "incr_every_n_steps": 2**40},  # out of int32: protobuf rejects it
        {"init_loss_scaling": 1024.0, "nope": 1},
        {"init_loss_scaling": 1024.0, "incr_every_n_steps": True},  # a bool for an int
        {"init_loss_scaling": 1024, "dtype": "bfloat16"},  # an int for a float
        {"init_loss_scaling": 1024.0, "dtype": "bfloat16", "incr_ratio": 3.0},  # the flat dict of the lean path
    ],
)
@pytest.mark.parametrize("strict", [False, True])
def test_the_lean_config_path_answers_as_the_general_one(config, strict, monkeypatch):
    """The lean path (a flat dict of exactly typed scalars, compatible mode)
    against the general one, which it falls back to on anything else."""

    def attempt() -> tuple[str, bytes]:
        strategy = DistributedStrategy(strict=strict)
        strategy.amp_configs = {"incr_ratio": 4.0}
        try:
            strategy.amp_configs = dict(config)
        except Exception as exc:  # the same class and message either way
            return f"{type(exc).__name__}: {exc}", strategy.strategy.SerializeToString()
        return "ok", strategy.strategy.SerializeToString()

    lean = attempt()
    spec = runtime.spec_of(distributed_strategy_pb2.AMPConfig)
    monkeypatch.setattr(spec, "fast_keys", {})  # nothing qualifies: the general path
    assert attempt() == lean


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
