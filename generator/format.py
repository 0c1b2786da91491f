"""Stage 6: black, in-process, with an explicit Mode; cached per statement.

black dominates generation time. Its output for a top-level statement depends
only on that statement's text, black's version and the Mode, so each file is
formatted statement by statement (a class, a function, an assignment...) and
every result is cached under the user's cache folder keyed by all three. A
proto edit then re-formats only the statements it changed. The file header
(comment lines naming the inputs and their hash) is never part of a key.

The blank lines between top-level statements are the template's, which
emits them as black wants them; tests/test_format.py checks that black leaves
every generated file unchanged, so statement-wise formatting is exactly
whole-file formatting. A cache entry is only ever a black output: a stale or
corrupt cache cannot change what is generated.
"""

from __future__ import annotations

import ast
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from generator.errors import GeneratorError, Problem
from generator.pipeline import BLACK_VERSION_REQUIRED, cache_root
from generator.render import RenderedFile

LINE_LENGTH = 100


def _cache_dir() -> Path | None:
    root = cache_root()
    return root / f"black-{BLACK_VERSION_REQUIRED}-{LINE_LENGTH}" if root else None


def mode(kind: str, indent: int = 0) -> Any:
    """The one black Mode of each kind of file (python or stub); ``indent``:
    for source dedented out of a class body, whose lines lose that width."""
    import black  # deferred: a warm cache never needs it

    if black.__version__ != BLACK_VERSION_REQUIRED:
        raise GeneratorError(
            Problem(f"black {BLACK_VERSION_REQUIRED} is required (found {black.__version__}); run pip install -e '.[dev]'")
        )
    return black.Mode(
        target_versions={black.TargetVersion.PY310},
        line_length=LINE_LENGTH - indent,
        is_pyi=kind == "stub",
        string_normalization=True,
        magic_trailing_comma=True,
    )


def format_files(files: list[RenderedFile]) -> dict[str, str]:
    """Python/stub files through black; others unchanged. Path -> final text."""
    formatter = _Formatter(_cache_dir())
    out: dict[str, str] = {}
    for file in files:
        if file.kind in ("python", "stub"):
            out[file.path] = formatter.file(file)
        else:
            out[file.path] = file.text
    return out


_SPLIT_CLASS_LINES = 100  # classes longer than this are formatted member by member
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
Piece = tuple[int, bool, str]  # (blank lines before, is a def/class, source)


def _pieces(lines: list[str], statements: list[ast.stmt], position: int, dedent: int = 0) -> list[Piece]:
    """Cut ``lines`` into one piece per statement, starting at ``position``.

    A piece runs from the end of the previous statement to the end of its own,
    so it takes along the comments just above it (trailing comments go with
    the last); its leading blank lines are counted, not kept.
    """
    pieces: list[Piece] = []
    for index, statement in enumerate(statements):
        last = index == len(statements) - 1
        end = len(lines) if last else (statement.end_lineno or statement.lineno)
        chunk = lines[position:end]
        blanks = 0
        while blanks < len(chunk) and not chunk[blanks].strip():
            blanks += 1
        body = chunk[blanks:]
        if dedent:
            body = [line[dedent:] if line.startswith(" " * dedent) else line for line in body]
        pieces.append((blanks, isinstance(statement, _DEFINITIONS), "".join(body)))
        position = end
    return pieces


def split_statements(text: str) -> tuple[str, list[Piece]]:
    """(header comments, one piece per top-level statement) of a module."""
    lines = text.splitlines(keepends=True)
    head = _header_length(lines)
    return "".join(lines[:head]), _pieces(lines, ast.parse(text).body, head)


def _header_length(lines: list[str]) -> int:
    """How many lines the leading comment block (the generated header) has."""
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    return head


def _blank_lines(kind: str, given: int, around_definition: bool) -> int:
    """black's blank lines between two top-level statements: two around a def
    or class (one in stubs), else as given, at most two (one in stubs)."""
    if kind == "stub":
        return 1 if around_definition else min(given, 1)
    return 2 if around_definition else min(given, 2)


