"""Probes of what Paddle's ``distributed_strategy`` module does, one group per process.

Run by tests/integration/test_paddle_module.py with a Python that has
``paddlepaddle==3.3.1``, pristine or with the Paddle build overlaid
(``PYTHONPATH``): ``python paddle_probes.py GROUP`` prints one JSON object of
observations. The test runs each group on both and compares: the same
observations where the module is Paddle's, each documented difference
(``reference.differences`` in the annotations) where it is not.

Groups: ``module`` (every module-level name, called with the same arguments),
``differences`` (one probe per documented difference), ``optimized`` (under
``python -O``), ``no_paddle`` (the standalone package, Paddle not imported).
"""

from __future__ import annotations

import ast
import copy
import inspect
import json
import logging
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from typing import Any

os.environ.setdefault("GLOG_v", "0")


def plain(value: Any) -> Any:
    """A value as JSON: messages as their text, containers item by item."""
    if hasattr(value, "DESCRIPTOR") and hasattr(value, "SerializeToString"):
        return {"message": type(value).__name__, "text": str(value)}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__.startswith("Repeated"):
        return [plain(item) for item in value]
    if isinstance(value, type):
        return {"type": value.__name__}
    return value if isinstance(value, (bool, int, float, str, type(None))) else repr(value)


def outcome(call: Callable[[], Any]) -> dict[str, Any]:
    """What a call did: its value, or its exception's class and message."""
    try:
        return {"ok": plain(call())}
    except Exception as exc:  # the error is the observation
        return {"error": [type(exc).__name__, str(exc)]}


def module_group() -> dict[str, Any]:
    """Every module-level name Paddle's module defines, with the same arguments
    (errors included), and the names the installed module's source defines."""
    import paddle.distributed.fleet as fleet  # noqa: F401 - imports the module as Paddle does
    from paddle.distributed.fleet.base import distributed_strategy as m
    from paddle.distributed.fleet.proto import distributed_strategy_pb2 as pb2

    out: dict[str, Any] = {"flag at import": m.non_auto_func_called}

    def amp() -> Any:
        message = pb2.AMPConfig()
        message.init_loss_scaling = 1024.0
        message.custom_white_list.extend(["matmul", "relu"])
        return message

    def recompute() -> Any:
        message = pb2.RecomputeConfig(checkpoints=["x"])
        message.refined_ops_patterns.add(main_ops=["matmul"], num=2)
        message.refined_ops_patterns.add(pre_ops=["a"], suf_ops=["b"])
        return message

    hybrid = pb2.HybridConfig(dp_degree=2)
    hybrid.mp_configs.sync_param = True
    for name, argument in [("amp", amp()), ("recompute", recompute()), ("hybrid", hybrid),
                           ("strategy", pb2.DistributedStrategy()), ("none", None), ("int", 5)]:
        out[f"get_msg_dict {name}"] = outcome(lambda argument=argument: m.get_msg_dict(argument))
    for name, argument in [("patterns", recompute().refined_ops_patterns), ("none", None), ("ints", [1]), ("empty", [])]:
        out[f"get_repeated_msg_dict {name}"] = outcome(lambda argument=argument: m.get_repeated_msg_dict(argument))

    assignments: list[tuple[str, Callable[[], Any], Any]] = [
        ("scalars", amp, {"init_loss_scaling": 8.0, "use_pure_fp16": True}),
        ("repeated scalars extend", amp, {"custom_white_list": ["gelu"], "custom_black_list": None}),
        ("unknown keys skipped", amp, {"nope": 1, "incr_ratio": 3.0}),
        ("a bad value after a good one", amp, {"init_loss_scaling": 2.0, "incr_ratio": "x"}),
        ("repeated messages from dicts", recompute, {"refined_ops_patterns": [{"main_ops": ["m"]}, {"num": 1}]}),
        ("repeated messages from a dict", recompute, {"refined_ops_patterns": {"num": 7, "main_ops": ["y"], "zz": 1}}),
        ("a message field", lambda: pb2.HybridConfig(), {"dp_degree": 4, "mp_configs": {"sync_param": True}}),
        ("a list of names", amp, ["init_loss_scaling"]),
        ("none", amp, None),
        ("unhashable keys", amp, [["x"]]),
    ]
    for name, make, config in assignments:
        target = make()
        result = outcome(lambda target=target, config=config: m.assign_configs_value(target, config))
        out[f"assign_configs_value {name}"] = [result, str(target)]
    out["assign_configs_value none message"] = outcome(lambda: m.assign_configs_value(None, {"a": 1}))
    for name, config in [("dict of scalars", {"num": 3, "nope": 1}), ("list of dicts", [{"num": 3}, {}]),
                         ("a repeated key", {"main_ops": ["m"]}), ("none", None)]:
        patterns = recompute().refined_ops_patterns
        result = outcome(lambda patterns=patterns, config=config: m.assign_repeated_msg(patterns, config))
        out[f"assign_repeated_msg {name}"] = [result, plain(patterns)]
    for name, config in [("known", {"init_loss_scaling": 1}), ("unknown", {"init_loss_scaling": 1, "nope": 2}),
                         ("a list", ["incr_ratio", "nope"]), ("unhashable", [["x"]]), ("none", None)]:
        out[f"check_configs_key {name}"] = outcome(lambda config=config: m.check_configs_key(pb2.AMPConfig(), config, "amp_configs"))
    fields = pb2.RecomputeConfig.DESCRIPTOR.fields
    out["_is_repeated_field"] = [m._is_repeated_field(f) for f in fields]
    out["_is_repeated_field none"] = outcome(lambda: m._is_repeated_field(None))
    out["ReduceStrategyFleet"] = [m.ReduceStrategyFleet is int, m.ReduceStrategyFleet("3")]

    def documented(x: int, *, y: str = "a") -> str:
        """Doc of the wrapped function."""
        return f"{x}{y}"

    out["flag before a decorated call"] = m.non_auto_func_called
    impl = m.__non_auto_func_called__(documented)
    out["__non_auto_func_called__ wrapper"] = [impl.__name__, impl.__qualname__.split(".")[-1], impl.__doc__]
    out["__non_auto_func_called__ call"] = [outcome(lambda: impl(1, y="b")), m.non_auto_func_called]
    m.non_auto_func_called = True  # code that resets the flag, as a test of Paddle's might
    out["flag after reset"] = m.non_auto_func_called
    wrapped = m.is_strict_auto(documented)
    out["is_strict_auto"] = [m.is_strict_auto.__name__, wrapped.__name__, wrapped.__doc__, str(inspect.signature(wrapped)),
                             wrapped.__wrapped__ is documented, m.non_auto_func_called]
    out["is_strict_auto call"] = [outcome(lambda: wrapped(2)), m.non_auto_func_called]
    m.non_auto_func_called = True
    out["is_strict_auto none"] = [outcome(lambda: m.is_strict_auto(None)), m.non_auto_func_called]
    out["__all__"] = list(m.__all__)
    # the names the pristine module's source defines (its path: PADDLE_PRISTINE_MODULE), and which this one has
    out["names of the pristine module present"] = {
        name: hasattr(m, name) for name in names_in_source(os.environ["PADDLE_PRISTINE_MODULE"])
    }
    return out


