"""Stage 4's text layout: documentation as docstrings and tables show it.

Prose is reflowed to ``DOC_WIDTH`` (code blocks and lists kept line for
line), a docstring's summary is its first sentence, and a config's keys are
an RST simple table.
"""

from __future__ import annotations

import functools
import re
import textwrap
import unicodedata
from collections.abc import Sequence
from typing import Any

from .sentences import summary_end

DOC_WIDTH = 72

# Characters a reader does not see, or sees in another place: controls (C0,
# DEL, C1; "\n" and "\t" are layout), format characters (bidi embeddings,
# overrides and isolates, marks, zero-width characters, U+FEFF, tags: what
# Trojan Source reorders code with), surrogates, line and paragraph
# separators, and unassigned code points (a later Unicode may make them any
# of these). Their names to unicodedata.category:
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp", "Cn"})
# runs of characters that may hold one (everything but printable ASCII, "\n", "\t")
_SUSPECT = re.compile(r"[^\t\n\x20-\x7e]+")


def is_hidden(char: str) -> bool:
    return char not in "\n\t" and unicodedata.category(char) in HIDDEN_CATEGORIES


def visible(text: str) -> str:
    """``text`` with every hidden character (HIDDEN_CATEGORIES) written as its
    escape, as a Python string literal writes it (``\\x1b``, ``\\u202e``,
    ``\\U000e0001``), so a reader sees it where it is: the one text layer of
    the generated code, docstrings, comments and the reference page (the
    templates' finalize, and the docstring and comment filters, which see a
    value first). A docstring doubles the backslash: it shows the escape,
    and does not turn it back into the character."""
    if _SUSPECT.search(text) is None:
        return text
    return _SUSPECT.sub(_visible_run, text)


def _visible_run(match: re.Match[str]) -> str:
    run = match.group()
    if run.isprintable():  # (most such runs: words of other scripts)
        return run
    return "".join(_escape(ch) if is_hidden(ch) else ch for ch in run)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class Verbatim(str):
    """A text the templates print as it is: a module copied whole (the
    runtime, the linter, a hand-written module), not text from the inputs."""


def shown_value(value: Any) -> Any:
    """The templates' finalize: every value a template prints, made visible
    (a Verbatim text as it is)."""
    if isinstance(value, str) and not isinstance(value, Verbatim):
        return visible(value)
    return value


def _wrap(paragraph: str, width: int = DOC_WIDTH) -> str:
    # textwrap.fill costs ~10 ms a generation. _blocks hands over paragraphs
    # of words between single spaces (no other whitespace, Unicode's included);
    # for those, fill's lines are what one regex finds, ~10x faster
    # (tests/package/test_doc_layout.py holds the two equal).
    if paragraph.split(" ") != paragraph.split():
        return textwrap.fill(
            paragraph, width, break_long_words=False, break_on_hyphens=False
        )
    return "\n".join(
        fitting or long for fitting, long in _line_pattern(width).findall(paragraph)
    )


@functools.cache
def _line_pattern(width: int) -> re.Pattern[str]:
    """A line as fill makes it: the most words that fit in ``width`` (the
    match is greedy), else one longer word alone; then the space after it."""
    return re.compile(rf"(.{{1,{width}}})(?: |\Z)|([^ ]+)(?: |\Z)")


_FENCE = re.compile(r"\s*(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")


