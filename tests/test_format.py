"""Statement-wise formatting (with its cache) is exactly whole-file black."""

from __future__ import annotations

import black
import pytest

from generator.format import format_files, mode, split_class, split_statements
from generator.render import RenderedFile
from tests.support import ROOT

GENERATED = sorted(
    p
    for folder in (ROOT / "generated", ROOT / "tests" / "cases")
    for p in folder.rglob("*.py*")
    if p.suffix in (".py", ".pyi") and p.name != "hooks.py" and "__pycache__" not in p.parts
)


@pytest.mark.parametrize("path", GENERATED, ids=[p.relative_to(ROOT).as_posix() for p in GENERATED])
def test_black_leaves_generated_files_unchanged(path):
    text = path.read_text()
    assert black.format_str(text, mode=mode("stub" if path.suffix == ".pyi" else "python")) == text


def test_statement_wise_equals_whole_file(tmp_path, monkeypatch):
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    source = (
        # blank lines between simple statements are the template's job (as black wants them);
        # around defs and classes the formatter puts them
        "# header\n'''Doc.'''\n\nimport os\n\nX = 1\nY = [1,\n 2]\n"
        "class A:\n    '''A.'''\n    z = 1\n" + "".join(f"    def m{i}(self):\n        return {i}\n" for i in range(60))
        + "def f( a ):\n  return a\n# trailing\n"
    )
    formatted = format_files([RenderedFile("m.py", source, "python")])["m.py"]
    assert formatted == black.format_str(source, mode=mode("python"))
    header, pieces = split_statements(source)
    assert header == "# header\n" and len(pieces) == 6
    assert split_class(pieces[4][2]) is not None  # the long class is split by member


def test_cache_is_keyed_by_statement(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    first = format_files([RenderedFile("m.py", "# v1\nX = {'a':1}\n", "python")])["m.py"]
    entries = list(tmp_path.rglob("*"))
    second = format_files([RenderedFile("m.py", "# v2, another header\nX = {'a':1}\n", "python")])["m.py"]
    assert first == "# v1\nX = {\"a\": 1}\n" and second.endswith('X = {"a": 1}\n')
    assert list(tmp_path.rglob("*")) == entries  # the header is not part of any key
