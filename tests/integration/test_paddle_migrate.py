"""Paddle's real history, on real Paddle 3.3.1: a strategy script and config
files written for Paddle 2.0, whose ``sharding_configs`` keys
``fuse_broadcast_MB`` and ``sharding_group_size`` Paddle 2.1 renamed to
``segment_broadcast_MB`` and ``sharding_degree`` (declared in
proto/fleet_strategy.annotations.yaml; the evidence: docs/user-guide.md,
"Renamed settings").

* Paddle's own class fails on them: the dict assignment with an
  AssertionError, ``load_from_prototxt`` with a ParseError.
* The generated class (the Paddle build overlaid on the installed Paddle, and
  the standalone class handed to fleet) runs them, with a DeprecationWarning
  naming the new name and the version, at the script's own line, and fleet
  gets the settings under their new names.
* ``python -m <the Paddle build's package> migrate`` rewrites the files
  (``--check`` first says where), after which Paddle's OWN class loads them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from paddle_env import requires_paddle

pytestmark = requires_paddle

# A user's script as Paddle 2.0's docs had it (FleetX "使用Sharding 训练超大模型").
OLD_SCRIPT = """\
import paddle.distributed.fleet as fleet

strategy = fleet.DistributedStrategy()
strategy.sharding = True
strategy.sharding_configs = {"fuse_broadcast_MB": 16.0, "hybrid_dp": False, "sharding_group_size": 1}
fleet.init(is_collective=True, strategy=strategy)
"""
# What Paddle 2.0's save_to_prototxt wrote for it (the keys as they were then), with a comment.
OLD_PROTOTXT = """\
sharding: true
sharding_configs {
  fuse_broadcast_MB: 16.0  # tuned for our network
  hybrid_dp: false
  sharding_group_size: 1
}
"""
# The same settings kept as JSON, fed to the strategy key by key.
OLD_JSON = '{\n  "sharding": true,\n  "sharding_configs": {"fuse_broadcast_MB": 16.0, "sharding_group_size": 1}\n}\n'

# Runs OLD_SCRIPT (its class swapped for the standalone one when asked), then
# loads the prototxt and the JSON config; prints what happened as one JSON line.
DRIVER = """\
import json, os, runpy, sys, warnings
import paddle.distributed.fleet as fleet

build, script, prototxt, config = sys.argv[1:5]
if build == "standalone":
    from fleet_strategy import DistributedStrategy
    fleet.DistributedStrategy = DistributedStrategy
result = {}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        runpy.run_path(script, run_name="__main__")
        given = fleet.fleet._user_defined_strategy
        result["fleet_got"] = {k: given.sharding_configs[k] for k in ("segment_broadcast_MB", "sharding_degree")}
    except Exception as exc:
        result["script_error"] = f"{type(exc).__name__}: {exc}"
    try:
        strategy = fleet.DistributedStrategy()
        strategy.load_from_prototxt(prototxt)
        result["prototxt"] = {k: strategy.sharding_configs[k] for k in ("segment_broadcast_MB", "sharding_degree")}
    except Exception as exc:
        result["prototxt_error"] = f"{type(exc).__name__}: {exc}"
    try:
        with open(config) as handle:
            document = json.load(handle)
        strategy = fleet.DistributedStrategy()
        strategy.sharding = document["sharding"]
        strategy.sharding_configs = document["sharding_configs"]
        result["json"] = {k: strategy.sharding_configs[k] for k in ("segment_broadcast_MB", "sharding_degree")}
    except Exception as exc:
        result["json_error"] = f"{type(exc).__name__}: {exc}"