def names_in_source(path: str) -> list[str]:
    """The names a module's source defines at its top level (outside ``if TYPE_CHECKING:``)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return names


def differences_group() -> dict[str, Any]:
    """One probe per documented difference (the names are reference.differences' in the annotations)."""
    import paddle
    import paddle.distributed.fleet as fleet
    from google.protobuf import text_format
    from paddle.distributed.fleet.base import distributed_strategy as m
    from paddle.distributed.fleet.utils.log_util import logger

    Strategy, JobInfo = fleet.DistributedStrategy, m.DistributedJobInfo
    out: dict[str, Any] = {}

    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    Strategy()
    logger.removeHandler(handler)
    out["construction_log"] = logged

    def assign(target: Any, name: str, value: Any) -> dict[str, Any]:
        return outcome(lambda: setattr(target, name, value))

    out["attribute_lock"] = {
        "strategy raw field": assign(Strategy(), "fuse_grad_size_in_TFLOPS", 3),
        "strategy typo": assign(Strategy(), "ampp", True),
        "job info": assign(JobInfo(), "anything", 1),
    }

    copies: dict[str, Any] = {}
    for label, make, message in (("strategy", Strategy, "strategy"), ("job info", JobInfo, "job_info")):
        original = make()
        twin = copy.copy(original)
        getattr(twin, message).ClearField("mode" if label == "strategy" else "worker_num")
        getattr(twin, message).MergeFromString(getattr(original, message).SerializeToString())
        setattr(getattr(twin, message), "elastic" if label == "strategy" else "worker_num", True if label == "strategy" else 3)
        copies[f"{label}: a change to copy.copy's message shows in the original"] = getattr(original, message) == getattr(twin, message)
        copies[f"{label}: pickle"] = outcome(lambda original=original: type(pickle.loads(pickle.dumps(original))).__name__)
    out["copies"] = copies

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bad.prototxt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("amp: true\nnope: 1\n")
        strategy = Strategy()
        try:
            strategy.load_from_prototxt(path)
            error: list[Any] = ["none"]
        except Exception as exc:
            error = [type(exc).__name__, isinstance(exc, ValueError), isinstance(exc, text_format.ParseError),
                     "bad.prototxt" in str(exc) and "2:1" in str(exc)]
        out["load_all_or_nothing"] = {"error": error, "amp merged before the bad line": strategy.amp}

    strategy = Strategy()
    out["build_strategy_input"] = {
        "dict": assign(strategy, "build_strategy", {"enable_inplace": False}),
        "enable_inplace": strategy.build_strategy.enable_inplace,
        "paddle's object": assign(strategy, "build_strategy", paddle.static.BuildStrategy()),
    }

    tables: dict[str, Any] = {}
    table = {"table_parameters.emb.table_class": "MemorySparseTable"}
    strategy = Strategy()
    strategy.sparse_table_configs = {"emb": table}
    strategy.sparse_table_configs = {"emb": table}
    tables["sparse: same name twice"] = [t.table_name for t in strategy.sparse_table_configs]
    strategy = Strategy()
    tables["sparse: bad second table"] = assign(strategy, "sparse_table_configs", {"emb": table, "b": {"table_parameters.b.shard_num": "x"}})
    tables["sparse: tables kept"] = [t.table_name for t in strategy.sparse_table_configs]
    strategy = Strategy()
    for _ in range(2):
        strategy.fleet_desc_configs = {"emb": {"sparse_accessor_class": "DownpourCtrAccessor"}}
    tables["fleet desc: same name twice"] = [t.table_name for t in strategy.fleet_desc_configs]
    out["sparse_tables"] = tables

    strategy = Strategy()
    strategy.fuse_grad_size_in_MB = 64
    before = {name: os.environ.get(name) for name in ("FLAGS_fuse_parameter_memory_size", "FLAGS_fuse_parameter_groups_size")}
    strategy._enable_env()
    out["enable_env_without_paddle"] = {
        "paddle's flag": paddle.get_flags(["FLAGS_fuse_parameter_memory_size"])["FLAGS_fuse_parameter_memory_size"],
        "os.environ changed": {n: os.environ.get(n) for n in before} != before,
    }

    m.non_auto_func_called = True  # as at the start of a process: the probes above set options
    auto = Strategy()
    auto.auto = True
    before = auto._is_strict_auto()
    other = Strategy()
    other.amp = True  # an option set on another strategy
    out["strict_auto_per_strategy"] = {
        "before": before,
        "after another strategy's amp": auto._is_strict_auto(),
        "flag after it": m.non_auto_func_called,
        "the other's": other._is_strict_auto(),
    }

    info, given = JobInfo(), Strategy()
    given.amp = True
    out["job_info_strategy"] = {"call": outcome(lambda: info._set_distributed_strategy(given.strategy)),
                                "stored amp": info.job_info.strategy.amp}

    dicts: dict[str, Any] = {}
    strategy = Strategy()
    dicts["half applied"] = [assign(strategy, "amp_configs", {"init_loss_scaling": 1024.0, "incr_ratio": "bad"})["error"][0],
                             strategy.amp_configs["init_loss_scaling"]]
    strategy.recompute_configs = {"checkpoints": ["a"]}
    strategy.recompute_configs = {"checkpoints": ["a"]}
    dicts["list assigned twice"] = strategy.recompute_configs["checkpoints"]
    given = {"dp_degree": 1, "order": ["dp", "pp", "sharding", "sep", "mp"], "mp_configs": {"sync_param_name": ["x"]},
             "pp_configs": {"dp_comm_overlap": True}}
    strategy.hybrid_configs = given
    dicts["caller's dict after hybrid_configs"] = given
    dicts["nested unknown key"] = assign(Strategy(), "hybrid_configs", {"mp_configs": {"nope": 1}})
    named = ("amp_configs", "gradient_merge_configs", "gradient_configs", "recompute_configs", "checkpoint_configs")
    for name in ("amp_configs", "gradient_merge_configs", "recompute_configs"):
        try:
            setattr(Strategy(), name, {"nope": 1})
            dicts[f"unknown key of {name}"] = "none"
        except Exception as exc:  # which classes it is, and which property its message names
            dicts[f"unknown key of {name}"] = [isinstance(exc, AssertionError), isinstance(exc, ValueError),
                                               [n for n in named if n in str(exc)]]
    strategy = Strategy()
    dicts["dp_configs dict"] = [assign(strategy, "hybrid_configs", {"dp_configs": {"nccl_config": {"nchannels": 4}}}),
                                strategy.strategy.hybrid_configs.dp_configs.nccl_config.nchannels]
    strategy = Strategy()
    strategy.recompute_configs = {"refined_ops_patterns": [{"main_ops": ["matmul"]}]}
    dicts["list of dicts"] = [list(p.main_ops) for p in strategy.strategy.recompute_configs.refined_ops_patterns]
    strategy = Strategy()
    strategy.hybrid_configs = {"mp_configs": {}}
    dicts["nested {}"] = strategy.strategy.hybrid_configs.HasField("mp_configs")
    out["config_dicts"] = dicts

    strategy = Strategy()
    cls = type(strategy)
    docs = {name: " ".join((getattr(cls, name).__doc__ or "").split()) for name in
            ("conv_workspace_size_limit", "cudnn_exhaustive_search", "cudnn_batchnorm_spatial_persistent", "amp_configs", "dgc_configs")}
    values = {"conv_workspace_size_limit": strategy.conv_workspace_size_limit, "cudnn_exhaustive_search": strategy.cudnn_exhaustive_search,
              "cudnn_batchnorm_spatial_persistent": strategy.cudnn_batchnorm_spatial_persistent,
              "decr_ratio": round(strategy.amp_configs["decr_ratio"], 6), "sparsity": list(strategy.dgc_configs["sparsity"])}
    claims = {
        "conv_workspace_size_limit 4000": "Default Value: 4000" in docs["conv_workspace_size_limit"],
        "cudnn_exhaustive_search True": "Default Value: True" in docs["cudnn_exhaustive_search"],
        "cudnn_batchnorm_spatial_persistent True": "Default Value: True" in docs["cudnn_batchnorm_spatial_persistent"],
        "decr_ratio 0.5": "Default 0.5" in docs["amp_configs"],
        "sparsity [0.999]": "Default is [0.999]" in docs["dgc_configs"],
        "conv_workspace_size_limit 512": "``512``" in docs["conv_workspace_size_limit"],
    }
    source = names_by_typed_dict(m.__file__)
    typed_keys = {"_SyncConf k_step": "k_step" in source.get("_SyncConf", ()),
                  "_TrainerDescConf dump_field": "dump_field" in source.get("_TrainerDescConf", ())}
    try:
        from paddle.distributed.fleet.base._fleet_strategy import types
    except ImportError:  # Paddle's own tree: no generated types
        types = None
    if types is not None:
        typed_keys["AsyncConfigInput k_step"] = "k_step" in types.AsyncConfigInput.__annotations__
        typed_keys["TrainerDescConfigInput dump_field"] = "dump_field" in types.TrainerDescConfigInput.__annotations__
    out["defaults"] = {"values": values, "claims": claims, "typed keys": typed_keys}
    out["save_atomic"] = save_over_a_file_size_limit(Strategy)
    return out


def save_over_a_file_size_limit(strategy_class: Any) -> dict[str, Any]:
    """save_to_prototxt over an existing file when a file size limit stops the
    write part-way (RLIMIT_FSIZE, SIGXFSZ ignored: the write fails with EFBIG)."""
    import resource
    import signal

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "saved.prototxt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("amp: true\n")
        strategy = strategy_class()
        strategy.amp_configs = {"custom_white_list": [f"op_{i}" for i in range(100)]}
        previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200, hard))
        try:
            saved = outcome(lambda: strategy.save_to_prototxt(path))
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
            signal.signal(signal.SIGXFSZ, previous)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        return {"error": saved.get("error", ["none"])[0], "old file kept": text == "amp: true\n", "bytes": len(text),
                "files": sorted(os.listdir(folder))}


