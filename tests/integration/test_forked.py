"""forked.py, which the Paddle tests share one interpreter through: each case
starts from the state after the script's imports, and a case that fails or
dies fails alone (no Paddle needed: a small case script in this Python)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from forked import Server, unwrap

HERE = Path(__file__).parent
SCRIPT = """
import os, sys
sys.path.insert(0, {here!r})
import forked

state = []  # a case's changes must not reach the next case

def case(args):
    name = args[0]
    state.append(name)
    print("noise on stdout")  # the protocol is not disturbed by a case's output
    if name == "fail":
        raise ValueError("this case fails")
    if name == "die":
        os._exit(7)
    return {{"state": state, "cwd_empty": os.listdir(".") == [], "args": args}}

forked.serve(case)
"""


def _server(tmp_path: Path) -> Server:
    script = tmp_path / "cases.py"
    script.write_text(SCRIPT.format(here=str(HERE)))
    return Server(sys.executable, script, [], dict(os.environ), timeout=120)


def test_each_case_starts_from_the_same_state_and_a_failure_fails_alone(tmp_path: Path) -> None:
    server = _server(tmp_path)
    try:
        assert server.ask("one", "x") == {"ok": {"state": ["one"], "cwd_empty": True, "args": ["one", "x"]}}
        failed = server.ask("fail")
        assert set(failed) == {"error"} and "ValueError: this case fails" in failed["error"]
        assert "noise on stdout" in failed["error"]  # the case's output comes with its failure
        died = server.ask("die")
        assert set(died) == {"error"} and "no result" in died["error"]
        assert server.ask("two") == {"ok": {"state": ["two"], "cwd_empty": True, "args": ["two"]}}
    finally:
        server.close()
    assert server.process.returncode == 0


def test_unwrap_names_the_failed_case() -> None:
    assert unwrap({"ok": [1]}, "case") == [1]
    try:
        unwrap({"error": "Traceback: boom"}, "static_amp with overlay")
    except AssertionError as exc:
        assert "static_amp with overlay failed" in str(exc) and "boom" in str(exc)
    else:
        raise AssertionError("unwrap accepted a failure")


def test_a_stopped_server_is_a_failure_not_a_hang(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text("import sys; sys.stderr.write('cannot import paddle'); sys.exit(1)\n")
    server = Server(sys.executable, script, [], dict(os.environ), timeout=120)
    try:
        answer = server.ask("surface")
    finally:
        server.close()
    assert set(answer) == {"error"} and "stopped" in answer["error"] and "cannot import paddle" in answer["error"]
