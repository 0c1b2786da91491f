# Hand-written, NOT generated: the members of the generated classes that are
# not plain field pass-throughs. Every name used here is referenced from
# proto/fleet_strategy.annotations.yaml; the generator refuses an annotation
# naming a hook this module does not define.
"""Special members of ``DistributedStrategy`` and ``DistributedJobInfo``.

Paddle-specific behaviour lives here and only here, so the generator stays
schema-agnostic: the prototxt/repr/env members, ``a_sync``'s side effect,
``hybrid_configs``' extra keys, ``build_strategy``, the two
parameter-server table setters, and the conversions to and from Paddle's class.

The same module serves both builds: the standalone package, and the Paddle
build (``targets.paddle`` in the annotations), which carries a copy of it.
Imports are relative for that reason. Where Paddle has a say (its global
flags, its ``BuildStrategy``), the code asks Paddle when Paddle is loaded in
the process - always, in the Paddle build - and never imports it itself.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from google.protobuf import text_format

from . import runtime
from ._specs import distributed_strategy_pb2

if TYPE_CHECKING:
    from google.protobuf.internal import containers

    from fleet_strategy.distributed_strategy import DistributedStrategy

    from .types import HybridConfigDict

_pb2 = distributed_strategy_pb2

DEFAULT_HYBRID_PARALLEL_ORDER = ("dp", "pp", "sharding", "sep", "cp", "mp")
DEFAULT_SYNC_PARAM_NAME = ("embedding", "layer_norm", ".b_")

# FLAGS_* read at construction (where set in the environment) -> strategy field.
CONSTRUCTION_FLAGS = {
    "FLAGS_cudnn_batchnorm_spatial_persistent": "cudnn_batchnorm_spatial_persistent",
    "FLAGS_conv_workspace_size_limit": "conv_workspace_size_limit",
    "FLAGS_cudnn_exhaustive_search": "cudnn_exhaustive_search",
    "FLAGS_sync_nccl_allreduce": "sync_nccl_allreduce",
}
# FLAGS_* written by _enable_env -> strategy field.
ENV_FLAGS = {
    **CONSTRUCTION_FLAGS,
    "FLAGS_fuse_parameter_memory_size": "fuse_grad_size_in_MB",
    "FLAGS_fuse_parameter_groups_size": "fuse_grad_size_in_TFLOPS",
}
# Setting any option but these makes _is_strict_auto() False (as in Paddle,
# whose setters of these options are not marked "non-auto").
AUTO_NEUTRAL_FIELDS = frozenset(
    {"auto", "semi_auto", "auto_search", "split_data", "qat", "qat_configs", "heter_ccl_mode", "hybrid_configs",
     "downpour_table_param", "mode", *CONSTRUCTION_FLAGS.values()}
)


# os.environ.get() raises and catches a KeyError for every unset name (~1 µs);
# CPython's mapping of encoded names answers the common "not set" case in ~50 ns.
_ENV_DATA: dict[bytes, bytes] | None = getattr(os.environ, "_data", None) if os.name == "posix" else None
_ENV_KEYS = {name: name.encode() for name in CONSTRUCTION_FLAGS}


def _read_flag(name: str, field: str) -> bool | int | None:
    if _ENV_DATA is not None and _ENV_KEYS[name] not in _ENV_DATA:
        return None
    raw = os.environ.get(name)
    if raw is None:
        return None
    if runtime.spec_of(_pb2.DistributedStrategy).fields[field].kind == runtime.BOOL:
        return runtime.env_flag(name)
    try:
        return int(raw.strip())
    except ValueError:
        runtime.warn("ignoring %s=%r: expected an integer", name, raw)
        return None


def paddle_flags() -> Any | None:
    """Paddle's global flags when Paddle is loaded in this process, else None.

    Paddle reads its flags from the environment once, at import; from then on
    its flags, not ``os.environ``, are what it uses."""
    framework = sys.modules.get("paddle.base.framework")
    global_flags = getattr(framework, "_global_flags", None)
    return global_flags() if global_flags is not None else None


def _flag_value(field: str, value: object) -> bool | int:
    if runtime.spec_of(_pb2.DistributedStrategy).fields[field].kind == runtime.BOOL:
        return bool(value)
    return int(cast(Any, value))


_public_flags: list[tuple[str, ...]] = []  # which CONSTRUCTION_FLAGS Paddle's build makes public


def init_strategy(strategy: DistributedStrategy) -> None:
    """Construction: the four FLAGS_* (from Paddle's flags where Paddle is
    loaded and the flag is public in its build, as Paddle's class reads them;
    else from the environment), and the two plain attributes."""
    message = strategy.strategy
    flags = paddle_flags()
    if flags is not None:
        if not _public_flags:  # a build's public flags never change; asking costs a call each
            _public_flags.append(tuple(name for name in CONSTRUCTION_FLAGS if flags.is_public(name)))
        for name in _public_flags[0]:
            field = CONSTRUCTION_FLAGS[name]
            setattr(message, field, _flag_value(field, flags[name]))
    else:
        for name, field in CONSTRUCTION_FLAGS.items():
            value = _read_flag(name, field)
            if value is not None:
                setattr(message, field, value)
    object.__setattr__(strategy, "hybrid_parallel_order", list(DEFAULT_HYBRID_PARALLEL_ORDER))
    object.__setattr__(strategy, "sync_param_name", list(DEFAULT_SYNC_PARAM_NAME))


def reset_a_sync_k_steps(strategy: DistributedStrategy) -> None:
    """Paddle resets ``a_sync_configs["k_steps"]`` to 0 whenever ``a_sync`` is set."""
    strategy.strategy.a_sync_configs.k_steps = 0


# ----------------------------------------------------------- hybrid_configs


def _string_list(value: Any, where: str, strict: bool) -> list[str]:
    """A list of names; compatible mode, like Paddle, also takes a str's characters."""
    if isinstance(value, bytes) or not isinstance(value, Iterable) or (strict and isinstance(value, str)):
        raise TypeError(f"{where}: expected a list of str, got {type(value).__name__} {value!r}")
    items = list(cast("Iterable[Any]", value))  # type: ignore[redundant-cast]  # for pyright
    if strict:
        for index, item in enumerate(items):
            if not isinstance(item, str):
                raise TypeError(f"{where}[{index}]: expected str, got {type(item).__name__} {item!r}")
    return items


