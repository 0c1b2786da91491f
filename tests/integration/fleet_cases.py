"""Fleet paths driven by one DistributedStrategy class, each case as if in its own process.

Run by tests/integration/test_paddle.py with a Python that has
``paddlepaddle==3.3.1``: ``python fleet_cases.py CASE CLASS`` prints one JSON
object of what Paddle did with the strategy (losses, op lists, applied
meta-optimizers, the final strategy's text, flags). CLASS is ``paddle`` (the
class Paddle imports: pristine, or the overlaid Paddle build) or
``standalone`` (``fleet_strategy.DistributedStrategy``, handed to fleet).
``python fleet_cases.py --serve CLASS`` runs the cases named on its standard
input, each in a child forked after ``import paddle`` (fleet keeps global
state; forked.py). The test compares the outputs of the same case between the classes.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

# Static cases use the legacy IR (program/ops), as the meta-optimizers do.
os.environ.setdefault("FLAGS_enable_pir_api", "0")
os.environ.setdefault("GLOG_v", "0")

import paddle  # noqa: E402
import paddle.distributed.fleet as fleet  # noqa: E402

import forked  # noqa: E402  (beside this file)

CLASS = sys.argv[2]


def new_strategy():  # type: ignore[no-untyped-def]
    if CLASS == "standalone":
        from fleet_strategy import DistributedStrategy

        return DistributedStrategy()
    return fleet.DistributedStrategy()


def text(strategy) -> str:  # type: ignore[no-untyped-def]
    return str(strategy.strategy)


def static_net():  # type: ignore[no-untyped-def]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data(name="x", shape=[-1, 32], dtype="float32")
        y = paddle.static.data(name="y", shape=[-1, 1], dtype="int64")
        hidden = paddle.static.nn.fc(x=x, size=64, activation="tanh")
        hidden = paddle.static.nn.fc(x=hidden, size=64, activation="tanh")
        prediction = paddle.static.nn.fc(x=[hidden], size=2, activation="softmax")
        cost = paddle.nn.functional.cross_entropy(input=prediction, label=y, reduction="none", use_softmax=False)
        loss = paddle.mean(x=cost)
    return main, startup, loss


STATIC = {
    "default": lambda s: None,
    "amp": lambda s: (setattr(s, "amp", True), setattr(s, "amp_configs", {"init_loss_scaling": 32768, "custom_white_list": ["softmax"]})),
    "recompute": lambda s: (setattr(s, "recompute", True), setattr(s, "recompute_configs", {"checkpoints": ["fc_0.tmp_2", "fc_1.tmp_2"]})),
    "gradient_merge": lambda s: (setattr(s, "gradient_merge", True), setattr(s, "gradient_merge_configs", {"k_steps": 2, "avg": True})),
    "lars": lambda s: (setattr(s, "lars", True), setattr(s, "lars_configs", {"lars_coeff": 0.001, "lars_weight_decay": 0.0005, "exclude_from_weight_decay": ["batch_norm", ".b"]})),
    "localsgd": lambda s: (setattr(s, "localsgd", True), setattr(s, "localsgd_configs", {"k_steps": 4, "begin_step": 1})),
    "auto": lambda s: setattr(s, "auto", True),
}


def static_case(name: str) -> dict[str, object]:
    """One trainer (a CPU build cannot start a communicator): build the
    program through fleet with the strategy, then run three steps."""
    import numpy as np

    paddle.enable_static()
    paddle.seed(7)
    fleet.init(is_collective=True)
    main, startup, loss = static_net()
    strategy = new_strategy()
    STATIC[name](strategy)
    with paddle.static.program_guard(main, startup):
        momentum = name in ("lars", "localsgd", "default")
        optimizer = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9) if momentum else paddle.optimizer.SGD(learning_rate=0.01)
        optimizer = fleet.distributed_optimizer(optimizer, strategy=strategy)
        optimizer.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    rng = np.random.default_rng(0)
    losses: list[object] = []
    try:
        exe.run(startup)
        for _ in range(3):
            feed = {"x": rng.random((8, 32), dtype="float32"), "y": rng.integers(0, 2, (8, 1)).astype("int64")}
            losses.append(float(np.asarray(exe.run(main, feed=feed, fetch_list=[loss])[0])))
    except Exception as exc:  # the same failure on both sides is the same behaviour
        losses.append(type(exc).__name__)
    return {
        "losses": losses,
        "ops": [op.type for op in main.global_block().ops],
        "startup_ops": [op.type for op in startup.global_block().ops],
        "applied": fleet._get_applied_meta_list(),
        "graph_applied": fleet._get_applied_graph_list(),
        "valid_strategy": text(fleet._final_strategy()),
        "user_strategy": text(strategy),
    }


def dygraph() -> dict[str, object]:
    paddle.seed(7)
    strategy = new_strategy()
    strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1, "order": ["dp", "pp", "sharding", "sep", "mp"]}
    fleet.init(is_collective=True, strategy=strategy)
    model = paddle.nn.Linear(8, 2)
    optimizer = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()))
    import numpy as np

    rng = np.random.default_rng(0)
    losses = []
    for _ in range(3):
        x = paddle.to_tensor(rng.random((4, 8), dtype="float32"))
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    group = fleet.get_hybrid_communicate_group()
    return {
        "losses": losses,
        "user_strategy": text(fleet.fleet._user_defined_strategy),
        "order": list(fleet.fleet._user_defined_strategy.hybrid_parallel_order),
        "degrees": [group.get_data_parallel_world_size(), group.get_model_parallel_world_size(), group.get_pipe_parallel_world_size()],
    }


def build_strategy() -> dict[str, object]:
    """What fleet does with ``build_strategy``: copy it, compile with it, apply it."""
    paddle.enable_static()
    strategy = new_strategy()
    options = strategy.build_strategy
    options.fuse_elewise_add_act_ops = True
    options.enable_inplace = False
    options.reduce_strategy = paddle.static.BuildStrategy.ReduceStrategy.Reduce
    strategy.build_strategy = options
    copied = strategy.build_strategy._copy()
    main, startup, loss = static_net()
    compiled = paddle.static.CompiledProgram(main, build_strategy=strategy.build_strategy)
    from paddle.framework.ir import apply_build_strategy

    applied = apply_build_strategy(main, startup, strategy.build_strategy, {"use_cuda": False})
    return {
        "type": type(copied).__name__,
        "fuse_elewise_add_act_ops": copied.fuse_elewise_add_act_ops,
        "enable_inplace": copied.enable_inplace,
        "reduce_strategy": str(copied.reduce_strategy),
        "compiled": type(compiled).__name__,
        "applied": type(applied).__name__,
        "ops_after_passes": [op.type for op in main.global_block().ops],
        "text": text(strategy),
    }


def enable_env() -> dict[str, object]:
    strategy = new_strategy()
    strategy.fuse_grad_size_in_MB = 64
    strategy._fuse_grad_size_in_TFLOPS = 20
    strategy._enable_env()
    names = ["FLAGS_fuse_parameter_memory_size", "FLAGS_fuse_parameter_groups_size"]
    return {"flags": paddle.get_flags(names), "text": text(strategy)}


def messages() -> dict[str, object]:
    """Calls that check Paddle's message classes: message2nccl_config's
    isinstance, CopyFrom/MergeFrom between messages. A standalone strategy
    goes through to_paddle() first, as its docs say."""
    from paddle.distributed.fleet.base import topology
    from paddle.distributed.fleet.proto import distributed_strategy_pb2

    import logging

    logged: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("fleet_strategy").addHandler(handler)
    strategy = new_strategy()
    strategy.hybrid_configs = {"dp_degree": 2}
    nccl_config = strategy.strategy.hybrid_configs.dp_configs.nccl_config  # Paddle takes no dict here
    nccl_config.commName, nccl_config.nchannels = "dp_group", 4
    paddle_view = strategy.to_paddle() if CLASS == "standalone" else strategy
    nccl = paddle_view.hybrid_configs["dp_configs"].nccl_config
    copied = distributed_strategy_pb2.DistributedStrategy()
    copied.CopyFrom(paddle_view.strategy)
    merged = distributed_strategy_pb2.HybridConfig()
    merged.MergeFrom(paddle_view.strategy.hybrid_configs)
    back = type(strategy).from_paddle(paddle_view) if CLASS == "standalone" else strategy
    topology.paddle.distributed.collective._default_backend = "nccl"  # the check GPU runs take
    try:
        converted = topology.message2nccl_config(nccl, "dp")
    except Exception as exc:  # the CPU build has no NCCLConfig to create
        converted = type(exc).__name__
    return {
        "isinstance_unconverted": isinstance(strategy.hybrid_configs["dp_configs"].nccl_config, topology.NCCLConfig_Message),
        "isinstance": isinstance(nccl, topology.NCCLConfig_Message),
        "converted": converted if isinstance(converted, (str, type(None))) else type(converted).__name__,
        "copied": str(copied),
        "merged": str(merged),
        "round_trip": text(back),
        "logged": logged,
    }


def copies() -> dict[str, object]:
    import copy
    import pickle

    out: dict[str, object] = {}
    for how, clone in (("copy", copy.copy), ("deepcopy", copy.deepcopy), ("pickle", lambda s: pickle.loads(pickle.dumps(s)))):
        strategy = new_strategy()
        strategy.amp = True
        strategy.hybrid_configs = {"dp_degree": 2, "order": ["mp", "dp", "pp", "sharding", "sep"], "mp_configs": {"sync_param_name": ["x"]}}
        try:
            twin = clone(strategy)
        except Exception as exc:  # Paddle's own strategy does not pickle
            out[how] = type(exc).__name__
            continue
        twin.amp = False
        out[how] = [text(twin), strategy.amp, twin.hybrid_parallel_order, twin.sync_param_name]
    return out


def plain(value: object) -> object:
    """A getter's value as JSON: messages as their text, containers item by item."""
    if hasattr(value, "DESCRIPTOR") and hasattr(value, "SerializeToString"):
        return str(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__.startswith("Repeated"):
        return [plain(item) for item in value]  # type: ignore[union-attr]
    return value if isinstance(value, (bool, int, float, str, type(None))) else repr(value)


def surface() -> dict[str, object]:
    """Every getter, repr and prototxt on a fresh strategy and after each
    recorded scenario's assignments (tests/reference/paddle-3.3.1)."""
    reference = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference", "paddle-3.3.1")
    with open(os.path.join(reference, "defaults.json"), encoding="utf-8") as handle:
        names = sorted(json.load(handle))
    with open(os.path.join(reference, "scenarios.json"), encoding="utf-8") as handle:
        scenarios = json.load(handle)
    out: dict[str, object] = {}
    for scenario, recorded in [("default", {"steps": []}), *sorted(scenarios.items())]:
        strategy = new_strategy()
        for name, value in recorded["steps"]:
            setattr(strategy, name, value)
        getters = {name: plain(getattr(strategy, name)) for name in names if name != "build_strategy"}
        getters["build_strategy"] = {f.name: plain(getattr(strategy.build_strategy, f.name)) for f in strategy.strategy.build_strategy.DESCRIPTOR.fields}
        out[scenario] = {
            "getters": getters,
            "repr": repr(strategy),
            "text": text(strategy),
            "order": strategy.hybrid_parallel_order,
            "sync": strategy.sync_param_name,
        }
    return out


CASES = {
    "surface": surface,
    **{f"static_{name}": (lambda name=name: static_case(name)) for name in STATIC},
    "dygraph": dygraph,
    "build_strategy": build_strategy,
    "enable_env": enable_env,
    "messages": messages,
    "copies": copies,
}

if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        forked.serve(lambda args: CASES[args[0]]())
    else:
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            result = CASES[sys.argv[1]]()
        print("RESULT " + json.dumps(result, sort_keys=True, default=str))
