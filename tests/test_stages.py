"""Unit tests of the pipeline stages: schema, annotations, naming, render, format, output."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator import naming
from generator.annotations import load_annotations
from generator.compile import compile_protos
from generator.errors import GeneratorError
from generator.model import default_text
from generator.render import docstring, pyrepr
from generator.schema import load_schema, shortest_float32_text

SCHEMA = """\
syntax = "proto2";
package demo;
// The root.
// Second line.
//
// Second paragraph.
message Root {
  optional float ratio = 1 [default = 0.8];  // trailing comment
  optional Kind kind = 2 [default = B];
  repeated string names = 3;
  optional Child child = 4;
}
message Child { optional int32 x = 1; }
enum Kind { A = 0; B = 1; }
"""


@pytest.fixture
def schema(tmp_path):
    proto = tmp_path / "demo.proto"
    proto.write_text(SCHEMA)
    compiled = compile_protos([proto])
    return load_schema(compiled.descriptor_set, list(compiled.names))


def test_schema_reads_types_defaults_and_comments(schema):
    root = schema.messages["demo.Root"]
    assert root.doc == "The root.\nSecond line.\n\nSecond paragraph."
    ratio = root.field("ratio")
    assert ratio.type == "float" and ratio.default == pytest.approx(0.8) and default_text(schema, ratio) == "0.8"
    assert ratio.doc == "trailing comment" and ratio.line == 8
    assert root.field("kind").default == 1
    assert root.field("names").repeated and root.field("child").type_name == "demo.Child"
    assert schema.enums["demo.Kind"].values[1].name == "B"


def test_shortest_float32_text():
    assert shortest_float32_text(0.800000011920929) == "0.8"
    assert shortest_float32_text(1e-8) == "1e-08"
    assert shortest_float32_text(math.inf) == "inf"


def write_annotations(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "notes.yaml"
    path.write_text(text)
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "hooks.py").write_text("def real_hook(strategy):\n    pass\n\nclass Mixin:\n    pass\n")
    return path


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("messages:\n  demo.Root: [unclosed\n", 3, "YAML syntax error"),
        ("messages:\n  demo.Root:\n    fields:\n      ratio:\n        doc: 3\n", 5, "expected str, got int"),
        ("messages:\n  demo.Root:\n    fields:\n      ratio:\n        dok: x\n", 5, "unknown key in demo.Root.ratio 'dok' (did you mean 'doc'?)"),
        ("messages:\n  demo.Root:\n    doc: a\n    doc: b\n", 4, "duplicate key 'doc' (first given on line 3)"),
        ("hooks: hooks\nmessages:\n  demo.Root:\n    fields:\n      ratio:\n        setter: real_hok\n", 6, "(did you mean 'real_hook'?)"),
        ("messages:\n  demo.Rot: {}\n", 2, "unknown message 'demo.Rot' (did you mean 'demo.Root'?)"),
        ("messages:\n  demo.Root:\n    fields:\n      ratoi: {}\n", 4, "(did you mean 'ratio'?)"),
        ("messages:\n  demo.Root:\n    fields:\n      names:\n        constraint: '> 0'\n", 5, "only numeric fields"),
        ("messages:\n  demo.Root:\n    fields:\n      ratio:\n        constraint: 'big'\n", 5, "expected '<op> <number>'"),
        ("hooks: hooks\nclasses:\n  Root:\n    message: demo.Root\n    mixin: Mixn\n", 5, "(did you mean 'Mixin'?)"),
        ("messages:\n  demo.Root:\n    fields:\n      ratio:\n        setter: real_hook\n", 5, "no 'hooks' module is declared"),
        ("enums:\n  demo.Kind:\n    values:\n      C: {doc: x}\n", 4, "unknown value of demo.Kind 'C'"),
        ("hooks: nothooks\n", 1, "does not exist"),
        ("hooks: hooks\ntargets:\n  paddle:\n    package: a.b._x\n    classes_package: a.b\n    public_package: a\n    pb2_package: a.proto\n", 3, "missing logger"),
        ("hooks: hooks\ntargets:\n  paddle:\n    package: a.b._x\n    classes_package: a.b\n    public_package: a\n    pb2_package: a.proto\n    logger: a.log\n    pb2: x\n", 9, "unknown key in targets.paddle 'pb2' (valid: classes_package, doc, logger, package, pb2_package, public_package)"),
        ("hooks: hooks\ntargets:\n  paddle:\n    package: a.b-c._x\n    classes_package: a.b-c\n    public_package: a\n    pb2_package: a.proto\n    logger: a.log\n", 4, "is not a dotted Python name"),
        ("hooks: hooks\ntargets:\n  paddle:\n    package: other._x\n    classes_package: a.b\n    public_package: a\n    pb2_package: a.proto\n    logger: a.log\n", 4, "package must lie inside classes_package"),
        ("targets:\n  paddle:\n    package: a.b._x\n    classes_package: a.b\n    public_package: a\n    pb2_package: a.proto\n    logger: a.log\n", 1, "needs the hooks module"),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Root:\n    fields:\n      names:\n        env: FLAGS_x\n", 8, 'demo.Root.names.env: only a singular bool, number or string field can be environment-backed (field is repeated string)'),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Root:\n    fields:\n      ratio:\n        env: FLAGS-x\n", 8, "'FLAGS-x' is not an environment variable name"),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Root:\n    fields:\n      ratio:\n        env: {variabel: FLAGS_x}\n", 8, "unknown key in demo.Root.ratio.env 'variabel' (did you mean 'variable'?)"),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Root:\n    fields:\n      ratio:\n        env: {read: false}\n", 8, "demo.Root.ratio.env: 'variable' is required"),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Root:\n    fields:\n      ratio:\n        env: {variable: FLAGS_x, type: long}\n", 8, 'demo.Root.ratio.env.type must be one of bool, int, float, str'),
        ("classes:\n  Root:\n    message: demo.Root\nmessages:\n  demo.Child:\n    fields:\n      x:\n        env: FLAGS_x\n", 8, 'demo.Child.x.env: demo.Child has no class (classes:)'),
        ("hooks: hooks\nclasses:\n  Root:\n    message: demo.Root\n    environment:\n      export: _enable_env\n", 5, "classes.Root.environment: no field of demo.Root has 'env:'"),
        ("hooks: hooks\nclasses:\n  Root:\n    message: demo.Root\n    environment:\n      source: real_hok\n", 6, "(did you mean 'real_hook'?)"),
        ("hooks: hooks\nclasses:\n  Root:\n    message: demo.Root\n    environment:\n      export: 3\n", 6, 'classes.Root.environment.export: expected str, got int'),
        ("classes:\n  Root:\n    message: demo.Root\n    attributes:\n      order:\n        default: [a]\n", 5, "classes.Root.attributes.order: 'type' required"),
        ("classes:\n  Root:\n    message: demo.Root\n    attributes:\n      class:\n        default: 1\n        type: int\n", 5, "attribute 'class' is not a usable member name"),
        ("classes:\n  Root:\n    message: demo.Root\n    attributes:\n      order:\n        default: 2024-01-01\n        type: str\n", 6, 'classes.Root.attributes.order.default: expected a YAML scalar or a list of them'),
        ("classes:\n  Root:\n    message: demo.Root\n    attributes:\n      order:\n        defualt: 1\n        type: int\n", 6, "(did you mean 'default'?)"),
        ("classes:\n  Root:\n    message: demo.Root\n    aliases:\n      _set_ratio: ratoi\n", 5, "unknown field of demo.Root (classes.Root.aliases._set_ratio) 'ratoi' (did you mean 'ratio'?)"),
        ("classes:\n  Root:\n    message: demo.Root\n    aliases:\n      _set_ratio: {field: ratio, convert: str}\n", 5, "classes.Root.aliases._set_ratio.convert: only 'str', for a singular string field (field is optional float)"),
        ("classes:\n  Root:\n    message: demo.Root\n    aliases:\n      _set_ratio: {field: ratio, parameter: def}\n", 5, "classes.Root.aliases._set_ratio.parameter: 'def' is not a usable parameter name"),
        ("classes:\n  Root:\n    message: demo.Root\n    aliases:\n      _set_ratio: [ratio]\n", 5, 'classes.Root.aliases._set_ratio: expected a field name of demo.Root'),
        ("classes:\n  Root:\n    message: demo.Root\n    aliases:\n      __set: ratio\n", 5, "alias '__set' is not a usable member name"),
        ("classes:\n  Root:\n    message: demo.Root\n    attributes:\n      _set_ratio:\n        default: 1\n        type: int\n    aliases:\n      _set_ratio: ratio\n", 9, "classes.Root: member '_set_ratio' is defined twice (first on line 5)"),
        ("hooks: hooks\ntargets:\n  standalone:\n    package: a.b._x\n    classes_package: a.b\n    public_package: a\n    pb2_package: a.proto\n    logger: a.log\n", 3, "other than 'standalone'"),
        ("reference: [Acme]\n", 1, "annotations.reference: expected str or dict, got list"),
        ("reference:\n  differences: {}\n", 1, "reference: 'name' is required"),
        ("reference:\n  name: Acme 2.0\n  diferences: {}\n", 3, "unknown key in reference 'diferences' (did you mean 'differences'?)"),
        ("reference:\n  name: Acme 2.0\n  differences:\n    config_dict: x\n", 4,
         "unknown section in reference.differences 'config_dict' (did you mean 'config_dicts'?)"),
        ("reference:\n  name: Acme 2.0\n  differences:\n    validation: [x]\n", 4, "reference.differences.validation: expected str, got list"),
    ],
)
def test_malformed_annotations_name_file_line_and_suggest(schema, tmp_path, text, line, words):
    path = write_annotations(tmp_path, text)
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema, tmp_path / "pkg")
    problems = [str(p) for p in info.value.problems]
    assert any(words in p and p.startswith(f"{path}:{line}:") for p in problems), problems


def test_all_problems_are_reported_together(schema, tmp_path):
    path = write_annotations(tmp_path, "messages:\n  demo.Rot: {}\n  demo.Root:\n    fields:\n      ratoi: {}\n")
    with pytest.raises(GeneratorError) as info:
        load_annotations(path, schema, tmp_path / "pkg")
    assert len(info.value.problems) == 2


def test_without_annotations_roots_get_classes(schema):
    notes = load_annotations(None, schema, Path("."))
    assert [c.name for c in notes.classes] == ["Root"]  # Child is a field type


@pytest.mark.parametrize(
    ("name", "expected"),
    [("class", "class_"), ("None", "None_"), ("__init__", "__init___"), ("__x", "__x___"), ("property", "property_"),
     ("strategy", "strategy_"), ("type", "type"), ("amp", "amp")],
)
def test_naming_rule(name, expected):
    assert naming.python_member_name(name, {"strategy"}) == expected


@pytest.mark.parametrize(
    "value", ["", 'a"""b', "tail\\", "{{ x }} {% y %} {# z #}", "ünï\tcode\x00\x1b", "'''", "x" * 500, '"']
)
def test_docstring_filter_keeps_text_as_black_lays_it_out(value):
    """The text, only its outer whitespace as black sets it (which the
    format stage does not run on docstrings)."""
    import black

    from generator.format import mode

    literal = docstring(value)
    assert eval(literal).strip() == value.strip()  # noqa: S307 - our own literal
    source = f"def f():\n    {literal}\n"
    assert black.format_str(source, mode=mode("python")) == source