result["warnings"] = sorted(
    {(os.path.basename(w.filename), w.lineno, str(w.message)) for w in caught
     if issubclass(w.category, DeprecationWarning) and "renamed" in str(w.message)}
)
print("RESULT " + json.dumps(result))
"""
PACKAGE = "paddle.distributed.fleet.base._fleet_strategy"  # the Paddle build's package: python -m
NEW = {"segment_broadcast_MB": 16.0, "sharding_degree": 1}


def write_old_files(folder: Path) -> tuple[Path, Path, Path, Path]:
    folder.mkdir()
    paths = folder / "train.py", folder / "strategy.prototxt", folder / "strategy.json", folder / "driver.py"
    for path, text in zip(paths, (OLD_SCRIPT, OLD_PROTOTXT, OLD_JSON, DRIVER)):
        path.write_text(text)
    return paths


def drive(python: str, pythonpath: str, build: str, files: tuple[Path, Path, Path, Path]) -> dict[str, object]:
    script, prototxt, config, driver = files
    env = {**os.environ, "PYTHONPATH": pythonpath, "GLOG_v": "0"}
    done = subprocess.run(
        [python, str(driver), build, str(script), str(prototxt), str(config)], capture_output=True, text=True, env=env, timeout=600
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    result: dict[str, object] = json.loads(lines[-1][len("RESULT ") :])
    return result


def test_paddles_own_class_fails_on_the_old_names(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    python, _ = paddle_python
    result = drive(python, "", "paddle", write_old_files(tmp_path / "old"))
    assert result["script_error"] == "AssertionError: key:fuse_broadcast_MB not in sharding_configs"
    assert str(result["prototxt_error"]).startswith("ParseError: 3:3 : Message type \"paddle.fleet.ShardingConfig\" has no field named \"fuse_broadcast_MB\"")
    assert result["json_error"] == "AssertionError: key:fuse_broadcast_MB not in sharding_configs"
    assert result["warnings"] == []


@pytest.mark.parametrize("build", ["overlay", "standalone"])
def test_the_generated_class_runs_them_loudly(paddle_python: tuple[str, Path], tmp_path: Path, build: str) -> None:
    python, overlay = paddle_python
    root = Path(__file__).resolve().parents[2]
    pythonpath = str(overlay) if build == "overlay" else str(root / "generated")
    result = drive(python, pythonpath, build, write_old_files(tmp_path / "old"))
    assert result["fleet_got"] == NEW and result["prototxt"] == NEW and result["json"] == NEW, result
    warned = {(file, line, text.split(": ", 1)[-1]) for file, line, text in result["warnings"]}  # type: ignore[attr-defined]
    renamed = "'fuse_broadcast_MB' was renamed 'segment_broadcast_MB' in 2.1.0; the old name goes away in 4.0: use 'segment_broadcast_MB'"
    assert ("train.py", 5, renamed) in warned  # at the script's own line
    assert any(file == "driver.py" and text == renamed for file, _, text in warned)  # the JSON config, fed by the driver
    texts = [text for _, _, text in result["warnings"]]  # type: ignore[attr-defined]
    assert any("strategy.prototxt:3" in text for text in texts)  # the file's line
    assert any("'sharding_group_size' was renamed 'sharding_degree' in 2.1.0" in text for text in texts)


def test_migrate_rewrites_the_files_and_paddles_own_class_then_loads_them(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    python, overlay = paddle_python
    script, prototxt, config, driver = write_old_files(tmp_path / "old")
    env = {**os.environ, "PYTHONPATH": str(overlay), "GLOG_v": "0"}
    command = [python, "-m", PACKAGE, "migrate"]
    check = subprocess.run([*command, "--check", str(prototxt), str(config)], capture_output=True, text=True, env=env, timeout=600)
    assert check.returncode == 1, check.stderr[-3000:]
    assert check.stdout.splitlines() == [
        f"{prototxt}:3:3: uses the old name 'fuse_broadcast_MB' -> 'segment_broadcast_MB' (ShardingConfig.segment_broadcast_MB, renamed in 2.1.0)",
        f"{prototxt}:5:3: uses the old name 'sharding_group_size' -> 'sharding_degree' (ShardingConfig.sharding_degree, renamed in 2.1.0)",
        f"{config}:3:24: uses the old name 'fuse_broadcast_MB' -> 'segment_broadcast_MB' (sharding_configs.segment_broadcast_MB, renamed in 2.1.0)",
        f"{config}:3:51: uses the old name 'sharding_group_size' -> 'sharding_degree' (sharding_configs.sharding_degree, renamed in 2.1.0)",
    ]
    done = subprocess.run([*command, str(prototxt), str(config)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert prototxt.read_text() == OLD_PROTOTXT.replace("fuse_broadcast_MB", "segment_broadcast_MB").replace("sharding_group_size", "sharding_degree")
    assert config.read_text() == OLD_JSON.replace("fuse_broadcast_MB", "segment_broadcast_MB").replace("sharding_group_size", "sharding_degree")
    again = subprocess.run([*command, "--check", str(prototxt), str(config)], capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0 and again.stdout == ""
    # Paddle's own class, pristine: the migrated files load, and say what the old ones meant
    result = drive(python, "", "paddle", (script, prototxt, config, driver))
    assert result["prototxt"] == NEW and result["json"] == NEW and result["warnings"] == []


def test_a_removed_field_is_named_with_its_line(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    """Paddle 3.0 removed ``execution_strategy`` (2.6.2 had it, field 202) with
    no successor: migrate cannot rename it, so it says where it is, and
    rewrites nothing (not even the file's renames)."""
    python, overlay = paddle_python
    path = tmp_path / "strategy_2_6.prototxt"
    text = "sharding_configs {\n  fuse_broadcast_MB: 16.0\n}\nexecution_strategy {\n  num_threads: 4\n}\n"
    path.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(overlay), "GLOG_v": "0"}
    done = subprocess.run([python, "-m", PACKAGE, "migrate", str(path)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 2 and path.read_text() == text
    assert f"{path}:4:1: not valid for paddle.fleet.DistributedStrategy: Message type \"paddle.fleet.DistributedStrategy\" has no field named \"execution_strategy\"." in done.stderr
