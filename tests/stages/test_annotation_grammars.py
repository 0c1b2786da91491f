"""The grammars of annotation text the templates paste as code (issue 18.3):
type expressions, names, compatible-mode messages (and --package); and how
input file names are shown. The cases of ``annotation_errors/`` show the
file:line messages; these pin down the grammars themselves."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
import yaml

from generator.annotations.grammar import POLICY_PLACEHOLDERS, dotted_name, format_problem, python_name, type_expression_problem
from generator.errors import GeneratorError
from generator.pipeline import check_package_name
from generator.render.templates import comment_text, shown_name

ROOT = Path(__file__).resolve().parents[2]

TYPES = [
    "int",
    "None",
    "list[str]",
    "tuple[int, ...]",
    "dict[str, list[int]] | None",
    "Mapping[str, Mapping[str, Any]]",
    "Callable[[int, str], None]",
    "_containers.RepeatedCompositeFieldContainer[distributed_strategy_pb2.TableParameter]",
    "BuildStrategyInput | distributed_strategy_pb2.BuildStrategy",
    'Literal["a b", -1, True, b"x", None]',
    "typing.Literal['\"\"\"; __import__(\"os\") #']",  # a literal's text is data
    '"Forward"',
    'list["pkg.Forward | None"]',
]
NOT_TYPES = {
    "": "does not parse",
    "__import__('os').getcwd()": "a call",
    "str = __import__('os').getcwd()": "does not parse",
    "int; import os": "does not parse",
    "int\nimport os": "holds '\\n'",
    "int\r": "holds '\\r'",
    "int\u2028": "holds '\\u2028'",
    "int\x85": "holds '\\x85'",
    "int\x00": "holds '\\x00'",
    "list[\tint]": "holds '\\t'",
    "int  # comment": "comment",
    "list[int][0]": "only a (dotted) name can be subscripted",
    "f(x).y": "a call",
    "x[1:2]": "a slice",
    "(lambda: int)": "a lambda",
    "(x := int)": "assignment",
    "int + str": "an operator",
    "not int": "an operator",
    "int or str": "an operator",
    "Literal[1 | 2]": "an operator",
    "1": "the constant 1 outside Literal",
    "[int]": "a list",
    "int, str": "a tuple",
    # a star in a subscript parses from Python 3.11 (PEP 646); 3.10 refuses it as syntax
    "tuple[*Ts]": "a starred item" if sys.version_info >= (3, 11) else "it does not parse",
    '"__import__(\'os\')"': "in the forward reference",
    'list["int = 1"]': "in the forward reference",
    "[x for x in y]": "ListComp",
    "{int: str}": "Dict",
    "x if y else z": "IfExp",
    "await x": "Await",
}


@pytest.mark.parametrize("text", TYPES)
def test_type_expressions_in_the_grammar(text):
    assert type_expression_problem(text) is None


@pytest.mark.parametrize(("text", "why"), list(NOT_TYPES.items()))
def test_text_outside_the_type_grammar_says_why(text, why):
    problem = type_expression_problem(text)
    assert problem is not None and why in problem, problem


def test_every_type_in_the_project_annotations_is_in_the_grammar():
    """The real file's types are what the grammar must accept (check --full covers the rest)."""
    found: list[str] = []

    def walk(node: object, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif key in ("type", "setter_type") and isinstance(node, str):
            found.append(node)

    walk(yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text(encoding="utf-8")))
    assert len(found) >= 5
    assert [t for t in found if type_expression_problem(t) is not None] == []


@pytest.mark.parametrize(
    ("text", "ok"),
    [("strategy", True), ("_x1", True), ("é", True), ("match", True), ("class", False), ("None", False),
     ("a b", False), ("x;y", False), ("1x", False), ("", False), ("ｓtrict", False), ("x\n", False)],
)
def test_python_names(text, ok):
    assert python_name(text) is ok


@pytest.mark.parametrize(("text", "ok"), [("a.b.c", True), ("a", True), ("a.class", False), ("a..b", False), (".a", False),
                                          ("a.b-c", False), ("a.b\n", False)])
def test_dotted_names(text, ok):
    assert dotted_name(text) is ok


def test_policy_placeholders_are_those_the_runtime_fills():
    """The one call that formats a compatible-mode message passes exactly POLICY_PLACEHOLDERS."""
    tree = ast.parse((ROOT / "generator" / "shipped" / "_runtime_specs.py").read_text(encoding="utf-8"))
    calls = [
        node for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
        and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "message"
    ]
    assert len(calls) == 1
    assert not calls[0].args and sorted(k.arg for k in calls[0].keywords) == sorted(POLICY_PLACEHOLDERS)


@pytest.mark.parametrize(
    "text",
    ["{field} should have value of {type} type", "The type of `flag` is invalid, expected bool, but received {received}",
     "{property!r}: {{literal braces}} and {received!s}", "no placeholder at all", ""],
)
def test_messages_the_runtime_can_fill(text):
    assert format_problem(text) is None
    text.format(**{name: "x" for name in POLICY_PLACEHOLDERS})  # and the runtime can


@pytest.mark.parametrize(
    ("text", "why"),
    [("{field} {oops", "expected '}'"), ("a } b", "Single '}'"), ("{value}", "{value} is not a placeholder"),
     ("{}", "{} is not a placeholder"), ("{0}", "{0} is not a placeholder"),
     ("{received.__class__}", "{received.__class__} is not a placeholder"), ("{field[0]}", "is not a placeholder"),
     ("{field:>10}", "format spec"), ("{field!x}", "unknown conversion"), ("{field:{type}}", "format spec")],
)
def test_messages_the_runtime_cannot_fill_say_why(text, why):
    problem = format_problem(text)
    assert problem is not None and why in problem, problem


@pytest.mark.parametrize(
    ("name", "shown"),
    [("a/b.proto", "a/b.proto"), ("é 中文.proto", "é 中文.proto"), ("a\nb", "a\\nb"), ("a\rb", "a\\rb"),
     ("a\u2028b\x85c", "a\\u2028b\\x85c"), ("a\x00", "a\\x00"), ("a\\nb", "a\\\\nb"), ("x-->y", "x--\\x3ey")],
)
def test_shown_names_cannot_end_a_comment(name, shown):
    assert shown_name(name) == shown
    assert len(f"# {shown_name(name)}".splitlines()) == 1


def test_comment_text_keeps_lines_and_escapes_the_rest():
    assert comment_text("a\nb") == "a\nb"
    assert comment_text("a\rb\x00c\u2028d\x85") == "a\\x0db\\x00c\\u2028d\\x85"
    assert comment_text("tab\tand \\ backslash") == "tab\tand \\ backslash"


@pytest.mark.parametrize("package", ["class", "None", "../evil", "a.b", "x y"])
def test_a_package_name_is_an_identifier_and_not_a_keyword(package):
    """--package is pasted into every import of the generated modules."""
    with pytest.raises(GeneratorError, match="--package (must be a Python identifier|'[A-Za-z]+' is a Python keyword)"):
        check_package_name(package)
