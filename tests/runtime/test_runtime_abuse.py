"""Runtime abuse, both modes: every rejection leaves the strategy and the
caller's objects exactly as they were."""

from __future__ import annotations

import math
import time

import pytest

from fleet_strategy import DistributedStrategy, UnknownConfigKeyError

MODES = [pytest.param(False, id="compatible"), pytest.param(True, id="strict")]


def state(strategy: DistributedStrategy) -> tuple[bytes, list[str], list[str]]:
    return (
        strategy.strategy.SerializeToString(deterministic=True),
        list(strategy.hybrid_parallel_order),
        list(strategy.sync_param_name),
    )


def configured(strict: bool) -> DistributedStrategy:
    strategy = DistributedStrategy(strict=strict)
    strategy.amp_configs = {"init_loss_scaling": 8.0, "custom_white_list": ["keep"]}
    strategy.hybrid_configs = {"dp_degree": 2, "order": ["dp", "mp"]}
    return strategy


def rejected(strategy: DistributedStrategy, name: str, value: object, errors=(TypeError, ValueError)) -> None:
    before = state(strategy)
    original = repr(value)  # shows any change to nested dicts/lists
    with pytest.raises(errors):
        setattr(strategy, name, value)
    assert state(strategy) == before
    assert repr(value) == original


@pytest.mark.parametrize("strict", MODES)
@pytest.mark.parametrize("value", [None, 3, "amp", ["init_loss_scaling"], ("a", 1), object()])
def test_non_mapping_config_values(strict, value):
    rejected(configured(strict), "amp_configs", value)


@pytest.mark.parametrize("strict", MODES)
@pytest.mark.parametrize("value", [{1: True}, {None: 1}, {("a",): 1}, {b"init_loss_scaling": 1.0}])
def test_non_str_keys(strict, value):
    rejected(configured(strict), "amp_configs", value, UnknownConfigKeyError)


@pytest.mark.parametrize("strict", MODES)
@pytest.mark.parametrize(
    "value",
    [
        {"init_loss_scaling": {"nested": 1}},
        {"use_dynamic_loss_scaling": {"x": 1}},
        {"custom_white_list": [{"a": 1}]},
        {"incr_every_n_steps": [1]},
        {"decr_ratio": "0.5"},
    ],
)
def test_nested_dicts_and_lists_where_scalars_belong(strict, value):
    rejected(configured(strict), "amp_configs", value)


@pytest.mark.parametrize("strict", MODES)
def test_generators_and_iterators_for_lists(strict):
    strategy = configured(strict)
    strategy.amp_configs = {"custom_black_list": (name for name in ["a", "b"])}
    assert strategy.amp_configs["custom_black_list"] == ["a", "b"]
    strategy.recompute_configs = {"checkpoint_shape": iter([1, 2, 3])}
    assert strategy.recompute_configs["checkpoint_shape"] == [1, 2, 3]
    rejected(strategy, "amp_configs", {"custom_black_list": iter(["ok", 3])})


def test_bytes_for_strings():
    strict = configured(True)
    rejected(strict, "gradient_scale_configs", {"scale_strategy": b"sum"})
    rejected(strict, "amp_configs", {"custom_white_list": [b"x"]})
    compatible = configured(False)
    compatible.gradient_scale_configs = {"scale_strategy": b"sum"}  # protobuf takes UTF-8 bytes, as in Paddle
    assert compatible.gradient_scale_configs["scale_strategy"] == "sum"


BOUNDS = [
    # (property, key, lowest accepted, highest accepted) of each proto integer type in the schema
    ("amp_configs", "incr_every_n_steps", -(2**31), 2**31 - 1),  # int32
    ("sharding_configs", "sharding_degree", -(2**31), 2**31 - 1),  # int32
    ("a_sync_configs", "k_steps", -(2**31), 2**31 - 1),
]


@pytest.mark.parametrize("strict", MODES)
@pytest.mark.parametrize(("name", "key", "low", "high"), BOUNDS)
def test_integer_bounds(strict, name, key, low, high):
    strategy = configured(strict)
    setattr(strategy, name, {key: low})
    setattr(strategy, name, {key: high})
    assert getattr(strategy, name)[key] == high
    rejected(strategy, name, {key: high + 1})
    rejected(strategy, name, {key: low - 1})