def _blocks(text: str) -> list[tuple[bool, str]]:
    """``text`` as blocks, each ``(verbatim, text)``: prose paragraphs with
    their whitespace collapsed (the docs reflow them), and code and lists as
    written: a fenced block (blank lines inside kept), or the part of a
    paragraph from its first indented or list-item line on (an indented code
    block, a bullet or numbered list, with the prose before it a block of its own)."""
    blocks: list[tuple[bool, str]] = []
    paragraph: list[str] = []
    fenced: list[str] = []
    fence = ""

    def end_paragraph() -> None:
        lines = [line.rstrip() for line in paragraph]
        paragraph.clear()
        if not lines:
            return
        cut = next(
            (
                i
                for i, line in enumerate(lines)
                if line[:1].isspace() or _LIST_ITEM.match(line)
            ),
            len(lines),
        )
        if cut:
            blocks.append((False, " ".join(" ".join(lines[:cut]).split())))
        if cut < len(lines):
            blocks.append((True, textwrap.dedent("\n".join(lines[cut:]))))

    # hidden characters shown first: a line separator or a control that is
    # whitespace to str.split must not vanish into the reflow either
    for line in textwrap.dedent(visible(text).strip("\n")).split("\n"):
        if fence:
            fenced.append(line.rstrip())
            if line.strip().startswith(fence):
                blocks.append((True, "\n".join(fenced)))
                fenced.clear()
                fence = ""
            continue
        opening = _FENCE.match(line)
        if (
            opening
            and line.strip()[len(opening.group(1)) :].find(opening.group(1)) != -1
        ):  # opened and closed: ```x```
            end_paragraph()
            blocks.append((True, line.rstrip()))
        elif opening:
            end_paragraph()
            fence = opening.group(1)
            fenced.append(line.rstrip())
        elif line.strip():
            paragraph.append(line)
        else:
            end_paragraph()
    end_paragraph()
    if fenced:  # a fence never closed: kept as written
        blocks.append((True, "\n".join(fenced)))
    return blocks


def _layout(blocks: list[tuple[bool, str]], width: int = DOC_WIDTH) -> tuple[str, ...]:
    return tuple(
        block if verbatim else _wrap(block, width) for verbatim, block in blocks
    )


def doc_layout(text: str, width: int = DOC_WIDTH) -> tuple[str, ...]:
    """Every block of ``text`` as a docstring shows it: prose reflowed to
    ``width``, code blocks and lists line for line."""
    return _layout(_blocks(text), width)


def doc_parts(text: str) -> tuple[str, tuple[str, ...]]:
    """A docstring's summary (the first sentence of the first paragraph, as
    ``sentences.summary_end`` finds its end) and
    the rest of ``text`` laid out as ``doc_layout`` does: nothing is dropped."""
    blocks = _blocks(text)
    if not blocks:
        return "", ()
    verbatim, first = blocks[0]
    if verbatim:
        return first, _layout(blocks[1:])
    cut = summary_end(first)
    rest = first[cut:].strip()
    return first[:cut], _layout(([(False, rest)] if rest else []) + blocks[1:])


def code_fence(text: str | None) -> str:
    """A Markdown code fence ``text`` cannot close (longer than any backtick run in it)."""
    runs = [len(run) for run in re.findall(r"`+", text or "")]
    return "`" * max(3, max(runs, default=0) + 1)


def first_sentence(text: str) -> str:
    """The summary of ``text`` on one line (a table cell)."""
    summary, _ = doc_parts(text)
    return " ".join(summary.split())


# A Keys table sits 12 columns in (a property's docstring in a class body, under "Keys:"):
# at this width its lines end by column 100
TABLE_WIDTH = 88


def rst_table(
    headers: tuple[str, ...],
    rows: Sequence[tuple[str, ...]],
    width: int = TABLE_WIDTH,
) -> tuple[str, ...]:
    """An RST simple table fitting ``width`` where its words allow: cells
    after the first wrap onto continuation lines (first column blank), the
    last column first (down to 20), then the others from the right, then the
    last again (each down to its longest word)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    floors = [
        max(
            len(word)
            for cell in (h, *(r[i] for r in rows))
            for word in [*cell.split(), ""]
        )
        for i, h in enumerate(headers)
    ]
    last = len(widths) - 1
    order = [
        (last, max(20, floors[last])),
        *((i, floors[i]) for i in range(last - 1, 0, -1)),
        (last, floors[last]),
    ]
    for i, floor in order:
        over = sum(widths) + 2 * last - width
        if over > 0:
            widths[i] = max(floor, widths[i] - over)
    rule = "  ".join("=" * w for w in widths)

    def lines(cells: tuple[str, ...]) -> list[str]:
        wrapped = [
            [cells[0]],
            *(
                _wrap(c, w).split("\n") if c else [""]
                for c, w in zip(cells[1:], widths[1:])
            ),
        ]
        return [
            "  ".join(
                (col[n] if n < len(col) else "").ljust(w)
                for col, w in zip(wrapped, widths)
            ).rstrip()
            for n in range(max(map(len, wrapped)))
        ]

    return (rule, *lines(headers), rule, *(x for r in rows for x in lines(r)), rule)
