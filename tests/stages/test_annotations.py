"""The annotations stage: every malformed annotations file gets an error naming
its file and line, with a suggestion where one is close.

Each case of ``annotation_errors/`` is an annotations file (``NAME.yaml``,
checked against the schema of conftest.py) and the error it must produce
(``NAME.expected``: ``LINE: words the message contains``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.annotations.load import load_annotations
from generator.inputs.compile import compile_protos
from generator.errors import GeneratorError
from generator.schema.schema import load_schema

ERRORS = Path(__file__).resolve().parent / "annotation_errors"
ERROR_CASES = sorted(p.stem for p in ERRORS.glob("*.yaml"))


def write_annotations(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "notes.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    (tmp_path / "hooks.py").write_text("def real_hook(strategy):\n    pass\n\nclass Mixin:\n    pass\n")
    return path


def test_every_error_case_has_its_expectation():
    assert ERROR_CASES and sorted(p.stem for p in ERRORS.glob("*.expected")) == ERROR_CASES


@pytest.mark.parametrize("case", ERROR_CASES)
def test_malformed_annotations_name_file_line_and_suggest(schema, tmp_path, case):
    path = write_annotations(tmp_path, (ERRORS / f"{case}.yaml").read_bytes())  # as stored: some cases are not UTF-8
    line, words = (ERRORS / f"{case}.expected").read_text(encoding="utf-8").rstrip("\n").split(": ", 1)
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema)
    problems = [str(p) for p in info.value.problems]
    assert any(words in p and p.startswith(f"{path}:{line}:") for p in problems), problems


def test_all_problems_are_reported_together(schema, tmp_path):
    path = write_annotations(tmp_path, "messages:\n  demo.Rot: {}\n  demo.Root:\n    fields:\n      ratoi: {}\n")
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema)
    assert len(info.value.problems) == 2


def test_without_annotations_every_message_gets_a_class(schema):
    notes = load_annotations(None, schema)
    assert [(c.name, c.message) for c in notes.classes] == [("Root", "demo.Root"), ("Child", "demo.Child")]  # Child too


def test_derived_class_names_never_clash(tmp_path):
    """Nested messages of one short name, a message named like another's dict
    view (``types`` defines ``ThingDict``), one named like a renamed class,
    self-recursive and mutually recursive messages: each gets a class, names unique."""
    proto = tmp_path / "clash.proto"
    proto.write_text(
        'syntax = "proto3";\npackage clash;\n'
        "message Thing { message Part { int32 a = 1; } Part part = 1; Thing next = 2; ThingDict dict = 3; Thing_ other = 4; }\n"
        "message Gadget { message Part { int32 b = 1; } Part part = 1; Widget w = 2; }\n"
        "message Widget { Gadget g = 1; map<string, Widget> by_name = 2; }\n"
        "message ThingDict { Thing thing = 1; }\n"
        "message Thing_ { Thing_ self_ = 1; }\n"
    )
    compiled = compile_protos([proto])
    notes = load_annotations(None, load_schema(compiled.descriptor_set, list(compiled.names)))
    names = {c.message: c.name for c in notes.classes}
    assert names == {
        "clash.Thing": "Thing", "clash.Thing.Part": "Thing_Part", "clash.Gadget": "Gadget", "clash.Gadget.Part": "Gadget_Part",
        "clash.Widget": "Widget", "clash.ThingDict": "ThingDict_", "clash.Thing_": "Thing_",
    }  # no class for Widget's map entry; ThingDict yields its name to Thing's dict view


@pytest.mark.parametrize("levels", [60, 3000])
def test_deep_nesting_is_refused_by_the_pure_python_loader_too(schema, tmp_path, monkeypatch, levels):
    """Without libyaml (which stops at 1,000 levels itself) PyYAML's composer
    recurses once per level: Python's recursion limit must not be the answer."""
    import yaml

    from generator.annotations import yaml_reader

    monkeypatch.setattr(yaml_reader, "_Loader", yaml.SafeLoader)
    path = write_annotations(tmp_path, "messages:\n  demo.Root:\n    doc: " + "[" * levels + "]" * levels + "\n")
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema)
    assert [str(p) for p in info.value.problems] == [
        f"{path}:3: nested more than {yaml_reader.MAX_DEPTH} levels deep (the annotations never need that)"
    ]


def test_plain_yaml_still_reads(schema, tmp_path):
    """What the refusals leave: JSON's types, a UTF-8 byte-order mark, quoted text that looks like a date."""
    path = write_annotations(tmp_path, '\ufeffmessages:\n  demo.Root:\n    doc: "2024-01-01"\n    fields:\n      ratio: {allow_nonfinite: !!bool true, doc: !!str 12}\n')
    notes = load_annotations(path, schema)
    assert notes.message_docs["demo.Root"] == "2024-01-01"
    assert notes.messages["demo.Root"]["ratio"].allow_nonfinite is True
    assert notes.messages["demo.Root"]["ratio"].doc == "12"


