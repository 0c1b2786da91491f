"""Generated text is for users: no words of the generator's internals (its
benchmarks, speed budgets, stages, tests, design notes) in either build or the
reference page, and each difference from Paddle 3.3.1 stated once, in the
reference page, which the class docstrings point to in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fleet_strategy import DistributedJobInfo, DistributedStrategy
from generator.annotations.load import load_annotations
from generator.inputs.compile import compile_protos
from generator.schema.schema import load_schema
from tests.support import ROOT

GENERATED = ROOT / "generated"
PAGE = GENERATED / "fleet_strategy.md"
# Words a user has no use for. Domain words that look alike stay allowed: a
# pipeline's or sharding's stages, an offload budget in GB, a compile cache.
INTERNAL = [
    r"\bbenchmark",
    r"\bbudgets\b",
    r"\b(?:time|speed|performance|import|scalar_set|per-call) budget\b",
    r"\bover the \w+ budget\b",
    r"scalar_set",
    r"\bDESIGN\.md\b",
    r"\bdocs/(?:benchmarks|architecture)",
    r"\btests/",
    r"\bissue \d+",
    r"\b[Ss]tage [1-7]:",
    r"\b(?:generator|model|render|format|annotations|schema|output|writer) stages?\b",
]


def _shipped() -> list[Path]:
    files = [p for build in ("fleet_strategy", "paddle") for p in sorted((GENERATED / build).rglob("*")) if p.suffix in (".py", ".pyi", ".md")]
    return [*files, PAGE]


def internal_words(text: str) -> list[str]:
    return [m.group(0) for pattern in INTERNAL for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: p.relative_to(GENERATED).as_posix())
def test_no_internal_words_in_generated_text(path):
    assert internal_words(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "text",
    [
        "    # 3 to 6 times as much per assignment: over the scalar_set budget.",
        "measured in docs/benchmarks.md",
        "Stage 5: the model -> source text",
        "the format stage keeps it",
        "within the time budget",
    ],
)
def test_the_scan_finds_internal_words(text):
    assert internal_words(text)


@pytest.mark.parametrize("text", ["Number of pipeline stages.", "Budget, in GB, of optimizer states", "Sharding stage (1, 2 or 3)"])
def test_the_scan_leaves_domain_words(text):
    assert internal_words(text) == []


@pytest.fixture(scope="module")
def notes():
    compiled = compile_protos([ROOT / "proto" / "distributed_strategy.proto"])
    return load_annotations(ROOT / "proto" / "fleet_strategy.annotations.yaml", load_schema(compiled.descriptor_set, list(compiled.names)))


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_each_difference_is_stated_once_in_the_reference_page(notes):
    page = _flat(PAGE.read_text(encoding="utf-8"))
    texts = [text for _, text in notes.differences] + [d.text for d in notes.member_differences]
    assert len(texts) >= 12
    for text in texts:
        assert page.count(_flat(text)) == (2 if text in _shared_member_texts(notes) else 1), text[:60]


def _shared_member_texts(notes) -> set[str]:
    """A member difference of both classes is listed in each class's section."""
    return {d.text for d in notes.member_differences if len({m.split(".")[0] for m in d.of}) > 1}


@pytest.mark.parametrize("cls", [DistributedStrategy, DistributedJobInfo])
def test_the_class_docstrings_point_to_the_differences_in_one_line(cls, notes):
    doc = _flat(cls.__doc__ or "")
    assert 'How it differs from Paddle 3.3.1: "Differences from Paddle 3.3.1" in the option reference, ``fleet_strategy.md``.' in doc
    assert "Differences from Paddle 3.3.1:" not in doc  # no section listing them
    texts = [text for _, text in notes.differences] + [d.text for d in notes.member_differences]
    assert not [t for t in texts if _flat(t)[:50] in doc]


def test_the_strategy_docstring_is_short():
    assert len((DistributedStrategy.__doc__ or "").splitlines()) < 70  # 113 when the differences were listed in it


def test_no_generated_module_states_a_difference_of_the_annotations(notes):
    """Not in the Paddle build either, nor in an option's notes (the
    environment's difference was once repeated in each FLAGS_* option's)."""
    texts = [_flat(text)[:50] for _, text in notes.differences] + [_flat(d.text)[:50] for d in notes.member_differences]
    for path in _shipped()[:-1]:
        flat = _flat(path.read_text(encoding="utf-8"))
        assert not [t for t in texts if t in flat], path
