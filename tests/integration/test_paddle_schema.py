"""The Paddle build's JSON Schemas, inside real Paddle 3.3.1 (the overlay):
``python -m paddle.distributed.fleet.base._fleet_strategy schema`` prints
the strategy's schema, and what Paddle's own class holds after a recipe's
settings, written by ``to_dict``, is a document the schema accepts."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema

SUPPORT = "paddle.distributed.fleet.base._fleet_strategy"


def test_the_schema_command_and_a_strategy_document(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    python, overlay = paddle_python
    env = {**os.environ, "PYTHONPATH": str(overlay)}
    done = subprocess.run(
        [python, "-m", SUPPORT, "schema", "DistributedStrategy"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    schema = json.loads(done.stdout)
    assert schema["title"] == "DistributedStrategy" and len(schema["$defs"]) == 43
    code = (
        "import json, paddle.distributed.fleet as fleet\n"
        "s = fleet.DistributedStrategy()\n"
        "s.hybrid_configs = {'dp_degree': 2, 'mp_degree': 2, 'sharding_degree': 2}\n"
        "s.amp = True\n"
        "s.amp_configs = {'init_loss_scaling': 1024.0, 'custom_white_list': ['matmul']}\n"
        "s.recompute = True\n"
        "print('RESULT', json.dumps(s.to_dict()))\n"
    )
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-3000:]
    document = json.loads(lines[0][len("RESULT ") :])
    assert document["hybrid_configs"]["mp_degree"] == 2
    jsonschema.Draft202012Validator(schema).validate(document)
    unknown = subprocess.run(
        [python, "-m", SUPPORT, "schema", "DistributedStrateg"], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert unknown.returncode == 2 and "did you mean 'DistributedStrategy'?" in unknown.stderr
