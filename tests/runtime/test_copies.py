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


# ------------------------------------------------ what each copy owns and shares

# A strategy pickled by the runtime before copies were built slot by slot
# (state: a dict of every slot, the message in its wire form): strict, amp on,
# amp_configs["custom_white_list"] == ["matmul"], hybrid_parallel_order == ["pp", "dp"].
EARLIER_PICKLE = (
    "gASVyAAAAAAAAACMI2ZsZWV0X3N0cmF0ZWd5LmRpc3RyaWJ1dGVkX3N0cmF0ZWd5lIwTRGlzdHJpYnV0ZWRTdHJhdGVneZSTlCmBlH2UKIwI"
    "c3RyYXRlZ3mUQw0QAbIGCDoGbWF0bXVslIwHX3N0cmljdJSIjBVoeWJyaWRfcGFyYWxsZWxfb3JkZXKUXZQojAJwcJSMAmRwlGWMD3N5bmNf"
    "cGFyYW1fbmFtZZRdlCiMCWVtYmVkZGluZ5SMCmxheWVyX25vcm2UjAMuYl+UZXViLg=="
)


def test_a_pickle_of_the_earlier_runtime_still_loads() -> None:
    import base64

    strategy = pickle.loads(base64.b64decode(EARLIER_PICKLE))
    assert type(strategy) is DistributedStrategy and strategy.strict is True and strategy.amp is True
    assert strategy.amp_configs["custom_white_list"] == ["matmul"]
    assert strategy.hybrid_parallel_order == ["pp", "dp"] and strategy.sync_param_name == ["embedding", "layer_norm", ".b_"]
    strategy.amp_configs = {"custom_white_list": ["x"]}  # it has a lock of its own: assignments work
    assert pickle.loads(pickle.dumps(strategy)).amp_configs["custom_white_list"] == ["x"]


def test_a_pickle_names_only_the_class() -> None:
    """The state is the message's wire form, strict and the plain attributes:
    the only name a pickle holds is the class's (loadable wherever it imports)."""
    import pickletools

    strategy = DistributedStrategy()
    strategy.amp = True
    names = [arg for op, arg, _ in pickletools.genops(pickle.dumps(strategy)) if op.name in ("SHORT_BINUNICODE", "GLOBAL")]
    assert names[:2] == ["fleet_strategy.distributed_strategy", "DistributedStrategy"]
    assert not any("runtime" in str(name) or "copyreg" in str(name) for name in names)


def test_copy_copies_lists_and_shares_other_values() -> None:
    original = DistributedStrategy()
    shared = object()
    original.hybrid_parallel_order = ["dp", "mp"]
    original.sync_param_name = shared  # type: ignore[assignment]  # (any value: the attribute is plain)
    clone = copy.copy(original)
    assert clone.hybrid_parallel_order == ["dp", "mp"] and clone.hybrid_parallel_order is not original.hybrid_parallel_order
    assert clone.sync_param_name is shared  # a shallow copy shares what is not a container
    deep = copy.deepcopy(original)
    assert deep.sync_param_name is not shared and type(deep.sync_param_name) is object


def test_deepcopy_keeps_aliasing_and_copies_mutable_items() -> None:
    original = DistributedStrategy()
    names = ["dp", "mp"]
    original.hybrid_parallel_order = names
    original.sync_param_name = names  # one list in two attributes
    deep = copy.deepcopy(original)
    assert deep.hybrid_parallel_order is deep.sync_param_name and deep.sync_param_name is not names
    nested: list[Any] = [["a"], "b"]
    original.sync_param_name = nested
    deep = copy.deepcopy(original)
    assert deep.sync_param_name == nested and deep.sync_param_name[0] is not nested[0]
    holder = {"s": original}
    copied = copy.deepcopy(holder)  # the memo: an object graph holding the strategy
    assert copied["s"] is not original and copied["s"].strategy == original.strategy


@pytest.mark.parametrize("how", sorted(CLONES))
def test_a_deleted_plain_attribute_stays_unset_in_the_clone(how: str) -> None:
    original = DistributedStrategy()
    original.hybrid_parallel_order = ["pp"]
    del original.sync_param_name
    clone = CLONES[how](original)
    assert clone.hybrid_parallel_order == ["pp"] and not hasattr(clone, "sync_param_name")


@pytest.mark.parametrize("how", sorted(CLONES))
def test_a_subclass_with_slots_of_its_own_clones_them(how: str) -> None:
    clone = CLONES[how](_Tagged.make())
    assert type(clone) is _Tagged and clone.tag == ["t"] and clone.amp is True
    assert clone.hybrid_parallel_order == ["dp", "pp", "sharding", "sep", "cp", "mp"]


class _Tagged(DistributedStrategy):  # module level: pickle finds it by name
    __slots__ = ("tag",)

    @classmethod
    def make(cls) -> _Tagged:
        tagged = cls()
        tagged.tag = ["t"]
        tagged.amp = True
        return tagged


@pytest.mark.parametrize("how", sorted(CLONES))
def test_a_clone_has_a_lock_of_its_own(how: str) -> None:
    original = DistributedStrategy()
    original.amp_configs = {"custom_white_list": ["a"]}  # makes the original's lock
    clone = CLONES[how](original)
    assert clone._lock is not original._lock  # (private: what the contract rests on)
    with original._lock:  # held by this thread: the clone still assigns from another
        import threading

        worker = threading.Thread(target=lambda: setattr(clone, "amp_configs", {"custom_white_list": ["b"]}))
        worker.start()
        worker.join(timeout=30)
        assert not worker.is_alive()
    assert clone.amp_configs["custom_white_list"] == ["b"] and original.amp_configs["custom_white_list"] == ["a"]


def test_a_pickle_naming_an_attribute_the_class_lacks_says_so() -> None:
    strategy = DistributedStrategy()
    wire, strict, names, values = strategy.__getstate__()
    other = DistributedStrategy.__new__(DistributedStrategy)
    with pytest.raises(AttributeError, match="DistributedStrategy has no attribute 'gone'"):
        other.__setstate__((wire, strict, (*names, "gone"), (*values, 1)))
