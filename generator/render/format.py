"""Stage 6: rendered Python as black (24 to 26, explicit Mode) would format it,
usually without running black.

The templates emit code black leaves unchanged (tests/stages/test_format.py holds
every generated file, golden case and fuzzed schema to that). What the
templates cannot know is how long a line gets once user names and literals
are in it, so each file is cut, line by line (no parse), into top-level
statements, and:

* the blank lines between them are set as black sets them;
* a line longer than the line length is wrapped here when it has one of the
  simple shapes whose black split is known (a ``def``; an assignment, return
  or expression that ends in one call or bracket literal; see ``wrap_line``);
* anything else black might change - a long line of another shape, trailing
  whitespace, a tab - makes its statement (its member, in a long class) a
  piece "at risk", and only those go to black. black is imported then and
  only then.

Nothing is kept in the user cache: formatting every file again costs an edit
no more than reading and checking kept results did (docs/benchmarks.md).
"""

from __future__ import annotations

import bisect
import itertools
import re
import sys
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec

from ..errors import GeneratorError, Problem

if TYPE_CHECKING:
    import black
from ..settings import BLACK_MAJORS, LINE_LENGTH, black_version

_SPLIT_CLASS_LINES = 100  # a longer class at risk goes to black member by member


class Formatted(msgspec.Struct):
    texts: dict[str, str]  # path -> final text
    black_pieces: int = 0  # pieces black formatted in this run


