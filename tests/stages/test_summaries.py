"""A summary (the first sentence a docstring, a TypedDict, a table cell and the
reference page show) ends at a sentence end, not at an abbreviation, checked
on the real comment text of the schema sets the suite uses: Paddle's proto
and annotations, the goldens' cases, googleapis-common-protos and protobuf's
well-known types."""

from __future__ import annotations

import functools
import importlib.metadata
import re
from pathlib import Path

import pytest
import yaml
from google.protobuf import descriptor_pb2 as d
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.inputs.compile import compile_protos, well_known_folder
from generator.model.doctext import _blocks, doc_parts, first_sentence
from generator.schema.schema import _comment_text
from tests.support import ROOT

CASES = ROOT / "tests" / "goldens" / "cases"


def _comments(files: list[Path], folders: list[Path]) -> list[str]:
    fds = d.FileDescriptorSet()
    fds.ParseFromString(compile_protos(files, folders).descriptor_set)
    return [
        _comment_text(text)
        for fp in fds.file
        for loc in fp.source_code_info.location
        for text in (loc.leading_comments, loc.trailing_comments)
        if text.strip()
    ]


def _docs(node: object) -> list[str]:
    """Every ``doc:`` text of an annotations file."""
    if isinstance(node, dict):
        return [
            t
            for k, v in node.items()
            for t in ([v] if k == "doc" and isinstance(v, str) else _docs(v))
        ]
    if isinstance(node, list):
        return [t for v in node for t in _docs(v)]
    return []


@functools.cache
def real_texts() -> tuple[str, ...]:
    texts = _comments([ROOT / "proto" / "distributed_strategy.proto"], [ROOT / "proto"])
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        folder = (
            case / "input" / "root"
            if (case / "input" / "root").is_dir()
            else case / "input"
        )
        texts += _comments(sorted(folder.rglob("*.proto")), [folder])
    googleapis = importlib.metadata.distribution("googleapis-common-protos")
    protos = [
        Path(str(f.locate())) for f in googleapis.files or [] if f.suffix == ".proto"
    ]
    texts += _comments(protos, [Path(str(googleapis.locate_file("")))])
    texts += _comments(
        sorted(well_known_folder().rglob("*.proto")), [well_known_folder()]
    )
    for annotations in [
        ROOT / "proto" / "fleet_strategy.annotations.yaml",
        *sorted(CASES.rglob("*.yaml")),
    ]:
        texts += _docs(yaml.safe_load(annotations.read_text(encoding="utf-8")))
    return tuple(sorted(set(texts)))


def _lead(text: str) -> str | None:
    """The first block of ``text`` on one line, when it is prose (a code
    block or list first is shown as it is, and has no summary to cut)."""
    blocks = _blocks(text)
    return blocks[0][1] if blocks and not blocks[0][0] else None


# abbreviations after which a word always follows, and what follows in the tests
ALWAYS_FOLLOWED = [
    "e.g.",
    "i.e.",
    "Fig.",
    "approx.",
    "Approx.",
    "cf.",
    "vs.",
    "Dr.",
    "Eq.",
    "a.k.a.",
    "w.r.t.",
]
INSERTED = [
    'e.g. "EUR"',
    "e.g. SEPA",
    "(e.g. a message)",
    "i.e. the embedding size",
    "sec. for each call",
    "in 5 sec. or less",
    "see Fig. 3",
    "approx. 2 days",
    "Approx. 5 items",
    "etc. and more",
    "A, B, etc. to which",
    "version 1.2.3 and 0.5",
    "3.14 or 2.5e-3",
    "J. R. R. Tolkien",
    "cf. RFC 3339",
    "No. 7",
    "by Smith et al. from",
    "the U.S. government",
    "values... and more",
    "`a. b` code",
    "'.' characters",
]


