"""The runtime's public API for hooks (generator/shipped/runtime.py, the
section at its end), tested through the package it is bound to."""

from __future__ import annotations

import enum
import logging
import os
from types import SimpleNamespace

import pytest

from fleet_strategy import DistributedStrategy, runtime

STRATEGY = "paddle.fleet.DistributedStrategy"


class Flags:
    """A FlagStore: typed flags, only some of which exist."""

    def __init__(self, **values):
        self.values = dict(values)

    def __contains__(self, name):
        return name in self.values

    def __getitem__(self, name):
        return self.values[name]

    def __setitem__(self, name, value):
        if name not in self.values:
            raise KeyError(name)
        self.values[name] = value


def strategy_message():
    return runtime.message_class(STRATEGY)()


# ------------------------------------------------------------ lookups


def test_spec_of_and_message_class():
    message = strategy_message()
    assert runtime.spec_of(message) is runtime.SPECS[STRATEGY]
    assert runtime.spec_of(type(message)) is runtime.SPECS[STRATEGY]
    assert runtime.message_class("paddle.fleet.TableParameter") is type(message.downpour_table_param.add())
    with pytest.raises(KeyError, match=r"no message 'paddle.fleet.TableParamter'.*did you mean 'paddle.fleet.TableParameter'"):
        runtime.message_class("paddle.fleet.TableParamter")


def _filled_strategy():
    strategy = DistributedStrategy()
    strategy.amp_configs = {"custom_white_list": ["a", "b"], "init_loss_scaling": 2.0}
    strategy.hybrid_configs = {"dp_degree": 2, "mp_configs": {"sync_param": True}, "pp_configs": {"dp_comm_overlap": True}}
    strategy.recompute_configs = {"checkpoints": ["x"]}
    strategy.sharding_configs = {"stage": 2}
    strategy.sparse_table_configs = {"emb": {"table_parameters.emb.accessor.table_accessor_save_param.num": 2,
                                             "table_parameters.emb.accessor.table_accessor_save_param.param": [1, 2]}}
    return strategy.strategy


def test_dict_view_returns_fresh_lists_and_live_messages():
    message = _filled_strategy()
    view = runtime.dict_view(message.amp_configs)
    view["custom_white_list"].append("c")
    assert list(message.amp_configs.custom_white_list) == ["a", "b"]
    hybrid = runtime.dict_view(message.hybrid_configs)
    assert hybrid["mp_configs"] is not None and hybrid["mp_configs"].sync_param is True
    hybrid["mp_configs"].sync_param = False  # the live sub-message, as the generated view returns it
    assert message.hybrid_configs.mp_configs.sync_param is False


# ---------------------------------------------- environment-backed fields

FIELDS = (
    runtime.EnvField("TEST_FS_BOOL", "cudnn_exhaustive_search"),
    runtime.EnvField("TEST_FS_INT", "conv_workspace_size_limit"),
    runtime.EnvField("TEST_FS_FLOAT", "fuse_grad_size_in_TFLOPS"),
    runtime.EnvField("TEST_FS_WRITE_ONLY", "nccl_comm_num", read=False),
    runtime.EnvField("TEST_FS_AS_INT", "last_comm_group_size_MB", True, runtime.INT),
)


@pytest.fixture
def clean_env(monkeypatch):
    for entry in FIELDS:
        monkeypatch.setenv(entry.variable, "")
        monkeypatch.delenv(entry.variable)
    return monkeypatch


def test_env_fields_are_the_class_keyword():
    """A generated class names its environment-backed fields (env=);
    env_fields gives them back for the class, a subclass and an instance."""

    class Bound(runtime.Wrapper, message=runtime.message_class(STRATEGY), attribute="msg", env=FIELDS):
        __slots__ = ("msg", "_strict")

    class Sub(Bound):
        __slots__ = ()

    class Plain(runtime.Wrapper, message=runtime.message_class(STRATEGY), attribute="msg"):
        __slots__ = ("msg", "_strict")

    assert runtime.env_fields(Bound) is FIELDS and runtime.env_fields(Sub()) is FIELDS
    assert runtime.env_fields(Plain) == ()
    for unbound in (runtime.Wrapper, object, 3):
        with pytest.raises(TypeError, match="is not a generated class"):
            runtime.env_fields(unbound)


def test_read_env_parses_text_where_set(clean_env):
    clean_env.setenv("TEST_FS_BOOL", " Yes ")
    clean_env.setenv("TEST_FS_INT", "2048")
    clean_env.setenv("TEST_FS_FLOAT", "12.5")
    clean_env.setenv("TEST_FS_WRITE_ONLY", "7")
    clean_env.setenv("TEST_FS_AS_INT", "3")
    message = strategy_message()
    runtime.read_env(message, FIELDS)
    assert message.cudnn_exhaustive_search is True and message.conv_workspace_size_limit == 2048
    assert message.fuse_grad_size_in_TFLOPS == 12.5 and message.last_comm_group_size_MB == 3
    assert not message.HasField("nccl_comm_num")  # read=False: written only


