"""black for the format stage: in this process, or in worker processes.

Importing black costs about 0.25 s, more than everything else an edit's
regeneration does. ``BlackWorkers.start()`` forks a worker as the run begins,
so that import happens on the other core while the schema is compiled, the
model built and the templates rendered; the format stage then submits each
file's pieces as soon as it has cut that file, so black works while the next
files are cut. A run with many pieces (a first generation, a template change)
spreads them over one worker per core.

Where fork is unavailable, or a worker fails, black runs in this process:
workers only ever save time, the output is the same.
"""

from __future__ import annotations

import gc
import os
import sys
from collections import deque
from typing import Any, Callable

from .errors import GeneratorError, Problem
from .pipeline import BLACK_VERSION_REQUIRED

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


def _format_here(requests: list[Request]) -> list[Result]:
    """black over ``requests`` in this process: a worker's job, and the
    fallback when there is no worker (or one died)."""
    return [format_piece(*request) for request in requests]


def _serve(connection: Any, siblings: list[Any]) -> None:
    """A worker: import black, say which version, then format batches until told to stop."""
    gc.enable()  # black's trees have parent links: cycles, which only the collector frees
    for inherited in siblings:  # the parent's ends of the other workers' pipes: theirs to close
        inherited.close()
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
            connection.send(_format_here(batch))
        except GeneratorError as exc:
            connection.send(("broken", str(exc.problems[0])))
            return


class _Worker:
    """One worker and its pipe. Batches go out as they come, answers are read
    in order; at most WINDOW bytes of source are ever unanswered, so neither
    side can block on a full pipe while the other waits for it."""

    WINDOW = 64 * 1024  # Linux socketpairs buffer ~200 kB each way; answers are about as long as the sources

    def __init__(self, context: Any, siblings: list[Any]) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, siblings), daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self.unanswered: deque[tuple[list[Result], int]] = deque()  # (slot for the answer, bytes)
        self.in_flight = 0

    def send(self, batch: list[Request]) -> list[Result]:
        """Send a batch; returns the list its answer will be put in (see ``wait``)."""
        size = sum(len(source) for source, _, _ in batch)
        while self.unanswered and self.in_flight + size > self.WINDOW:
            self._receive()
        slot: list[Result] = []
        self.connection.send(batch)
        self.unanswered.append((slot, size))
        self.in_flight += size
        return slot

    def wait(self, slot: list[Result], expected: int) -> None:
        while len(slot) < expected and self.unanswered:
            self._receive()

    def _receive(self) -> None:
        if not self.ready:
            state, detail = self.connection.recv()  # the worker's hello
            if state != "ready":
                raise GeneratorError(Problem(f"cannot run black ({detail}); run pip install -e '.[dev]'"))
            _check_version(detail)
            self.ready = True
        answer = self.connection.recv()
        if isinstance(answer, tuple):  # ("broken", why)
            raise GeneratorError(Problem(f"cannot run black ({answer[1]})"))
        slot, size = self.unanswered.popleft()
        slot.extend(answer)
        self.in_flight -= size

    def stop(self) -> None:
        try:
            if self.ready:
                self.connection.send(None)
            else:
                self.process.terminate()  # maybe still importing black, which nothing needs
            self.connection.close()
        except OSError:
            pass
        self.process.join(timeout=5)


class BlackWorkers:
    """Worker processes running black, started ahead of need (see the module doc)."""

    def __init__(self) -> None:
        self.workers: list[_Worker] = []
        self._context: Any = None
        self._submitted = 0

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
            self.workers.append(_Worker(self._context, [w.connection for w in self.workers]))
        except OSError:
            pass  # no worker (process limit...): black runs in this process

    def submit(self, requests: list[Request]) -> Callable[[], list[Result]]:
        """Start black on ``requests``; returns the function that waits for the
        results (in order). Without workers, black runs when it is called."""
        if not requests:
            return list
        self._submitted += len(requests)
        if self._context is not None and self._submitted >= MANY_PIECES:
            while len(self.workers) < (os.cpu_count() or 1):
                self._add()
        workers = list(self.workers)
        if not workers:
            return lambda: _format_here(requests)
        # Interleaved shares (every n-th piece) give each worker a similar load.
        shares = [requests[start :: len(workers)] for start in range(len(workers))]
        try:
            slots = [worker.send(share) if share else [] for worker, share in zip(workers, shares)]
        except (EOFError, OSError):
            self.stop()
            return lambda: _format_here(requests)

        def results() -> list[Result]:
            merged: list[Result] = [("", None)] * len(requests)
            try:
                for start, (worker, slot, share) in enumerate(zip(workers, slots, shares)):
                    worker.wait(slot, len(share))
                    merged[start :: len(workers)] = slot
            except (EOFError, OSError):  # a worker died: do it here instead
                self.stop()
                return _format_here(requests)
            return merged

        return results

    def format(self, requests: list[Request]) -> list[Result]:
        """black over ``requests``, in order."""
        return self.submit(requests)()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def __enter__(self) -> BlackWorkers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