def set_hybrid_configs(strategy: DistributedStrategy, configs: Any) -> None:
    """``hybrid_configs`` plus two keys kept outside the message.

    ``order`` sets ``hybrid_parallel_order`` and ``mp_configs["sync_param_name"]``
    sets ``sync_param_name``. Unlike Paddle, the caller's dict is not
    modified, and nothing changes unless every key is accepted.
    """
    strict = strategy.strict
    given = runtime.as_mapping(configs)
    if given is None:
        raise TypeError(f"hybrid_configs: expected a dict, got {type(configs).__name__}")
    rest = dict(given)
    order = None
    if "order" in rest:
        order = _string_list(rest.pop("order"), "hybrid_configs['order']", strict)
    sync_names = None
    mp_configs = runtime.as_mapping(rest.get("mp_configs"))
    if mp_configs is not None and "sync_param_name" in mp_configs:
        mp_rest = dict(mp_configs)
        sync_names = _string_list(
            mp_rest.pop("sync_param_name"), "hybrid_configs['mp_configs']['sync_param_name']", strict
        )
        if mp_rest:
            rest["mp_configs"] = mp_rest
        else:  # only the name patterns, which live outside the message: mp_configs stays unset, as in Paddle
            del rest["mp_configs"]
    runtime.assign_config(
        strategy.strategy.hybrid_configs, rest, runtime.spec_of(_pb2.HybridConfig), "hybrid_configs", strict, empty_sets=False
    )
    if order is not None:
        object.__setattr__(strategy, "hybrid_parallel_order", order)
    if sync_names is not None:
        object.__setattr__(strategy, "sync_param_name", sync_names)


_nccl_warned: list[bool] = []


def get_hybrid_configs(strategy: DistributedStrategy) -> HybridConfigDict:
    """The ``hybrid_configs`` dict view. A standalone strategy whose process
    has Paddle loaded also says, once, when it holds per-group NCCL settings:
    Paddle's ``message2nccl_config`` ignores messages that are not its own
    classes, so those settings would be dropped without a word."""
    message = strategy.strategy
    paddle_pb2 = sys.modules.get("paddle.distributed.fleet.proto.distributed_strategy_pb2")
    if paddle_pb2 is not None and not _nccl_warned and not isinstance(message, paddle_pb2.DistributedStrategy):
        groups = [
            field.name
            for field, value in message.hybrid_configs.ListFields()
            if field.message_type is not None and "nccl_config" in field.message_type.fields_by_name and value.HasField("nccl_config")
        ]
        if groups:
            _nccl_warned.append(True)
            runtime.warn(
                "hybrid_configs: the NCCL settings of %s are not Paddle's message classes, which Paddle's "
                "message2nccl_config ignores; hand fleet strategy.to_paddle() to keep them",
                ", ".join(groups),
            )
    return cast("HybridConfigDict", runtime.dict_view(message.hybrid_configs))


