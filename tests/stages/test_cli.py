"""The command line: generate/check on the project and on copies, and bad input."""

from __future__ import annotations

import gc
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator.output.files
import generator.output.lock
from generator import output
from generator.cli import main
from generator.output import write
from tests.support import ROOT

PYTHON = sys.executable


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the project's inputs and generated package; cwd set to it."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "proto", copy / "proto")
    shutil.copytree(ROOT / "generated", copy / "generated", ignore=shutil.ignore_patterns("__pycache__", "*.lock", "build"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    monkeypatch.chdir(copy)
    return copy


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".lock")
    }


def run_in(folder: Path, code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(folder / "generated")}
    return subprocess.run([PYTHON, "-c", code], cwd=folder, env=env, capture_output=True, text=True, check=True).stdout


def test_committed_package_is_clean(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    thresholds = gc.get_threshold()
    assert main(["check", "--require-docs"]) == 0
    assert "clean" in capsys.readouterr().out
    assert gc.get_threshold() == thresholds  # main() raises the collector's threshold for its run only


def test_fast_check_is_not_fooled_by_a_hand_edited_manifest(project, capsys):
    manifest = project / "generated" / "fleet_strategy.manifest.json"
    types = project / "generated" / "fleet_strategy" / "types.py"
    assert main(["check"]) == 0  # records what these inputs generate in the user cache
    edited = types.read_text().replace("class ", "class  ", 1)  # a hand edit...
    types.write_text(edited)
    data = json.loads(manifest.read_text())
    data["files"]["fleet_strategy/types.py"] = hashlib.sha256(edited.encode()).hexdigest()  # ...and its hash
    manifest.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["check"]) == 1  # the memo in the cache is of the whole output, manifest included
    assert main(["check", "--full"]) == 1
    out = capsys.readouterr().out
    assert "stale: generated/fleet_strategy/types.py" in out
    assert "stale: generated/fleet_strategy.manifest.json (its records of the files; no diff shown)" in out
    assert "manifest.json (generated)" not in out  # the diff shows the real hunks only


def test_adding_a_field_end_to_end(project, capsys):
    proto = project / "proto" / "distributed_strategy.proto"
    text = proto.read_text()
    text = text.replace(
        "  optional GradientScaleConfig gradient_scale_configs = 203;",
        "  optional GradientScaleConfig gradient_scale_configs = 203;\n  optional bool my_flag = 990 [default = true];",
    )
    proto.write_text(text)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "stale: " in out and "+    def my_flag(self) -> bool:" in out
    assert "Fix: fleet-strategy-codegen generate" in out  # main() is the console script
    assert main(["check", "--require-docs"]) == 2  # the missing doc, before any comparing (schema-owners.md#ci)
    out, err = capsys.readouterr()
    assert "stale" not in out and "error: 1 field(s) have no documentation" in err
    assert main(["generate"]) == 0
    assert "my_flag" in capsys.readouterr().err  # undocumented: a warning names it
    assert run_in(project, "from fleet_strategy import DistributedStrategy as D; print(D().my_flag)").strip() == "True"
    doc = run_in(project, "from fleet_strategy import DistributedStrategy as D; print(D.my_flag.__doc__)")
    assert "Default:\n    ``True``" in inspect.cleandoc(doc)  # Python 3.13 dedents docstrings itself
    assert main(["check"]) == 0
    capsys.readouterr()
    assert main(["check", "--require-docs"]) == 2  # CI's flag: a field without docs is an error
    assert "error: 1 field(s) have no documentation" in capsys.readouterr().err
    assert main(["check", "--strict"]) == 2  # its deprecated spelling still works, and says so
    err = capsys.readouterr().err
    assert "note: --strict is deprecated; write --require-docs" in err and "error: 1 field(s)" in err
    first = tree(project / "generated")
    assert main(["generate"]) == 0
    assert tree(project / "generated") == first