class RenderedText(Protocol):
    """A rendered file (render.RenderedFile, which imports this module's callers)."""

    @property
    def path(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...


def format_files(files: Sequence[RenderedText]) -> Formatted:
    """Python and stub files as black formats them; other files unchanged."""
    formatter = _Formatter()
    texts: dict[str, str] = {}
    for f in files:
        python = f.kind in ("python", "stub")
        texts[f.path] = formatter.file(f.path, f.text, f.kind) if python else f.text
    return Formatted(texts, formatter.black_calls)


# -- black, only for pieces at risk


def mode(kind: str, indent: int = 0) -> black.Mode:
    """The one black Mode of each kind of file (python or stub); ``indent``:
    for source dedented out of a class body, whose lines lose that width."""
    import black  # deferred: most runs never need it
    from black.mode import TargetVersion

    first, end = BLACK_MAJORS
    found = black_version()
    if not first <= int(found.split(".")[0] or 0) < end:
        raise GeneratorError(
            Problem(
                f"black {first} to {end - 1} is required (found {found or 'none'}); "
                f"run pip install 'black>={first},<{end}'"
            )
        )
    return black.Mode(
        target_versions={TargetVersion.PY310},
        line_length=LINE_LENGTH - indent,
        is_pyi=kind == "stub",
        string_normalization=True,
        magic_trailing_comma=True,
    )


def run_black(source: str, kind: str, indent: int = 0) -> str:
    try:
        import black
    except ImportError as exc:
        raise GeneratorError(
            Problem(f"cannot run black ({exc}); run pip install -e '.[dev]'")
        ) from None
    try:
        return black.format_str(source, mode=mode(kind, indent))
    except GeneratorError:
        raise
    except Exception as exc:  # black's InvalidInput and friends: our bug
        raise GeneratorError(
            Problem(
                f"internal error: black rejected generated code ({exc}); please report with your inputs"
            )
        ) from None


# -- reading lines without parsing


_TRIPLE = ('"""', "'''")
_TOKEN = re.compile(r"#|[rRbBuUfF]{0,2}(\"\"\"|'''|\"|')")
_END = {
    '"""': re.compile(r'(?:\\.|[^\\"]|"(?!""))*"""', re.S),
    "'''": re.compile(r"(?:\\.|[^\\']|'(?!''))*'''", re.S),
    '"': re.compile(r'(?:\\.|[^\\"\n])*"'),
    "'": re.compile(r"(?:\\.|[^\\'\n])*'"),
}


def _string_state(lines: list[str]) -> list[str | None]:
    """For each line, the triple quote of the string it starts inside, else None.

    Only triple-quoted strings span lines in generated code (literals are
    single-line reprs), so a line without a triple quote changes nothing.
    """
    states: list[str | None] = [None] * len(lines)
    inside: str | None = None
    for number, line in enumerate(lines):
        if inside is None:
            if '"""' not in line and "'''" not in line:
                continue
        else:
            states[number] = inside
        position = 0
        if inside is not None:
            if inside not in line:
                continue
            end = _END[inside].match(line)
            if end is None:
                continue
            position, inside = end.end(), None
        while True:
            token = _TOKEN.search(line, position)
            if token is None or token.group() == "#":
                break
            quote = token.group(1)
            end = _END[quote].match(line, token.end())
            if end is None:
                if quote in _TRIPLE:
                    inside = quote
                break  # a single-quoted string cannot run on (generated code has none that do)
            position = end.end()
    return states


def _width(line: str) -> int:
    """black's width of a line: East Asian wide characters count two, combining marks none."""
    if line.isascii():
        return len(line)
    return sum(
        (
            0
            if unicodedata.combining(c)
            else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        )
        for c in line
    )


# A string literal's body after its quote: the run of escapes possessive (Python
# 3.11+), so that re keeps no backtracking state per escape (the same matches:
# giving one back never leaves a quote next). Backtracking one took 52 MB for
# the 2.4 MB bytes literal of a 4,500-message schema's _pb2 (docs/benchmarks.md).
_AFTER_ESCAPES = "+" if sys.version_info >= (3, 11) else ""
_DOUBLE_BODY = rf'[^"\\]*(?:\\.[^"\\]*)*{_AFTER_ESCAPES}"'
_SINGLE_BODY = rf"[^'\\]*(?:\\.[^'\\]*)*{_AFTER_ESCAPES}'"
_LONE_STRING = re.compile(
    rf"""\s*[rRbBuUfF]{{0,2}}("(?:""(?:[^"\\]|\\.|"(?!""))*"")?{_DOUBLE_BODY}|'{_SINGLE_BODY}),?"""
)


def _unsplittable(line: str) -> bool:
    """A line that is one string literal (and its comma): black cannot shorten it."""
    return _LONE_STRING.fullmatch(line) is not None


_CONTINUATION = re.compile(r"(else|elif|except|finally)\b")
_DEFINITION = re.compile(r"(async\s+def|def|class)\b|@")


class _Piece(msgspec.Struct):
    start: int  # number of its first line in the file
    lines: list[str]  # without the newline
    states: list[str | None]
    blanks: int  # blank lines before it, as rendered
    definition: bool
    is_import: bool = False


def _cut(
    lines: list[str], states: list[str | None], indent: int = 0, offset: int = 0
) -> tuple[list[str], list[_Piece]]:
    """(leading comment lines, one piece per statement at ``indent``).

    A statement starts at a line of that indentation outside any string,
    bracket continuation (closers), decorator or compound clause; the comment
    lines just above it go with it, blank lines before it are counted.
    """
    pad = " " * indent
    head = 0
    while head < len(lines) and lines[head].startswith("#") and not indent:
        head += 1
    starts: list[int] = []
    pending: int | None = None
    decorated = False
    for number in range(head, len(lines)):
        line = lines[number]
        first = line[indent : indent + 1]
        if (
            first in (" ", "")
            or states[number] is not None
            or not line.startswith(pad)
            or not line.strip()
        ):
            continue
        if first == "#":
            pending = number if pending is None else pending
            continue
        if first in "\t)]}" or first in "ef" and _CONTINUATION.match(line, indent):
            continue
        if decorated:  # the def/class a decorator decorates, or one more decorator
            decorated = first == "@"
            continue
        starts.append(number if pending is None else pending)
        pending = None
        decorated = first == "@"
    if not starts:
        return lines[:head], []
    pieces = []
    bounds = [*starts, len(lines)]
    blanks = 0
    for begin, end in zip(bounds, bounds[1:]):
        stop = end
        while stop > begin and not lines[stop - 1].strip() and states[stop - 1] is None:
            stop -= 1
        first_code = next(
            (ln for ln in lines[begin:stop] if not ln[indent:].startswith("#")), ""
        )
        definition = bool(_DEFINITION.match(first_code, indent))
        is_import = first_code.startswith(("import ", "from "), indent)
        pieces.append(
            _Piece(
                offset + begin,
                lines[begin:stop],
                states[begin:stop],
                blanks,
                definition,
                is_import,
            )
        )
        blanks = end - stop
    # lines between the header and the first statement (blank ones) are black's to drop
    return lines[:head], pieces


def _blank_lines(kind: str, piece: _Piece, previous: _Piece) -> int:
    """black's blank lines between two top-level statements: two around a def
    or class (one in stubs); one after the last import; else as rendered, at
    most two (one in stubs)."""
    if piece.definition or previous.definition:
        return 1 if kind == "stub" else 2
    if previous.is_import and not piece.is_import:
        return 1
    return min(piece.blanks, 1 if kind == "stub" else 2)


# -- wrapping long lines the way black does, for the shapes where that is certain

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = set(_OPENERS.values())
_SKELETON_TOKEN = re.compile(
    rf"""[rRbBuUfF]{{0,2}}(?:"{_DOUBLE_BODY}|'{_SINGLE_BODY})|[()\[\]{{}}]|#|,"""
)
# What is left of a statement outside brackets and strings (see _brackets), for the
# shapes wrap_line handles: [target [: annotation] = | return | key: ] name[.name...] and
# one bracket pair at the end (a call, a subscript or a literal), or a def.
_NAME = r"[A-Za-z_]\w*"
_TARGET = rf"{_NAME}(?:\.{_NAME}|\[\])*(?:: [\w.\[\]| ]+)?"
_SIMPLE = re.compile(
    rf"(?:(?:{_TARGET}) = |return |(?:{_NAME}|S): |{_NAME}=|\| )?(?:{_NAME}(?:\.{_NAME}|\[\])*)?(?:\(\)|\[\]|\{{\}}),?"
)
_DEF = re.compile(rf"(?:async )?def {_NAME}\(\)(?: -> [\w.\[\]| ]+)?:(?: \.\.\.)?")
_DEF_TAIL = re.compile(
    rf" -> {_NAME}(?:\.{_NAME})*\[\]:(?: \.\.\.)?"
)  # what follows a def's parameters
_CLASS = re.compile(rf"class {_NAME}\(\):")
# an item inside brackets that black splits at its bars: names and subscripts, "|" between
_OPERANDS = re.compile(
    rf"(?:\| )?{_NAME}(?:\.{_NAME})*(?:\[\])?(?: \| {_NAME}(?:\.{_NAME})*(?:\[\])?)+,?"
)
_IMPORT = re.compile(
    rf"from \.*(?:{_NAME}(?:\.{_NAME})*)? import {_NAME}(?: as {_NAME})?(?:, {_NAME}(?: as {_NAME})?)*"
)
# a dict item whose value is a conditional expression: black parenthesizes the value
_TERNARY_ITEM = re.compile(r"S: [^,]* if [^,]* else [^,]*,")
# an annotation alone (a stub's or TypedDict's attribute) that is a union: black
# wraps it in parentheses, one operand a line if it must
_UNION = re.compile(
    rf"{_NAME}: [\w.\[\]]+(?: \| [\w.\[\]]+)+(?: = \.\.\.)?,?"
)  # a stub's default too


def _brackets(code: str) -> tuple[list[tuple[int, int]], list[int], str] | None:
    """(depth-0 bracket pairs, depth-0 comma positions, skeleton) of one line of
    code; None when it has a comment, a multi-line string or unbalanced brackets."""
    pairs: list[tuple[int, int]] = []
    commas: list[int] = []
    stack: list[int] = []
    skeleton: list[str] = []
    position = 0
    for token in _SKELETON_TOKEN.finditer(code):
        text = token.group()
        if not stack:
            skeleton.append(code[position : token.start()])
        position = token.end()
        if text == "#":
            return None
        if text in _OPENERS:
            stack.append(token.start())
        elif text in _CLOSERS:
            if not stack or _OPENERS[code[stack[-1]]] != text:
                return None
            start = stack.pop()
            if not stack:
                pairs.append((start, token.start()))
                skeleton.append(code[start] + text)
        elif text == ",":
            if not stack:
                commas.append(token.start())
                skeleton.append(",")
        elif not stack:  # a string
            if text[-3:] in _TRIPLE and len(text) > 3 and text[-4] not in "\\":
                return None  # """...""" on one line: leave it to black
            skeleton.append("S")
    if stack:
        return None
    skeleton.append(code[position:])
    if any(q in "".join(skeleton) for q in ("'", '"', "\\")):
        return None  # a quote the token pattern did not pair
    return pairs, commas, "".join(skeleton)


def _masked(code: str) -> str:
    """``code`` with the inside of brackets and strings blanked out (same length)."""
    out = list(code)
    depth, start = 0, 0
    for token in _SKELETON_TOKEN.finditer(code):
        text = token.group()
        if text in _OPENERS:
            start = token.end() if not depth else start
            depth += 1
        elif text in _CLOSERS:
            depth -= 1
            if not depth:
                out[start : token.start()] = "x" * (token.start() - start)
        elif not depth and text not in (",", "#"):  # a string
            out[token.start() : token.end()] = "x" * len(text)
    return "".join(out)


def _items(body: str) -> list[str] | None:
    """``body`` split at its top-level commas (no empty item but a trailing one)."""
    found = _brackets(body)
    if found is None:
        return None
    _, commas, _ = found
    items, start = [], 0
    for comma in commas:
        items.append(body[start:comma].strip())
        start = comma + 1
    last = body[start:].strip()
    if last:
        items.append(last)
    return items if all(items) else None


def _fits(line: str) -> bool:
    return _width(line) <= LINE_LENGTH


def wrap_line(line: str, inside: bool = False) -> list[str] | None:
    """``line`` (one whole statement) as black splits it, when that is certain:
    a ``def`` split at its parameters (black's left-hand split), or a statement
    ending in one call or bracket literal split at it (black's right-hand split,
    the optional parentheses of the right-hand side omitted); ``inside``: the
    line is one item inside brackets, split first at its ``|`` operators
    (black's delimiter split). None otherwise: the caller then has black
    format the statement."""
    if _fits(line):
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    code = line[indent:]
    pad = " " * indent
    if _IMPORT.fullmatch(code):  # black explodes a long import, one name a line
        module, names = code.split(" import ", 1)
        head = f"{pad}{module} import ("
        lines = [head, *(f"{pad}    {name}," for name in names.split(", ")), pad + ")"]
        return lines if all(map(_fits, lines)) else None
    found = _brackets(code)
    if found is None:
        return None
    pairs, _, skeleton = found
    if inside and _OPERANDS.fullmatch(skeleton):
        return _bars(pad, code)
    if _UNION.fullmatch(skeleton):
        return _union(pad, code)
    if _TERNARY_ITEM.fullmatch(skeleton):
        key, value = code[: code.index(":")], code[code.index(":") + 2 : -1]
        lines = [f"{pad}{key}: (", f"{pad}    {value}", f"{pad}),"]
        return lines if all(map(_fits, lines)) else None
    split = _split_point(code, pairs, skeleton)
    if split is None:
        return None
    start, end, literal = split
    head, body, tail = pad + code[: start + 1], code[start + 1 : end], pad + code[end:]
    if not _fits(head) and _DECLARATION.fullmatch(skeleton):
        return _declaration(pad, code, pairs)
    if not _fits(head) or not body.strip():
        return None
    tails: list[str] | None = [tail]
    if not _fits(tail):
        tails = _def_tail(tail) if skeleton.startswith(("def", "async")) else None
    if tails is None:
        return None
    inner = _body(
        pad + "    ",
        body,
        literal,
        lone_parameter=skeleton.startswith(("def", "async")),
    )
    return None if inner is None else [head, *inner, *tails]


# a compact Record's field declaration: name: _runtime.Field[...] = _runtime.field(...)
_DECLARATION = re.compile(
    rf"{_NAME}: {_NAME}(?:\.{_NAME})*\[\] = {_NAME}(?:\.{_NAME})*\(\)"
)


def _declaration(pad: str, code: str, pairs: list[tuple[int, int]]) -> list[str] | None:
    """A declaration whose head up to the call does not fit: black wraps the
    value in parentheses when the declaration up to them and the value each
    fit a line; else it splits at the annotation's brackets (the call's
    trailer omitted), their contents laid out as any bracket's (``_body``),
    when what follows them fits."""
    target, value = code.split(" = ", 1)
    wrapped = [f"{pad}{target} = (", f"{pad}    {value}", f"{pad})"]
    if all(map(_fits, wrapped)):
        return wrapped
    start, end = next((a, b) for a, b in pairs if code[a] == "[")
    head, body, tail = (
        pad + code[: start + 1],
        code[start + 1 : end].strip(),
        pad + code[end:],
    )
    items = _items(body)
    if body.endswith(",") or items is None or not (_fits(head) and _fits(tail)):
        return None
    if len(items) < 2 and not _fits(pad + "    " + body):
        return None  # (a lone item black would split in turn: not a shape declarations have)
    inner = _body(pad + "    ", body, literal=False, lone_parameter=False)
    return None if inner is None else [head, *inner, tail]


def _split_point(
    code: str, pairs: list[tuple[int, int]], skeleton: str
) -> tuple[int, int, bool] | None:
    """(opening, closing bracket, is a literal) where black splits ``code``."""
    if not pairs:
        return None
    if _DEF.fullmatch(skeleton):
        return (
            pairs[0][0],
            pairs[0][1],
            False,
        )  # the parameters: black splits a def at its first bracket
    if _CLASS.fullmatch(skeleton):
        start, end = pairs[-1]  # the bases: black's right-hand split
        return (start, end, False) if end == len(code) - 2 else None
    if not _SIMPLE.fullmatch(skeleton):
        return None
    start, end = pairs[-1]
    if end != len(code) - 1 - code.endswith(","):
        return None
    before = code[:start].rstrip()
    # a list/dict/tuple literal (black always explodes one with commas), not a call or subscript
    literal = not before or not (before[-1].isalnum() or before[-1] in "_)]}\"'")
    if literal and code[start] == "(":
        return None  # a parenthesized tuple or expression: black's parentheses rules differ
    return start, end, literal


def _body(
    inner: str, body: str, literal: bool, lone_parameter: bool
) -> list[str] | None:
    """The lines of a bracket's contents ``body`` at ``inner``, split as black splits them."""
    items = _items(body)
    if items is None:
        return None
    magic = body.rstrip().endswith(",")
    if lone_parameter and len(items) == 1 and not magic:
        magic = True  # black adds a trailing comma to a lone parameter, which then stands alone
    if not magic and not (literal and len(items) > 1) and _fits(inner + body.strip()):
        return [inner + body.strip()]
    if len(items) == 1 and not magic:
        if _unsplittable(items[0]):
            return [inner + items[0]]  # one long string: black leaves it long
        return wrap_line(
            inner + items[0], inside=True
        )  # one argument: black splits it in turn
    lines: list[str] = []
    for item in items:
        if item.startswith("*") and not item.startswith("**") and literal:
            return None
        wrapped = wrap_line(f"{inner}{item},", inside=True)
        if wrapped is None:
            return None
        lines += wrapped
    return lines


def _def_tail(tail: str) -> list[str] | None:
    """A def's too long ``) -> name[...]:`` after its parameters: black splits
    the return annotation at its last bracket (right-hand split)."""
    indent = len(tail) - len(tail.lstrip(" "))
    code = tail[indent + 1 :]  # after the parameters' closing bracket
    found = _brackets(code)
    if found is None or not _DEF_TAIL.fullmatch(found[2]):
        return None
    start, end = found[0][-1]
    pad = " " * indent
    head, body, rest = (
        f"{pad}){code[: start + 1]}",
        code[start + 1 : end].strip(),
        pad + code[end:],
    )
    lines = [head, pad + "    " + body, rest]
    return (
        lines if body and all(map(_fits, lines)) else None
    )  # a subscript's items stay on one line


def _bars(pad: str, code: str) -> list[str] | None:
    """An item inside brackets, a union of names and subscripts: black's
    delimiter split, one operand a line (the first without its bar), each
    then split in turn; a trailing comma stays on the last."""
    masked = _masked(code)
    cuts = [m.start() for m in re.finditer(r" \| ", masked)]
    operands = [code[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(code)])]
    lines: list[str] = []
    for operand in operands:
        wrapped = wrap_line(pad + operand, inside=True)
        if wrapped is None:
            return None
        lines += wrapped
    return lines