# ----------------------------------------------------------- build_strategy


def get_build_strategy(strategy: DistributedStrategy) -> _pb2.BuildStrategy:
    """A detached copy of the options: change its attributes, then assign it
    back. With Paddle loaded it is a ``paddle.static.BuildStrategy`` built as
    Paddle's class builds it (fleet copies and applies that object); without
    Paddle, the ``BuildStrategy`` protobuf message."""
    static = sys.modules.get("paddle.static")
    paddle_class = getattr(static, "BuildStrategy", None)
    if paddle_class is not None:
        # Paddle's object has the same option attributes as the message
        return cast("_pb2.BuildStrategy", paddle_build_strategy(paddle_class, strategy.strategy.build_strategy))
    options = _pb2.BuildStrategy()
    options.CopyFrom(strategy.strategy.build_strategy)
    return options


def paddle_build_strategy(paddle_class: Any, options: _pb2.BuildStrategy) -> Any:
    """Paddle's ``BuildStrategy`` object holding ``options``."""
    result = paddle_class()
    for field in options.DESCRIPTOR.fields:
        value: Any = getattr(options, field.name)
        if field.name == "reduce_strategy":
            value = paddle_class.ReduceStrategy(value)
        elif _is_repeated(field):
            value = list(value)
        setattr(result, field.name, value)
    return result


def set_build_strategy(strategy: DistributedStrategy, value: Any) -> None:
    """Accepts a dict, the options message, Paddle's BuildStrategy, or any
    object with some of the option attributes (missing ones stay as they are)."""
    spec = runtime.spec_of(_pb2.BuildStrategy)
    config: Any
    if isinstance(value, (Mapping, _pb2.BuildStrategy)):
        config = cast(Any, value)
    else:
        config = {}
        for name, field in spec.fields.items():
            if not hasattr(value, name):
                continue
            item = getattr(value, name)
            # Paddle's ReduceStrategy is an enum object; the field is an int.
            if field.kind == runtime.INT and not isinstance(item, int) and hasattr(item, "__int__"):
                item = int(item)
            config[name] = item
    runtime.assign_config(strategy.strategy.build_strategy, config, spec, "build_strategy", strategy.strict, empty_sets=False)


# ------------------------------------------------- parameter-server tables


def get_table_params(strategy: DistributedStrategy) -> containers.RepeatedCompositeFieldContainer[_pb2.TableParameter]:
    return strategy.strategy.downpour_table_param


def _commit_tables(strategy: DistributedStrategy, tables: list[_pb2.TableParameter]) -> None:
    """Add the new tables in one step; a table of the same name is replaced."""
    current = strategy.strategy.downpour_table_param
    names = {table.table_name for table in tables}
    kept = [table for table in current if table.table_name not in names]
    if len(kept) != len(current):
        survivors = [_pb2.TableParameter.FromString(t.SerializeToString()) for t in kept]
        del current[:]
        current.extend(survivors)
    current.extend(tables)


def set_sparse_table_configs(strategy: DistributedStrategy, configs: Any) -> None:
    """Tables from dotted-path keys: ``{name: {"table_parameters.<name>.<field path>": value}}``.

    A repeated message field needs ``<path>.num`` (how many items); a list
    value for a scalar field gives one value per item. All tables are built
    first and added together, so a bad value adds nothing.
    """
    given = runtime.as_mapping(configs)
    if given is None:
        raise TypeError(f"sparse_table_configs: expected a dict of table configs, got {type(configs).__name__}")
    tables: list[_pb2.TableParameter] = []
    for table_name, table_value in given.items():
        table_config = runtime.as_mapping(table_value)
        if table_config is None:
            raise TypeError(f"sparse_table_configs[{table_name!r}]: expected a dict, got {type(table_value).__name__}")
        table = _pb2.TableParameter()
        table.table_name = table_name
        prefix = f"table_parameters.{table_name}"
        used = _fill_dotted(table, prefix, table_config, 0)
        unknown = [key for key in table_config if key not in used]
        if strategy.strict and unknown:
            raise runtime.UnknownConfigKeyError(
                f"sparse_table_configs[{table_name!r}]: unknown key {unknown[0]!r}; keys look like '{prefix}.<field path>'"
            )
        tables.append(table)
    _commit_tables(strategy, tables)