def names_by_typed_dict(path: str) -> dict[str, list[str]]:
    """The keys of each TypedDict a module's source declares (under ``if TYPE_CHECKING:`` too)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    return {
        node.name: [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "TypedDict" for b in node.bases)
    }


def optimized_group() -> dict[str, Any]:
    """Under ``python -O``, where an ``assert`` does not run."""
    import paddle.distributed.fleet as fleet

    strategy = fleet.DistributedStrategy()
    return {"optimize": sys.flags.optimize,
            "unknown key": outcome(lambda: setattr(strategy, "amp_configs", {"nope": 1}))}


def no_paddle_group() -> dict[str, Any]:
    """The standalone package in a process without Paddle."""
    from fleet_strategy import DistributedStrategy

    names = ("FLAGS_fuse_parameter_memory_size", "FLAGS_conv_workspace_size_limit")
    for name in names:
        os.environ.pop(name, None)
    strategy = DistributedStrategy()
    strategy.fuse_grad_size_in_MB = 64
    strategy.conv_workspace_size_limit = 256
    strategy._enable_env()
    return {"environ": {name: os.environ.get(name) for name in names},
            "read back": DistributedStrategy().conv_workspace_size_limit,
            "paddle imported": any(name == "paddle" or name.startswith("paddle.") for name in sys.modules)}


GROUPS = {"module": module_group, "differences": differences_group, "optimized": optimized_group, "no_paddle": no_paddle_group}

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        result = GROUPS[sys.argv[1]]()
    print("RESULT " + json.dumps(result, sort_keys=True, default=str))
