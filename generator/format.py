"""Stage 6: black, in-process or in workers, with an explicit Mode; every output remembered.

black dominates generation time. Its output for a top-level statement depends
only on that statement's text, black's version and the Mode, so each file is
formatted statement by statement (a class, a function, an assignment...; a
long class member by member), and each result is looked for, before black is
ever called, in two places keyed by that text:

* the cache folder (``~/.cache/fleet-strategy-codegen``): one pack per
  generated file, {key: black's output};
* the previous output: the manifest of the last ``generate`` records, per
  file, each piece's rendered key, the digest of its formatted text and where
  that text sits in the file (lines skipped since the previous piece, lines,
  indent), and the files on disk hold those texts. A fresh clone therefore
  regenerates without formatting what the committed tree already holds.
  ``generate`` and ``check`` read it; with ``--full`` neither does, and
  ``check --full`` takes no answer from the tree it checks.

Only what is left goes to black (generator.black_workers). The file header
(comment lines naming the generator and the inputs) is never part of a key,
and a record locates pieces from the end of the header, so a header that
changes alone leaves every record valid.

The blank lines between top-level statements are the template's, which
emits them as black wants them; tests/test_format.py checks that black leaves
every generated file unchanged, so statement-wise formatting is exactly
whole-file formatting. A reused text is always black's output for that very
input: cache entries are only written from black's results, and a piece of
the previous output is only taken when its digest is the one recorded for it
in a manifest that also vouches for the whole file.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .black_workers import LINE_LENGTH, BlackWorkers, Result
from .errors import GeneratorError, Problem
from .pipeline import BLACK_VERSION_REQUIRED, cache_root
from .render import RenderedFile

KEY_LENGTH = 32  # hex digits of a sha256 kept in the manifest (128 bits)
# a black upgrade misses every key, and so does a record of an older layout: offsets counted
# from the top of the file, not from the end of its header; stub members joined without the
# blank line the template puts after a def with a body (a whole file's key is its rendered
# text, so a change in joining would otherwise find the old result)
_SALT = f"black {BLACK_VERSION_REQUIRED} line-length {LINE_LENGTH} records from the header's end, stub blanks\0"


def _cache_dir() -> Path | None:  # "2": records count from the end of the header
    root = cache_root()
    return root / f"format-2-black-{BLACK_VERSION_REQUIRED}-{LINE_LENGTH}" if root else None


def digest(text: str) -> str:
    """The manifest's name for a text: a truncated sha256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_LENGTH]


def _key(key_text: str) -> str:
    return hashlib.sha256((_SALT + key_text).encode("utf-8")).hexdigest()[:KEY_LENGTH]