def _fill_dotted(message: Any, prefix: str, config: Mapping[str, Any], index: int) -> set[str]:
    used: set[str] = set()
    for field in message.DESCRIPTOR.fields:
        path = f"{prefix}.{field.name}"
        is_repeated = _is_repeated(field)
        if field.message_type is not None:
            if is_repeated:
                if path + ".num" not in config:
                    continue
                used.add(path + ".num")
                for item_index in range(config[path + ".num"]):
                    used |= _fill_dotted(getattr(message, field.name).add(), path, config, item_index)
            else:
                used |= _fill_dotted(getattr(message, field.name), path, config, index)
            continue
        if path not in config:
            continue
        used.add(path)
        value = config[path]
        try:
            if is_repeated:
                getattr(message, field.name).extend(value)
            elif isinstance(value, list):
                setattr(message, field.name, value[index])
            else:
                setattr(message, field.name, value)
        except (TypeError, ValueError, IndexError) as exc:
            raise type(exc)(f"sparse_table_configs[{path!r}]: {exc}") from None
    return used


# fleet_desc_configs: the short keys it accepts, and the table presets.
FLEET_DESC_KEYS = (
    "sparse_table_class", "sparse_compress_in_save", "sparse_shard_num", "sparse_accessor_class",
    "sparse_learning_rate", "sparse_initial_g2sum", "sparse_initial_range", "sparse_weight_bounds",
    "sparse_fea_dim", "sparse_embedx_dim", "sparse_embedx_threshold", "sparse_nonclk_coeff",
    "sparse_click_coeff", "sparse_base_threshold", "sparse_delta_threshold", "sparse_delta_keep_days",
    "sparse_delete_after_unseen_days", "sparse_show_click_decay_rate", "sparse_delete_threshold",
    "sparse_converter", "sparse_deconverter", "sparse_enable_cache", "sparse_cache_rate",
    "sparse_cache_file_num", "sparse_beta1_decay_rate", "sparse_beta2_decay_rate", "sparse_ada_epsilon",
    "sparse_optimizer", "sparse_ssd_unseenday_threshold", "embed_sparse_optimizer",
    "embed_sparse_learning_rate", "embed_sparse_weight_bounds", "embed_sparse_initial_range",
    "embed_sparse_initial_g2sum", "embed_sparse_beta1_decay_rate", "embed_sparse_beta2_decay_rate",
    "embedx_sparse_optimizer", "embedx_sparse_learning_rate", "embedx_sparse_weight_bounds",
    "embedx_sparse_initial_range", "embedx_sparse_initial_g2sum", "embedx_sparse_beta1_decay_rate",
    "embedx_sparse_beta2_decay_rate", "feature_learning_rate", "nodeid_slot", "sparse_load_filter_slots",
    "sparse_save_filter_slots", "sparse_zero_init", "use_gpu_graph",
)
TABLE_CLASSES = {"DownpourSparseTable": "MemorySparseTable", "DownpourSparseSSDTable": "SSDSparseTable"}
ACCESSOR_CLASSES = (
    "DownpourSparseValueAccessor", "DownpourCtrAccessor", "DownpourCtrDoubleAccessor",
    "DownpourUnitAccessor", "DownpourDoubleUnitAccessor", "DownpourCtrDymfAccessor",
)
# optimizer short name -> (SGD rule name, sub-message, learning rate default)
SPARSE_OPTIMIZERS = {
    "naive": ("SparseNaiveSGDRule", "naive", 0.05),
    "adagrad": ("SparseAdaGradSGDRule", "adagrad", 0.05),
    "adagrad_v2": ("SparseAdaGradV2SGDRule", "adagrad", 0.05),
    "std_adagrad": ("StdAdaGradSGDRule", "adagrad", 0.05),
    "adam": ("SparseAdamSGDRule", "adam", 0.001),
    "shared_adam": ("SparseSharedAdamSGDRule", "adam", 0.001),
}
# accessor.ctr_accessor_param field -> (short key, preset)
CTR_PRESETS = {
    "nonclk_coeff": ("sparse_nonclk_coeff", 0.1),
    "click_coeff": ("sparse_click_coeff", 1),
    "base_threshold": ("sparse_base_threshold", 1.5),
    "delta_threshold": ("sparse_delta_threshold", 0.25),
    "delta_keep_days": ("sparse_delta_keep_days", 16),
    "show_click_decay_rate": ("sparse_show_click_decay_rate", 0.98),
    "delete_threshold": ("sparse_delete_threshold", 0.8),
    "delete_after_unseen_days": ("sparse_delete_after_unseen_days", 30),
    "ssd_unseenday_threshold": ("sparse_ssd_unseenday_threshold", 1),
}


