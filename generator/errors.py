"""The one error type users see, the did-you-mean its messages offer for a
misspelt name, and the process exit codes."""

from __future__ import annotations

import enum

import msgspec


class Exit(enum.IntEnum):
    OK = 0
    DRIFT = 1
    ERROR = 2  # bad input or environment: the user can fix it
    INTERNAL = 3  # a bug in the generator
    INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


class Problem(msgspec.Struct, frozen=True):
    """One finding about the inputs, with where it is."""

    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        text = f"{where}{self.message}"
        return f"{text} ({self.hint})" if self.hint else text


class GeneratorError(Exception):
    """Bad input: carries every problem found, so users fix them in one go."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem(problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def closest(
    name: str, choices: list[str] | tuple[str, ...] | set[str] | frozenset[str]
) -> str | None:
    """The valid name ``name`` is most likely a misspelling of, if any."""
    import difflib  # only on an error path: a run with valid inputs never loads it

    match = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.6)
    return match[0] if match else None