def test_integer_bounds_of_wider_types():
    strategy = DistributedStrategy(strict=True)
    table = strategy.strategy.downpour_table_param.add()
    spec_fields = {f.name: f for f in table.DESCRIPTOR.fields}
    assert spec_fields["shard_num"].type == spec_fields["shard_num"].TYPE_UINT64
    strategy.fleet_desc_configs = {"t": {"sparse_shard_num": 2**64 - 1}}
    assert strategy.sparse_table_configs[-1].shard_num == 2**64 - 1
    before = state(strategy)
    with pytest.raises(ValueError):
        strategy.fleet_desc_configs = {"u": {"sparse_shard_num": 2**64}}
    with pytest.raises(ValueError):
        strategy.fleet_desc_configs = {"u": {"sparse_shard_num": -1}}
    assert state(strategy) == before


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 3.5e38])
def test_non_finite_and_float32_overflow(value):
    strict = configured(True)
    rejected(strict, "amp_configs", {"init_loss_scaling": value})
    rejected(strict, "_fuse_grad_size_in_TFLOPS", value)
    rejected(strict, "last_comm_group_size_MB", value)


def test_compatible_mode_keeps_pythons_float_semantics():
    strategy = DistributedStrategy()
    strategy._fuse_grad_size_in_TFLOPS = float("nan")  # Paddle accepts it too
    assert math.isnan(strategy._fuse_grad_size_in_TFLOPS)
    rejected(strategy, "last_comm_group_size_MB", float("nan"))  # "> 0" is always enforced


@pytest.mark.parametrize("strict", MODES)
def test_huge_lists_are_fast(strict):
    strategy = DistributedStrategy(strict=strict)
    names = [f"op{i}" for i in range(200_000)]
    started = time.perf_counter()
    strategy.amp_configs = {"custom_white_list": names}
    assert len(strategy.amp_configs["custom_white_list"]) == 200_000
    assert time.perf_counter() - started < 5  # generous: a guard against quadratic work, not a benchmark
    before = state(strategy)
    with pytest.raises(TypeError):
        strategy.amp_configs = {"custom_black_list": names + [3], "init_loss_scaling": 2.0}
    assert state(strategy) == before


@pytest.mark.parametrize("strict", MODES)
def test_prototxt_errors_change_nothing(strict, tmp_path):
    strategy = configured(strict)
    before = state(strategy)
    for name, text in [("unknown.txt", "amp: true\nnot_a_field: 3\n"), ("syntax.txt", "amp: true\namp_configs {\n")]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ValueError, match=name):
            strategy.load_from_prototxt(path)
        assert state(strategy) == before
    with pytest.raises(FileNotFoundError):
        strategy.load_from_prototxt(tmp_path / "absent.prototxt")
    assert state(strategy) == before


@pytest.mark.parametrize("strict", MODES)
def test_hooks_reject_without_change(strict):
    strategy = configured(strict)
    rejected(strategy, "hybrid_configs", ["dp_degree"])
    rejected(strategy, "hybrid_configs", {"dp_degree": 4, "nope": 1}, UnknownConfigKeyError)
    rejected(strategy, "fleet_desc_configs", {"t": {"sparse_optimizr": "adam"}}, UnknownConfigKeyError)
    rejected(strategy, "fleet_desc_configs", {"t": {"sparse_table_class": "Nope"}}, ValueError)
    rejected(strategy, "fleet_desc_configs", {"ok": {}, "t": {"sparse_embedx_dim": "8"}})
    rejected(strategy, "sparse_table_configs", {"t": {"table_parameters.t.shard_num": "x"}})
    rejected(strategy, "sparse_table_configs", "tables")
    rejected(strategy, "build_strategy", {"enable_inplace": "yes"})
    rejected(strategy, "build_strategy", {"no_such_option": True}, UnknownConfigKeyError)


def test_tables_with_the_same_name_replace_each_other():
    strategy = DistributedStrategy()
    strategy.fleet_desc_configs = {"a": {"sparse_shard_num": 10}, "b": {}}
    strategy.fleet_desc_configs = {"a": {"sparse_shard_num": 20}}
    assert [(t.table_name, t.shard_num) for t in strategy.sparse_table_configs] == [("b", 1000), ("a", 20)]


def test_attribute_lock_in_both_modes():
    for strict in (False, True):
        strategy = DistributedStrategy(strict=strict)
        with pytest.raises(TypeError, match="did you mean 'amp_configs'"):
            strategy.amp_config = {}  # type: ignore[attr-defined]
        strategy.hybrid_parallel_order = ["mp"]  # plain attributes stay assignable, as in Paddle
        strategy.strategy = strategy.strategy