@pytest.mark.parametrize("value", [0.1, float("nan"), float("inf"), -float("inf"), b"\x00\xff", "é\n'\"", (1,), [1, "a"], None, 2**64])
def test_pyrepr_round_trips(value):
    result = eval(pyrepr(value))  # noqa: S307 - our own literal
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(result)
    else:
        assert result == value


@given(st.one_of(st.text(max_size=40), st.binary(max_size=40)))
def test_pyrepr_strings_round_trip_in_the_quotes_black_keeps(value):
    """Strings are spelled as black spells them (quotes, escapes): the format
    stage leaves literals to the templates."""
    import black

    from generator.format import mode

    literal = pyrepr(value)
    assert ast.literal_eval(literal) == value
    statement = f"x = {literal}\n"
    assert black.format_str(statement, mode=mode("python")) == statement


def test_precompiled_templates_are_current_and_render_as_their_sources(monkeypatch):
    """The compiled_templates package holds every template as jinja2 compiles
    it (python tests/regen_goldens.py rewrites it), and what it renders is
    what the sources render."""
    import jinja2

    from generator import render
    from generator.pipeline import Options, analyse
    from generator.settings import TEMPLATES
    from tests.support import ROOT

    stale = []
    for template in sorted(TEMPLATES.glob("*.j2")):
        module = render.PRECOMPILED / f"{render._precompiled_module(template.name)}.py"
        key = f"SOURCE_KEY = {render._precompiled_key(template.read_text(encoding='utf-8'))!r}"
        if not module.is_file() or key not in module.read_text(encoding="utf-8"):
            stale.append(template.name)
    assert not stale, f"stale precompiled templates {stale}: run python tests/regen_goldens.py"

    options = Options(
        protos=(ROOT / "proto" / "distributed_strategy.proto",),
        annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
        out=ROOT / "generated",
        package="fleet_strategy",
    )
    model = analyse(options).model
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    compiled_here = []
    real_load = jinja2.FileSystemLoader.load
    monkeypatch.setattr(jinja2.FileSystemLoader, "load", lambda *a, **k: compiled_here.append(a[2]) or real_load(*a, **k))
    precompiled = render.render_package(model)
    assert compiled_here == []  # every template came precompiled
    real_environment = render.environment
    monkeypatch.setattr(render, "environment", lambda templates=TEMPLATES: real_environment(templates, precompiled=False))
    assert render.render_package(model) == precompiled and compiled_here
