"""Issue 28.7: a .proto file's modules never take the name of a file the
package holds (its support modules, the runtime, the linter and its rules,
``__init__``/``__main__``, the hand-written modules it imports), nor one
equal to it but for case. The names naming.PACKAGE_MODULES lists are
renamed (a trailing ``_``); any other clash, computed from the files the
pipeline renders, is exit 2 naming the .proto file, before anything is written."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from generator.schema import naming
from generator.cli import main
from generator.errors import GeneratorError
from generator.options import Options
from generator.pipeline import analyse
from generator.render.templates import render_package
from tests.support import ROOT, generate, import_generated, unique_package

# a class with a lint rule: the package then has lint.py, _rules.py and __main__.py too
PROTO = """syntax = "proto2";
package {package};
// Holder.
message Holder {{
  // Enabled.
  optional bool enabled = 1;
  // N.
  optional int32 n = 2;
}}
"""
RULES = """rules:
  {package}.Holder:
    n-without-enabled:
      field: n
      effective_when: enabled
      doc: N needs enabled.
"""


def _schema(folder: Path, stem: str, proto_package: str = "held") -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    proto = folder / f"{stem}.proto"
    proto.write_text(PROTO.format(package=proto_package), encoding="utf-8")
    notes = folder / "notes.yaml"
    notes.write_text(RULES.format(package=proto_package), encoding="utf-8")
    return proto, notes


def _own_files(files: list[tuple[str, str | None]], package: str) -> set[str]:
    """The package's own top-level module names (no .proto file makes them)."""
    return {
        path.removeprefix(f"{package}/").removesuffix(".py")
        for path, proto in files
        if proto is None and path.startswith(f"{package}/") and path.count("/") == 1 and path.endswith(".py")
    }


def test_the_renamed_names_are_every_module_the_package_holds():
    """What the fleet package renders (rules, hooks, module_members, a second
    build: every kind of file) holds no top-level module of its own that a
    .proto file could take unrenamed: naming's list cannot drift from render."""
    options = Options(
        protos=(ROOT / "proto" / "distributed_strategy.proto",),
        annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
        out=ROOT / "generated",
        package="fleet_strategy",
    )
    model = analyse(options).model
    rendered = render_package(model, sources={"hooks": "", "module_helpers": ""})
    own = _own_files([(f.path, f.proto) for f in rendered], "fleet_strategy")
    assert {"lint", "_rules", "__main__", "__init__", "runtime", "types"} <= own  # (the test sees every kind)
    # the package's fixed modules, and the copies of the hand-written ones (named by the annotations:
    # a .proto file taking one of those names is refused, not renamed)
    assert own - {"hooks"} <= naming.PACKAGE_MODULES and "hooks" in own
    # every file is either made from the .proto file or the package's own
    assert {f.proto for f in rendered} == {None, "distributed_strategy.proto"}


NAMES = [*sorted(naming.PACKAGE_MODULES), "Lint", "TYPES", "_Rules", "Runtime", "__pycache__", "x_PB2"]


@pytest.mark.parametrize("stem", NAMES)
def test_a_proto_named_like_a_module_of_the_package_gets_another_module(tmp_path, stem):
    proto, notes = _schema(tmp_path / "src", stem)
    out = tmp_path / "out"
    package, result = generate(out, [proto], notes, unique_package("own"))
    module_path = naming.module_path_for_proto(f"{stem}.proto")
    assert module_path == (f"{stem}_",)
    assert {f"{package}/{stem}_.py", f"{package}/{stem}__pb2.py"} <= set(result.files)
    folded = [p.casefold() for p in result.files]
    assert len(folded) == len(set(folded))  # no two files one on a case-insensitive file system
    # the package's own modules are themselves, and the class works
    module = import_generated(out, package)
    assert module.Holder(strict=True).n == 0
    assert importlib.import_module(f"{package}.lint").lint.__module__ == f"{package}.lint"
    assert "n-without-enabled" in importlib.import_module(f"{package}._rules").RULES["held.Holder"][0]
    (out / "s.txt").write_text("n: 3\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", package, "lint", "s.txt"], cwd=out, capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (1, "s.txt:1: n-without-enabled: `n` is set but has no effect unless "
                                                "`enabled` is on.\n"), run.stderr