def _sgd_rule(sgd: Any, config: Mapping[str, Any], prefix: str) -> None:
    """One SGD rule (embed or embedx) from ``<prefix>sparse_*`` keys."""
    optimizer = config.get(prefix + "sparse_optimizer", "adagrad")
    sgd.name = optimizer
    if optimizer not in SPARSE_OPTIMIZERS:
        return  # Paddle keeps the unknown name and sets nothing else
    rule, part, learning_rate = SPARSE_OPTIMIZERS[optimizer]
    sgd.name = rule
    params = getattr(sgd, part)
    params.learning_rate = config.get(prefix + "sparse_learning_rate", learning_rate)
    params.initial_range = config.get(prefix + "sparse_initial_range", 1e-4)
    if part == "adagrad":
        if prefix == "embed_":
            params.initial_range = 0
        params.initial_g2sum = config.get(prefix + "sparse_initial_g2sum", 3)
    elif part == "adam":
        params.beta1_decay_rate = config.get(prefix + "sparse_beta1_decay_rate", 0.9)
        params.beta2_decay_rate = config.get(prefix + "sparse_beta2_decay_rate", 0.999)
        params.ada_epsilon = config.get(prefix + "sparse_ada_epsilon", 1e-8)
    params.weight_bounds.extend(config.get(prefix + "sparse_weight_bounds", [-10, 10]))


def _fleet_desc_table(name: str, config: Mapping[str, Any], use_cvm: bool) -> _pb2.TableParameter:
    for key in config:
        if key not in FLEET_DESC_KEYS:
            hint = runtime.suggest(key, FLEET_DESC_KEYS)
            raise runtime.UnknownConfigKeyError(f"fleet_desc_configs[{name!r}]: unknown key {key!r}{hint}")
    table = _pb2.TableParameter()
    table.table_name = name
    table_class = config.get("sparse_table_class", "DownpourSparseTable")
    if table_class not in TABLE_CLASSES:
        raise ValueError(
            f"fleet_desc_configs[{name!r}]['sparse_table_class']: {table_class!r} is not one of {', '.join(TABLE_CLASSES)}"
        )
    table.table_class = TABLE_CLASSES[table_class]
    table.shard_num = config.get("sparse_shard_num", 1000)
    table.enable_sparse_table_cache = config.get("sparse_enable_cache", True)
    table.sparse_table_cache_rate = config.get("sparse_cache_rate", 0.00055)
    table.sparse_table_cache_file_num = config.get("sparse_cache_file_num", 16)
    table.use_gpu_graph = config.get("use_gpu_graph", False)

    accessor_class = config.get("sparse_accessor_class", "DownpourCtrAccessor")
    if accessor_class not in ACCESSOR_CLASSES:
        raise ValueError(
            f"fleet_desc_configs[{name!r}]['sparse_accessor_class']: {accessor_class!r} is not one of "
            + ", ".join(ACCESSOR_CLASSES)
        )
    accessor = table.accessor
    if "Double" in accessor_class:
        accessor.accessor_class = "CtrDoubleAccessor"
    elif "Dymf" in accessor_class:
        accessor.accessor_class = "CtrDymfAccessor"
    else:
        accessor.accessor_class = "CtrCommonAccessor"
    if not use_cvm:
        accessor.accessor_class = "SparseAccessor"
    accessor.embedx_dim = config.get("sparse_embedx_dim", 8)
    accessor.fea_dim = accessor.embedx_dim + 3
    accessor.embedx_threshold = config.get("sparse_embedx_threshold", 10)

    ctr = accessor.ctr_accessor_param
    ctr.show_scale = accessor_class != "DownpourUnitAccessor"
    for field, (key, preset) in CTR_PRESETS.items():
        setattr(ctr, field, config.get(key, preset))
    ctr.load_filter_slots.extend(config.get("sparse_load_filter_slots", []))
    ctr.save_filter_slots.extend(config.get("sparse_save_filter_slots", []))
    ctr.zero_init = config.get("sparse_zero_init", True)
    if table.use_gpu_graph:  # GPU graph mode initialises sparse Adam itself
        ctr.zero_init = False
    for param in (1, 2):
        save = accessor.table_accessor_save_param.add()
        save.param = param
        save.converter = config.get("sparse_converter", "")
        save.deconverter = config.get("sparse_deconverter", "")
    if accessor_class in ("DownpourCtrAccessor", "DownpourCtrDoubleAccessor"):
        _sgd_rule(accessor.embed_sgd_param, config, "")
        _sgd_rule(accessor.embedx_sgd_param, config, "")
    else:
        _sgd_rule(accessor.embed_sgd_param, config, "embed_")
        _sgd_rule(accessor.embedx_sgd_param, config, "embedx_")
    accessor.graph_sgd_param.feature_learning_rate = config.get("feature_learning_rate", 0.05)
    accessor.graph_sgd_param.nodeid_slot = config.get("nodeid_slot", 9008)
    return table


