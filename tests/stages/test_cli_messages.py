"""Messages say what happened, in the terms the user typed (issue 28 point 11,
issue 30's messages), and the headers' Regenerate line does not depend on
the folder the tool runs from."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import pipeline
from generator.cli import main

SMALL = 'syntax = "proto2";\npackage demo;\n// The root.\nmessage Root {\n  // A ratio.\n  optional float ratio = 1;\n}\n'


@pytest.fixture
def repo(tmp_path, monkeypatch) -> Path:
    """A repository (it has .git) without a config table: schema/demo.proto."""
    folder = tmp_path / "repo"
    (folder / "schema").mkdir(parents=True)
    (folder / "schema" / "demo.proto").write_text(SMALL)
    (folder / ".git").mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    return folder


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def header_command(path: Path) -> str:
    line = path.read_text().splitlines()[2]
    assert line.startswith("# Regenerate: "), line
    return line.removeprefix("# Regenerate: ")


UNRELATED_TABLE = """\
[tool.fleet-strategy-codegen]
proto = ["other/schema"]
annotations = "other/notes.yaml"
out = "other/out"
package = "other_pkg"
"""


def test_the_regenerate_hint_is_the_same_from_any_folder(repo, tmp_path, monkeypatch, capsys):
    """The same command, with absolute paths, run from a folder whose
    pyproject.toml has a table of its own: byte-identical output, and the
    hint never claims that table (it names every option, from the repo's root)."""
    args = ["--proto", "schema", "--no-annotations", "--out", "out", "--package", "demo_pkg"]
    assert main(["generate", *args]) == 0
    first = tree(repo / "out")
    assert header_command(repo / "out" / "demo_pkg" / "demo.py") == (
        "fleet-strategy-codegen generate --proto schema --out out --package demo_pkg"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "pyproject.toml").write_text(UNRELATED_TABLE)
    monkeypatch.chdir(elsewhere)
    absolute = ["--proto", str(repo / "schema"), "--no-annotations", "--out", str(repo / "out"), "--package", "demo_pkg"]
    shutil.rmtree(repo / "out")
    assert main(["generate", *absolute]) == 0
    assert tree(repo / "out") == first
    capsys.readouterr()
    assert main(["check", "--full", *absolute]) == 0, capsys.readouterr().out


def test_the_output_folders_own_table_gives_the_bare_hint_from_anywhere(repo, tmp_path, monkeypatch):
    """Where the table of the output's project gives exactly the run's
    inputs, the hint is the bare command, whichever folder the run started in."""
    (repo / "pyproject.toml").write_text(
        '[tool.fleet-strategy-codegen]\nproto = ["schema"]\nout = "out"\npackage = "demo_pkg"\n'
    )
    assert main(["generate"]) == 0
    first = tree(repo / "out")
    assert header_command(repo / "out" / "demo_pkg" / "demo.py") == "fleet-strategy-codegen generate"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "pyproject.toml").write_text(UNRELATED_TABLE.replace('annotations = "other/notes.yaml"\n', ""))
    monkeypatch.chdir(elsewhere)
    shutil.rmtree(repo / "out")
    assert main(["generate", "--proto", str(repo / "schema"), "--out", str(repo / "out"), "--package", "demo_pkg"]) == 0
    assert tree(repo / "out") == first
    # the table gives other inputs: the hint names them all (and a table's annotations is turned off)
    (repo / "pyproject.toml").write_text(
        '[tool.fleet-strategy-codegen]\nproto = ["schema"]\nout = "out"\npackage = "demo_pkg"\nannotations = "n.yaml"\n'
    )
    assert main(["generate", "--proto", str(repo / "schema"), "--out", str(repo / "out"), "--package", "demo_pkg",
                 "--no-annotations"]) == 0
    assert header_command(repo / "out" / "demo_pkg" / "demo.py") == (
        "fleet-strategy-codegen generate --proto schema --no-annotations --out out --package demo_pkg"
    )


def test_a_path_through_a_link_is_spelled_as_typed(repo, capsys):
    """``link/../x`` is not ``x`` when link is a symbolic link: the header
    and the messages say what the user typed, and the files are where the
    system put them."""
    (repo / "far" / "deep").mkdir(parents=True)
    (repo / "link").symlink_to("far/deep")
    assert main(["generate", "--proto", "schema", "--out", "link/../x", "--package", "demo_pkg"]) == 0
    out = capsys.readouterr().out
    assert "created link/../x/demo_pkg/demo.py\n" in out
    assert not (repo / "x").exists() and (repo / "far" / "x" / "demo_pkg" / "demo.py").is_file()
    assert header_command(repo / "far" / "x" / "demo_pkg" / "demo.py") == (
        "fleet-strategy-codegen generate --proto schema --out link/../x --package demo_pkg"
    )


