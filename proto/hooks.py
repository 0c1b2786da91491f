# Hand-written: the members of the generated classes that are not plain
# field pass-throughs. Every name used here is referenced from
# fleet_strategy.annotations.yaml beside it; the generator refuses an
# annotation naming a hook this module does not define.
"""Special members of ``DistributedStrategy``.

Only what is Paddle's own lives here: ``a_sync``'s side effect,
``hybrid_configs``' extra keys, ``build_strategy``, the two
parameter-server table setters, the ``__repr__`` table, ``_is_strict_auto``,
Paddle's flags, and the conversions to and from Paddle's class. What the
annotations file can say is generated instead (the ``FLAGS_*`` fields, plain
attributes, ``DistributedJobInfo``'s setter methods), and the generic
machinery is the runtime's public API: this module uses nothing private of the
package (a test checks it).

The same module serves both builds, each of which carries a generated copy
of it: the standalone package and the Paddle build (``targets.paddle`` in
the annotations). It is written for the standalone package: the package's
own modules are imported relatively (they lie beside the copy in both
builds), and the Paddle build's copy names Paddle's modules where this one
imports ``fleet_strategy``'s class or message module (and in the examples).
Message classes come from the runtime or from the strategy's own message.
Where Paddle has a say (its
global flags, its ``BuildStrategy``), the code asks Paddle when Paddle is
loaded in the process - always, in the Paddle build - and never imports it
itself.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from . import runtime

if TYPE_CHECKING:
    import os

    from google.protobuf.internal import containers as _containers

    import fleet_strategy.distributed_strategy_pb2 as distributed_strategy_pb2
    from fleet_strategy.distributed_strategy import DistributedStrategy

    from .types import HybridConfigDict

TABLE_MESSAGE = "paddle.fleet.TableParameter"  # the items of downpour_table_param

# The options whose setters Paddle does not mark "non-auto": setting one of
# them, or a FLAGS_* field read at construction (runtime.env_fields), keeps
# _is_strict_auto(); setting any other option ends it.
AUTO_NEUTRAL_FIELDS = frozenset(
    {"auto", "semi_auto", "auto_search", "split_data", "qat", "qat_configs", "heter_ccl_mode", "hybrid_configs",
     "downpour_table_param", "mode"}
)


# ------------------------------------------------------------ Paddle's flags


class PaddleFlags:
    """Paddle's global flags as a ``runtime.FlagStore``: only the flags the
    running Paddle makes public (its CPU wheels keep the cuDNN/NCCL ones
    private), read and written through Paddle's public ``get_flags`` and
    ``set_flags``, as Paddle's class uses them."""

    __slots__ = ("framework", "_public")

    def __init__(self, framework: Any) -> None:
        self.framework = framework
        self._public: dict[object, bool] = {}  # a build's public flags never change

    def __contains__(self, name: object) -> bool:
        public = self._public.get(name)
        if public is None:
            try:
                self.framework.get_flags([name])
                public = True
            except ValueError:  # Paddle's answer for a flag that is private or does not exist
                public = False
            self._public[name] = public
        return public

    def __getitem__(self, name: str) -> Any:
        return self.framework.get_flags([name])[name]

    def __setitem__(self, name: str, value: Any) -> None:
        self.framework.set_flags({name: value})


_paddle_flags: list[PaddleFlags] = []


def paddle_flags() -> PaddleFlags | None:
    """Paddle's flags when Paddle is loaded in this process, else None (then
    the ``FLAGS_*`` fields use ``os.environ``).

    Paddle reads its flags from the environment once, at import; from then on
    its flags, not ``os.environ``, are what it uses."""
    framework = sys.modules.get("paddle.base.framework")
    if framework is None or not hasattr(framework, "set_flags"):
        return None
    if not _paddle_flags or _paddle_flags[0].framework is not framework:
        _paddle_flags[:] = [PaddleFlags(framework)]
    return _paddle_flags[0]


def reset_a_sync_k_steps(strategy: DistributedStrategy) -> None:
    """Paddle resets ``a_sync_configs["k_steps"]`` to 0 whenever ``a_sync`` is set."""
    with runtime.lock_of(strategy):  # after, not inside, an a_sync_configs assignment of another thread
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
    modified, and nothing changes unless every key is accepted; the message
    and the two attributes change together, under the strategy's lock.
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
    target = strategy.strategy.hybrid_configs
    change = runtime.stage_config(rest, runtime.spec_of(target), "hybrid_configs", strict, empty_sets=False)
    with runtime.lock_of(strategy):
        if change is not None:
            runtime.apply_config(target, change)
        if order is not None:
            strategy.hybrid_parallel_order = order
        if sync_names is not None:
            strategy.sync_param_name = sync_names


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
    return cast("HybridConfigDict", runtime.dict_view(message.hybrid_configs, runtime.lock_of(strategy)))


# ----------------------------------------------------------- build_strategy