# -- the stage


class _Formatter:
    def __init__(self) -> None:
        self.black_calls = 0
        # of the file being formatted (see _risky_lines): line numbers
        self.other_risks: list[int] = []
        self.long_lines: list[int] = []
        self.risky: list[int] = []

    def file(self, path: str, text: str, kind: str) -> str:
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        states = _string_state(lines)
        self.other_risks, self.long_lines = _risky_lines(text, lines, states)
        self.risky = sorted({*self.other_risks, *self.long_lines})
        header, pieces = _cut(lines, states)
        out = list(header)
        previous: _Piece | None = None
        for piece in pieces:
            if previous is not None:
                out += [""] * _blank_lines(kind, piece, previous)
            out += self._piece(path, piece, kind)
            previous = piece
        formatted = "\n".join(out) + ("\n" if out else "")
        return (
            text if formatted == text else formatted
        )  # one copy of an unchanged file, not two (memory)

    def _at_risk(self, piece: _Piece, numbers: list[int] | None = None) -> bool:
        numbers = self.risky if numbers is None else numbers
        at = bisect.bisect_left(numbers, piece.start)
        return at < len(numbers) and numbers[at] < piece.start + len(piece.lines)

    def _wrapped(self, piece: _Piece) -> list[str] | None:
        """The piece with its long lines wrapped, when they are its only risk."""
        if self._at_risk(piece, self.other_risks):
            return None
        start, end = piece.start, piece.start + len(piece.lines)
        long = self.long_lines[
            bisect.bisect_left(self.long_lines, start) : bisect.bisect_left(
                self.long_lines, end
            )
        ]
        return _prewrapped(
            piece.lines, piece.states, [number - start for number in long]
        )

    def _piece(self, path: str, piece: _Piece, kind: str) -> list[str]:
        lines, states = piece.lines, piece.states
        if not self._at_risk(piece):
            return lines
        wrapped = self._wrapped(piece)
        if wrapped is not None:
            return wrapped
        if len(lines) >= _SPLIT_CLASS_LINES and _is_class(lines):
            return self._class(path, piece, kind)
        return (
            self._black(path, "\n".join(lines) + "\n", kind, 0).rstrip("\n").split("\n")
        )

    def _class(self, path: str, piece: _Piece, kind: str) -> list[str]:
        """A long class at risk: only its members at risk go to black (dedented)."""
        lines, states = piece.lines, piece.states
        # the body starts after the class statement's line ending in ":"
        body = next(
            n + 1
            for n, line in enumerate(lines)
            if line[:1] not in "#@ " and line.rstrip().endswith(":")
        )
        _, members = _cut(
            lines[body:], states[body:], indent=4, offset=piece.start + body
        )
        out = lines[:body]
        for member in members:
            out += [""] * min(
                member.blanks, 1
            )  # as rendered (black allows one in a class)
            if not self._at_risk(member):
                out += member.lines
                continue
            wrapped = self._wrapped(member)
            if wrapped is not None:
                out += wrapped
                continue
            dedented = "\n".join(line[4:] for line in member.lines) + "\n"
            formatted = self._black(path, dedented, kind, 4).rstrip("\n").split("\n")
            out += ["    " + line if line else line for line in formatted]
        return out

    def _black(self, path: str, source: str, kind: str, indent: int) -> str:
        try:
            text = run_black(source, kind, indent)
        except GeneratorError as exc:
            raise GeneratorError(
                [
                    Problem(p.message, p.file or path, p.line, p.hint)
                    for p in exc.problems
                ]
            ) from None
        self.black_calls += 1
        return text