def test_a_dunder_folder_or_file_is_renamed_at_any_depth():
    assert naming.module_path_for_proto("a/__init__.proto") == ("a", "__init___")
    assert naming.module_path_for_proto("__main__/x.proto") == ("__main___", "x")
    assert naming.module_path_for_proto("a/lint.proto") == ("a", "lint")  # (a/lint.py replaces nothing)
    assert naming.module_path_for_proto("Types/x.proto") == ("Types_", "x")


def test_a_clash_the_renaming_misses_is_exit_2_before_any_write(tmp_path, monkeypatch):
    """The safety net under the renaming: with the list emptied, lint.proto
    would replace the package's linter; the rendered files say so."""
    monkeypatch.setattr(naming, "_PACKAGE_MODULES_FOLDED", frozenset())
    proto, notes = _schema(tmp_path / "src", "lint")
    out = tmp_path / "out"
    package = unique_package("net")
    with pytest.raises(GeneratorError) as info:
        generate(out, [proto], notes, package)
    (problem,) = info.value.problems
    assert problem.file == "lint.proto"
    assert problem.message == f"generates {package}/lint.py, which would replace the package's own {package}/lint.py"
    assert not out.exists()


def test_protos_equal_but_for_case_are_exit_2_naming_both(tmp_path, capsys):
    src = tmp_path / "src"
    (src / "Deep").mkdir(parents=True)
    (src / "Shop.proto").write_text('syntax = "proto3";\npackage s1;\nmessage S1 { int32 a = 1; }\n', encoding="utf-8")
    (src / "shop.proto").write_text('syntax = "proto3";\npackage s2;\nmessage S2 { int32 a = 1; }\n', encoding="utf-8")
    (src / "Deep" / "x.proto").write_text('syntax = "proto3";\npackage d1;\nmessage D1 { int32 a = 1; }\n', encoding="utf-8")
    (src / "deep.proto").write_text('syntax = "proto3";\npackage d2;\nmessage D2 { int32 a = 1; }\n', encoding="utf-8")
    out = tmp_path / "out"
    code = main(["generate", "--proto", str(src), "--no-annotations", "--out", str(out), "--package", "pk"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert ("Shop.proto: generates pk/Shop.py, which would clash with pk/shop.py, generated from shop.proto "
            "(equal but for case: one file on a case-insensitive file system)") in err
    assert ("Deep/x.proto: generates pk/Deep/__init__.py, which would clash with pk/deep.py, generated from "
            "deep.proto (a folder hides the module of its name on import)") in err
    assert err.count("error:") == 2, err  # one problem per pair of files, not one per .py, _pb2.py and .pyi
    assert not out.exists()


def test_a_proto_named_like_a_hand_written_module_is_exit_2(tmp_path):
    proto, _ = _schema(tmp_path / "src", "helpers")
    out = tmp_path / "out"
    package = unique_package("hand")
    (tmp_path / "helpers.py").write_text("class Mixin:\n    pass\n", encoding="utf-8")  # beside the annotations
    notes = tmp_path / "hooks.yaml"
    notes.write_text("hooks: helpers\nclasses:\n  Holder:\n    message: held.Holder\n    mixin: Mixin\n", encoding="utf-8")
    with pytest.raises(GeneratorError) as info:
        generate(out, [proto], notes, package)
    assert [str(p) for p in info.value.problems] == [
        f"helpers.proto: generates {package}/helpers.py, which would replace the package's own {package}/helpers.py "
        "(rename the .proto file (or its folder))"
    ]
    assert not out.exists() or not any(out.rglob("*.py"))  # nothing written