def get_build_strategy(strategy: DistributedStrategy) -> distributed_strategy_pb2.BuildStrategy:
    """A detached copy of the options: change its attributes, then assign it
    back. With Paddle loaded it is a ``paddle.static.BuildStrategy`` built as
    Paddle's class builds it (fleet copies and applies that object); without
    Paddle, the ``BuildStrategy`` protobuf message."""
    options = strategy.strategy.build_strategy
    paddle_class = getattr(sys.modules.get("paddle.static"), "BuildStrategy", None)
    if paddle_class is not None:
        # Paddle's object has the same option attributes as the message; its ReduceStrategy is an enum class
        converters = {"reduce_strategy": paddle_class.ReduceStrategy}
        with runtime.lock_of(strategy):  # the options of one state, read field by field
            return cast("distributed_strategy_pb2.BuildStrategy", runtime.copy_to_object(options, paddle_class(), converters))
    detached = type(options)()
    detached.CopyFrom(options)
    return detached


def set_build_strategy(strategy: DistributedStrategy, value: Any) -> None:
    """Accepts a dict, the options message, Paddle's BuildStrategy, or any
    object with some of the option attributes (missing ones stay as they are)."""
    target = strategy.strategy.build_strategy
    spec = runtime.spec_of(target)
    runtime.assign_config(
        target,
        runtime.object_config(value, spec),
        spec,
        "build_strategy",
        strategy.strict,
        empty_sets=False,
        lock=runtime.lock_of(strategy),
    )


# ------------------------------------------------- parameter-server tables


def get_table_params(strategy: DistributedStrategy) -> _containers.RepeatedCompositeFieldContainer[distributed_strategy_pb2.TableParameter]:
    return strategy.strategy.downpour_table_param


def set_sparse_table_configs(strategy: DistributedStrategy, configs: Any) -> None:
    """Tables from dotted-path keys: ``{name: {"table_parameters.<name>.<field path>": value}}``.

    A repeated message field needs ``<path>.num`` (how many items); a list
    value for a scalar field gives one value per item. All tables are built
    first and added together, so a bad value adds nothing.
    """
    given = runtime.as_mapping(configs)
    if given is None:
        raise TypeError(f"sparse_table_configs: expected a dict of table configs, got {type(configs).__name__}")
    table_class = cast("type[distributed_strategy_pb2.TableParameter]", runtime.message_class(TABLE_MESSAGE))
    tables: list[distributed_strategy_pb2.TableParameter] = []
    for table_name, table_value in given.items():
        table_config = runtime.as_mapping(table_value)
        if table_config is None:
            raise TypeError(f"sparse_table_configs[{table_name!r}]: expected a dict, got {type(table_value).__name__}")
        table = table_class()
        table.table_name = table_name
        prefix = f"table_parameters.{table_name}"
        used = runtime.fill_dotted(table, prefix, table_config, "sparse_table_configs")
        unknown = [key for key in table_config if key not in used]
        if strategy.strict and unknown:
            raise runtime.UnknownConfigKeyError(
                f"sparse_table_configs[{table_name!r}]: unknown key {unknown[0]!r}; keys look like '{prefix}.<field path>'"
            )
        tables.append(table)
    with runtime.lock_of(strategy):
        runtime.merge_keyed(strategy.strategy.downpour_table_param, tables, "table_name")  # same name: replaced


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


def _fleet_desc_table(table: distributed_strategy_pb2.TableParameter, name: str, config: Mapping[str, Any], use_cvm: bool) -> distributed_strategy_pb2.TableParameter:
    for key in config:
        if key not in FLEET_DESC_KEYS:
            hint = runtime.suggest(key, FLEET_DESC_KEYS)
            raise runtime.UnknownConfigKeyError(f"fleet_desc_configs[{name!r}]: unknown key {key!r}{hint}")
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
    table_class = cast("type[distributed_strategy_pb2.TableParameter]", runtime.message_class(TABLE_MESSAGE))
    tables: list[distributed_strategy_pb2.TableParameter] = []
    for name, config in given.items():
        if name in ("dense_table", "datanorm_table") or not isinstance(config, dict):
            continue
        try:
            tables.append(_fleet_desc_table(table_class(), name, cast("dict[str, Any]", config), use_cvm))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, runtime.UnknownConfigKeyError) or str(exc).startswith("fleet_desc_configs"):
                raise
            raise type(exc)(f"fleet_desc_configs[{name!r}]: {exc}") from None
    with runtime.lock_of(strategy):
        runtime.merge_keyed(strategy.strategy.downpour_table_param, tables, "table_name")  # same name: replaced


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


