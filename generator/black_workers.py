"""black for the format stage: in this process, or in worker processes.

Importing black costs about 0.25 s, more than everything else an edit's
regeneration does. ``BlackWorkers.start()`` forks a worker as the run begins,
so that import happens on the other core while the schema is compiled, the
model built and the templates rendered; by the time the format stage has
pieces for black, the worker is ready. A run with many pieces (a first
generation, a template change) spreads them over one worker per core.

Where fork is unavailable, or a worker fails, black runs in this process:
workers only ever save time, the output is the same.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from generator.errors import GeneratorError, Problem
from generator.pipeline import BLACK_VERSION_REQUIRED

LINE_LENGTH = 100
MANY_PIECES = 150  # from this many pieces on, one worker per core (each costs a black import)

Request = tuple[str, str, int]  # (source, kind of file, indent)
Result = tuple[str, str | None]  # (formatted source, or the source and why black refused it)


def mode(kind: str, indent: int = 0) -> Any:
    """The one black Mode of each kind of file (python or stub); ``indent``:
    for source dedented out of a class body, whose lines lose that width."""
    import black  # deferred: a warm cache never needs it

    _check_version(black.__version__)
    return black.Mode(
        target_versions={black.TargetVersion.PY310},
        line_length=LINE_LENGTH - indent,
        is_pyi=kind == "stub",
        string_normalization=True,
        magic_trailing_comma=True,
    )


def _check_version(found: str) -> None:
    if found != BLACK_VERSION_REQUIRED:
        raise GeneratorError(
            Problem(f"black {BLACK_VERSION_REQUIRED} is required (found {found}); run pip install -e '.[dev]'")
        )


_MODES: dict[tuple[str, int], Any] = {}


def format_piece(source: str, kind: str, indent: int) -> Result:
    import black

    if (kind, indent) not in _MODES:
        _MODES[kind, indent] = mode(kind, indent)
    try:
        return black.format_str(source, mode=_MODES[kind, indent]), None
    except Exception as exc:  # black raises InvalidInput and friends
        return source, str(exc)


def _serve(connection: Any) -> None:
    """A worker: import black, say which version, then format batches until told to stop."""
    try:
        import black

        connection.send(("ready", black.__version__))
    except Exception as exc:  # not installed, broken install: the parent reports it
        connection.send(("broken", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            batch = connection.recv()
        except EOFError:
            return
        if batch is None:
            return
        try:
            connection.send([format_piece(*request) for request in batch])
        except GeneratorError as exc:
            connection.send(("broken", str(exc.problems[0])))
            return


class _Worker:
    def __init__(self, context: Any) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.ready = False

    def wait_ready(self) -> None:
        """Read the worker's hello; a missing or wrong black is an error, as in-process."""
        if self.ready:
            return
        state, detail = self.connection.recv()
        if state != "ready":
            raise GeneratorError(Problem(f"cannot run black ({detail}); run pip install -e '.[dev]'"))
        _check_version(detail)
        self.ready = True

    def stop(self) -> None:
        try:
            if self.ready:
                self.connection.send(None)
            else:
                self.process.terminate()  # still importing black, which nothing needs
            self.connection.close()
        except OSError:
            pass
        self.process.join(timeout=5)


class BlackWorkers:
    """Worker processes running black, started ahead of need (see the module doc)."""

    def __init__(self) -> None:
        self.workers: list[_Worker] = []
        self._context: Any = None

    @classmethod
    def start(cls) -> BlackWorkers:
        pool = cls()
        if hasattr(os, "fork") and sys.platform.startswith("linux"):  # fork is safe here, and cheap
            import multiprocessing

            pool._context = multiprocessing.get_context("fork")
            pool._add()
        return pool

    def _add(self) -> None:
        try:
            self.workers.append(_Worker(self._context))
        except OSError:
            pass  # no worker (process limit...): black runs in this process

    def format(self, requests: list[Request]) -> list[Result]:
        """black over ``requests``, in order."""
        if not requests:
            return []
        if self._context is not None and len(requests) >= MANY_PIECES:
            while len(self.workers) < (os.cpu_count() or 1):
                self._add()
        if not self.workers:
            return [format_piece(*request) for request in requests]
        # Interleaved batches (every n-th piece) give each worker a similar share.
        count = len(self.workers)
        batches = [requests[start::count] for start in range(count)]
        results: list[Result] = [("", None)] * len(requests)
        try:
            for worker, batch in zip(self.workers, batches):
                worker.wait_ready()
                worker.connection.send(batch)
            for start, worker in enumerate(self.workers):
                answer = worker.connection.recv()
                if isinstance(answer, tuple):  # ("broken", why)
                    raise GeneratorError(Problem(f"cannot run black ({answer[1]})"))
                results[start::count] = answer
        except (EOFError, OSError):  # a worker died: do it here instead
            self.stop()
            return [format_piece(*request) for request in requests]
        return results

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def __enter__(self) -> BlackWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
