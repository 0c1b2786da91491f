"""Where a paragraph's first sentence ends: the summary a docstring, a
TypedDict, a table cell and the reference page show.

A period followed by a space ends a sentence unless the word before it is
an abbreviation: ``ISO 4217 currency code, e.g. "EUR".`` is one sentence.
The rule is Punkt's (Kiss and Strunk, "Unsupervised Multilingual Sentence
Boundary Detection", 2006) without its trained model: abbreviations from a
list, initials, and the orthographic check (an abbreviation followed by a
word that does not start with a capital ends nothing). It is the tool's own
rather than a segmenter library's: the output must stay byte-identical
across the dependency ranges, and a segmenter's rules change with its
releases (pysbd and sentencex both cut ``Approx. 5 items`` after
``Approx.``).
"""

from __future__ import annotations

import re

# Abbreviations that a word always follows: a period after one never ends a
# sentence ("e.g. EUR", "Fig. 3", "Dr. Smith"). Lowercase, without the final
# period.
ALWAYS_FOLLOWED = frozenset(
    {
        "a.k.a",
        "approx",
        "ca",
        "cf",
        "dr",
        "e.g",
        "eg",
        "eq",
        "eqs",
        "esp",
        "fig",
        "figs",
        "i.e",
        "ie",
        "incl",
        "mr",
        "mrs",
        "prof",
        "resp",
        "viz",
        "vs",
        "w.r.t",
        "wrt",
    }
)
# Abbreviations that may end a sentence too ("... and so on, etc. The next"):
# one ends a sentence only where the next word starts with a capital letter
# ("sec. for the call", "No. 3", "etc. and more" go on). Ellipses ("...") and
# dotted abbreviations not listed ("U.S.") are treated the same.
MAYBE_FINAL = frozenset(
    {
        "al",  # et al.
        "avg",
        "ch",
        "co",
        "corp",
        "dept",
        "est",
        "etc",
        "hr",
        "hrs",
        "inc",
        "jr",
        "ltd",
        "max",
        "min",
        "mins",
        "misc",
        "ms",
        "no",
        "nos",
        "num",
        "p",
        "pp",
        "ref",
        "refs",
        "sec",
        "secs",
        "sr",
        "st",
        "vol",
        "vols",
    }
)

# the last end mark of a run and the quotes and brackets closing with it,
# then the space before the next sentence (one mark, not a run: linear time
# on any text, a run of thousands of periods included)
_END = re.compile(r"[.?!][\"')\]]*(?= )")
_MARKS = ".?!"
_OPENERS = "\"'([`"
_CLOSERS = "\"')]`"
_DOTTED = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")


def summary_end(paragraph: str) -> int:
    """The length of ``paragraph``'s first sentence: the index just past its
    end mark (and the quotes and brackets closing with it), or the whole
    paragraph's length where no sentence ends before its end.
    ``paragraph`` is one line of words between single spaces."""
    ticks, counted = 0, 0  # backticks before `counted`: inside inline code when odd
    for end in _END.finditer(paragraph):
        last = end.start()
        ticks += paragraph.count("`", counted, last)
        counted = last
        if ticks % 2 == 0 and _ends_sentence(paragraph, last, end.end()):
            return end.end()
    return len(paragraph)


def _ends_sentence(paragraph: str, last: int, end: int) -> bool:
    """Whether the run of end marks up to ``last`` (its closers up to
    ``end``, a space next) ends a sentence."""
    mark = last
    while mark and paragraph[mark - 1] in _MARKS:
        mark -= 1
    start = paragraph.rfind(" ", 0, mark) + 1
    if paragraph[mark] != ".":  # "?" or "!" after a word ("a ? b" is code)
        return start < mark
    if start == mark:  # a period apart: "such as "api_key" . It is"
        return True
    word = paragraph[start:mark].lstrip(_OPENERS).rstrip(_CLOSERS)
    if not word:  # a quoted period: "separated by '.' characters"
        return False
    folded = word.lower()
    if folded in ALWAYS_FOLLOWED:
        return False
    if len(word) == 1 and word.isupper():  # an initial: "J. R. R. Tolkien"
        return False
    if folded in MAYBE_FINAL or last > mark or _DOTTED.fullmatch(word) is not None:
        following = end + 1
        while following < len(paragraph) and paragraph[following] in _OPENERS:
            following += 1
        return paragraph[following : following + 1].isupper()
    return True
