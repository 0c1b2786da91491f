"""Child process of run.py's runtime section: time DistributedStrategy calls with timeit.

    python tests/benchmarks/runtime_bench.py --generated generated --impl ours --impl paddle
    python tests/benchmarks/runtime_bench.py --generated generated --impl overlaid --overlay DIR --cases copies

Prints one JSON object on stdout: for each implementation that could be
imported, for each case, the per-call time in seconds of every repeat, plus
import errors. When several implementations are given they run in this one
process and each repeat alternates between them (A B A B ...), so both see the
same machine state. It needs only protobuf for ``ours`` and ``paddle`` for
Paddle, so it also runs in a separate virtualenv that has Paddle installed.
``overlaid`` is Paddle with the generated Paddle build in place (``--overlay``,
a tree tests/integration/overlay.py built); it cannot share a process with
pristine Paddle, so run.py runs the two in alternating processes.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pickle
import sys
import tempfile
import timeit
from typing import Any

# (key, statement, setup). Setup runs once per repeat; ``cls`` is the class under
# test, ``path`` a temp file. ``s`` is fresh for reads, configured for repr/save.
_CONFIGURED = 's = cls(); s.amp = True; s.amp_configs = {"init_loss_scaling": 1024.0}; s.recompute = True'
_EVERY_CONFIG = (
    "s = cls()\n"
    "for name, value in {'amp_configs': {'init_loss_scaling': 8.0}, 'recompute_configs': {'checkpoints': ['x']},"
    " 'gradient_merge_configs': {'k_steps': 4}, 'lars_configs': {'lars_coeff': 0.1}, 'lamb_configs': {'lamb_weight_decay': 0.1},"
    " 'localsgd_configs': {'k_steps': 2}, 'adaptive_localsgd_configs': {'init_k_steps': 2}, 'dgc_configs': {'rampup_step': 2},"
    " 'qat_configs': {'weight_bits': 4}, 'pipeline_configs': {'accumulate_steps': 2},"
    " 'tensor_parallel_configs': {'tensor_parallel_degree': 2}, 'sharding_configs': {'pp_degree': 2},"
    " 'hybrid_configs': {'dp_degree': 2, 'mp_degree': 2, 'pp_degree': 1, 'sharding_degree': 1, 'sep_degree': 1},"
    " 'fp16_allreduce': True, 'amp': False, 'asp': True, 'qat': True}.items():\n"
    "    setattr(s, name, value)"
)
# what a hybrid-parallel job sets before fleet.init copies the strategy
_TYPICAL = (
    's = cls(); s.amp = True; s.amp_configs = {"init_loss_scaling": 32768.0, "custom_white_list": ["matmul", "softmax"]}; '
    's.recompute = True; s.recompute_configs = {"checkpoints": ["fc_0.tmp_0", "fc_1.tmp_0"]}; '
    's.hybrid_configs = {"dp_degree": 2, "mp_degree": 2, "pp_degree": 2}; s.sharding = True; s.sharding_configs = {"stage": 2}'
)
_ROUND_TRIP = "pickle.loads(pickle.dumps(s))"
CASES: tuple[tuple[str, str, str], ...] = (
    ("scalar_get", "s.amp", "s = cls()"),
    ("scalar_set", "s.amp = True", "s = cls()"),
    ("config_get", "s.amp_configs", "s = cls()"),
    ("hybrid_get", "s.hybrid_configs", "s = cls()"),
    ("config_set", 's.amp_configs = {"init_loss_scaling": 1024.0}', "s = cls()"),
    ("construct", "cls()", "pass"),
    ("repr", "repr(s)", _CONFIGURED),
    ("save_prototxt", "s.save_to_prototxt(path)", _CONFIGURED),
    ("raw_get", "s.strategy.amp", "s = cls()"),
    # every rule evaluated, most of them finding something: every config with a rule set, its switch off
    ("lint_every_config", "s.lint(world_size=8)", _EVERY_CONFIG),
    # copies: fleet deep-copies the strategy on every fleet.init and distributed_optimizer
    ("deepcopy", "copy.deepcopy(s)", "s = cls()"),
    ("deepcopy_typical", "copy.deepcopy(s)", _TYPICAL),
    ("copy", "copy.copy(s)", "s = cls()"),
    ("copy_typical", "copy.copy(s)", _TYPICAL),
    ("pickle", _ROUND_TRIP, "s = cls()"),  # (Paddle's class cannot be pickled: an error on its side)
    ("pickle_typical", _ROUND_TRIP, _TYPICAL),
)
COPY_CASES = {"deepcopy", "deepcopy_typical", "copy", "copy_typical", "pickle", "pickle_typical"}


def _load(impl: str, generated: str, overlay: str | None) -> type:
    if impl == "ours":
        if generated not in sys.path:
            sys.path.insert(0, generated)
        from fleet_strategy import DistributedStrategy

        return DistributedStrategy
    if impl in ("paddle", "overlaid"):
        if impl == "overlaid":
            if not overlay:
                raise SystemExit("--impl overlaid needs --overlay")
            sys.path.insert(0, overlay)
        import paddle  # noqa: F401  (the import users do; once, before timing)
        from paddle.distributed.fleet import DistributedStrategy

        where = sys.modules[DistributedStrategy.__module__].__file__ or ""
        if (impl == "overlaid") != where.startswith(overlay or "\0"):
            raise RuntimeError(f"{impl}: DistributedStrategy came from {where}")

        # Paddle logs "distributed strategy initialized" on every construction.
        # That is part of its cost and stays; run.py sends this stderr nowhere.
        return DistributedStrategy
    raise SystemExit(f"unknown --impl {impl!r}")


def _calibrate(timer: timeit.Timer, target: float) -> int:
    """Calls per repeat so that one repeat takes about ``target`` seconds."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target / 5 or number >= 10_000_000:
            return max(1, int(number * target / max(elapsed, 1e-9)))
        number *= 10


