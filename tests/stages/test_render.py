"""The render stage's filters: every literal and docstring lands as data."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.templates import docstring, pyrepr, pyrepr_laid_out


@pytest.mark.parametrize(
    "value", ["", 'a"""b', "tail\\", "{{ x }} {% y %} {# z #}", "ünï\tcode\x00\x1b", "'''", "x" * 500, '"']
)
def test_docstring_filter_keeps_text_as_black_lays_it_out(value):
    """The text, only its outer whitespace as black sets it (which the
    format stage does not run on docstrings), hidden characters as their
    escapes (the docstring holds the escape, not the character)."""
    import black

    from generator.model.doctext import visible
    from generator.render.format import mode

    literal = docstring(value)
    assert eval(literal).strip() == visible(value).strip()  # noqa: S307 - our own literal
    source = f"def f():\n    {literal}\n"
    assert black.format_str(source, mode=mode("python")) == source


@pytest.mark.parametrize("value", [0.1, float("nan"), float("inf"), -float("inf"), b"\x00\xff", "é\n'\"", (1,), [1, "a"], None, 2**64])
def test_pyrepr_round_trips(value):
    result = eval(pyrepr(value))  # noqa: S307 - our own literal
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(result)
    else:
        assert result == value


_QUOTES = "'\"\\a\n"  # quotes and backslashes, where black's quote rule decides


@settings(deadline=None)  # the first example imports black: 0.5 s on a loaded machine
@given(st.one_of(st.text(max_size=40), st.binary(max_size=40), st.text(_QUOTES, max_size=60),
                 st.text(_QUOTES, max_size=60).map(lambda t: t.encode())))
def test_pyrepr_strings_round_trip_in_the_quotes_black_keeps(value):
    """Strings are spelled as black spells them (quotes, escapes): the format
    stage leaves literals to the templates."""
    import black

    from generator.render.format import mode

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

    from generator.render.format import mode

    laid_out = pyrepr_laid_out(value, indent, keyword)
    assert eval(laid_out.strip().split("=", 1)[-1].rstrip(",") if keyword else laid_out.rstrip(",")) == value  # noqa: S307
    pad = " " * (indent - 4)
    source = f"{pad}f(\n{' ' * indent}{laid_out}\n{pad})\n"
    if indent > 4:  # nest the call so the indentation is real
        depth = indent // 4 - 1
        source = "".join(f"{' ' * (4 * i)}if x:\n" for i in range(depth)) + source
    assert black.format_str(source, mode=mode("python")) == source


def _compiles(monkeypatch) -> list[str]:
    """The names of the templates jinja2 compiles from here on."""
    import jinja2

    compiled: list[str] = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile", lambda self, source, name=None, *a, **k: compiled.append(name) or real(self, source, name, *a, **k))
    return compiled


def _model():
    from generator.options import Options
    from generator.pipeline import analyse
    from tests.support import ROOT

    options = Options(
        protos=(ROOT / "proto" / "distributed_strategy.proto",),
        annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
        out=ROOT / "generated",
        package="fleet_strategy",
    )
    return analyse(options).model


def _repository_files() -> list[Path]:
    """The checkout's files, without its venvs (CI's .venv-ci holds the cache
    folders that tests running beside this one write to), git and bytecode."""
    from tests.support import ROOT

    return sorted(
        p
        for p in ROOT.rglob("*")
        if not any(part.startswith(".venv") or part in ("__pycache__", ".git", ".hypothesis") for part in p.relative_to(ROOT).parts)
    )


def test_templates_are_compiled_in_memory_never_into_a_cache_or_the_repository(tmp_path, monkeypatch):
    """Compiled templates are code: they are not committed (issue 21) nor kept
    in the user cache (issue 28: its entries are data another branch may have
    written). A source checkout compiles them in memory, once a process,
    rendering the same text every time; a wheel carries them compiled (the
    next test)."""
    import jinja2

    from generator.render import precompiled as template_cache
    from generator.render import templates as render
    from generator.settings import TEMPLATES
    from tests.support import ROOT

    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    model = _model()
    before = _repository_files()
    render.environment.cache_clear()  # as a new process
    compiled = _compiles(monkeypatch)
    first = render.render_package(model)
    assert compiled and not (ROOT / "generator" / "render" / "compiled_templates").exists()
    assert not (tmp_path / "cache").exists()
    compiled.clear()
    assert render.render_package(model) == first and compiled == []  # once a process
    render.environment.cache_clear()
    assert render.render_package(model) == first and compiled  # a new process: compiled again, the same text
    assert _repository_files() == before  # nothing written in the repository
    # another template text or another jinja2: another key for the wheel's compiled module
    source = (TEMPLATES / "types.py.j2").read_text(encoding="utf-8")
    key = template_cache.source_key(source)
    assert template_cache.source_key(source + " ") != key
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert template_cache.source_key(source) != key


def test_a_wheel_carries_its_templates_compiled_and_renders_as_the_sources(tmp_path):
    """What build_hooks.py puts in a wheel (template_cache.write_package): an
    installed tool compiles no template, writes no cache, and renders what the
    sources render; the build compiles with stand-in filters, so the compiled
    code must be the code the real filters give."""
    import shutil

    from generator.render import precompiled as template_cache
    from generator.render import templates as render
    from generator.settings import TEMPLATES
    from tests.support import ROOT

    installed = tmp_path / "site" / "fleet_strategy_codegen"
    shutil.copytree(ROOT / "generator", installed, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TEMPLATES, installed / "templates")
    written = template_cache.write_package(TEMPLATES, installed / "render" / template_cache.PACKAGE)
    assert len(written) == len(list(TEMPLATES.glob("*.j2")))
    real = render.environment()
    for path in sorted(TEMPLATES.glob("*.j2")):
        code = real.compile(path.read_text(encoding="utf-8"), path.name, None, raw=True)
        assert code in (installed / "render" / template_cache.PACKAGE / f"{template_cache.module_name(path.name)}.py").read_text()
    script = (
        "import jinja2, sys\n"
        "from fleet_strategy_codegen.options import Options\nfrom fleet_strategy_codegen.pipeline import analyse\n"
        "from fleet_strategy_codegen.render import templates as render\n"
        "compiled = []\n"
        "real = jinja2.Environment.compile\n"
        "jinja2.Environment.compile = lambda self, *a, **k: compiled.append(a) or real(self, *a, **k)\n"
        f"options = Options(protos=({str(ROOT / 'proto' / 'distributed_strategy.proto')!r},), "
        f"annotations={str(ROOT / 'proto' / 'fleet_strategy.annotations.yaml')!r}, "
        f"out={str(ROOT / 'generated')!r}, package='fleet_strategy')\n"
        "from pathlib import Path\n"
        "options = Options(protos=(Path(options.protos[0]),), annotations=Path(options.annotations), out=Path(options.out), package='fleet_strategy')\n"
        "files = render.render_package(analyse(options).model)\n"
        "print(len(compiled), sum(len(f.text) for f in files), hash(tuple(f.text for f in files)))\n"
    )
    env = {"PYTHONPATH": str(tmp_path / "site"), "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONHASHSEED": "0",
           "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    count, size, digest = done.stdout.split()
    # nothing compiled, nothing cached
    assert count == "0" and not (tmp_path / "cache").exists()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env | {"PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1:] == [size, digest] and done.stdout.split()[0] != "0"  # the sources: compiled, same text