def _repr_layout(message: distributed_strategy_pb2.DistributedStrategy) -> _ReprLayout:
    """Which rows __repr__ prints, from the descriptor, worked out once.

    Paddle's rule: a bool field ``x`` with an ``x_configs`` sibling is a
    feature switch (its configs are listed when it is on); ``*_configs`` and
    ``build_strategy`` fields are not rows themselves; everything else is a row
    of the flags section."""
    if not _layout:
        fields = message.DESCRIPTOR.fields
        by_name = message.DESCRIPTOR.fields_by_name
        switches: list[tuple[str, str, list[tuple[str, str, bool]]]] = []
        env: list[tuple[str, str]] = []
        for field in fields:
            name = field.name
            if "build_strategy" in name or "_configs" in name:
                continue
            configs = by_name.get(name + "_configs")
            if field.type == field.TYPE_BOOL and configs is not None and configs.message_type is not None:
                subs = [
                    (sub.name, _key(sub.name), runtime.is_repeated(sub) and sub.message_type is None)
                    for sub in configs.message_type.fields
                ]
                switches.append((name, configs.name, subs))
            else:
                env.append((name, _key(name)))
        build = [(f.name, _key(f.name)) for f in message.build_strategy.DESCRIPTOR.fields]
        _layout.append((switches, env, build))
    return _layout[0]


def _overview(message: distributed_strategy_pb2.DistributedStrategy) -> str:
    """__repr__'s table."""
    switches, env_names, build_names = _repr_layout(message)
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


def _generated(members: StrategyMembers) -> DistributedStrategy:
    """The generated class this mixin is part of: its options and plain
    attributes are declared there (from the annotations file), not here."""
    return cast("DistributedStrategy", members)


class StrategyMembers:
    """Methods of DistributedStrategy (hand-written)."""

    __slots__ = ()

    def save_to_prototxt(self, output: str | os.PathLike[str]) -> None:
        """Write the strategy as protobuf text (the format Paddle writes).

        The file is replaced in one step: the text goes to a temporary file
        in the same folder, flushed to disk, then renamed over ``output``.
        Whatever fails on the way (a full disk, a file size limit), the old
        file stays as it was and no temporary file is left. The new file
        keeps the old one's permission bits; a symbolic link is written
        through. The folder must be writable, and a file with several hard
        links is replaced under this name only.

        Examples:
            >>> from fleet_strategy import DistributedStrategy
            >>> strategy = DistributedStrategy()
            >>> strategy.amp = True
            >>> strategy.save_to_prototxt("strategy.prototxt")
            >>> open("strategy.prototxt").read()
            'amp: true\\n'
        """
        this = _generated(self)
        runtime.save_text(this.strategy, output, runtime.lock_of(self))  # protobuf's own text form, as Paddle writes it

    def load_from_prototxt(self, pb_file: str | os.PathLike[str]) -> None:
        """Merge settings from a protobuf text file (as written by Paddle or us).

        All or nothing: every failure raises ``ValueError`` naming the file
        and leaves the strategy unchanged - a missing file (the error is also
        a ``FileNotFoundError``), a folder, a pipe or a device (refused
        without reading it), bytes that are not UTF-8, text that does not
        parse (the error names the line).

        Examples:
            >>> with open("saved.prototxt", "w") as f:
            ...     _ = f.write("recompute: true\\nrecompute_configs { checkpoints: 'x' }\\n")
            >>> from fleet_strategy import DistributedStrategy
            >>> strategy = DistributedStrategy()
            >>> strategy.load_from_prototxt("saved.prototxt")
            >>> strategy.recompute, strategy.recompute_configs["checkpoints"]
            (True, ['x'])
        """
        this = _generated(self)
        runtime.merge_text_file(this.strategy, pb_file, runtime.lock_of(self))

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
        result = cast(Any, cls)(strict=strict)  # the plain attributes start at their defaults
        result.strategy.ParseFromString(serialize())
        for name in ("hybrid_parallel_order", "sync_param_name"):
            if hasattr(strategy, name):
                setattr(result, name, list(getattr(strategy, name)))
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
        this = _generated(self)
        import importlib

        result: Any = importlib.import_module("paddle.distributed.fleet").DistributedStrategy()
        with runtime.lock_of(self):  # the message and the two lists of one state
            wire = this.strategy.SerializeToString()
            order, names = list(this.hybrid_parallel_order), list(this.sync_param_name)
        result.strategy.ParseFromString(wire)
        result.hybrid_parallel_order = order
        result.sync_param_name = names
        return result

    def _is_strict_auto(self) -> bool:
        """True when ``auto`` is on and no option outside auto-parallel's own
        was set on this strategy (the FLAGS_* read at construction do not
        count)."""
        this = _generated(self)
        message = this.strategy
        if not message.auto:
            return False
        read = {entry.field for entry in runtime.env_fields(this) if entry.read}
        return all(field.name in AUTO_NEUTRAL_FIELDS or field.name in read for field, _ in message.ListFields())

    def __repr__(self) -> str:
        """The overview table Paddle prints: enabled features with their
        configs, then every other flag, then the build strategy."""
        this = _generated(self)
        with runtime.lock_of(self):  # one state, read field by field
            return _overview(this.strategy)


__all__ = ["StrategyMembers"]