def test_output_is_identical_under_different_hash_seeds(project, tmp_path):
    outputs = []
    committed = project / "generated"
    pristine = tmp_path / "pristine"
    shutil.move(committed, pristine)
    for seed in ("0", "12345"):  # each into the project's own output folder (its headers name it)
        shutil.rmtree(committed, ignore_errors=True)
        shutil.copytree(pristine, committed, ignore=shutil.ignore_patterns("*.py", "*.pyi", "*.md", "py.typed"))
        env = {**os.environ, "PYTHONHASHSEED": seed, "FLEET_CODEGEN_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
        subprocess.run([PYTHON, "-m", "generator", "generate"], cwd=project, env=env, check=True, capture_output=True)
        outputs.append(tree(committed))
    assert outputs[0] == outputs[1]
    assert outputs[0] == tree(pristine)


def test_orphans_are_reported_and_removed(project, capsys):
    orphan = project / "generated" / "fleet_strategy" / "old_module.py"
    orphan.write_text("# @generated by fleet-strategy-codegen 0.0.1. DO NOT EDIT.\nx = 1\n")
    handwritten = project / "generated" / "fleet_strategy" / "notes.py"
    handwritten.write_text("# my own file\n")
    assert main(["check"]) == 1
    assert "orphaned: " in capsys.readouterr().out
    assert main(["generate"]) == 0
    assert not orphan.exists() and handwritten.exists()
    assert main(["check"]) == 0


def test_missing_and_hand_edited_files_are_reported(project, capsys):
    (project / "generated" / "fleet_strategy" / "types.py").unlink()
    runtime = project / "generated" / "fleet_strategy" / "_runtime_specs.py"
    runtime.write_text(runtime.read_text().replace("KEEP: Final = object()", "KEEP: Final = None"))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "missing: " in out and "types.py" in out
    assert "-KEEP: Final = None" in out and "+KEEP: Final = object()" in out


def test_malformed_proto_is_exit_2_with_location(project, capsys):
    proto = project / "proto" / "distributed_strategy.proto"
    proto.write_text(proto.read_text().replace("optional bool amp = 2", "optional bol amp = 2"))
    before = tree(project / "generated")
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert "distributed_strategy.proto:" in err and '"bol" is not defined' in err
    assert "Traceback" not in err
    assert tree(project / "generated") == before


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (("      amp:\n", "      ampp:\n"), "unknown field of paddle.fleet.DistributedStrategy 'ampp' (did you mean 'amp'?)"),
        (("setter: set_hybrid_configs", "setter: set_hybrid_config"), "(did you mean 'set_hybrid_configs'?)"),
        (("  paddle.fleet.AMPConfig:", "  paddle.fleet.AMPConfg:"), "unknown message 'paddle.fleet.AMPConfg' (did you mean 'paddle.fleet.AMPConfig'?)"),
        (("    compat: warn\n", "    compat: wran\n"), "(did you mean 'warn'?)"),
    ],
)
def test_bad_annotations_are_exit_2_with_file_line(project, capsys, edit, words):
    path = project / "proto" / "fleet_strategy.annotations.yaml"
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1))
    before = tree(project / "generated")
    assert main(["generate"]) == 2
    err = capsys.readouterr().err
    assert words in err
    assert "fleet_strategy.annotations.yaml:" in err
    line = int(err.split("fleet_strategy.annotations.yaml:")[1].split(":")[0])
    assert edit[1].strip().split(":")[0] in path.read_text().splitlines()[line - 1]
    assert tree(project / "generated") == before


def test_bad_package_and_paths_are_refused(project, capsys):
    assert main(["generate", "--package", "../evil"]) == 2
    assert "--package must be a Python identifier" in capsys.readouterr().err
    with pytest.raises(Exception, match="outside the output folder"):
        output.files.safe_target(project / "generated", "../escape.py")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("True", "'True' is a Python keyword: `import True` is a syntax error"),
        ("None", "'None' is a Python keyword"),
        ("class", "'class' is a Python keyword"),
        ("google", "'google' is the name of the google namespace package that protobuf lives in"),
        ("typing", "'typing' is the name of a standard-library module"),
        ("json", "'json' is the name of a standard-library module"),
    ],
)
def test_package_names_that_cannot_import_are_refused(project, capsys, name, why):
    before = tree(project / "generated")
    assert main(["generate", "--package", name]) == 2
    assert f"error: --package {why}" in capsys.readouterr().err
    assert tree(project / "generated") == before


