"""copy.copy, copy.deepcopy and pickle of the generated classes (fleet copies
every strategy it is handed)."""

from __future__ import annotations

import copy
import pickle
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fleet_strategy import DistributedJobInfo, DistributedStrategy
from fleet_strategy.distributed_strategy_pb2 import DistributedStrategy as StrategyMessage

CLONES: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda obj: pickle.loads(pickle.dumps(obj)),
    "pickle-protocol-0": lambda obj: pickle.loads(pickle.dumps(obj, protocol=0)),
}

_SCALARS = {
    field.name: field
    for field in StrategyMessage.DESCRIPTOR.fields
    if field.message_type is None and field.enum_type is None
    # FieldDescriptor.is_repeated came in protobuf 6.31; the runtime tests also run on the floor (4.22)
    and not (field.is_repeated if hasattr(field, "is_repeated") else field.label == field.LABEL_REPEATED)
}


def _value(field: Any) -> st.SearchStrategy[Any]:
    if field.type == field.TYPE_BOOL:
        return st.booleans()
    if field.type in (field.TYPE_FLOAT, field.TYPE_DOUBLE):
        return st.floats(-1e6, 1e6, width=32 if field.type == field.TYPE_FLOAT else 64)
    if field.type == field.TYPE_STRING:
        return st.text(max_size=8)
    return st.integers(0, 2**31 - 1)


settings_strategy = st.dictionaries(st.sampled_from(sorted(_SCALARS)), st.none(), max_size=12).flatmap(
    lambda names: st.fixed_dictionaries({name: _value(_SCALARS[name]) for name in names})
)
names = st.lists(st.text(min_size=1, max_size=6), max_size=5)


@settings(max_examples=60, deadline=None)
@given(
    values=settings_strategy,
    strict=st.booleans(),
    order=names,
    sync=names,
    amp=st.fixed_dictionaries({}, optional={"init_loss_scaling": st.floats(1, 2**20), "custom_white_list": names}),
    how=st.sampled_from(sorted(CLONES)),
)
def test_a_clone_has_the_same_state_and_is_independent(
    values: dict[str, Any], strict: bool, order: list[str], sync: list[str], amp: dict[str, Any], how: str
) -> None:
    original = DistributedStrategy(strict=strict)
    for name, value in values.items():
        setattr(original.strategy, name, value)
    original.amp_configs = amp  # type: ignore[assignment]
    original.hybrid_configs = {"order": order, "mp_configs": {"sync_param_name": sync}}
    before = original.strategy.SerializeToString()

    clone = CLONES[how](original)

    assert type(clone) is DistributedStrategy
    assert clone.strategy == original.strategy and clone.strategy is not original.strategy
    assert clone.strict is strict
    assert clone.hybrid_parallel_order == order and clone.hybrid_parallel_order is not original.hybrid_parallel_order
    assert clone.sync_param_name == sync and clone.sync_param_name is not original.sync_param_name
    assert repr(clone) == repr(original)
    clone.amp = not clone.amp
    clone.hybrid_parallel_order.append("x")
    clone.amp_configs = {"custom_black_list": ["changed"]}
    assert original.strategy.SerializeToString() == before and original.hybrid_parallel_order == order
    with pytest.raises(TypeError):  # the clone keeps the attribute lock
        clone.amp_config = {}  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", sorted(CLONES))
def test_job_info_clones(how: str) -> None:
    info = DistributedJobInfo()
    info._set_worker_num(4)
    info._set_worker_ips(["10.0.0.1", "10.0.0.2"])
    clone = CLONES[how](info)
    assert clone.job_info == info.job_info and clone.job_info is not info.job_info
    clone._set_worker_num(1)
    assert info.job_info.worker_num == 4