def _lines(text: str) -> list[str]:
    """Lines, each with its newline, split at newlines only: the line numbers
    the parser counts (str.splitlines also splits at form feeds, U+2028...)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _dedented(lines: list[str], width: int) -> list[str]:
    """Class-body lines moved out to module level (blank lines may be shorter)."""
    if not width:
        return lines
    return [line[width:] if line.startswith(" " * width) else line for line in lines]


# -- the manifest's record of a formatted file ("black": {path: record})
#    {"file": "<key> <digest>", "pieces": ["<key> <digest> <skip> <count> <indent>", ...]}
#    pieces in file order; skip: lines since the end of the previous piece (or
#    the start of the file); count: the piece's lines; indent: 4 for a member
#    of a class formatted at module level.


def _piece_places(text: str, record: dict[str, Any]) -> dict[str, str]:
    """{rendered key: formatted text} of the pieces ``record`` locates in
    ``text``, each checked against its recorded digest."""
    entries = record.get("pieces")
    if not isinstance(entries, list):
        return {}
    lines = _lines(_split_header(text)[1])  # positions count from the end of the header
    found: dict[str, str] = {}
    position = 0
    for entry in entries:
        try:
            key, wanted, skip, count, indent = str(entry).split(" ")
            start, end, dedent = position + int(skip), position + int(skip) + int(count), int(indent)
        except ValueError:
            return found
        piece = "".join(_dedented(lines[start:end], dedent))
        if digest(piece) == wanted:
            found[key] = piece
        position = end
    return found


@dataclass
class PreviousOutput:
    """The last ``generate``'s output folder and what its manifest recorded:
    each file's sha256, and each formatted file's record (see above)."""

    out: Path
    file_digests: dict[str, str]
    records: dict[str, dict[str, Any]]
    _texts: dict[str, str | None] = field(default_factory=dict)

    def text(self, path: str) -> str | None:
        """The file on disk, when it is the one the manifest describes (not
        edited, not missing); read and checked once."""
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> str | None:
        try:
            data = (self.out / path).read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != self.file_digests.get(path):
            return None
        try:
            return data.decode("utf-8")
        except ValueError:
            return None


@dataclass
class Formatted:
    texts: dict[str, str]  # path -> final text
    records: dict[str, dict[str, Any]] = field(default_factory=dict)  # for the manifest


def format_files(
    files: list[RenderedFile], previous: PreviousOutput | None = None, black: BlackWorkers | None = None
) -> Formatted:
    """Python/stub files through black; others unchanged. ``black``: workers
    started earlier (see generator.black_workers); else black runs here."""
    formatter = _Formatter(_cache_dir(), previous, black or BlackWorkers())
    # Descriptor modules first: any schema edit changes their big literal, which
    # black can then format while the other files are cut into pieces.
    order = sorted((f for f in files if f.kind in ("python", "stub")), key=lambda f: not f.path.endswith("_pb2.py"))
    layouts = {}
    for file in order:
        layouts[file.path] = formatter.layout(file)
        formatter.submit()
    formatter.collect()
    texts = {file.path: formatter.assemble(file.path, layouts[file.path]) if file.path in layouts else file.text for file in files}
    return Formatted(texts, formatter.records)


_SPLIT_CLASS_LINES = 100  # classes longer than this are formatted member by member
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
Piece = tuple[int, bool, str]  # (blank lines before, is a def/class, source)


def _pieces(
    lines: list[str], statements: list[ast.stmt], position: int, dedent: int = 0, offset: int = 0
) -> list[tuple[Piece, int]]:
    """Cut ``lines`` into one piece per statement, starting at ``position``;
    each with the index of its first line. ``offset``: lines before ``lines[0]``
    in the module the statements' line numbers count from.

    A piece runs from the end of the previous statement to the end of its own,
    so it takes along the comments just above it (trailing comments go with
    the last); its leading blank lines are counted, not kept.
    """
    pieces: list[tuple[Piece, int]] = []
    for index, statement in enumerate(statements):
        last = index == len(statements) - 1
        end = len(lines) if last else (statement.end_lineno or statement.lineno) - offset
        chunk = lines[position:end]
        blanks = 0
        while blanks < len(chunk) and not chunk[blanks].strip():
            blanks += 1
        body = _dedented(chunk[blanks:], dedent)
        pieces.append(((blanks, isinstance(statement, _DEFINITIONS), "".join(body)), position + blanks))
        position = end
    return pieces


def _module(text: str) -> tuple[str, list[tuple[Piece, ast.stmt, int]]]:
    """(header comments, (piece, its statement, its first line) per top-level statement)."""
    lines = _lines(text)
    head = _header_length(lines)
    statements = ast.parse(text).body
    cut = _pieces(lines, statements, head)
    return "".join(lines[:head]), [(piece, node, start) for (piece, start), node in zip(cut, statements)]


def split_statements(text: str) -> tuple[str, list[Piece]]:
    """(header comments, one piece per top-level statement) of a module."""
    header, statements = _module(text)
    return header, [piece for piece, _, _ in statements]


def _header_length(lines: list[str]) -> int:
    """How many lines the leading comment block (the generated header) has."""
    head = 0
    while head < len(lines) and lines[head].startswith("#"):
        head += 1
    return head


def _split_header(text: str) -> tuple[str, str]:
    lines = _lines(text)
    head = _header_length(lines)
    return "".join(lines[:head]), "".join(lines[head:])


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


def split_class(
    source: str, min_lines: int = _SPLIT_CLASS_LINES, node: ast.stmt | None = None, offset: int = 0
) -> tuple[str, list[Piece]] | None:
    """A long class as (head, one piece per member from the first method on,
    dedented to module level).

    The head is the class line with the statements before the first method
    (docstring, __slots__...); None when the class is shorter than
    ``min_lines`` or has no head. ``node``: the class's statement when the
    module was parsed already, its lines counted from ``offset`` lines before
    ``source``.
    """
    lines = _lines(source)
    if len(lines) < min_lines:
        return None
    if node is None:
        node, offset = ast.parse(source).body[0], 0
    if not isinstance(node, ast.ClassDef) or isinstance(node.body[0], _DEFINITIONS):
        return None
    first = next((i for i, member in enumerate(node.body) if isinstance(member, _DEFINITIONS)), None)
    if first is None:
        return None
    head_end = _start(node.body[first]) - offset
    position = head_end
    while position > 0 and not lines[position - 1].strip():
        position -= 1
    head = "".join(lines[:head_end]).rstrip("\n") + "\n"
    return head, [piece for piece, _ in _pieces(lines, node.body[first:], position, dedent=4, offset=offset)]


# A file's layout: literal text and the pieces black formats, in order.
# (piece index, indented into a class body)
Part = str | tuple[int, bool]


@dataclass
class _Job:
    source: str
    kind: str
    indent: int
    path: str  # of the first file that needs it (for error messages)
    key: str
    text: str | None = None
    from_black: bool = False


class _Formatter:
    def __init__(self, cache: Path | None, previous: PreviousOutput | None, black: BlackWorkers) -> None:
        self.cache = cache
        self.previous = previous
        self.black = black
        self._submitted = 0  # jobs looked at by submit()
        self._waiting: list[tuple[list[_Job], Callable[[], list[Result]]]] = []
        self.jobs: list[_Job] = []
        self.job_index: dict[str, int] = {}
        self.file_keys: dict[str, str] = {}  # path -> whole-file key
        self.records: dict[str, dict[str, Any]] = {}
        self._packs: dict[str, dict[str, Any]] = {}
        self._previous_pieces: dict[str, dict[str, str]] = {}

    # -- lookups, black never involved

    def _pack_path(self, path: str) -> Path | None:
        """Named after the file's path inside its package, so packages of other
        names (tests, other projects) share the pieces they have in common."""
        return self.cache / f"{digest(path.split('/', 1)[-1])}.json" if self.cache is not None else None

    def _pack(self, path: str) -> dict[str, Any]:
        """{"file": [whole-file key, body, record] (the latest), "pieces": {key: text}}."""
        if path not in self._packs:
            text = _load(self._pack_path(path))
            try:
                pack = json.loads(text) if text else {}
            except ValueError:
                pack = {}
            pack = pack if isinstance(pack, dict) else {}
            if not isinstance(pack.get("pieces"), dict):
                pack["pieces"] = {}
            file_entry = pack.get("file")
            if not (isinstance(file_entry, list) and len(file_entry) == 3 and isinstance(file_entry[2], dict)):
                pack["file"] = [None, None, {}]
            self._packs[path] = pack
        return self._packs[path]

    def _previous_record(self, path: str) -> dict[str, Any]:
        record = self.previous.records.get(path) if self.previous is not None else None
        return record if isinstance(record, dict) else {}

    def _recorded(self, path: str, key: str) -> str | None:
        """The previous output's black result for ``key``, when it still holds it."""
        if path not in self._previous_pieces:
            record = self._previous_record(path)
            text = self.previous.text(path) if record and self.previous is not None else None
            self._previous_pieces[path] = _piece_places(text, record) if text is not None else {}
        return self._previous_pieces[path].get(key)

    def layout(self, file: RenderedFile) -> list[Part]:
        header, body = _split_header(file.text)
        # Whole file first, so an unchanged file costs no parse and no lookup per statement.
        file_key = _key(f"file\0{file.kind}\0{body}")
        self.file_keys[file.path] = file_key
        whole = self._whole_file(file.path, file_key)
        if whole is not None:
            return [header, whole]
        try:
            header, statements = _module(file.text)
        except SyntaxError as exc:
            raise GeneratorError(
                Problem(f"internal error: generated code does not parse ({exc.msg}); please report with your inputs", file.path, exc.lineno)
            ) from None
        parts: list[Part] = [header]
        previous_definition = False
        for index, ((blanks, is_definition, statement), node, start) in enumerate(statements):
            if index:
                parts.append("\n" * _blank_lines(file.kind, blanks, previous_definition or is_definition))
            split = split_class(statement, node=node, offset=start)
            if split is None:
                parts.append(self._piece(statement, file))
                previous_definition = is_definition
                continue
            # A long class: head first, then each member at module level and indented
            # back; one blank line around methods, as black puts them (in stubs, only
            # where the template put one: after a def with a body that a def follows).
            head, members = split
            parts.append(self._piece(head, file))
            for member_blanks, member_is_definition, member in members:
                if member_blanks if file.kind == "stub" else (member_is_definition or member_blanks):
                    parts.append("\n")
                parts.append(self._piece(member, file, indent=4))
            previous_definition = is_definition
        return parts

    def _whole_file(self, path: str, file_key: str) -> str | None:
        """The formatted body, with its record, from the previous output or the cache folder."""
        record = self._previous_record(path)
        if self.previous is not None and str(record.get("file", "")).startswith(f"{file_key} "):
            text = self.previous.text(path)
            body = _split_header(text)[1] if text is not None else None
            if body is not None and record["file"] == f"{file_key} {digest(body)}":
                self.records[path] = record
                return body
        cached_key, body, record = self._pack(path)["file"]
        if cached_key == file_key and isinstance(body, str) and record.get("file") == f"{file_key} {digest(body)}":
            self.records[path] = record  # the halves belong together
            return body
        return None

    def _piece(self, source: str, file: RenderedFile, indent: int = 0) -> tuple[int, bool]:
        key = _key(f"{file.kind}\0{indent}\0{source}")
        if key not in self.job_index:
            self.job_index[key] = len(self.jobs)
            job = _Job(source, file.kind, indent, file.path, key)
            job.text = self._recorded(file.path, key)
            if job.text is None:
                cached = self._pack(file.path)["pieces"].get(key)
                job.text = cached if isinstance(cached, str) else None
            self.jobs.append(job)
        return self.job_index[key], indent > 0

    # -- black, for what is left

    def submit(self) -> None:
        """Hand black the pieces found nowhere so far."""
        todo = [job for job in self.jobs[self._submitted :] if job.text is None]
        self._submitted = len(self.jobs)
        if todo:
            self._waiting.append((todo, self.black.submit([(job.source, job.kind, job.indent) for job in todo])))

    def collect(self) -> None:
        for todo, results in self._waiting:
            for job, (text, error) in zip(todo, results()):
                if error is not None:
                    raise GeneratorError(
                        Problem(f"internal error: black rejected generated code ({error}); please report with your inputs", job.path)
                    )
                job.text = text
                job.from_black = True
        self._waiting = []

    # -- the final text, its record, and the pack

    def assemble(self, path: str, parts: list[Part]) -> str:
        out: list[str] = []
        pieces: list[str] = []
        entries: dict[str, str] = {}
        new = False  # anything black formatted in this run
        skip = 0
        for number, part in enumerate(parts):
            if isinstance(part, str):
                out.append(part)
                if number:  # parts[0] is the header: a record locates pieces in the body
                    skip += part.count("\n")
                continue
            index, indented = part
            job = self.jobs[index]
            text = job.text
            assert text is not None  # collect() filled every piece
            count = text.count("\n")
            pieces.append(f"{job.key} {digest(text)} {skip} {count} {job.indent}")
            entries[job.key] = text
            new = new or job.from_black
            if indented:
                text = "".join("    " + line if line.strip() else line for line in _lines(text))
            out.append(text)
            skip = 0
        final = "".join(out)
        if path not in self.records:  # formatted piece by piece in this run
            file_key = self.file_keys[path]
            body = _split_header(final)[1]
            self.records[path] = {"file": f"{file_key} {digest(body)}", "pieces": pieces}
            if new or self._pack(path)["file"][0] != file_key:
                self._save_pack(path, [file_key, body, self.records[path]], entries)
        return final

    def _save_pack(self, path: str, file_entry: list[Any], entries: dict[str, str]) -> None:
        """The file as formatted now, its pieces, and as many of the pack's
        other pieces (the most recent), so a revert or another output folder
        (or package) still finds them."""
        old = self._pack(path)["pieces"]
        kept = [(key, text) for key, text in reversed(old.items()) if key not in entries][: len(entries)]
        pack = {"file": file_entry, "pieces": {**dict(reversed(kept)), **entries}}
        _store(self._pack_path(path), json.dumps(pack))
        self._packs[path] = pack


def _load(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _store(path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time