def set_fleet_desc_configs(strategy: DistributedStrategy, configs: Any) -> None:
    """Tables from fleet-style short keys, with Paddle's presets filled in.

    ``dense_table``/``datanorm_table`` entries and non-dict values are
    skipped, as in Paddle; a top-level ``"use_cvm": False`` selects the plain
    ``SparseAccessor``. All tables are built first, so a bad key adds nothing.
    """
    given = runtime.as_mapping(configs)
    if given is None:
        raise TypeError(f"fleet_desc_configs: expected a dict of table configs, got {type(configs).__name__}")
    use_cvm = bool(given.get("use_cvm", True))
    tables: list[_pb2.TableParameter] = []
    for name, config in given.items():
        if name in ("dense_table", "datanorm_table") or not isinstance(config, dict):
            continue
        try:
            tables.append(_fleet_desc_table(name, cast("dict[str, Any]", config), use_cvm))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, runtime.UnknownConfigKeyError) or str(exc).startswith("fleet_desc_configs"):
                raise
            raise type(exc)(f"fleet_desc_configs[{name!r}]: {exc}") from None
    _commit_tables(strategy, tables)


# --------------------------------------------------------- class members


_ENV_WIDTH_KEY, _ENV_WIDTH_VALUE, _SPACING = 38, 38, 2
_WIDTH = _ENV_WIDTH_KEY + _ENV_WIDTH_VALUE + _SPACING


def _title(text: str) -> str:
    return f"    |{text:^{_WIDTH}s}|\n"


_BORDER = "    +" + "=" * _WIDTH + "+"
_LINE = "    +" + "-" * _WIDTH + "+"


def _key(name: str) -> str:
    return f"    |{name:>{_ENV_WIDTH_KEY}s}{' ' * _SPACING}"


_NO_KEY = _key("")
_HEAD = _BORDER + "\n" + _title("") + _title("DistributedStrategy Overview") + _title("")


def _section(title: str) -> str:
    return _BORDER + "\n" + _title(title) + _LINE + "\n"


_ReprLayout = tuple[
    list[tuple[str, str, list[tuple[str, str, bool]]]],  # switch, its configs, (sub, key, repeated scalar)
    list[tuple[str, str]],  # other strategy fields: (name, key)
    list[tuple[str, str]],  # build strategy fields: (name, key)
]
_layout: list[_ReprLayout] = []


def _repr_layout() -> _ReprLayout:
    """Which rows __repr__ prints, from the descriptor, worked out once.

    Paddle's rule: a bool field ``x`` with an ``x_configs`` sibling is a
    feature switch (its configs are listed when it is on); ``*_configs`` and
    ``build_strategy`` fields are not rows themselves; everything else is a row
    of the flags section."""
    if not _layout:
        fields = _pb2.DistributedStrategy.DESCRIPTOR.fields
        by_name = _pb2.DistributedStrategy.DESCRIPTOR.fields_by_name
        switches: list[tuple[str, str, list[tuple[str, str, bool]]]] = []
        env: list[tuple[str, str]] = []
        for field in fields:
            name = field.name
            if "build_strategy" in name or "_configs" in name:
                continue
            configs = by_name.get(name + "_configs")
            if field.type == field.TYPE_BOOL and configs is not None and configs.message_type is not None:
                subs = [
                    (sub.name, _key(sub.name), _is_repeated(sub) and sub.message_type is None)
                    for sub in configs.message_type.fields
                ]
                switches.append((name, configs.name, subs))
            else:
                env.append((name, _key(name)))
        build = [(f.name, _key(f.name)) for f in _pb2.BuildStrategy.DESCRIPTOR.fields]
        _layout.append((switches, env, build))
    return _layout[0]


