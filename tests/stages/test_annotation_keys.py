"""The annotations format is declared once (generator.annotations.keys): the
loader reads its keys from there, and the docs of the format
(docs/schema-owners.md, "The annotations file") name every declared key."""

from __future__ import annotations

import re

import msgspec
import pytest

from generator.annotations.keys import FORMAT, FieldNote, Key, Keys
from tests.support import ROOT

DOCS = ROOT / "docs" / "schema-owners.md"


def _format_section() -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## The annotations file")
    return text[start : text.index("\n## ", start + 1)]


def _words_in_code() -> set[str]:
    """Every name written in a code span of the docs' format section."""
    spans = re.findall(r"`([^`]+)`", _format_section())
    return {word for span in spans for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span)}


@pytest.mark.parametrize("where", sorted(FORMAT))
def test_the_docs_name_every_declared_key(where):
    missing = sorted(set(FORMAT[where]) - _words_in_code())
    assert not missing, f"docs/schema-owners.md does not describe {where or 'the top level'}: {missing}"


@pytest.mark.parametrize("where", sorted(FORMAT))
def test_each_key_has_one_line_of_doc(where):
    for key in FORMAT[where].values():
        assert isinstance(key, Key) and key.doc and "\n" not in key.doc and len(key.doc) <= 100, (where, key.name)


def test_a_note_takes_every_declared_key_with_its_default():
    """A note's keys are its fields: the loader builds it from the keys given,
    and each left out takes the field's default, declared in the same place."""
    keys = Keys.of(FieldNote)
    declared = [f for f in msgspec.structs.fields(FieldNote) if getattr(f.type, "__metadata__", ())]
    assert list(keys) == [f.name for f in declared]
    assert [k.required for k in keys.values()] == [f.required for f in declared]
    note = FieldNote()
    assert all(getattr(note, k.attribute) == k.default for k in keys.values())  # each key's default is its field's
    assert (note.repeated, note.enforce_constraint, note.allow_nonfinite) == ("replace", "strict", False)
    assert keys["repeated"].choices == ("replace", "append") and not keys.required()


def test_the_checker_enforces_what_a_key_declares():
    """A key's type and allowed values are enforced from its declaration
    alone; the values read are keyed by the note's field names."""
    from generator.annotations.checker import Checker, Node

    c = Checker("a.yaml")
    declared = Keys(Key("mode", str, "a test key", choices=("a", "b")), Key("size", int, "another"))
    node = Node({"mode": Node("c", 2), "size": Node("x", 3), "other": Node(1, 4)}, 1)
    given = c.mapping(node, "where", declared)
    assert [str(p) for p in c.problems] == [
        "a.yaml:2: where.mode must be one of a, b",
        "a.yaml:3: where.size: expected int, got str",
        "a.yaml:4: unknown key in where 'other' (valid: mode, size)",
    ]
    assert c.values(given, declared, "where") == {"mode": "c"}
