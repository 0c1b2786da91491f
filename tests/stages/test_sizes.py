"""The generator's own size rule: no module over 1,000 lines, no function or
method over 80, so that each piece can be read whole (docs/architecture.md,
"House style"). The shipped runtime modules are held to it too."""

from __future__ import annotations

import ast

import pytest

from tests.support import ROOT

MODULE_LINES = 1000
FUNCTION_LINES = 80
SOURCES = sorted(
    [*(ROOT / "generator").rglob("*.py"), ROOT / "build_hooks.py"],
    key=lambda p: p.as_posix(),
)


def _relative(path):
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", SOURCES, ids=_relative)
def test_no_module_or_function_is_too_long_to_read_whole(path):
    text = path.read_text(encoding="utf-8")
    lines = text.count("\n")
    assert lines <= MODULE_LINES, f"{_relative(path)}: {lines} lines (at most {MODULE_LINES})"
    long = [
        f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > FUNCTION_LINES
    ]
    assert not long, f"{_relative(path)}: over {FUNCTION_LINES} lines: {', '.join(long)}"


def test_the_rule_finds_a_long_function(tmp_path):
    """The walk sees methods and nested functions, not only top-level ones."""
    body = "\n".join(f"        x{i} = {i}" for i in range(FUNCTION_LINES))
    source = f"class C:\n    def m(self):\n{body}\n"
    found = [
        n.name
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.FunctionDef) and n.end_lineno - n.lineno + 1 > FUNCTION_LINES
    ]
    assert found == ["m"]
