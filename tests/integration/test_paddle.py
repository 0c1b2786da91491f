"""The generated strategy inside real Paddle 3.3.1, side by side with Paddle's class.

Each case of ``fleet_cases.py`` runs in its own process (fleet keeps global
state) three times per Paddle interpreter: with Paddle's pristine class, with
the standalone ``fleet_strategy.DistributedStrategy`` handed to fleet, and
with the Paddle build (``generated/paddle``) overlaid on the installed Paddle.
Outputs must be equal except where the README documents a difference.

Interpreters: ``.venv-paddle-3.9`` and ``.venv-paddle-3.13`` (made by
``tests/integration/setup_paddle.sh``, which .ci/run runs), or the
``FLEET_PADDLE_PYTHONS`` list (os.pathsep-separated). Skipped only when none
has ``paddlepaddle==3.3.1``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from paddle_env import requires_paddle, run
from tests.support import annotated_env_fields

STATIC_CASES = ["static_default", "static_amp", "static_recompute", "static_gradient_merge", "static_lars", "static_localsgd", "static_auto"]
CASES = ["surface", *STATIC_CASES, "dygraph", "build_strategy", "enable_env", "messages", "copies"]
pytestmark = requires_paddle


def test_the_overlay_is_what_paddle_imports(paddle_python: tuple[str, Path]) -> None:
    """fleet's class is the Paddle build's, and its runtime gives the
    annotations' env: entries as its environment-backed fields (what its
    _is_strict_auto leaves out)."""
    python, overlay = paddle_python
    code = (
        "import json, paddle.distributed.fleet as fleet, paddle.distributed.fleet.base.distributed_strategy as m; "
        "from paddle.distributed.fleet.base._fleet_strategy import runtime; "
        "print(m.__file__); print(hasattr(fleet.DistributedStrategy, 'to_paddle')); "
        "print(json.dumps([e[:3] for e in runtime.env_fields(fleet.DistributedStrategy)]))"
    )
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(overlay)})
    assert done.returncode == 0, done.stderr[-2000:]
    file, generated, env = done.stdout.split("\n")[-4:-1]
    assert file.startswith(str(overlay)) and generated == "True"
    fields = [tuple(entry) for entry in json.loads(env)]
    assert set(fields) == annotated_env_fields() and len(fields) == len(set(fields))


@pytest.mark.parametrize("case", [c for c in CASES if c not in ("messages", "copies")])
@pytest.mark.parametrize("build", ["overlay", "standalone"])
def test_fleet_gives_paddles_results(paddle_python: tuple[str, Path], case: str, build: str) -> None:
    python, overlay = paddle_python
    assert run(python, overlay, case, build) == run(python, overlay, case, "paddle")


def test_static_cases_really_train(paddle_python: tuple[str, Path]) -> None:
    """The comparisons above are not of two failures: each static case builds
    and runs three steps, and the meta-optimizers the strategy asks for apply."""
    python, overlay = paddle_python
    applied = {}
    for case in STATIC_CASES:
        result = run(python, overlay, case, "paddle")
        losses = result["losses"]
        assert isinstance(losses, list) and len(losses) == 3 and all(isinstance(x, float) for x in losses), (case, losses)
        applied[case] = result["applied"]
    assert "AMPOptimizer" in applied["static_amp"] and "LarsOptimizer" in applied["static_lars"]
    assert "GradientMergeOptimizer" in applied["static_gradient_merge"] and "RecomputeOptimizer" in applied["static_recompute"]


@pytest.mark.parametrize("build", ["overlay", "standalone"])
def test_paddle_message_calls(paddle_python: tuple[str, Path], build: str) -> None:
    """isinstance-bound calls: the overlay is Paddle's classes; the standalone
    class is not (documented) and converts losslessly both ways."""
    python, overlay = paddle_python
    ours, theirs = run(python, overlay, "messages", build), run(python, overlay, "messages", "paddle")
    assert theirs["isinstance_unconverted"] is True
    assert ours["isinstance_unconverted"] is (build == "overlay")
    if build == "standalone":  # not silently: reading the NCCL settings with Paddle loaded says so
        assert ours["logged"] == [
            "hybrid_configs: the NCCL settings of dp_configs are not Paddle's message classes, which Paddle's "
            "message2nccl_config ignores; hand fleet strategy.to_paddle() to keep them"
        ]
    differing = ("isinstance_unconverted", "logged")
    assert {k: v for k, v in ours.items() if k not in differing} == {k: v for k, v in theirs.items() if k not in differing}


@pytest.mark.parametrize("build", ["overlay", "standalone"])
def test_copies_are_independent_and_pickle(paddle_python: tuple[str, Path], build: str) -> None:
    """deepcopy as Paddle's; copy.copy owns its message and pickle works
    (Paddle's shallow copy shares the message; its pickle fails)."""
    python, overlay = paddle_python
    ours, theirs = run(python, overlay, "copies", build), run(python, overlay, "copies", "paddle")
    assert ours["deepcopy"] == theirs["deepcopy"]
    assert theirs["pickle"] == "PicklingError" and theirs["copy"][1] is False  # type: ignore[index]
    assert ours["copy"] == ours["pickle"] == theirs["deepcopy"]


def test_the_paddle_builds_examples_run_in_paddle(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    """Every module of the Paddle build imports in Paddle, and every example
    in its docs, written for Paddle's import path, runs as a doctest where it
    stands (no names given to the examples)."""
    python, overlay = paddle_python
    code = (
        "import importlib, pkgutil, paddle.distributed.fleet.base._fleet_strategy as support\n"
        "for found in pkgutil.walk_packages(support.__path__, support.__name__ + '.'):\n"
        "    importlib.import_module(found.name)\n"
        "import doctest, paddle.distributed.fleet.base.distributed_strategy as m\n"
        "import paddle.distributed.fleet.base._fleet_strategy.hooks as h\n"
        "classes, hooks = doctest.testmod(m), doctest.testmod(h)\n"
        "print('RESULT', classes.failed + hooks.failed, classes.attempted, hooks.attempted)\n"
    )
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(overlay)})
    line = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")]
    assert done.returncode == 0 and line, done.stdout[-3000:] + done.stderr[-3000:]
    failed, in_classes, in_hooks = map(int, line[0].split()[1:])
    assert failed == 0 and in_classes > 200 and in_hooks > 10, done.stdout[-3000:]