def test_created_then_updated(repo, capsys):
    """issue 30: generate says "created" for the files it created."""
    args = ["generate", "--proto", "schema", "--out", "out", "--package", "demo_pkg"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "created out/demo_pkg/demo.py\n" in out and "updated" not in out
    proto = repo / "schema" / "demo.proto"
    proto.write_text(proto.read_text().replace("// A ratio.", "// A ratio, in percent."))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "updated out/demo_pkg/demo.py\n" in out and "created" not in out


def test_a_path_with_a_newline_is_printed_so_it_can_be_pasted(repo, capsys):
    out_dir = "out\nnext"
    args = ["--proto", "schema", "--out", out_dir, "--package", "demo_pkg"]
    assert main(["generate", *args]) == 0
    assert "created $'out\\nnext/demo_pkg/demo.py'\n" in capsys.readouterr().out
    command = header_command(repo / out_dir / "demo_pkg" / "demo.py")
    assert command == "fleet-strategy-codegen generate --proto schema --out $'out\\nnext' --package demo_pkg"
    # what a POSIX shell makes of it: the very folder
    echoed = subprocess.run(["bash", "-c", f"printf '%s' {command.split('--out ')[1].split(' ')[0]}"],
                            capture_output=True, text=True, check=True).stdout
    assert echoed == out_dir
    assert main(["check", "--annotations", "no\nsuch.yaml", *args]) == 2
    assert capsys.readouterr().err == "error: $'no\\nsuch.yaml': annotations file not found\n"


def test_an_unreadable_output_file_is_named_as_one(repo, capsys, monkeypatch):
    """Not "cannot read input file", nor "not written by the tool": the file
    is in the output folder, and nobody can tell whose it is."""
    args = ["generate", "--proto", "schema", "--out", "out", "--package", "demo_pkg"]
    assert main(args) == 0
    capsys.readouterr()
    unreadable = os.path.join("out", "demo_pkg", "demo.py")
    real_open = os.open

    def refusing(path, flags, *rest, **kwargs):  # as chmod 000 does for anyone but root
        if os.fspath(path) == unreadable:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *rest, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: out/demo_pkg/demo.py: cannot read this file of the output folder (Permission denied), "
        "so it was kept and nothing was changed"
    ), err


def test_a_folder_swapped_during_the_run_is_said_so(repo, capsys, monkeypatch):
    """A .proto listed in its folder, then gone because the folder was
    replaced: not "input file not found"."""
    listed = pipeline.find_proto_files

    def swapping(paths):
        found = listed(paths)
        (repo / "schema").rename(repo / "schema.old")  # another process moves the folder away
        (repo / "schema").mkdir()
        return found

    monkeypatch.setattr(pipeline, "find_proto_files", swapping)
    assert main(["generate", "--proto", "schema", "--out", "out", "--package", "demo_pkg"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: schema/demo.proto: .proto file disappeared while the tool ran")
    assert "not found" not in err and not (repo / "out").exists()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("messages:\n", "annotations.messages: expected dict, got null"),
        ("messages:\n  demo.Root:\n    doc:\n", "demo.Root.doc: expected str, got null"),
        ("rules:\n", "rules: expected a mapping of message names to their rules, got null"),
    ],
)
def test_a_yaml_null_is_called_null(repo, capsys, text, words):
    """issue 30: not "got NoneType"."""
    (repo / "notes.yaml").write_text(text)
    assert main(["check", "--proto", "schema", "--annotations", "notes.yaml", "--out", "out", "--package", "p"]) == 2
    err = capsys.readouterr().err
    assert words in err and "NoneType" not in err, err


def test_an_output_folder_that_is_not_one_is_named_as_the_user_gave_it(repo, capsys):
    """Not "File exists": what is in the way, as the flag or the table said it."""
    (repo / "blocker").write_text("x")
    (repo / "dangling").symlink_to("nowhere")
    args = ["--proto", "schema", "--package", "demo_pkg"]
    for command in ("generate", "check"):
        assert main([command, *args, "--out", "dangling"]) == 2
        assert capsys.readouterr().err == (
            "error: --out dangling is a symbolic link to nothing, not a folder (name a folder)\n"
        )
    (repo / "pyproject.toml").write_text('[tool.fleet-strategy-codegen]\nout = "blocker/out"\n')
    assert main(["generate", *args]) == 2
    err = capsys.readouterr().err
    assert err == f"error: out in [tool.fleet-strategy-codegen] ({repo / 'blocker/out'}): {repo / 'blocker'} is a file, not a folder\n"
    assert (repo / "blocker").read_text() == "x" and not (repo / "nowhere").exists()


def test_the_proto_hint_names_the_file_as_the_user_would_give_it(repo, capsys):
    """issue 30: the missing import is named with its -I folder as typed
    (deps/common.proto), not relative to -I (common.proto): the path to give --proto."""
    (repo / "deps").mkdir()
    (repo / "deps" / "common.proto").write_text('syntax = "proto2";\nmessage Common {}\n')
    (repo / "schema" / "uses.proto").write_text(
        'syntax = "proto2";\nimport "common.proto";\nmessage Uses { optional Common c = 1; }\n'
    )
    args = ["--proto", "schema/uses.proto", "-I", "schema", "-I", "deps", "--out", "out", "--package", "p"]
    assert main(["check", *args]) == 2
    err = capsys.readouterr().err
    assert "uses.proto: imports common.proto, which is not generated" in err
    assert "(generate it too: add deps/common.proto (or a folder holding it) with --proto, under an -I folder)" in err
    assert main(["check", *args, "--proto", "deps/common.proto"]) == 1  # as the hint says: now it generates