# trailing whitespace or a tab; a magic trailing comma on one line (black explodes the brackets)
_WHITESPACE = re.compile(r"\t|[ \t\f\v\r]$", re.M)
_MAGIC_COMMA = re.compile(r",\]|,\}|, [\]})]")


def _risky_offsets(text: str) -> list[int]:
    """Where black may change text that is not too long: trailing whitespace, a
    tab, a magic trailing comma, space around a docstring's text (black strips
    it). Literal searches first: character-class regexes cost ten times more."""
    found = [m.start() for m in _MAGIC_COMMA.finditer(text)]
    if any(c in text for c in ("\t", "\f", "\v", "\r", " \n")) or text.endswith(" "):
        found += [m.start() for m in _WHITESPACE.finditer(text)]
    position = text.find('"""')
    while position >= 0:
        line_start = text.rfind("\n", 0, position) + 1
        after = text[position + 3 : position + 4]
        before = text[line_start:position]
        if after in (" ", "\t") and not before.strip(
            " rRuU"
        ):  # a docstring starting with space
            found.append(position)
        elif (
            text[position - 1 : position] in (" ", "\t")
            and after in ("", "\n")
            and before.strip()
        ):
            found.append(position)  # text ending with space, then the closing quotes
        position = text.find('"""', position + 3)
    return found


