"""The evidence for each rule of the annotations file, from real Paddle 3.3.1.

Run by tests/integration/test_rules.py with a Python that has
``paddlepaddle==3.3.1``: ``python rule_cases.py CODE`` prints one JSON object
of what Paddle did; ``python rule_cases.py --serve`` runs the codes named on
its standard input in one process, each in a child forked after ``import
paddle`` (forked.py), as if in a process of its own. One CPU trainer, Paddle's
own class:

* a "no effect" rule (``effective_when``): fleet builds the static program
  with the switch off, with and without the setting; the programs (main and
  startup), the applied meta-optimizers and the final strategy's switches are
  reported for both. Where Paddle can apply the switch on CPU, the same pair is
  built with the switch on too (the setting must change something there, so
  the comparison is not of two things that can never differ).
* a conflict (``conflicts_with``): both switches on; the applied
  meta-optimizers and which switches Paddle's final strategy kept.
* a relation: ``fleet.init`` in dygraph mode with the degrees, on one rank.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile

from typing import Any

import forked  # beside this file

paddle: Any = None  # imported when run (tests/integration/test_rules.py reads the tables below without Paddle)
fleet: Any = None

SWITCHES = ("amp", "recompute", "gradient_merge", "lars", "lamb", "localsgd", "adaptive_localsgd", "dgc", "qat", "asp",
            "fp16_allreduce", "pipeline", "tensor_parallel", "sharding", "without_graph_optimization")

# code -> (switch, the setting, the optimizer, whether the switch applies on a CPU trainer)
UNUSED = {
    "amp-configs-without-amp": ("amp", {"amp_configs": {"init_loss_scaling": 1024.0, "use_dynamic_loss_scaling": False, "custom_white_list": ["tanh"]}}, "sgd", True),
    "recompute-configs-without-recompute": ("recompute", {"recompute_configs": {"checkpoints": ["fc_0.tmp_2", "fc_1.tmp_2"]}}, "sgd", True),
    "gradient-merge-configs-without-gradient-merge": ("gradient_merge", {"gradient_merge_configs": {"k_steps": 4, "avg": False}}, "sgd", True),
    "lars-configs-without-lars": ("lars", {"lars_configs": {"lars_coeff": 0.01, "lars_weight_decay": 0.01}}, "momentum", True),
    "lamb-configs-without-lamb": ("lamb", {"lamb_configs": {"lamb_weight_decay": 0.1}}, "adam", True),
    "qat-configs-without-qat": ("qat", {"qat_configs": {"weight_bits": 4, "activation_bits": 4}}, "sgd", True),
    "localsgd-configs-without-localsgd": ("localsgd", {"localsgd_configs": {"k_steps": 8, "begin_step": 3}}, "momentum", False),
    "adaptive-localsgd-configs-without-adaptive-localsgd": ("adaptive_localsgd", {"adaptive_localsgd_configs": {"init_k_steps": 4, "begin_step": 3}}, "momentum", False),
    "dgc-configs-without-dgc": ("dgc", {"dgc_configs": {"rampup_begin_step": 5, "rampup_step": 2, "sparsity": [0.9]}}, "momentum", False),
    "pipeline-configs-without-pipeline": ("pipeline", {"pipeline_configs": {"micro_batch_size": 2, "accumulate_steps": 4, "schedule_mode": "F-then-B"}}, "sgd", False),
    "tensor-parallel-configs-without-tensor-parallel": ("tensor_parallel", {"tensor_parallel_configs": {"tensor_parallel_degree": 2, "tensor_init_seed": 7}}, "sgd", False),
}
# code -> (the two switches, the optimizer, the one Paddle keeps)
CONFLICTS = {
    "fp16-allreduce-with-amp": (("fp16_allreduce", "amp"), "sgd", "amp"),
    "fp16-allreduce-with-asp": (("fp16_allreduce", "asp"), "sgd", "asp"),
    "qat-with-asp": (("qat", "asp"), "sgd", "asp"),
    "qat-with-fp16-allreduce": (("qat", "fp16_allreduce"), "sgd", "fp16_allreduce"),
}
# code -> hybrid_configs that break the relation on one rank, and ones that keep it
RELATIONS = {
    "hybrid-degrees-world-size": (
        [{"dp_degree": 2}, {"dp_degree": 1, "mp_degree": 2}, {"dp_degree": 1, "sharding_degree": 2}],
        [{"dp_degree": 1}, {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1, "sep_degree": 1}],
    ),
}


# name scopes are numbered by a process-wide counter (/optimizer/, /optimizer_6/, ...), which
# unique_name.guard does not reset: a program built second differs only there
_SCOPE_NUMBER = re.compile(r"_\d+/")


def optimizer(kind: str):  # type: ignore[no-untyped-def]
    if kind == "momentum":
        return paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9)
    if kind == "adam":
        return paddle.optimizer.Adam(learning_rate=0.01)
    return paddle.optimizer.SGD(learning_rate=0.01)


def build(settings: dict[str, object], kind: str) -> dict[str, object]:
    """Fleet's static program for a strategy with ``settings`` (same names and seed every time)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), paddle.utils.unique_name.guard():
        x = paddle.static.data(name="x", shape=[-1, 32], dtype="float32")
        y = paddle.static.data(name="y", shape=[-1, 1], dtype="int64")
        hidden = paddle.static.nn.fc(x=x, size=64, activation="tanh")
        hidden = paddle.static.nn.fc(x=hidden, size=64, activation="tanh")
        prediction = paddle.static.nn.fc(x=[hidden], size=2, activation="softmax")
        cost = paddle.nn.functional.cross_entropy(input=prediction, label=y, reduction="none", use_softmax=False)
        loss = paddle.mean(x=cost)
        strategy = fleet.DistributedStrategy()
        for name, value in settings.items():
            setattr(strategy, name, value)
        wrapped = fleet.distributed_optimizer(optimizer(kind), strategy=strategy)
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # fleet prints its optimizer lists
                wrapped.minimize(loss)
        except Exception as exc:  # the same failure on both sides is the same behaviour
            return {"error": f"{type(exc).__name__}: {exc}"[:300]}
    final = fleet._final_strategy()
    return {
        "main": _SCOPE_NUMBER.sub("/", str(main)),
        "startup": _SCOPE_NUMBER.sub("/", str(startup)),
        "applied": fleet._get_applied_meta_list(),
        "graph_applied": fleet._get_applied_graph_list(),
        "kept": sorted(name for name in SWITCHES if getattr(final, name)),
    }


