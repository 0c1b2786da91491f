"""The render stage's filters: every literal and docstring lands as data."""

from __future__ import annotations

import ast
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render import docstring, pyrepr, pyrepr_laid_out


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


_LITERALS = st.recursive(
    st.one_of(st.integers(-10**6, 10**6), st.text("abcdefgh_ ", max_size=30), st.booleans()),
    lambda inner: st.one_of(st.tuples(inner), st.lists(inner, min_size=1, max_size=6).map(tuple), st.lists(inner, min_size=1, max_size=6)),
    max_leaves=30,
)


@settings(deadline=None, derandomize=True, max_examples=300)
@given(value=_LITERALS, indent=st.sampled_from([4, 8, 12, 16]), keyword=st.sampled_from(["", "when=", "a_long_keyword_name="]))
def test_pyrepr_laid_out_is_as_black_lays_out_a_long_literal(value, indent, keyword):
    """Tables of literals (the lint rules) are rendered as black would wrap
    them, so a generation needs no black (the format stage wraps no literal)."""
    import black

    from generator.format import mode

    laid_out = pyrepr_laid_out(value, indent, keyword)
    assert eval(laid_out.strip().split("=", 1)[-1].rstrip(",") if keyword else laid_out.rstrip(",")) == value  # noqa: S307
    pad = " " * (indent - 4)
    source = f"{pad}f(\n{' ' * indent}{laid_out}\n{pad})\n"
    if indent > 4:  # nest the call so the indentation is real
        depth = indent // 4 - 1
        source = "".join(f"{' ' * (4 * i)}if x:\n" for i in range(depth)) + source
    assert black.format_str(source, mode=mode("python")) == source


def test_precompiled_templates_are_current_and_render_as_their_sources(monkeypatch):
    """The compiled_templates package holds every template as jinja2 compiles
    it (python tests/goldens/regen.py rewrites it), and what it renders is
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
    assert not stale, f"stale precompiled templates {stale}: run python tests/goldens/regen.py"

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