def _risky_lines(
    text: str, lines: list[str], states: list[str | None]
) -> tuple[list[int], list[int]]:
    """Numbers of the lines black might change (each list sorted): those that
    are not too long but black changes anyway, then the long ones: a long line of code
    (not one string literal alone, not a one-line statement whose only excess
    is a type-ignore comment), the long last line of a multi-line string (black
    may move a docstring's closing quotes), space around a docstring's text,
    trailing whitespace, a tab, a magic trailing comma. Whole-text searches:
    most files have none of these."""
    other = sorted(set(_line_numbers(lines, _risky_offsets(text))))
    numbers: set[int] = set()
    if text.isascii():
        long = [n for n, line in enumerate(lines) if len(line) > LINE_LENGTH]
    else:  # wide characters count two
        long = [
            n
            for n, line in enumerate(lines)
            if len(line) > LINE_LENGTH // 2 and not _fits(line)
        ]
    last = len(lines) - 1
    for number in long:
        line, state = lines[number], states[number]
        if state is not None:  # inside a multi-line string: only its last line matters
            if number == last or states[number + 1] is None:
                numbers.add(number)
        elif not (
            _unsplittable(line)
            or _opens_string(line, number, states)
            or _TYPE_IGNORE.search(line)
            and _single_line_statement(lines, states, number)
        ):
            numbers.add(number)
    return other, sorted(numbers)


