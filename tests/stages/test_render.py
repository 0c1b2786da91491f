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

from generator.render import docstring, pyrepr, pyrepr_laid_out


@pytest.mark.parametrize(
    "value", ["", 'a"""b', "tail\\", "{{ x }} {% y %} {# z #}", "ünï\tcode\x00\x1b", "'''", "x" * 500, '"']
)
def test_docstring_filter_keeps_text_as_black_lays_it_out(value):
    """The text, only its outer whitespace as black sets it (which the
    format stage does not run on docstrings), hidden characters as their
    escapes (the docstring holds the escape, not the character)."""
    import black

    from generator.doctext import visible
    from generator.format import mode

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


@given(st.one_of(st.text(max_size=40), st.binary(max_size=40), st.text(_QUOTES, max_size=60),
                 st.text(_QUOTES, max_size=60).map(lambda t: t.encode())))
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


def _compiles(monkeypatch) -> list[str]:
    """The names of the templates jinja2 compiles from here on."""
    import jinja2

    compiled: list[str] = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile", lambda self, source, name=None, *a, **k: compiled.append(name) or real(self, source, name, *a, **k))
    return compiled


def _model():
    from generator.pipeline import Options, analyse
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
        if not any(part.startswith(".venv") or part in ("__pycache__", ".git") for part in p.relative_to(ROOT).parts)
    )


def test_templates_are_compiled_once_into_the_user_cache_never_into_the_repository(tmp_path, monkeypatch):
    """Compiled templates are not committed (issue 21): the first run compiles
    them into the user cache folder, keyed by source and jinja2 version, and
    later runs load them from there, rendering the very same text."""
    import jinja2

    from generator import render, template_cache
    from generator.settings import TEMPLATES
    from tests.support import ROOT

    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    model = _model()
    before = _repository_files()
    compiled = _compiles(monkeypatch)
    first = render.render_package(model)
    assert compiled and not (ROOT / "generator" / "compiled_templates").exists()
    entries = sorted((tmp_path / "cache").rglob("*.bin"))
    assert len(entries) == len(set(compiled)) and all(f"jinja2-{jinja2.__version__}-" in str(e) for e in entries)
    compiled.clear()
    assert render.render_package(model) == first and compiled == []  # every template from the cache
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    assert render.render_package(model) == first and compiled  # compiled in memory: the same text
    after = _repository_files()
    assert after == before  # nothing written in the repository
    # another template text or another jinja2: another key
    source = (TEMPLATES / "types.py.j2").read_text(encoding="utf-8")
    key = template_cache.source_key(source)
    assert template_cache.source_key(source + " ") != key
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert template_cache.source_key(source) != key


def test_a_corrupt_or_truncated_cache_entry_is_compiled_again(tmp_path, monkeypatch):
    from generator import render

    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    model = _model()
    first = render.render_package(model)
    entries = sorted(tmp_path.rglob("*.bin"))
    entries[0].write_bytes(entries[0].read_bytes()[:-7])  # truncated
    entries[1].write_bytes(b"\0" * 32 + entries[1].read_bytes()[32:])  # its hash does not check out
    entries[2].write_bytes(b"")
    compiled = _compiles(monkeypatch)
    assert render.render_package(model) == first
    assert len(compiled) == 3
    compiled.clear()
    assert render.render_package(model) == first and compiled == []  # rewritten whole
    assert not [p for p in tmp_path.rglob(".tmp-*")]


def test_a_wheel_carries_its_templates_compiled_and_renders_as_the_sources(tmp_path):
    """What build_hooks.py puts in a wheel (template_cache.write_package): an
    installed tool compiles no template, writes no cache, and renders what the
    sources render; the build compiles with stand-in filters, so the compiled
    code must be the code the real filters give."""
    import shutil

    from generator import render, template_cache
    from generator.settings import TEMPLATES
    from tests.support import ROOT

    installed = tmp_path / "site" / "fleet_strategy_codegen"
    shutil.copytree(ROOT / "generator", installed, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(TEMPLATES, installed / "templates")
    written = template_cache.write_package(TEMPLATES, installed / template_cache.PACKAGE)
    assert len(written) == len(list(TEMPLATES.glob("*.j2")))
    real = render.environment()
    for path in sorted(TEMPLATES.glob("*.j2")):
        code = real.compile(path.read_text(encoding="utf-8"), path.name, None, raw=True)
        assert code in (installed / template_cache.PACKAGE / f"{template_cache.module_name(path.name)}.py").read_text()
    script = (
        "import jinja2, sys\n"
        "from fleet_strategy_codegen.pipeline import Options, analyse\n"
        "from fleet_strategy_codegen import render\n"
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
    # nothing compiled, no template cached (the annotations' read tree is: test_annotations)
    assert count == "0" and not list((tmp_path / "cache").rglob("*.bin"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env | {"PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1:] == [size, digest] and done.stdout.split()[0] != "0"  # the sources: compiled, same text


def test_a_relative_xdg_cache_home_is_ignored_as_the_spec_says(tmp_path, monkeypatch):
    """A relative XDG_CACHE_HOME would put a cache folder in whatever folder the
    tool was started from (a user's repository); the XDG spec calls it invalid."""
    from generator.settings import cache_root

    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_root() == tmp_path / "home" / ".cache" / "fleet-strategy-codegen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "absolute"))
    assert cache_root() == tmp_path / "absolute" / "fleet-strategy-codegen"
