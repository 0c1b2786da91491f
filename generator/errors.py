"""The one error type users see, the did-you-mean its messages offer for a
misspelt name, and the process exit codes."""

from __future__ import annotations

import enum
from collections.abc import Iterable

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
            file = shown_path(self.file)
            where = f"{file}:{self.line}: " if self.line else f"{file}: "
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


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The valid name ``name`` is most likely a misspelling of, if any."""
    import difflib  # only on an error path: a run with valid inputs never loads it

    match = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.6)
    return match[0] if match else None


def shell_word(text: str) -> str:
    """``text`` as one word a POSIX shell reads back as ``text``: as it is
    when it needs no quoting, else quoted; a word holding a character that
    cannot be printed (a newline, a control or bidi character, a byte that
    is not UTF-8) is spelled $'...' with escapes, so it stays on one line
    and can be pasted."""
    import shlex

    if text.isprintable():
        return shlex.quote(text)
    escaped = []
    for char in text:
        if char in "\\'\n\t\r":
            escaped.append("\\" + {"\n": "n", "\t": "t", "\r": "r"}.get(char, char))
        elif char.isprintable():
            escaped.append(char)
        elif 0xDC80 <= ord(char) <= 0xDCFF:  # a byte os.fsdecode could not decode
            escaped.append(f"\\x{ord(char) - 0xDC00:02x}")
        else:
            data = char.encode("utf-8", "surrogatepass")
            escaped.append("".join(f"\\x{byte:02x}" for byte in data))
    return "$'" + "".join(escaped) + "'"


def shown_path(path: object) -> str:
    """A path as every message prints it: as it is, unless it holds a
    character that cannot be printed (see shell_word), or is empty."""
    text = str(path)
    return text if text.isprintable() and text else shell_word(text)
