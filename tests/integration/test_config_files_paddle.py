"""Configs as files with real Paddle 3.3.1 and the Paddle build overlaid:
``fleet.DistributedStrategy.load`` reads a YAML launch config strictly (its
mistakes located by line), and the loaded strategy goes through
``fleet.init`` as Paddle's own would. The members are added ones: Paddle's
pristine class has none of them."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

from paddle_env import requires_paddle

pytestmark = requires_paddle

SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from paddle.distributed import fleet

    folder = Path(sys.argv[1])
    (folder / "run.yaml").write_text(
        "amp: true\\n"
        "hybrid_configs:\\n"
        "  dp_degree: 1\\n"
        "  sharding_configs:\\n"
        "    split_param: true\\n"
        "recompute: true\\n"
        "recompute_configs:\\n"
        "  checkpoints: [x]\\n"
    )
    (folder / "typo.yaml").write_text("hybrid_configs:\\n  dp_degre: 1\\namp: 1\\n")
    result = {}
    result["members"] = [hasattr(fleet.DistributedStrategy, name) for name in ("load", "save", "from_dict", "to_dict")]
    strategy = fleet.DistributedStrategy.load(folder / "run.yaml")
    result["document"] = strategy.to_dict()
    try:
        fleet.DistributedStrategy.load(folder / "typo.yaml")
    except ValueError as error:
        result["problems"] = [[p.code, p.path, p.line] for p in error.problems]
    fleet.init(is_collective=True, strategy=strategy)
    used = fleet.fleet._user_defined_strategy
    result["used"] = [used.amp, used.recompute, used.hybrid_configs["sharding_configs"].split_param]
    strategy.save(folder / "out.json")
    result["saved"] = json.loads((folder / "out.json").read_text())
    print(json.dumps(result))
    """
)


def _run(python: str, pythonpath: str, folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": pythonpath, "CUDA_VISIBLE_DEVICES": ""}
    return subprocess.run(
        [python, "-c", script, str(folder)], capture_output=True, text=True, env=env, timeout=300
    )


def test_a_yaml_launch_config_loads_strictly_and_goes_to_fleet(paddle_python, tmp_path):
    python, overlay = paddle_python
    done = _run(python, str(overlay), tmp_path, SCRIPT)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["members"] == [True, True, True, True]
    assert result["document"] == {
        "amp": True,
        "recompute": True,
        "recompute_configs": {"checkpoints": ["x"]},
        "hybrid_configs": {"dp_degree": 1, "sharding_configs": {"split_param": True}},
    }
    assert result["problems"] == [["unknown_key", "hybrid_configs.dp_degre", 2], ["wrong_type", "amp", 3]]
    assert result["used"] == [True, True, True]
    assert result["saved"] == result["document"]


def test_paddles_own_class_has_none_of_the_members(paddle_install, tmp_path):
    python, _ = paddle_install
    script = (
        "from paddle.distributed import fleet; "
        "print([hasattr(fleet.DistributedStrategy, n) for n in ('load', 'save', 'from_dict', 'to_dict')])"
    )
    done = _run(python, "", tmp_path, script)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[False, False, False, False]"
