"""Many cases in one Paddle interpreter, each as if in its own process.

``import paddle`` takes seconds, a fleet case a fraction of that. A case
script (fleet_cases.py, rule_cases.py) imports Paddle once and calls
``serve``: it reads one case a line (JSON: a list of arguments) on standard
input and runs each in a forked child, which starts from the state right after
the import (fleet's global state never passes from one case to the next),
works in a scratch folder of its own, and hands its result back through a
pipe. Each case's result, or its failure with the child's output, is written
as one ``RESULT`` line. ``Server`` (used by the tests, any Python) drives it.

Runs on every interpreter that has Paddle (3.9 included).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any, Callable

TAIL = 3000  # characters of a failed case's output reported back


def forked(call: Callable[[], Any]) -> dict[str, Any]:
    """``call()`` in a forked child, in a scratch folder, its output captured:
    ``{"ok": result}`` or ``{"error": traceback and output}``."""
    reading, writing = os.pipe()
    log = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(reading)
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            with tempfile.TemporaryDirectory() as scratch:
                os.chdir(scratch)
                answer = {"ok": call()}
        except BaseException:  # noqa: B036 - reported, as a separate process's traceback would be
            answer = {"error": traceback.format_exc()}
        sys.stdout.flush()
        sys.stderr.flush()
        with os.fdopen(writing, "wb") as pipe:
            pipe.write(json.dumps(answer, sort_keys=True, default=str).encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    log.seek(0)
    output = log.read().decode(errors="replace")[-TAIL:]
    log.close()
    if not data:
        return {"error": f"the case's process ended with status {status} and no result:\n{output}"}
    answer = json.loads(data)
    if "error" in answer:
        answer["error"] += f"\noutput:\n{output}"
    return answer


def serve(run_case: Callable[[list[str]], Any]) -> None:
    """Answer case lines on standard input until it closes (see the module's doc)."""
    out = sys.stdout
    sys.stdout = sys.stderr  # the protocol owns standard output
    for line in sys.stdin:
        args = json.loads(line)
        answer = forked(lambda: run_case(args))
        out.write("RESULT " + json.dumps(answer, sort_keys=True) + "\n")
        out.flush()


class Server:
    """A case script started with ``--serve ARGS...`` in ``python``; ``ask``
    runs one case in it. Its standard error goes to a file (read on failure)."""

    def __init__(self, python: str, script: Path, args: list[str], env: dict[str, str], timeout: float = 600) -> None:
        self.timeout = timeout
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [python, str(script), "--serve", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.errors, env=env,
        )
        self.pending = b""  # read past the last answer: lines are split here, not by a buffered reader

    def ask(self, *args: str) -> dict[str, Any]:
        """``{"ok": result}`` or ``{"error": what went wrong}``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(list(args)).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            return {"error": f"the case server has stopped:\n{self._stderr()}"}
        out = self.process.stdout.fileno()
        while True:
            while b"\n" not in self.pending:
                ready, _, _ = select.select([out], [], [], self.timeout)
                if not ready:
                    return {"error": f"no answer in {self.timeout} s:\n{self._stderr()}"}
                chunk = os.read(out, 1 << 16)
                if not chunk:
                    return {"error": f"the case server has stopped:\n{self._stderr()}"}
                self.pending += chunk
            line, _, self.pending = self.pending.partition(b"\n")
            if line.startswith(b"RESULT "):  # anything else: Paddle's own output
                answer: dict[str, Any] = json.loads(line[len(b"RESULT "):])
                return answer

    def _stderr(self) -> str:
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace")[-TAIL:]

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.errors.close()


def unwrap(answer: dict[str, Any], what: str) -> Any:
    """The result of a case, or an assertion error with its failure."""
    assert "ok" in answer, f"{what} failed:\n{answer['error']}"
    return answer["ok"]