def _line_numbers(lines: list[str], offsets: list[int]) -> list[int]:
    if not offsets:
        return []
    starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    return [bisect.bisect_right(starts, offset) - 1 for offset in offsets]


# black leaves a one-line statement with a trailing "type: ignore" comment as it is
_TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore(\[[\w\-, ]*\])?\s*$")
_STRING_START = re.compile(r"\s*[rRbBuUfF]{0,2}(\"\"\"|\'\'\')")


def _opens_string(line: str, number: int, states: list[str | None]) -> bool:
    """A line that is only the start of a multi-line string (a docstring's first line)."""
    return (
        number + 1 < len(states)
        and states[number + 1] is not None
        and _STRING_START.match(line) is not None
    )


def _prewrapped(
    lines: list[str], states: list[str | None], long: list[int]
) -> list[str] | None:
    """``lines`` with their long lines (numbers ``long``, in order) wrapped by
    wrap_line; None if one cannot be."""
    out = list(lines)
    for number in reversed(long):
        line = lines[number]
        if states[number] is not None or not _single_line_statement(
            lines, states, number
        ):
            return None
        wrapped = wrap_line(line)
        if wrapped is None:
            return None
        out[number : number + 1] = wrapped
    return out


def _union(pad: str, code: str) -> list[str] | None:
    name, annotation = code.split(": ", 1)
    comma = "," if annotation.endswith(",") else ""
    annotation = annotation.removesuffix(",")
    default = " = ..." if annotation.endswith(" = ...") else ""
    annotation = annotation.removesuffix(default)
    inner = pad + "    "
    lines = [f"{pad}{name}: (", inner + annotation, f"{pad}){default}{comma}"]
    if not _fits(lines[1]):
        masked = _masked(annotation)  # split at the top-level bars only
        cuts = [m.start() for m in re.finditer(r" \| ", masked)]
        operands = [
            annotation[a:b].removeprefix(" | ")
            for a, b in zip([0, *cuts], [*cuts, len(annotation)])
        ]
        body: list[str] = []
        for number, operand in enumerate(operands):
            wrapped = wrap_line(f"{inner}{'| ' if number else ''}{operand}")
            if wrapped is None:
                return None
            body += wrapped
        lines[1:2] = body
    return lines if all(map(_fits, lines)) else None