def unused(code: str) -> dict[str, object]:
    switch, setting, kind, applies = UNUSED[code]
    paddle.enable_static()
    fleet.init(is_collective=True)
    out = {"off": build({}, kind), "off_with": build(setting, kind), "applies": applies}
    if applies:
        on = {switch: True, **({"recompute_configs": {"checkpoints": ["fc_0.tmp_2"]}} if switch == "recompute" else {})}
        out["on"] = build(on, kind)
        out["on_with"] = build({**on, **setting}, kind)
    return out


def conflict(code: str) -> dict[str, object]:
    switches, kind, _ = CONFLICTS[code]
    paddle.enable_static()
    fleet.init(is_collective=True)
    return {
        "both": build(dict.fromkeys(switches, True), kind),
        **{name: build({name: True}, kind) for name in switches},
    }


def relation(code: str) -> dict[str, object]:
    breaking, keeping = RELATIONS[code]
    out: dict[str, object] = {}
    for label, configs in (("breaking", breaking), ("keeping", keeping)):
        # one fleet.init per process: each config in a child forked from this one
        out[label] = [_child_init(config) for config in configs]
    return out


def _child_init(config: dict[str, int]) -> str:
    def init() -> str:
        strategy = fleet.DistributedStrategy()
        strategy.hybrid_configs = config
        try:
            fleet.init(is_collective=True, strategy=strategy)
        except Exception as exc:
            return type(exc).__name__
        return "ok"

    answer = forked.forked(init)
    return answer["ok"] if "ok" in answer else f"crashed: {answer['error'][-300:]}"


def evidence(code: str) -> dict[str, object]:
    if code in UNUSED:
        return unused(code)
    if code in CONFLICTS:
        return conflict(code)
    return relation(code)


if __name__ == "__main__":
    os.environ.setdefault("FLAGS_enable_pir_api", "0")  # the meta-optimizers build legacy programs
    os.environ.setdefault("GLOG_v", "0")
    import paddle
    import paddle.distributed.fleet as fleet

    if sys.argv[1] == "--serve":
        forked.serve(lambda args: evidence(args[0]))
    else:
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            result = evidence(sys.argv[1])
        print("RESULT " + json.dumps(result, sort_keys=True, default=str))
