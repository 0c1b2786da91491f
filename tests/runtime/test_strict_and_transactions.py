"""Strict mode's errors, and 'nothing lost' in both modes."""

from __future__ import annotations

import copy
import logging

import pytest

import fleet_strategy
from fleet_strategy import DistributedStrategy, UnknownConfigKeyError


@pytest.fixture
def strict():
    return DistributedStrategy(strict=True)


def snapshot(strategy: DistributedStrategy) -> tuple[bytes, list[str], list[str]]:
    return (
        strategy.strategy.SerializeToString(deterministic=True),
        list(strategy.hybrid_parallel_order),
        list(strategy.sync_param_name),
    )


# ------------------------------------------------------------ the switch


def test_strict_is_off_by_default_and_per_instance():
    assert DistributedStrategy().strict is False
    assert DistributedStrategy(strict=True).strict is True
    s = DistributedStrategy()
    s.strict = True
    assert s.strict


def test_process_wide_default_applies_to_new_instances():
    fleet_strategy.set_default_strict(True)
    try:
        assert DistributedStrategy().strict is True
        assert DistributedStrategy(strict=False).strict is False
    finally:
        fleet_strategy.set_default_strict(False)
    assert DistributedStrategy().strict is False


def test_switch_rejects_non_bool():
    with pytest.raises(TypeError):
        fleet_strategy.set_default_strict(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DistributedStrategy(strict="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DistributedStrategy().strict = 1  # type: ignore[assignment]


# --------------------------------------------------------- strict scalars


@pytest.mark.parametrize(
    ("name", "value", "error", "words"),
    [
        ("amp", 1, TypeError, "amp: expected bool, got int 1"),
        ("amp", "True", TypeError, "amp: expected bool"),
        ("amp", None, TypeError, "amp: expected bool"),
        ("a_sync", 0, TypeError, "a_sync: expected bool"),
        ("conv_workspace_size_limit", True, TypeError, "expected int, got bool"),
        ("conv_workspace_size_limit", 2.5, TypeError, "expected int, got float"),
        ("conv_workspace_size_limit", "2", TypeError, "expected int, got str"),
        ("conv_workspace_size_limit", 2**31, ValueError, "out of range [-2147483648, 2147483647]"),
        ("conv_workspace_size_limit", -(2**31) - 1, ValueError, "out of range"),
        ("conv_workspace_size_limit", -1, ValueError, "should be at least 0"),
        ("nccl_comm_num", 0, ValueError, "should be greater than 0"),
        ("_fuse_grad_size_in_TFLOPS", float("nan"), ValueError, "not a finite number"),
        ("_fuse_grad_size_in_TFLOPS", float("inf"), ValueError, "not a finite number"),
        ("_fuse_grad_size_in_TFLOPS", 1e39, ValueError, "does not fit a 32-bit float"),
        ("_fuse_grad_size_in_TFLOPS", True, TypeError, "expected float, got bool"),
        ("last_comm_group_size_MB", 0.0, ValueError, "greater than 0"),
        ("last_comm_group_size_MB", "1", TypeError, "expected float"),
    ],
)
def test_strict_scalar_rejections(strict, name, value, error, words):
    before = snapshot(strict)
    with pytest.raises(error) as info:
        setattr(strict, name, value)
    assert words in str(info.value)
    assert snapshot(strict) == before


def test_strict_accepts_what_it_should(strict):
    strict._fuse_grad_size_in_TFLOPS = 3  # an int is a fine float
    assert strict._fuse_grad_size_in_TFLOPS == 3.0
    strict.conv_workspace_size_limit = 0
    strict.amp = True
    assert (strict.conv_workspace_size_limit, strict.amp) == (0, True)


# ---------------------------------------------------------- strict configs


@pytest.mark.parametrize(
    ("name", "config", "error", "words"),
    [
        ("amp_configs", {"init_loss_scalling": 1.0}, UnknownConfigKeyError, "did you mean 'init_loss_scaling'"),
        ("amp_configs", {"use_dynamic_loss_scaling": 1}, TypeError, "amp_configs['use_dynamic_loss_scaling']: expected bool"),
        ("amp_configs", {"incr_every_n_steps": 2**40}, ValueError, "amp_configs['incr_every_n_steps']"),
        ("amp_configs", {"custom_white_list": "conv2d"}, TypeError, "amp_configs['custom_white_list']: expected a list"),
        ("amp_configs", {"custom_white_list": ["a", 1]}, TypeError, "amp_configs['custom_white_list'][1]"),
        ("amp_configs", {"decr_ratio": float("nan")}, ValueError, "not a finite number"),
        ("amp_configs", ["init_loss_scaling"], TypeError, "expected a dict"),
        ("amp_configs", {1: 2}, UnknownConfigKeyError, "unknown key 1"),
        ("dgc_configs", {"sparsity": [0.5, "x"]}, TypeError, "dgc_configs['sparsity'][1]"),
        ("hybrid_configs", {"mp_configs": {"sync_parm": True}}, UnknownConfigKeyError, "hybrid_configs['mp_configs']"),
        ("hybrid_configs", {"mp_configs": 3}, TypeError, "hybrid_configs['mp_configs']"),
        ("hybrid_configs", {"order": "dp,mp"}, TypeError, "hybrid_configs['order']"),
        ("recompute_configs", {"refined_ops_patterns": [{"num": "x"}]}, TypeError, "refined_ops_patterns'][0]['num']"),
        ("build_strategy", {"reduce_strategy": 1.5}, TypeError, "build_strategy['reduce_strategy']"),
    ],
)
def test_strict_config_rejections_change_nothing(strict, name, config, error, words):
    strict.amp_configs = {"init_loss_scaling": 8.0}
    before = snapshot(strict)
    original = copy.deepcopy(config)
    with pytest.raises(error) as info:
        setattr(strict, name, config)
    assert words in str(info.value)
    assert snapshot(strict) == before
    assert config == original


def test_unknown_key_error_names_valid_keys_and_is_catchable_both_ways(strict):
    with pytest.raises(UnknownConfigKeyError) as info:
        strict.gradient_merge_configs = {"k_step": 2}
    message = str(info.value)
    assert "gradient_merge_configs: unknown key 'k_step'" in message
    assert "did you mean 'k_steps'" in message
    assert "valid keys: k_steps, avg" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, AssertionError)


# ------------------------------------------------- transactions, both modes


@pytest.mark.parametrize("strict_mode", [False, True])
def test_bad_key_after_good_ones_changes_nothing(strict_mode):
    strategy = DistributedStrategy(strict=strict_mode)
    before = snapshot(strategy)
    with pytest.raises(AssertionError):
        strategy.amp_configs = {"init_loss_scaling": 2.0, "custom_white_list": ["x"], "nope": 1}
    assert snapshot(strategy) == before


@pytest.mark.parametrize("strict_mode", [False, True])
def test_bad_value_after_good_ones_changes_nothing(strict_mode):
    strategy = DistributedStrategy(strict=strict_mode)
    before = snapshot(strategy)
    with pytest.raises(TypeError):
        strategy.sharding_configs = {"sharding_degree": 4, "hybrid_dp": True, "stage": "two"}
    assert snapshot(strategy) == before


@pytest.mark.parametrize("strict_mode", [False, True])
def test_hybrid_configs_never_half_applies_nor_mutates(strict_mode):
    strategy = DistributedStrategy(strict=strict_mode)
    config = {"dp_degree": 2, "order": ["mp", "dp"], "mp_configs": {"sync_param_name": ["w"], "sync_param": "no"}}
    original = copy.deepcopy(config)
    before = snapshot(strategy)
    with pytest.raises(TypeError):
        strategy.hybrid_configs = config
    assert snapshot(strategy) == before
    assert config == original
    good = {"dp_degree": 2, "order": ["mp", "dp"], "mp_configs": {"sync_param_name": ["w"], "sync_param": False}}
    strategy.hybrid_configs = good
    assert strategy.hybrid_parallel_order == ["mp", "dp"]
    assert strategy.sync_param_name == ["w"]
    assert strategy.hybrid_configs["mp_configs"].sync_param is False
    assert good["mp_configs"] == {"sync_param_name": ["w"], "sync_param": False}
    assert "order" in good


def test_repeated_config_fields_are_replaced_not_appended():
    strategy = DistributedStrategy()
    strategy.recompute_configs = {"checkpoints": ["a", "b"]}
    strategy.recompute_configs = {"checkpoints": ["c"]}
    assert strategy.recompute_configs["checkpoints"] == ["c"]


def test_config_update_keeps_other_keys():
    strategy = DistributedStrategy()
    strategy.amp_configs = {"init_loss_scaling": 2.0}
    strategy.amp_configs = {"incr_ratio": 3.0}
    assert strategy.amp_configs["init_loss_scaling"] == 2.0
    assert strategy.amp_configs["incr_ratio"] == 3.0


def test_getter_returns_a_fresh_dict():
    strategy = DistributedStrategy()
    view = strategy.amp_configs
    view["init_loss_scaling"] = 1.0
    view["custom_white_list"].append("x")
    assert strategy.amp_configs["init_loss_scaling"] == 32768.0
    assert strategy.amp_configs["custom_white_list"] == []


def test_compat_mode_warns_and_keeps_value(caplog):
    strategy = DistributedStrategy()
    caplog.set_level(logging.WARNING, logger="fleet_strategy")
    strategy.amp = "yes"  # type: ignore[assignment]
    assert strategy.amp is False
    assert caplog.records[0].getMessage() == "amp should have value of bool type"


def test_load_from_prototxt_is_all_or_nothing(tmp_path):
    strategy = DistributedStrategy()
    strategy.amp = True
    before = snapshot(strategy)
    bad = tmp_path / "bad.prototxt"
    bad.write_text("recompute: true\nno_such_field: 1\n")
    with pytest.raises(ValueError, match=r"bad.prototxt: 2:1"):
        strategy.load_from_prototxt(bad)
    assert snapshot(strategy) == before
    broken = tmp_path / "broken.prototxt"
    broken.write_text("recompute: true\namp_configs {\n")
    with pytest.raises(ValueError, match="broken.prototxt"):
        strategy.load_from_prototxt(broken)
    assert snapshot(strategy) == before
    with pytest.raises(FileNotFoundError):
        strategy.load_from_prototxt(tmp_path / "missing.prototxt")


def test_ours_round_trip_through_prototxt(tmp_path):
    strategy = DistributedStrategy()
    strategy.amp = True
    strategy.amp_configs = {"custom_black_list": ["x", "y"], "init_loss_scaling": 4.0}
    strategy.hybrid_configs = {"mp_degree": 2, "pp_configs": {"dp_comm_overlap": True}}
    strategy.save_to_prototxt(tmp_path / "s.prototxt")
    loaded = DistributedStrategy()
    loaded.load_from_prototxt(tmp_path / "s.prototxt")
    assert loaded.strategy == strategy.strategy