def test_read_env_leaves_unset_fields_unset(clean_env):
    message = strategy_message()
    runtime.read_env(message, FIELDS)
    assert message.ListFields() == []


def test_read_env_warns_and_keeps_on_unreadable_text(clean_env, caplog):
    caplog.set_level(logging.WARNING)
    clean_env.setenv("TEST_FS_BOOL", "maybe")
    clean_env.setenv("TEST_FS_INT", "1.5")
    clean_env.setenv("TEST_FS_FLOAT", "lots")
    message = strategy_message()
    runtime.read_env(message, FIELDS)
    assert message.ListFields() == []
    assert "TEST_FS_BOOL='maybe'" in caplog.text and "TEST_FS_INT='1.5': expected an integer" in caplog.text
    assert "TEST_FS_FLOAT='lots': expected a number" in caplog.text


def test_read_env_ignores_values_the_field_cannot_hold(clean_env, caplog):
    """The environment never makes construction fail: out of range is unreadable too."""
    caplog.set_level(logging.WARNING)
    clean_env.setenv("TEST_FS_INT", "2147483648")  # int32 + 1
    message = strategy_message()
    runtime.read_env(message, FIELDS)
    assert message.ListFields() == []
    assert "ignoring TEST_FS_INT='2147483648': out of the field's range [-2147483648, 2147483647]" in caplog.text
    caplog.clear()
    runtime.read_env(message, FIELDS, Flags(TEST_FS_INT=-(2**31) - 1, TEST_FS_FLOAT=object(), TEST_FS_AS_INT=float("nan")))
    assert message.ListFields() == []
    assert caplog.text.count("ignoring TEST_FS_") == 3


def test_an_out_of_range_environment_does_not_stop_construction(monkeypatch, caplog):
    """The reviewer's case, through the class (Paddle is not loaded here: os.environ is read)."""
    caplog.set_level(logging.WARNING)
    monkeypatch.setenv("FLAGS_conv_workspace_size_limit", "2147483648")
    monkeypatch.setenv("FLAGS_cudnn_exhaustive_search", "maybe")
    monkeypatch.setenv("FLAGS_sync_nccl_allreduce", "0")
    strategy = DistributedStrategy()
    assert strategy.conv_workspace_size_limit == 512 and not strategy.strategy.HasField("conv_workspace_size_limit")
    assert strategy.cudnn_exhaustive_search is False and strategy.sync_nccl_allreduce is False
    assert "FLAGS_conv_workspace_size_limit='2147483648'" in caplog.text
    assert "FLAGS_cudnn_exhaustive_search='maybe'" in caplog.text


def test_read_env_from_a_flag_store_converts_typed_values(clean_env):
    clean_env.setenv("TEST_FS_INT", "99")  # the store, not os.environ, is read
    message = strategy_message()
    runtime.read_env(message, FIELDS, Flags(TEST_FS_BOOL=1, TEST_FS_FLOAT=3, TEST_FS_WRITE_ONLY=5))
    assert message.cudnn_exhaustive_search is True and message.fuse_grad_size_in_TFLOPS == 3.0
    assert not message.HasField("conv_workspace_size_limit") and not message.HasField("nccl_comm_num")


def test_export_env_writes_text_to_os_environ(clean_env):
    message = strategy_message()
    message.cudnn_exhaustive_search = True
    message.fuse_grad_size_in_TFLOPS = 12.9
    message.last_comm_group_size_MB = 2.5
    runtime.export_env(message, FIELDS)
    assert os.environ["TEST_FS_BOOL"] == "true" and os.environ["TEST_FS_INT"] == "512"  # the default too
    assert os.environ["TEST_FS_FLOAT"] == "12.899999618530273"  # a float32 field, as stored
    assert os.environ["TEST_FS_AS_INT"] == "2"  # the variable's kind: truncated
    assert os.environ["TEST_FS_WRITE_ONLY"] == "1"
    again = strategy_message()
    runtime.read_env(again, FIELDS)
    assert again.cudnn_exhaustive_search is True and again.conv_workspace_size_limit == 512


def test_export_env_to_a_flag_store_writes_only_its_flags(clean_env):
    message = strategy_message()
    message.conv_workspace_size_limit = 64
    store = Flags(TEST_FS_INT=0, TEST_FS_AS_INT=0.0)
    runtime.export_env(message, FIELDS, store)
    assert store.values == {"TEST_FS_INT": 64, "TEST_FS_AS_INT": 1}  # last_comm_group_size_MB: 1.0 as int
    assert "TEST_FS_BOOL" not in os.environ


def test_env_field_of_a_message_field_is_refused():
    with pytest.raises(TypeError, match="TEST_FS_MSG: field 'amp_configs' is not a bool, number or string"):
        runtime.export_env(strategy_message(), (runtime.EnvField("TEST_FS_MSG", "amp_configs"),))


# ------------------------------------------------------------ text format