def test_a_hooks_module_that_is_not_utf8_names_its_line(schema, tmp_path):
    path = write_annotations(tmp_path, "hooks: hooks\n")
    (tmp_path / "hooks.py").write_bytes(b"def real_hook(strategy):\n    return 'caf\xe9'\n")
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema)
    assert str(info.value).startswith(f"{tmp_path / 'hooks.py'}:2: hooks module is not UTF-8: byte 0xe9 at column 16")


HOOKS_WITH_TYPES = """\
def typed(strategy) -> list[int]:
    return []

def untyped(strategy):
    return []

def not_a_type(strategy) -> print("x"):
    return []
"""
EXTRA = "hooks: hooks\nclasses:\n  Root:\n    message: demo.Root\n    extra_properties:\n      extra:\n        doc: An extra.\n        getter: {getter}\n"


@pytest.mark.parametrize("getter", ["typed", "untyped"])
def test_a_getter_hooks_return_annotation_is_its_propertys_type(schema, tmp_path, getter):
    """The type is stated once: the hook's annotation (code), not again in the annotations file."""
    path = write_annotations(tmp_path, EXTRA.format(getter=getter) + "messages:\n  demo.Root:\n    fields:\n"
                             f"      child: {{getter: {getter}}}\n")
    (tmp_path / "hooks.py").write_text(HOOKS_WITH_TYPES)
    if getter == "untyped":
        with pytest.raises(GeneratorError) as info:
            load_annotations(path, schema)
        assert [str(p) for p in info.value.problems] == [
            f"{path}:6: classes.Root.extra_properties.extra: 'type' is required (or annotate the getter hook's return type)"
        ]
        return
    notes = load_annotations(path, schema)
    assert notes.classes[0].extra_properties[0].type == "list[int]"
    assert notes.messages["demo.Root"]["child"].type == "list[int]"


def test_a_getter_hooks_return_annotation_is_checked_as_a_type(schema, tmp_path):
    path = write_annotations(tmp_path, EXTRA.format(getter="not_a_type"))
    (tmp_path / "hooks.py").write_text(HOOKS_WITH_TYPES)
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema)
    assert [str(p) for p in info.value.problems] == [
        f"{path}:8: classes.Root.extra_properties.extra.getter: the return annotation of hooks.not_a_type, "
        "\"print('x')\", is not a type expression: a call is not part of a type expression"
    ]


def _tree(node):  # a loaded Node as plain data, lines included
    value = node.value
    if isinstance(value, dict):
        value = {k: _tree(v) for k, v in value.items()}
    elif isinstance(value, list):
        value = [_tree(v) for v in value]
    return (node.line, value)


def test_an_annotations_text_reads_to_values_with_their_lines(tmp_path):
    """Every YAML value, with its line: floats keep their sign, strings their
    characters, empty collections their type."""
    import math

    from generator.annotations import checker
    from tests.support import ROOT

    path = tmp_path / "notes.yaml"
    path.write_text((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text(encoding="utf-8")
                    + "extra: [1, -0.0, .inf, null, true, 'é\\u2028', {k: [ ]}]\n", encoding="utf-8")
    tree = _tree(checker.load_yaml(path))
    extra = tree[1]["extra"][1]
    assert math.copysign(1, extra[1][1]) == -1 and extra[2][1] == math.inf
    assert [v[1] for v in (extra[0], extra[3], extra[4], extra[5])] == [1, None, True, "é\\u2028"]  # single quotes: no escapes
    assert extra[6][1] == {"k": (extra[6][0], [])}


def test_a_hooks_module_is_outlined_once_per_run(tmp_path, monkeypatch):
    """Names, return types and class members of a hand-written module come
    from one parse a run (nothing kept in the user cache: a parse is ~15 ms);
    a module that does not parse is never kept."""
    import ast

    from generator.annotations import members

    parses = []
    monkeypatch.setattr(members.ast, "parse", lambda *a, real=ast.parse, **k: parses.append(1) or real(*a, **k))
    hooks = tmp_path / "hooks.py"
    hooks.write_text("X = 1\ndef f() -> 'A | None':\n    pass\ndef f() -> list[int]:\n    pass\n"
                     "class M:\n    __slots__ = ('a',)\n    b: int\n    def c(self): pass\nclass M:\n    d = 2\n")

    def read():
        return (members.hook_names_in(hooks), members.hook_return_types(hooks),
                members.hook_class_members(hooks, "M"), members.hook_class_members(hooks, "Other"))

    members._outline_of.cache_clear()
    first = read()
    assert first == (frozenset({"X", "f", "M"}), {"f": "list[int]"}, frozenset({"__slots__", "a", "b", "c", "d"}), frozenset())
    assert len(parses) == 1 and read() == first and len(parses) == 1
    hooks.write_text("def g(:\n")
    for _ in range(2):
        members._outline_of.cache_clear()
        with pytest.raises(SyntaxError):
            members.hook_names_in(hooks)
    assert len(parses) == 3