def _is_repeated(field: Any) -> bool:
    # FieldDescriptor.is_repeated came in protobuf 6.31; 7 dropped the label it replaces.
    repeated = getattr(field, "is_repeated", None)
    return bool(repeated) if repeated is not None else field.label == field.LABEL_REPEATED


class StrategyMembers:
    """Methods and plain attributes of DistributedStrategy (hand-written)."""

    __slots__ = ("hybrid_parallel_order", "sync_param_name")

    strategy: _pb2.DistributedStrategy
    hybrid_parallel_order: list[str]
    sync_param_name: list[str]

    def save_to_prototxt(self, output: str | os.PathLike[str]) -> None:
        """Write the strategy as protobuf text (the format Paddle writes).

        Examples:
            >>> from fleet_strategy import DistributedStrategy
            >>> strategy = DistributedStrategy()
            >>> strategy.amp = True
            >>> strategy.save_to_prototxt("strategy.prototxt")
            >>> open("strategy.prototxt").read()
            'amp: true\\n'
        """
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(str(self.strategy))  # protobuf's own text form, as Paddle writes it

    def load_from_prototxt(self, pb_file: str | os.PathLike[str]) -> None:
        """Merge settings from a protobuf text file (as written by Paddle or us).

        All or nothing: a file that does not parse raises ``ValueError`` naming
        its line and leaves the strategy unchanged; a missing file raises
        ``FileNotFoundError``.

        Examples:
            >>> from fleet_strategy import DistributedStrategy
            >>> with open("saved.prototxt", "w") as f:
            ...     _ = f.write("recompute: true\\nrecompute_configs { checkpoints: 'x' }\\n")
            >>> strategy = DistributedStrategy()
            >>> strategy.load_from_prototxt("saved.prototxt")
            >>> strategy.recompute, strategy.recompute_configs["checkpoints"]
            (True, ['x'])
        """
        with open(pb_file, encoding="utf-8") as handle:
            text = handle.read()
        staged = _pb2.DistributedStrategy()
        staged.CopyFrom(self.strategy)
        try:
            text_format.Merge(text, staged)
        except text_format.ParseError as exc:
            raise ValueError(f"{os.fspath(pb_file)}: {exc}") from None
        self.strategy.CopyFrom(staged)

    def _enable_env(self) -> None:
        """Apply the six FLAGS_* this strategy controls.

        With Paddle loaded in the process (fleet calls this), they go into
        Paddle's global flags, each one that the running Paddle makes public
        (its CPU wheels keep the cuDNN/NCCL ones private), as Paddle's class
        does. Without Paddle they are exported to
        ``os.environ``, where Paddle started later (or in a child process)
        reads them.
        """
        message = self.strategy
        values = {name: _flag_value(field, getattr(message, field)) for name, field in ENV_FLAGS.items()}
        flags = paddle_flags()
        if flags is not None:
            for name, value in values.items():
                if flags.is_public(name):
                    flags[name] = value
            return
        for name, value in values.items():
            os.environ[name] = ("true" if value else "false") if isinstance(value, bool) else str(value)

    @classmethod
    def from_paddle(cls, strategy: Any, *, strict: bool | None = None) -> Any:
        """A strategy of this class with every setting of ``strategy``.

        ``strategy`` is Paddle's ``paddle.distributed.fleet.DistributedStrategy``
        (or any object with a ``strategy`` message of this schema, or such a
        message itself). The message is copied through its wire form, so
        nothing is lost between the two classes, and ``hybrid_parallel_order``
        and ``sync_param_name`` come along. Paddle is not imported.

        Examples:
            >>> from fleet_strategy import DistributedStrategy
            >>> theirs = DistributedStrategy()
            >>> theirs.amp = True
            >>> DistributedStrategy.from_paddle(theirs).amp
            True
        """
        message = getattr(strategy, "strategy", strategy)
        serialize = getattr(message, "SerializeToString", None)
        if serialize is None:
            raise TypeError(f"from_paddle: expected a DistributedStrategy or its message, got {type(strategy).__name__}")
        result = cast(Any, cls)(strict=strict)
        result.strategy.ParseFromString(serialize())
        object.__setattr__(result, "hybrid_parallel_order", list(getattr(strategy, "hybrid_parallel_order", DEFAULT_HYBRID_PARALLEL_ORDER)))
        object.__setattr__(result, "sync_param_name", list(getattr(strategy, "sync_param_name", DEFAULT_SYNC_PARAM_NAME)))
        return result

    def to_paddle(self) -> Any:
        """Paddle's own ``DistributedStrategy`` with every setting of this one.

        Imports Paddle. Needed only where Paddle checks the message classes
        themselves: ``message2nccl_config`` (per-group NCCL settings; on GPUs
        ``fleet.init`` calls it on ``hybrid_configs``, so hand fleet
        ``strategy.to_paddle()`` when ``*_configs.nccl_config`` is set),
        ``isinstance`` against Paddle's messages, and ``CopyFrom``/``MergeFrom``
        between a message of ours and one of Paddle's. Otherwise fleet takes
        this class as it is. In the Paddle build this is a copy as Paddle's
        class (which this class is there).
        """
        import importlib

        result: Any = importlib.import_module("paddle.distributed.fleet").DistributedStrategy()
        result.strategy.ParseFromString(self.strategy.SerializeToString())
        result.hybrid_parallel_order = list(self.hybrid_parallel_order)
        result.sync_param_name = list(self.sync_param_name)
        return result

    def _is_strict_auto(self) -> bool:
        """True when ``auto`` is on and no option outside auto-parallel's own
        was set on this strategy (the FLAGS_* read at construction do not
        count). Paddle tracks this process-wide, through a global its setters
        reset; we track it per strategy, from the fields actually set."""
        message = self.strategy
        if not message.auto:
            return False
        return all(field.name in AUTO_NEUTRAL_FIELDS for field, _ in message.ListFields())

    def __repr__(self) -> str:
        """The overview table Paddle prints: enabled features with their
        configs, then every other flag, then the build strategy."""
        message = self.strategy
        switches, env_names, build_names = _repr_layout()
        out = [_HEAD]
        for name, configs_name, subs in switches:
            if not getattr(message, name):
                continue
            out.append(_section(f"{name}=True <-> {configs_name}"))
            configs = getattr(message, configs_name)
            for sub, key, repeated in subs:
                value = getattr(configs, sub)
                if repeated:
                    out += [(key if i == 0 else _NO_KEY) + f"{str(v):^{_ENV_WIDTH_VALUE}s}|\n" for i, v in enumerate(value)]
                else:
                    out.append(key + f"{str(value):^{_ENV_WIDTH_VALUE}s}|\n")
        out.append(_section("Environment Flags, Communication Flags"))
        out += [key + f"{str(getattr(message, name)):^{_ENV_WIDTH_VALUE}s}|\n" for name, key in env_names]
        out.append(_section("Build Strategy"))
        build = message.build_strategy
        out += [key + f"{str(getattr(build, name)):^{_ENV_WIDTH_VALUE}s}|\n" for name, key in build_names]
        out.append(_BORDER + "\n")
        return "".join(out)