def test_the_corpus_is_real_and_large():
    texts = real_texts()
    assert len(texts) > 1500
    assert any('e.g. "EUR"' in t for t in texts)  # the shop case
    assert any("Is this field deprecated?" in t for t in texts)  # descriptor.proto


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        (
            'ISO 4217 currency code, e.g. "EUR". Three capital letters.',
            'ISO 4217 currency code, e.g. "EUR".',
        ),
        (
            "A bank transfer, e.g. SEPA. Settles in approx. 2 days.",
            "A bank transfer, e.g. SEPA.",
        ),
        ("Timeout in sec. for the call. Then more.", "Timeout in sec. for the call."),
        ("Timeout in sec. The call fails after it.", "Timeout in sec."),
        ("See Fig. 3 for details. More.", "See Fig. 3 for details."),
        (
            "Approx. 5 items are kept, i.e. the last ones. More.",
            "Approx. 5 items are kept, i.e. the last ones.",
        ),
        (
            "Version 1.2.3 is used, 0.5 of it. Next.",
            "Version 1.2.3 is used, 0.5 of it.",
        ),
        ("Written by J. R. R. Tolkien. Next.", "Written by J. R. R. Tolkien."),
        (
            "Selects methods, fields, etc. to which it applies. Next.",
            "Selects methods, fields, etc. to which it applies.",
        ),
        (
            "Selects methods, fields, etc. The next one.",
            "Selects methods, fields, etc.",
        ),
        (
            "Is this field deprecated? Depending on the target, yes.",
            "Is this field deprecated?",
        ),
        (
            "Levels separated by a '.' character. Next.",
            "Levels separated by a '.' character.",
        ),
        ('Such as "api_key" . It is case sensitive.', 'Such as "api_key" .'),
        ("Set `a. B` first. Then more.", "Set `a. B` first."),
        ("A (see below.) Next.", "A (see below.)"),
        ('Says "done." Next.', 'Says "done."'),
        ("Uses a ? b : c here. Next.", "Uses a ? b : c here."),
        ("No end mark", "No end mark"),
        ("Enable it. Default is true.", "Enable it."),
    ],
)
def test_summary_ends_at_the_sentence_end(text, summary):
    assert doc_parts(text)[0] == summary
    assert first_sentence(text) == summary


def test_summaries_of_all_real_text_lose_nothing_and_end_at_a_sentence_end():
    """Every real text (a few thousand: all of them, not a sample)."""
    checked = 0
    for text in real_texts():
        lead = _lead(text)
        if lead is None:
            continue
        summary, rest = doc_parts(text)
        # the summary is a prefix of the first paragraph, and the rest follows it
        assert lead.startswith(summary), text
        after = lead[len(summary) :]
        assert after == "" or (after.startswith(" ") and " ".join(rest[0].split()) == after.strip()), text
        # it ends at the paragraph's end or at an end mark (with its closing quotes)
        assert after == "" or re.search(r"[.?!][\"')\]]*\Z", summary), text
        # never at an abbreviation a word always follows
        assert not any(re.search(rf"(?:^|[\s(\"']){re.escape(a)}\Z", summary) for a in ALWAYS_FOLLOWED), text
        checked += 1
    assert checked > 1500


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_an_abbreviation_inside_a_real_first_sentence_does_not_end_it(data):
    """Any of INSERTED put between two words of a real summary leaves it one
    sentence: the summary is the old one with the insertion."""
    lead = _lead(data.draw(st.sampled_from(real_texts())))
    if lead is None:
        return
    summary, _ = doc_parts(lead)
    words = summary.split(" ")
    if len(words) < 2 or summary.count("`") % 2:
        return
    at = data.draw(st.integers(1, len(words) - 1))
    if re.search(
        r"[.?!][\"')\]]*\Z", words[at - 1]
    ):  # after "etc." a capital would end it
        return
    phrase = data.draw(st.sampled_from(INSERTED))
    longer = " ".join([*words[:at], phrase, *words[at:]])
    assert doc_parts(longer + lead[len(summary) :])[0] == longer