def test_soft_keywords_are_package_names():
    from generator.pipeline import check_package_name

    for name in ("match", "case", "type", "_", "fleet_strategy"):
        check_package_name(name)  # `import match` works: soft keywords are names


# ------------------------------- bad input: exit 2 naming the file, never exit 3, never a hang

SMALL = 'syntax = "proto2";\npackage demo;\n// The root.\nmessage Root {\n  // A ratio.\n  optional float ratio = 1;\n}\n'


@pytest.fixture
def small(tmp_path, monkeypatch) -> Path:
    """A one-message schema (proto/demo.proto) in the working folder, no pyproject.toml."""
    folder = tmp_path / "small"
    (folder / "proto").mkdir(parents=True)
    (folder / "proto" / "demo.proto").write_text(SMALL)
    monkeypatch.chdir(folder)
    return folder


def _cli(folder: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own: a read that blocks fails the test at the timeout instead of hanging it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLEET_CODEGEN_NO_CACHE": "1"}
    return subprocess.run([PYTHON, "-m", "generator", *args], cwd=folder, env=env, text=True, timeout=120, **kwargs)


GENERATE_SMALL = ["generate", "--proto", "proto", "--out", "out", "--package", "demo_pkg"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize(
    ("fifo", "args", "words"),
    [
        ("notes.yaml", ["--annotations", "notes.yaml"], "notes.yaml: annotations file is a FIFO (named pipe), not a regular file"),
        ("proto/extra.proto", [], "proto/extra.proto: .proto file is a FIFO (named pipe), not a regular file"),
        ("deps/dep.proto", ["--proto", "proto/uses.proto", "-I", "proto", "-I", "deps"],
         'deps/dep.proto: imported file ("dep.proto") is a FIFO (named pipe), not a regular file'),
        ("inc", ["-I", "inc"], "inc: include folder (-I/--proto-path) is a FIFO (named pipe), not a folder"),
        ("pyproject.toml", [], "pyproject.toml: pyproject.toml is a FIFO (named pipe), not a regular file"),
    ],
    ids=["annotations", "in-proto-folder", "imported", "include-folder", "pyproject"],
)
def test_a_fifo_is_refused_before_it_is_opened(small, fifo, args, words):
    (small / "deps").mkdir()
    if "proto/uses.proto" in args:
        (small / "proto" / "uses.proto").write_text('syntax = "proto2";\nimport "dep.proto";\nmessage Uses {}\n')
    os.mkfifo(small / fifo)  # nothing ever writes to it: opening it for reading would block for ever
    result = _cli(small, *GENERATE_SMALL, *args, capture_output=True)
    assert (result.returncode, result.stdout) == (2, "")
    assert words in result.stderr and "internal error" not in result.stderr
    assert not (small / "out").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_the_plugin_refuses_a_fifo_too(small):
    os.mkfifo(small / "notes.yaml")
    plugin = Path(PYTHON).parent / "protoc-gen-fleet-strategy"
    result = subprocess.run(
        [PYTHON, "-m", "grpc_tools.protoc", "-Iproto", f"--plugin=protoc-gen-fleet-strategy={plugin}",
         "--fleet-strategy_out=out", "--fleet-strategy_opt=proto_path=proto,annotations=notes.yaml,package=demo_pkg,out=out",
         "proto/demo.proto"],
        cwd=small, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0
    assert "notes.yaml: annotations file is a FIFO (named pipe), not a regular file" in result.stderr


# Each is a file the YAML loader once crashed on (exit 3); tests/stages/annotation_errors has them all
# with their lines: here the CLI and the plugin answer each as bad input, naming the file.
BAD_ANNOTATIONS = {
    "deep": b"messages:\n  demo.Root:\n    doc: " + b"[" * 800 + b"]" * 800 + b"\n",
    "merge": b"base: &base {doc: x}\nmessages:\n  demo.Root:\n    <<: *base\n",
    "python-tag": b"hooks: !!python/name:os.system\n",
    "huge-integer": b"messages:\n  demo.Root:\n    doc: " + b"9" * 100_000 + b"\n",
    "latin-1": "messages:\n  demo.Root:\n    doc: Caf\xe9.\n".encode("latin-1"),
    "utf-16": "messages:\n  demo.Root:\n    doc: The root.\n".encode("utf-16"),
}


@pytest.mark.parametrize("case", BAD_ANNOTATIONS)
def test_bad_annotations_are_bad_input_for_the_cli(small, capsys, case):
    (small / "notes.yaml").write_bytes(BAD_ANNOTATIONS[case])
    assert main([*GENERATE_SMALL, "--annotations", "notes.yaml"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: notes.yaml:") and "internal error" not in err
    assert not (small / "out").exists()


@pytest.mark.parametrize("case", BAD_ANNOTATIONS)
def test_bad_annotations_are_bad_input_for_the_plugin(small, case):
    from google.protobuf import descriptor_pb2
    from google.protobuf.compiler import plugin_pb2

    from generator import plugin
    from generator.inputs.compile import compile_protos

    (small / "notes.yaml").write_bytes(BAD_ANNOTATIONS[case])
    compiled = descriptor_pb2.FileDescriptorSet.FromString(compile_protos([Path("proto")]).descriptor_set)
    request = plugin_pb2.CodeGeneratorRequest(
        parameter="proto_path=proto,annotations=notes.yaml,package=demo_pkg,out=out",
        file_to_generate=["demo.proto"], proto_file=compiled.file,
    )
    response = plugin_pb2.CodeGeneratorResponse.FromString(plugin.generate(request.SerializeToString()))
    assert response.error.startswith(f"{small / 'notes.yaml'}:"), response.error
    assert "internal error" not in response.error and not response.file


def test_a_closed_stdout_keeps_the_exit_code(project):
    """``check | head -1``: the reader leaves early; the exit code is still the
    run's (1: drift), and a generate still writes everything."""
    proto = project / "proto" / "distributed_strategy.proto"
    proto.write_text(proto.read_text().replace("optional bool amp = 2 [default = false];", "optional bool amp = 2 [default = true];"))

    def closed_stdout(*args: str) -> subprocess.CompletedProcess[str]:
        read, write = os.pipe()
        os.close(read)  # every write to the pipe now fails with EPIPE
        try:
            return _cli(project, *args, stdout=write, stderr=subprocess.PIPE)
        finally:
            os.close(write)

    for args, code in ((["check"], 1), (["--help"], 0), (["generate"], 0), (["check"], 0)):
        result = closed_stdout(*args)
        assert (result.returncode, result.stderr) == (code, ""), args


def test_unwritable_output_keeps_previous_tree(project, capsys):
    package = project / "generated" / "fleet_strategy"
    proto = project / "proto" / "distributed_strategy.proto"
    proto.write_text(proto.read_text().replace("optional bool amp = 2 [default = false];", "optional bool amp = 2 [default = true];"))
    before = tree(project / "generated")
    # a folder where a generated file must go makes the write fail
    (package / "types.py").unlink()
    (package / "types.py").mkdir()
    assert main(["generate"]) == 2
    assert "previous files were kept" in capsys.readouterr().err
    after = tree(project / "generated")
    before.pop("fleet_strategy/types.py")
    assert after == before


def test_a_failed_write_leaves_previous_tree(project, monkeypatch, capsys):
    proto = project / "proto" / "distributed_strategy.proto"
    proto.write_text(proto.read_text().replace("optional bool amp = 2 [default = false];", "optional bool amp = 2 [default = true];"))
    before = tree(project / "generated")
    staged = []
    real = write._write_staged

    def disk_full(*args):  # the third file to stage does not fit
        staged.append(args)
        if len(staged) == 3:
            raise OSError(28, "No space left on device")
        real(*args)

    monkeypatch.setattr(write, "_write_staged", disk_full)
    assert main(["generate"]) == 2
    assert "No space left on device; the output folder was left as it was" in capsys.readouterr().err
    assert tree(project / "generated") == before
    assert not (project / "generated" / output.files.STAGING).exists()


def test_help_explains_commands():
    result = subprocess.run([PYTHON, "-m", "generator", "check", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0
    assert "exit 0 clean, 1 drift, 2 bad input" in " ".join(result.stdout.split()).lower()


def test_concurrent_generates_are_serialised_by_the_lock(project):
    """A second generate waits for the first's lock before touching the tree."""
    (project / "generated" / "fleet_strategy.manifest.json").unlink()  # force a full run
    proto = project / "proto" / "distributed_strategy.proto"
    proto.write_text(proto.read_text().replace("optional bool amp = 2 [default = false];", "optional bool amp = 2 [default = true];"))
    before = tree(project / "generated")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with output.lock.locked(project / "generated"):
        child = subprocess.Popen([PYTHON, "-m", "generator", "generate"], cwd=project, env=env, stdout=subprocess.PIPE, text=True)
        try:
            child.wait(timeout=8)  # enough to build everything; it must still be waiting for the lock
        except subprocess.TimeoutExpired:
            pass
        assert child.poll() is None, "the second generate did not wait for the lock"
        assert tree(project / "generated") == before
    assert child.wait(timeout=120) == 0
    assert tree(project / "generated") != before


def test_check_guards_the_paddle_build(project, capsys):
    """The second build (annotations' targets.paddle) is drift-checked like the first."""
    base = project / "generated" / "paddle" / "distributed" / "fleet" / "base"
    classes = base / "distributed_strategy.py"
    classes.write_text(classes.read_text().replace("def amp(self)", "def amp (self)", 1))
    (base / "_fleet_strategy" / "types.py").unlink()
    orphan = base / "_fleet_strategy" / "old_module.py"
    orphan.write_text("# @generated by fleet-strategy-codegen 0.0.1. DO NOT EDIT.\nx = 1\n")
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "stale: generated/paddle/distributed/fleet/base/distributed_strategy.py" in out
    assert "missing: generated/paddle/distributed/fleet/base/_fleet_strategy/types.py" in out
    assert "orphaned: generated/paddle/distributed/fleet/base/_fleet_strategy/old_module.py" in out
    assert main(["generate"]) == 0
    assert not orphan.exists() and main(["check", "--full"]) == 0


def test_each_build_carries_the_hooks_module_as_written(project, capsys):
    hooks = project / "proto" / "hooks.py"  # hand-written, beside the annotations
    hooks.write_text(hooks.read_text() + "\n\nEXTRA = 1\n")
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "stale: generated/paddle/distributed/fleet/base/_fleet_strategy/hooks.py" in out
    assert "stale: generated/fleet_strategy/hooks.py" in out
    assert main(["generate"]) == 0
    standalone = (project / "generated" / "fleet_strategy" / "hooks.py").read_text()
    assert standalone.startswith("# @generated by fleet-strategy-codegen") and standalone.endswith(hooks.read_text())
    copied = (project / "generated" / "paddle" / "distributed" / "fleet" / "base" / "_fleet_strategy" / "hooks.py").read_text()
    assert copied.startswith("# @generated by fleet-strategy-codegen")
    assert ">>> from fleet_strategy import" not in copied and "EXTRA = 1" in copied


def test_a_hooks_module_in_the_output_folder_is_not_read(project, capsys):
    """The output folder is no input: a hand-written hooks.py left there (the
    layout before the hooks moved beside the annotations) is neither read
    nor overwritten; generate names it as a file the tool did not write."""
    (project / "generated" / "fleet_strategy" / "hooks.py").write_text("def planted():\n    pass\n")
    assert main(["check"]) == 1
    assert "generated/fleet_strategy/hooks.py" in capsys.readouterr().out
    assert main(["generate"]) != 0
    assert (project / "generated" / "fleet_strategy" / "hooks.py").read_text() == "def planted():\n    pass\n"


def test_plugin_takes_require_docs_and_its_deprecated_spelling():
    from generator.options import parse_parameter

    assert parse_parameter("require_docs,package=x") == {"require_docs": True, "package": "x"}
    assert parse_parameter("strict") == {"strict": True}  # the old spelling still parses (the plugin notes it)


def test_every_missing_setting_is_reported_in_one_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no pyproject.toml with a [tool.fleet-strategy-codegen] table
    assert main(["generate"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [  # issue 30: where it looked for a table
        "error: no --proto, --out or --package given, and no pyproject.toml with a "
        f"[tool.fleet-strategy-codegen] table was found in {tmp_path} or a folder above it"
    ]
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "pyproject.toml").write_text('[tool.fleet-strategy-codegen]\nproto = "p"\n')
    assert main(["generate"]) == 2
    assert capsys.readouterr().err == (
        f"error: {tmp_path / 'pyproject.toml'}: no --out or --package given, "
        "and [tool.fleet-strategy-codegen] has no out or package\n"
    )


def test_help_lists_every_exit_code_and_no_deprecated_option(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "130 interrupted" in text and "3 internal error" in text
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "--strict" not in capsys.readouterr().out


def test_a_linked_hand_written_module_is_never_followed(project, monkeypatch, tmp_path, capsys):
    """The hand-written modules are found beside the annotations (not named by
    the user) and copied verbatim into the output, which check diffs into its
    log: a pull request that makes one a link to a secret of the machine (the
    CI's credentials, written as Python) must not get it printed or
    committed. A link there is refused (exit 2), fast check or --full, and its
    target is never read (issue 28)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    assert main(["generate"]) == 0 and main(["check"]) == 0  # the memo is recorded
    before = tree(project / "generated")
    secret = tmp_path / "credentials"
    secret.write_text("[default]\naws_access_key_id = AKIASECRETSECRET\n")  # parses as Python
    annotations = project / "proto" / "fleet_strategy.annotations.yaml"
    text = annotations.read_text()
    names = re.search(r"      names: \[[^\]]*\]", text)
    assert names is not None
    annotations.write_text(text.replace(names[0], "      names: [aws_access_key_id]"))
    (project / "proto" / "module_helpers.py").unlink()
    (project / "proto" / "module_helpers.py").symlink_to(secret)
    capsys.readouterr()
    for argv in (["check"], ["check", "--full"], ["generate"]):
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert "AKIASECRET" not in captured.out + captured.err
        assert "proto/module_helpers.py: a symbolic link where a hand-written module goes is not followed" in \
            captured.err, captured.err
    assert tree(project / "generated") == before


def test_the_command_leaves_without_a_last_collection(project, monkeypatch, capsys):
    """run() (the console script, ``python -m generator``) leaves through
    os._exit: main() must hand back the raised collector threshold, or the
    first allocation on the way out collects everything the run allocated
    (~8 ms of every run)."""
    from generator import cli

    left: list[tuple[int, int, bool]] = []

    def leave(code: int) -> None:
        left.append((code, gc.get_threshold()[0], gc.isenabled()))
        raise SystemExit(code)

    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    before = gc.get_threshold()
    monkeypatch.setattr(os, "_exit", leave)
    monkeypatch.setattr(sys, "argv", ["generator", "check", "--full"])
    real_main = cli.main

    def main_then_count(*args: Any, **kwargs: Any) -> int:
        code = real_main(*args, **kwargs)
        gc.callbacks.append(count)  # from main()'s return to the exit
        return code

    monkeypatch.setattr(cli, "main", main_then_count)
    try:
        with pytest.raises(SystemExit):
            cli.run()
    finally:
        if count in gc.callbacks:
            gc.callbacks.remove(count)
        gc.set_threshold(*before)
        gc.enable()
    assert left == [(0, cli.COLLECT_AFTER, False)] and collections == []
    assert "clean" in capsys.readouterr().out