def test_save_text_and_merge_text_file_round_trip(tmp_path):
    message = _filled_strategy()
    path = tmp_path / "s.prototxt"
    runtime.save_text(message, path)
    assert path.read_text(encoding="utf-8") == str(message)
    loaded = strategy_message()
    loaded.amp = True
    runtime.merge_text_file(loaded, str(path))
    assert loaded.amp and loaded.hybrid_configs.dp_degree == 2 and list(loaded.recompute_configs.checkpoints) == ["x"]


def test_merge_text_file_is_all_or_nothing(tmp_path):
    path = tmp_path / "bad.prototxt"
    path.write_text("amp: true\nrecompute: maybe\n", encoding="utf-8")
    message = strategy_message()
    message.lars = True
    with pytest.raises(ValueError, match=rf"^{path}: 2:"):
        runtime.merge_text_file(message, path)
    assert str(message) == "lars: true\n"
    with pytest.raises(FileNotFoundError):
        runtime.merge_text_file(message, tmp_path / "missing.prototxt")


# ---------------------------------------------------------- dotted paths


def test_fill_dotted_sets_nested_repeated_and_indexed_values():
    table = runtime.message_class("paddle.fleet.TableParameter")()
    config = {
        "t.shard_num": 8,
        "t.accessor.embedx_dim": 16,
        "t.accessor.table_accessor_save_param.num": 2,
        "t.accessor.table_accessor_save_param.param": [1, 2],
        "t.accessor.table_accessor_save_param.converter": "c",
        "t.accessor.embed_sgd_param.adagrad.weight_bounds": [-1.0, 1.0],
        "other.key": 1,
    }
    used = runtime.fill_dotted(table, "t", config, "tables")
    assert used == set(config) - {"other.key"}
    assert table.shard_num == 8 and table.accessor.embedx_dim == 16
    assert [(p.param, p.converter) for p in table.accessor.table_accessor_save_param] == [(1, "c"), (2, "c")]
    assert list(table.accessor.embed_sgd_param.adagrad.weight_bounds) == [-1.0, 1.0]


def test_fill_dotted_errors_name_where_and_key():
    table = runtime.message_class("paddle.fleet.TableParameter")()
    with pytest.raises(TypeError, match=r"^tables\['t.shard_num'\]: "):
        runtime.fill_dotted(table, "t", {"t.shard_num": "many"}, "tables")
    with pytest.raises(IndexError, match=r"^tables\['t.accessor.table_accessor_save_param.param'\]"):
        runtime.fill_dotted(table, "t", {"t.accessor.table_accessor_save_param.num": 2,
                                         "t.accessor.table_accessor_save_param.param": [1]}, "tables")


# ------------------------------------------------------ duck-typed objects


class Reduce(enum.Enum):  # an enum of another library: not an int, but has __int__
    ALL = 0
    REDUCE = 1

    def __int__(self):
        return self.value


def test_object_config_takes_attributes_an_object_has():
    spec = runtime.spec_of(strategy_message().build_strategy)
    given = SimpleNamespace(enable_inplace=True, reduce_strategy=Reduce.REDUCE, unrelated=3)
    assert runtime.object_config(given, spec) == {"enable_inplace": True, "reduce_strategy": 1}
    mapping = {"enable_inplace": True}
    assert runtime.object_config(mapping, spec) is mapping
    message = spec.cls(enable_addto=True)
    assert runtime.object_config(message, spec) is message
    target = strategy_message().build_strategy
    runtime.assign_config(target, runtime.object_config(given, spec), spec, "build_strategy", strict=True)
    assert target.enable_inplace and target.reduce_strategy == 1


def test_copy_to_object_sets_every_field_with_converters():
    options = strategy_message().build_strategy
    options.reduce_strategy = 1
    options.debug_graphviz_path = "/tmp/g"
    result = runtime.copy_to_object(options, SimpleNamespace(), {"reduce_strategy": Reduce})
    assert result.reduce_strategy is Reduce.REDUCE and result.debug_graphviz_path == "/tmp/g"
    assert result.enable_backward_optimizer_op_deps is True  # defaults too
    table = runtime.message_class("paddle.fleet.TableAccessorParameter")()
    table.table_accessor_save_param.add().param = 3
    copied = runtime.copy_to_object(table, SimpleNamespace())
    assert isinstance(copied.table_accessor_save_param, list) and copied.table_accessor_save_param[0].param == 3


def test_merge_keyed_replaces_items_of_the_same_key():
    tables = strategy_message().downpour_table_param
    table_class = runtime.message_class("paddle.fleet.TableParameter")
    runtime.merge_keyed(tables, [table_class(table_name="a", shard_num=1), table_class(table_name="b")], "table_name")
    runtime.merge_keyed(tables, [table_class(table_name="a", shard_num=2), table_class(table_name="c")], "table_name")
    assert [(t.table_name, t.shard_num) for t in tables] == [("b", 1000), ("a", 2), ("c", 1000)]