class JobInfoMembers:
    """Paddle's setter methods of DistributedJobInfo (hand-written)."""

    __slots__ = ()

    job_info: _pb2.DistributedJobInfo

    def _set_worker_num(self, worker_num: int) -> None:
        self.job_info.worker_num = worker_num

    def _set_server_num(self, server_num: int) -> None:
        self.job_info.server_num = server_num

    def _set_worker_ips(self, worker_ips: Iterable[str]) -> None:
        self.job_info.worker_ips.extend(worker_ips)

    def _set_server_endpoints(self, server_endpoints: Iterable[str]) -> None:
        self.job_info.server_endpoints.extend(server_endpoints)

    def _set_origin_startup(self, origin_startup_prog: object) -> None:
        self.job_info.origin_startup = str(origin_startup_prog)

    def _set_origin_main(self, origin_main_prog: object) -> None:
        self.job_info.origin_main = str(origin_main_prog)

    def _distributed_main(self, distributed_main_prog: object) -> None:
        self.job_info.distributed_main = str(distributed_main_prog)

    def _optimizer_name(self, optimizer_name: str) -> None:
        self.job_info.optimizer_name = optimizer_name

    def _set_distributed_strategy(self, dist_strategy: _pb2.DistributedStrategy) -> None:
        self.job_info.strategy.CopyFrom(dist_strategy)


__all__ = ["JobInfoMembers", "StrategyMembers"]
