"""protoc's conventions: -I/--proto-path, imports across folders, output
independent of the working folder, and clear errors for what cannot resolve."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from generator.inputs.compile import check_sources, find_proto_files
from generator.errors import GeneratorError
from tests.support import ROOT

CASE = ROOT / "tests" / "goldens" / "cases" / "include_paths" / "input" / "root"


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".lock")
    }


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLEET_CODEGEN_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def test_output_is_byte_identical_from_any_working_folder(tmp_path):
    """F9: the same run with relative paths from the project, then with
    absolute ones from an unrelated folder: the same bytes (the headers'
    Regenerate line is relative to the output's project, not the working
    folder), and check from anywhere is clean."""
    project = tmp_path / "project"
    (project / "schema").mkdir(parents=True)
    for proto in CASE.rglob("*.proto"):
        target = project / "schema" / proto.relative_to(CASE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(proto.read_bytes())
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    common = ["--no-annotations", "--package", "acme_api"]
    first = cli(project, "generate", "--proto", "schema", "-I", "schema", "--out", "out", *common)
    assert first.returncode == 0, first.stderr
    written = tree(project / "out")
    assert "# Inputs: acme/common/v1/common.proto, acme/trace/v1/trace.proto\n" in (
        project / "out" / "acme_api" / "__init__.py"
    ).read_text()
    schema, out = str(project / "schema"), str(project / "out")
    second = cli(elsewhere, "generate", "--proto", schema, "--proto-path", schema, "--out", out, *common)
    assert second.returncode == 0 and second.stdout.endswith("0 changed\n"), second.stdout + second.stderr
    assert tree(project / "out") == written
    again = cli(elsewhere, "check", "--full", "--proto", schema, "-I", schema, "--out", out, *common)
    assert again.returncode == 0 and "clean" in again.stdout, again.stdout + again.stderr


def test_unresolved_import_names_the_folders_searched_and_suggests_I(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["generate", "--no-annotations", "--package", "p", "--out", str(out),
                 "--proto", str(CASE / "acme" / "trace" / "v1" / "trace.proto")]) == 2
    err = capsys.readouterr().err
    assert 'trace.proto:5: import "acme/common/v1/common.proto" not found; searched ' in err
    assert str(CASE / "acme" / "trace" / "v1") in err and "(well-known types)" in err
    assert "with -I DIR" in err
    assert "File not found" not in err and "Traceback" not in err
    assert not out.exists()


def test_proto_outside_every_include_folder_is_refused(tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    out = tmp_path / "out"
    assert main(["check", "--no-annotations", "--package", "p", "--out", str(out), "-I", str(other),
                 "--proto", str(CASE / "acme")]) == 2
    err = capsys.readouterr().err
    assert "common.proto: this --proto file is not under any include folder" in err
    assert str(other) in err and not out.exists()


def test_missing_include_folder_is_refused(tmp_path, capsys):
    assert main(["generate", "--no-annotations", "--package", "p", "--out", str(tmp_path / "out"),
                 "-I", str(tmp_path / "nope"), "--proto", str(CASE)]) == 2
    assert "no such include folder (-I/--proto-path)" in capsys.readouterr().err


def test_proto_path_from_pyproject(tmp_path, monkeypatch, capsys):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.fleet-strategy-codegen]\n"
        f'proto = ["{(CASE / "acme").as_posix()}"]\nproto_path = ["{CASE.as_posix()}"]\n'
        'out = "gen"\npackage = "from_table"\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "--no-annotations"]) == 0, capsys.readouterr().err
    assert (tmp_path / "gen" / "from_table" / "acme" / "trace" / "v1" / "trace_pb2.py").is_file()


@pytest.mark.parametrize("spelling", ["-I", "--proto-path"])
def test_folder_of_well_known_copies_is_generated_as_given(tmp_path, capsys, spelling):
    """F2: a folder holding its own google/protobuf/*.proto (as many schema
    repositories vendor them) no longer fails with 'already defined'."""
    vendored = tmp_path / "schema"
    (vendored / "google" / "protobuf").mkdir(parents=True)
    (vendored / "google" / "protobuf" / "duration.proto").write_text(
        'syntax = "proto3";\npackage google.protobuf;\nmessage Duration { int64 seconds = 1; int32 nanos = 2; }\n'
    )
    (vendored / "job.proto").write_text(
        'syntax = "proto3";\nimport "google/protobuf/duration.proto";\n'
        "message Job { google.protobuf.Duration timeout = 1; }\n"
    )
    assert main(["generate", "--no-annotations", "--package", "vend", "--out", str(tmp_path / "out"),
                 spelling, str(vendored), "--proto", str(vendored)]) == 0, capsys.readouterr().err


def test_imported_file_that_is_not_generated_names_the_flag(tmp_path, capsys):
    """F8: only protobuf's well-known types may be imported without being generated."""
    out = tmp_path / "out"
    assert main(["generate", "--no-annotations", "--package", "p", "--out", str(out), "-I", str(CASE),
                 "--proto", str(CASE / "acme" / "trace" / "v1" / "trace.proto")]) == 2
    err = capsys.readouterr().err
    assert "error: acme/trace/v1/trace.proto: imports acme/common/v1/common.proto, which is not generated" in err
    assert f"add {CASE}/acme/common/v1/common.proto (or a folder holding it) with --proto" in err  # as typed
    assert "Traceback" not in err and not out.exists()


def test_unresolved_import_names_the_whole_closure_at_once(tmp_path, capsys):
    """Issue 19: the first run names every file of the import closure that is
    not generated (b, then what b imports, nearest first), not one level per run;
    well-known types and generated files are not named."""
    schema = tmp_path / "schema"
    schema.mkdir()
    files = {
        "a.proto": 'import "b.proto";\nimport "x.proto";\nmessage A { optional B b = 1; optional X x = 2; }',
        "b.proto": 'import "c.proto";\nimport "google/protobuf/timestamp.proto";\nmessage B { optional C c = 1; }',
        "c.proto": 'import "d.proto";\nimport "a2.proto";\nmessage C { optional D d = 1; optional A2 a2 = 2; }',
        "d.proto": "message D {}",
        "x.proto": "message X {}",
        "a2.proto": "message A2 {}",
    }
    for name, text in files.items():
        (schema / name).write_text('syntax = "proto2";\n' + text + "\n")
    out = tmp_path / "out"
    assert main(["generate", "--no-annotations", "--package", "p", "--out", str(out), "-I", str(schema),
                 "--proto", str(schema / "a.proto"), "--proto", str(schema / "a2.proto")]) == 2
    err = capsys.readouterr().err
    assert "error: a.proto: imports b.proto, which is not generated" in err
    assert "imports b.proto, which is not generated, nor are the files it imports in turn: c.proto, d.proto (only" in err
    assert f"add {schema}/b.proto, {schema}/c.proto, {schema}/d.proto (or folders holding them) with --proto" in err
    assert "error: a.proto: imports x.proto, which is not generated" in err
    assert f"add {schema}/x.proto (or a folder holding it)" in err
    assert "timestamp" not in err and "a2.proto" not in err.split("imports b.proto")[1]
    assert "Traceback" not in err and not out.exists()


def test_well_known_type_crash_is_gone(tmp_path, capsys):
    """F1: the issue's example generates (it used to be a KeyError traceback)."""
    (tmp_path / "event.proto").write_text(
        'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\n'
        "message Event { google.protobuf.Timestamp at = 1; }\n"
    )
    assert main(["generate", "--no-annotations", "--package", "ev", "--out", str(tmp_path / "out"),
                 "--proto", str(tmp_path / "event.proto")]) == 0, capsys.readouterr().err
    assert "from google.protobuf import timestamp_pb2" in (tmp_path / "out" / "ev" / "event_pb2.pyi").read_text()


# ------------------------------------------- what is read: regular files, UTF-8, no links in folders

PROTO = 'syntax = "proto2";\npackage {package};\nmessage {name} {{ optional int32 x = 1; }}\n'


def test_links_inside_a_proto_folder_are_not_followed(tmp_path):
    """A folder's content never changes through a link: a symlinked folder is
    not entered, a symlinked .proto is refused; a link named on the command line is read."""
    folder, outside = tmp_path / "schema", tmp_path / "outside"
    folder.mkdir()
    outside.mkdir()
    (folder / "a.proto").write_text(PROTO.format(package="a", name="A"))
    (outside / "b.proto").write_text(PROTO.format(package="b", name="B"))
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    assert find_proto_files([folder]) == [folder / "a.proto"]
    (folder / "c.proto").symlink_to(outside / "b.proto")
    with pytest.raises(GeneratorError) as info:
        find_proto_files([folder])
    assert str(info.value) == (
        f"{folder / 'c.proto'}: a symbolic link inside a --proto folder is not followed "
        "(name the file itself with --proto, or put a copy in the folder)"
    )
    assert find_proto_files([folder / "c.proto"]) == [folder / "c.proto"]


def test_non_regular_proto_files_are_refused_without_opening_them(tmp_path):
    folder = tmp_path / "schema"
    (folder / "dir.proto").mkdir(parents=True)  # a folder named like a file is walked, not read
    (folder / "dir.proto" / "a.proto").write_text(PROTO.format(package="a", name="A"))
    assert find_proto_files([folder]) == [folder / "dir.proto" / "a.proto"]
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.proto")
        os.mkfifo(tmp_path / "other.proto")
        with pytest.raises(GeneratorError) as info:
            find_proto_files([folder, tmp_path / "other.proto"])  # every one is named, not only the first
        assert [str(p) for p in info.value.problems] == [
            f"{folder / 'pipe.proto'}: .proto file is a FIFO (named pipe), not a regular file",
            f"{tmp_path / 'other.proto'}: .proto file is a FIFO (named pipe), not a regular file",
        ]


def test_a_proto_file_that_is_not_utf8_names_its_line(tmp_path, capsys):
    proto = tmp_path / "latin.proto"
    proto.write_bytes(b'syntax = "proto2";\npackage demo;\n// Caf\xe9 au lait.\nmessage Root { optional int32 x = 1; }\n')
    assert main(["generate", "--no-annotations", "--package", "p", "--out", str(tmp_path / "out"), "--proto", str(proto)]) == 2
    assert capsys.readouterr().err == (
        f"error: {proto}:3: .proto file is not UTF-8: byte 0xe9 at column 7 "
        "(save it as UTF-8; Latin-1 and other legacy encodings are not read)\n"
    )


def test_imports_are_followed_as_protoc_follows_them(tmp_path):
    """Before protoc runs, every file it would open is checked: the inputs, and
    what they import (in -I order, at any depth); an import spelt only in a
    comment or a string is not one. Imported files need not be UTF-8 (their
    comments are not used)."""
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "deep").mkdir(parents=True)
    second.mkdir()
    (first / "main.proto").write_text(
        'syntax = "proto2";\n// import "commented.proto";\nimport public "dep.proto";\n'
        'message M { optional string s = 1 [default = "import \\"quoted.proto\\";"]; }\n'
    )
    (second / "dep.proto").write_bytes(b'syntax = "proto2";\nimport "deep/leaf.proto";\n// caf\xe9\n')
    (first / "deep" / "leaf.proto").write_text('syntax = "proto2";\n')
    folders = (first, second)
    check_sources(["main.proto"], folders, [first / "main.proto"])
    if hasattr(os, "mkfifo"):
        for name in ("commented.proto", "quoted.proto"):
            os.mkfifo(first / name)
        check_sources(["main.proto"], folders, [first / "main.proto"])  # named only in a comment or a string
        (first / "deep" / "leaf.proto").unlink()
        os.mkfifo(first / "deep" / "leaf.proto")
        with pytest.raises(GeneratorError, match=r'imported file \("deep/leaf.proto"\) is a FIFO'):
            check_sources(["main.proto"], folders, [first / "main.proto"])


def test_compiling_leaves_the_host_import_machinery_alone(tmp_path):
    """The generator is also a library (the protoc plugin, pipeline.build):
    compiling must not add import hooks or sys.path entries to the process
    that calls it, as importing grpcio-tools' grpc_tools.protoc does."""
    script = (
        "import sys\n"
        "hooks, path = list(sys.meta_path), list(sys.path)\n"
        "from pathlib import Path\n"
        "from generator.inputs.compile import compile_protos\n"
        f"compiled = compile_protos([Path({str(ROOT / 'proto' / 'distributed_strategy.proto')!r})])\n"
        "assert compiled.descriptor_set\n"
        "print(sys.meta_path == hooks, sys.path == path, 'grpc_tools.protoc' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], env={**os.environ, "PYTHONPATH": str(ROOT)},
                         cwd=tmp_path, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True", "True", "False"]