def run(impls: dict[str, type], repeats: int, target: float, path: str, cases: set[str] | None) -> dict[str, Any]:
    results: dict[str, dict[str, Any]] = {name: {} for name in impls}
    names = {"copy": copy, "pickle": pickle, "path": path}
    for key, stmt, setup in CASES:
        if cases is not None and key not in cases:
            continue
        # lint is this package's alone: the other implementations skip its row
        measured = {name: cls for name, cls in impls.items() if not key.startswith("lint") or hasattr(cls, "lint")}
        timers = {name: timeit.Timer(stmt, setup, globals={**names, "cls": cls}) for name, cls in measured.items()}
        numbers: dict[str, int] = {}
        for name, timer in timers.items():
            try:
                numbers[name] = _calibrate(timer, target)
            except Exception as exc:  # a case one implementation cannot do (pickling Paddle's): report, go on
                results[name][key] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        samples: dict[str, list[float]] = {name: [] for name in numbers}
        for _ in range(repeats):  # A B A B ...: alternate implementations per repeat
            for name in numbers:
                samples[name].append(timers[name].timeit(numbers[name]) / numbers[name])
        for name in numbers:
            results[name][key] = {"per_call": samples[name], "number": numbers[name]}
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--impl", action="append", choices=("ours", "paddle", "overlaid"), required=True)
    parser.add_argument("--generated", required=True, help="folder holding the fleet_strategy package")
    parser.add_argument("--overlay", help="for --impl overlaid: the folder holding the overlaid paddle package")
    parser.add_argument("--cases", choices=("all", "copies"), default="all", help="copies: only the copy and pickle cases")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--target", type=float, default=0.05, help="seconds per repeat")
    args = parser.parse_args()
    impls: dict[str, type] = {}
    errors: dict[str, str] = {}
    for impl in args.impl:
        try:
            impls[impl] = _load(impl, os.path.abspath(args.generated), args.overlay)
        except Exception as exc:
            errors[impl] = f"{type(exc).__name__}: {exc}"
    versions = {}
    if "paddle" in impls or "overlaid" in impls:
        import paddle

        versions["paddle"] = paddle.__version__
    from google.protobuf import __version__ as protobuf_version

    versions["protobuf"] = protobuf_version
    versions["python"] = sys.version.split()[0]
    with tempfile.TemporaryDirectory(prefix="fsc-bench-") as tmp:
        cases = COPY_CASES if args.cases == "copies" else None
        results = run(impls, args.repeats, args.target, os.path.join(tmp, "strategy.prototxt"), cases) if impls else {}
    json.dump({"results": results, "errors": errors, "versions": versions}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