def _is_class(lines: list[str]) -> bool:
    first = next((line for line in lines if line[:1] not in "#@"), "")
    return first.startswith("class ") and first.rstrip().endswith(":")


def _single_line_statement(
    lines: list[str], states: list[str | None], number: int
) -> bool:
    """Line ``number`` is a line black transforms on its own: it closes every
    bracket it opens (see _brackets) and it starts a statement (the line before
    it does not leave a bracket open), or it is one item, with its comma, of a
    bracket literal or call exploded one item a line."""
    if _brackets(_code(lines[number]).strip()) is None:
        return False
    if number == 0:
        return True
    before = lines[number - 1].rstrip()
    item = lines[number].endswith(",")
    if before.endswith(("\\", "(", "[", "{")) or (
        before.endswith(",") and states[number - 1] is None
    ):
        return item and (before.endswith(",") or before.lstrip()[:1] not in ("", "#"))
    if states[number - 1] is not None:
        return True  # the line before closes a multi-line string (and no bracket)
    # a line of code before it must be whole too, or only close brackets
    code = _code(before).strip()
    return (
        not code or code.startswith(("#", ")", "]", "}")) or _brackets(code) is not None
    )


def _code(line: str) -> str:
    """``line`` without its trailing comment."""
    for token in _SKELETON_TOKEN.finditer(line):
        if token.group() == "#":
            return line[: token.start()].rstrip()
    return line