def _start(statement: ast.stmt) -> int:
    """0-based first line of a statement, decorators included."""
    decorators = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(d.lineno for d in decorators)]) - 1


def split_class(source: str) -> tuple[str, list[Piece]] | None:
    """A long class as (head, one piece per member from the first method on,
    dedented to module level).

    The head is the class line with the statements before the first method
    (docstring, __slots__...); None when the class is short or has no head.
    """
    lines = source.splitlines(keepends=True)
    if len(lines) < _SPLIT_CLASS_LINES:
        return None
    node = ast.parse(source).body[0]
    if not isinstance(node, ast.ClassDef) or isinstance(node.body[0], _DEFINITIONS):
        return None
    first = next((i for i, member in enumerate(node.body) if isinstance(member, _DEFINITIONS)), None)
    if first is None:
        return None
    head_end = _start(node.body[first])
    position = head_end
    while position > 0 and not lines[position - 1].strip():
        position -= 1
    head = "".join(lines[:head_end]).rstrip("\n") + "\n"
    return head, _pieces(lines, node.body[first:], position, dedent=4)


class _Formatter:
    def __init__(self, cache: Path | None) -> None:
        self.cache = cache
        self.modes: dict[tuple[str, int], Any] = {}

    def file(self, file: RenderedFile) -> str:
        # Whole-file entry first (the body: the header is not part of it), so an
        # unchanged file costs one read instead of a parse and a read per statement.
        lines = file.text.splitlines(keepends=True)
        head = _header_length(lines)
        header, body = "".join(lines[:head]), "".join(lines[head:])
        whole = self._entry(f"file\0{file.kind}\0{body}")
        cached = _load(whole)
        if cached is not None:
            return header + cached
        formatted = self._by_statements(file)
        if whole is not None:
            _store(whole, formatted[len(header):])
        return formatted

    def _entry(self, key_text: str) -> Path | None:
        if self.cache is None:
            return None
        key = hashlib.sha256(key_text.encode("utf-8")).hexdigest()
        return self.cache / key[:2] / key

    def _by_statements(self, file: RenderedFile) -> str:
        try:
            header, pieces = split_statements(file.text)
        except SyntaxError as exc:
            raise GeneratorError(
                Problem(f"internal error: generated code does not parse ({exc.msg}); please report with your inputs", file.path, exc.lineno)
            ) from None
        parts = [header]
        previous_definition = False
        for index, (blanks, is_definition, statement) in enumerate(pieces):
            if index:
                parts.append("\n" * _blank_lines(file.kind, blanks, previous_definition or is_definition))
            split = split_class(statement)
            if split is None:
                parts.append(self.statement(statement, file))
            else:
                parts.append(self.class_by_members(*split, file))
            previous_definition = is_definition
        return "".join(parts)

    def class_by_members(self, head: str, members: list[Piece], file: RenderedFile) -> str:
        """A class formatted head first, then each member at module level and
        indented back; one blank line around methods, as black puts them (none
        in stubs)."""
        parts = [self.statement(head, file)]
        for blanks, is_definition, member in members:
            if file.kind == "python":
                parts.append("\n" if is_definition or blanks else "")
            formatted = self.statement(member, file, indent=4)
            parts.append("".join("    " + line if line.strip() else line for line in formatted.splitlines(keepends=True)))
        return "".join(parts)

    def statement(self, source: str, file: RenderedFile, indent: int = 0) -> str:
        cached = self._entry(f"{file.kind}\0{indent}\0{source}")
        text = _load(cached)
        if text is not None:
            return text
        mode_key = (file.kind, indent)
        if mode_key not in self.modes:
            self.modes[mode_key] = mode(file.kind, indent)
        import black

        try:
            text = black.format_str(source, mode=self.modes[mode_key])
        except Exception as exc:  # black raises InvalidInput and friends
            raise GeneratorError(
                Problem(f"internal error: black rejected generated code ({exc}); please report with your inputs", file.path)
            ) from None
        if cached is not None:
            _store(cached, text)
        return text


def _load(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _store(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time
