"""The tool as users meet it: exit codes, quiet and stable output, a consumer
repository of its own, the protoc plugin and the pre-commit hook."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import pipeline
from generator.cli import main
from generator.errors import Exit
from generator.schema.naming import RUNTIME_MODULES
from tests.support import ROOT

BIN = Path(sys.executable).parent
CONSUMER_PROTO = """\
syntax = "proto3";
package shop;

// One article on sale.
message Item {
  // Article name.
  string name = 1;
  // Price in cents.
  int64 price = 2;
}

// The shop's settings.
message Settings {
  // Items on sale.
  repeated Item items = 1;
  // Open on Sundays.
  bool sunday = 2;
}
"""
CONSUMER_TABLE = """\
[project]
name = "consumer"
version = "1"

[tool.fleet-strategy-codegen]
proto = ["schema"]
out = "src"
package = "shop_api"
"""


def make_consumer(folder: Path) -> Path:
    """A repository that is not this one: its own proto and [tool.fleet-strategy-codegen]
    table, and a `generator` package of its own (which must not shadow the tool)."""
    (folder / "schema").mkdir(parents=True)
    (folder / "schema" / "shop.proto").write_text(CONSUMER_PROTO)
    (folder / "pyproject.toml").write_text(CONSUMER_TABLE)
    (folder / "generator").mkdir()
    (folder / "generator" / "__init__.py").write_text("")
    (folder / "generator" / "__main__.py").write_text("raise SystemExit(0)  # the consumer's own module\n")
    return folder


def drift(consumer: Path) -> None:
    proto = consumer / "schema" / "shop.proto"
    proto.write_text(proto.read_text().replace("// Open on Sundays.", "// Open on Sundays and holidays."))


@pytest.fixture
def consumer(tmp_path, monkeypatch) -> Path:
    folder = make_consumer(tmp_path / "consumer")
    monkeypatch.chdir(folder)
    return folder


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------ exit codes


def test_an_unexpected_exception_is_an_internal_error_not_drift(consumer, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("generator.cli.build", broken)
    assert main(["check", "--full"]) == Exit.INTERNAL == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == "internal error: RuntimeError: boom"
    assert err[1].startswith("hint: this is a bug in fleet-strategy-codegen") and len(err) == 2


@pytest.mark.parametrize("command", ["generate", "check"])
def test_unusable_output_folder_is_exit_2_without_traceback(consumer, capsys, command):
    (consumer / "blocker").write_text("a file where the output folder should be")
    code = main([command, "--out", "blocker/out"])
    err = capsys.readouterr().err
    # issue 28: said in the user's terms, not "File exists"; check too (its Fix could never work)
    assert code == Exit.ERROR
    assert err == "error: --out blocker/out: blocker is a file, not a folder\n"
    assert main([command, "--out", "blocker"]) == Exit.ERROR
    assert capsys.readouterr().err == "error: --out blocker is a file, not a folder (name a folder)\n"
    assert (consumer / "blocker").read_text() == "a file where the output folder should be"


def test_read_only_output_folder_is_exit_2(consumer, capsys):
    assert main(["generate", "--out", "/proc/fleet-strategy-out"]) == Exit.ERROR  # read-only even for root
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and len(err.splitlines()) == 1


def test_missing_and_non_proto_inputs_are_exit_2_in_one_line(consumer, capsys):
    assert main(["check", "--proto", "nowhere.proto"]) == Exit.ERROR
    assert capsys.readouterr().err == "error: nowhere.proto: no such .proto file or folder\n"
    (consumer / "README.md").write_text("# not a proto\n" * 200)
    assert main(["check", "--proto", "README.md"]) == Exit.ERROR
    assert capsys.readouterr().err == "error: README.md: not a .proto file (give .proto files or folders of them)\n"


def test_a_garbage_proto_gives_a_bounded_report_without_protocs_log_noise(consumer, capsys):
    (consumer / "schema" / "shop.proto").write_text("# not a proto ®\n" * 200)
    assert main(["check"]) == Exit.ERROR
    err = capsys.readouterr().err.splitlines()
    assert len(err) <= 21 and err[-1].startswith("error: ... and ")
    assert not [line for line in err if "absl" in line or "W0000" in line]


def test_yaml_alias_bomb_is_refused_at_once_naming_the_line(consumer, capsys):
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    (consumer / "bomb.yaml").write_text("\n".join(levels) + "\n")
    started = time.perf_counter()
    assert main(["check", "--annotations", "bomb.yaml"]) == Exit.ERROR
    assert time.perf_counter() - started < 5  # unbounded expansion took minutes
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        "error: bomb.yaml:2: YAML aliases (*name) are not supported in the annotations file; "
        "write the value out (its anchor is on line 1)"
    )
    assert len(err) == 8  # one per line holding aliases


def test_a_dedented_field_key_is_named_as_such(consumer, capsys):
    (consumer / "notes.yaml").write_text(
        "messages:\n  shop.Settings:\n    fields:\n      sunday:\n        doc: Open on Sundays.\n"
        "      example: |\n        >>> 1\n        1\n"
    )
    assert main(["check", "--annotations", "notes.yaml"]) == Exit.ERROR
    assert capsys.readouterr().err == (
        "error: notes.yaml:6: unknown field of shop.Settings 'example' "
        "('example' is a key of a field's entry: indent it under the field it belongs to)\n"
    )


def test_a_bad_pyproject_table_names_the_key(consumer, capsys):
    (consumer / "pyproject.toml").write_text(CONSUMER_TABLE.replace("package =", "pakage ="))
    assert main(["check"]) == Exit.ERROR
    err = capsys.readouterr().err
    assert "unknown key 'pakage'" in err and "did you mean 'package'?" in err


# ------------------------------------------------------- quiet, stable output


def test_headers_name_generator_version_and_inputs_only():
    for path in sorted((ROOT / "generated" / "fleet_strategy").glob("*.py*")):
        head = path.read_text().splitlines()[:4]
        shipped = {f"{m}.py": "runtime" for m in RUNTIME_MODULES} | {"lint.py": "linter"}  # verbatim copies of the tool's own modules
        if path.name in shipped:  # they depend on no input
            assert head[:2] == [
                "# @generated by fleet-strategy-codegen 0.1.0. DO NOT EDIT.",
                f"# A verbatim copy of fleet-strategy-codegen's {shipped[path.name]} (generator/shipped/{path.name}): "
                "edit that file, then regenerate.",
            ]
            continue
        assert head[:3] == [
            "# @generated by fleet-strategy-codegen 0.1.0. DO NOT EDIT.",
            "# Inputs: distributed_strategy.proto, fleet_strategy.annotations.yaml",
            "# Regenerate: fleet-strategy-codegen generate",
        ], path.name
        if path.name == "hooks.py":  # a copy of a hand-written input
            assert head[3] == "# A copy of the hand-written hooks.py beside the annotations file: edit that file, then regenerate."
            continue
        assert not head[3].startswith("#"), path.name


def test_a_changed_generator_with_unchanged_output_changes_no_file(consumer, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    assert main(["generate"]) == 0
    before = _tree(consumer / "src")
    assert main(["check"]) == 0
    assert "this generator made these very files from these inputs" in capsys.readouterr().out  # the fast answer
    monkeypatch.setattr(pipeline, "generator_hash", lambda: "an edited generator")
    assert main(["check"]) == 0
    assert "clean (25 generated files match the inputs)" in capsys.readouterr().out  # rebuilt, not trusted
    monkeypatch.setattr(pipeline, "generator_hash", lambda: "another edit")
    assert main(["generate"]) == 0
    assert capsys.readouterr().out == "shop_api: generated 25 files, 0 changed\n"
    assert _tree(consumer / "src") == before


def test_an_input_edit_that_changes_no_output_is_no_drift(consumer, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no memo of the edited inputs from an earlier run
    assert main(["generate"]) == 0
    before = _tree(consumer / "src")
    proto = consumer / "schema" / "shop.proto"
    proto.write_text(proto.read_text() + "\n// A detached note: documents nothing, generates nothing.\n")
    capsys.readouterr()
    assert main(["check"]) == 0  # the manifest records the output, not a hash of the inputs
    assert capsys.readouterr().out == "shop_api: clean (25 generated files match the inputs)\n"
    assert main(["generate"]) == 0
    assert _tree(consumer / "src") == before


def test_generate_on_a_fresh_clone_generates(consumer, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["generate"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another machine"))  # a clone: output committed, no cache
    assert main(["generate"]) == 0
    assert capsys.readouterr().out == "shop_api: generated 25 files, 0 changed\n"


def test_a_one_word_doc_edit_reports_its_hunks_only(consumer, capsys):
    assert main(["generate"]) == 0
    drift(consumer)
    capsys.readouterr()
    assert main(["check"]) == Exit.DRIFT
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines.pop(0) == "API changes for users (against the last generation): none"  # docs are not API
    assert lines.pop(0) == ""
    assert lines[:6] == [
        "stale: src/shop_api.md",
        "stale: src/shop_api/schemas/shop.Settings.schema.json",  # the field's description
        "stale: src/shop_api/shop.py",
        "stale: src/shop_api/shop_pb2.pyi",  # the stubs carry every field's comment too
        "stale: src/shop_api/types.py",  # and so does its TypedDict key (on the input TypedDict only)
        "stale: src/shop_api.manifest.json (its records of the files; no diff shown)",
    ]
    # the table row, the doc, the JSON Schema's description, the docstring, the stub's
    # docstring, the input TypedDict key's string
    assert len([line for line in lines if line.startswith("@@")]) == 6
    changed = [line for line in lines if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert changed == [
        "-| [`sunday`](#settings-sunday) | `bool` | `False` | Open on Sundays. |",
        "+| [`sunday`](#settings-sunday) | `bool` | `False` | Open on Sundays and holidays. |",
        "-Open on Sundays.",
        "+Open on Sundays and holidays.",
        '-      "description": "Open on Sundays.",',
        '+      "description": "Open on Sundays and holidays.",',
        '-    """Open on Sundays. ``bool``, default ``False``."""',  # under its one-line declaration
        '+    """Open on Sundays and holidays. ``bool``, default ``False``."""',
        '-    """Open on Sundays."""',
        '+    """Open on Sundays and holidays."""',
        '-    """Open on Sundays."""',
        '+    """Open on Sundays and holidays."""',
    ]
    assert lines[-1] == "The generated package is out of date. Fix: fleet-strategy-codegen generate"


# ----------------------------------------------------------- the protoc plugin




def _protoc_with_plugin(out: Path, *parameters: str) -> subprocess.CompletedProcess[str]:
    plugin = BIN / "protoc-gen-fleet-strategy"
    assert plugin.is_file(), "the dev install provides the plugin's console script"
    return subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "-Iproto", f"--plugin=protoc-gen-fleet-strategy={plugin}",
         f"--fleet-strategy_out={out}", f"--fleet-strategy_opt={','.join(parameters)}", "proto/distributed_strategy.proto"],
        cwd=ROOT, capture_output=True, text=True,
    )


def test_protoc_plugin_output_is_byte_identical_to_the_cli(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    result = _protoc_with_plugin(out, "proto_path=proto", f"out={out}", "require_docs")
    assert result.returncode == 0, result.stderr
    produced = _tree(out)
    # what the CLI generated (`check --require-docs --full` proves it): the files its manifest lists, and the manifest
    manifest = "fleet_strategy.manifest.json"
    listed = [*json.loads((ROOT / "generated" / manifest).read_text())["files"], manifest]
    assert sorted(produced) == sorted(listed)
    for relative in listed:
        assert produced[relative] == (ROOT / "generated" / relative).read_bytes(), relative


def test_protoc_plugin_needs_only_the_request(tmp_path):
    """Run from an unrelated folder, with -I elsewhere and no proto_path=, the
    plugin reads no .proto file and writes the CLI's files byte for byte."""
    schema = tmp_path / "elsewhere" / "schema"
    schema.mkdir(parents=True)
    shutil.copy(ROOT / "proto" / "distributed_strategy.proto", schema / "distributed_strategy.proto")
    out = tmp_path / "out"
    out.mkdir()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    plugin = BIN / "protoc-gen-fleet-strategy"
    options = f"annotations={ROOT / 'proto' / 'fleet_strategy.annotations.yaml'},package=fleet_strategy,out={out}"
    result = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{schema}", f"--plugin=protoc-gen-fleet-strategy={plugin}",
         f"--fleet-strategy_out={out}", f"--fleet-strategy_opt={options}", str(schema / "distributed_strategy.proto")],
        cwd=cwd, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    produced = _tree(out)
    manifest = "fleet_strategy.manifest.json"
    listed = [*json.loads((ROOT / "generated" / manifest).read_text())["files"], manifest]
    assert sorted(produced) == sorted(listed)
    for relative in listed:
        assert produced[relative] == (ROOT / "generated" / relative).read_bytes(), relative
    assert list(cwd.iterdir()) == []


def test_protoc_plugin_says_that_protoc_does_not_create_the_output_folder(tmp_path):
    missing = tmp_path / "not yet"
    result = _protoc_with_plugin(missing, "proto_path=proto", f"out={missing}")
    assert result.returncode != 0  # protoc's own failure
    note = (f"protoc-gen-fleet-strategy: note: the output folder {missing} does not exist, "
            f"and protoc does not create it: mkdir -p '{missing}' first")
    assert note in result.stderr.splitlines()
    assert not missing.exists()
    missing.mkdir()  # as the note says: then it runs, without the note
    result = _protoc_with_plugin(missing, "proto_path=proto", f"out={missing}")
    assert result.returncode == 0, result.stderr
    assert "note" not in result.stderr and (missing / "fleet_strategy" / "runtime.py").is_file()


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_protoc_plugin_answers_help_and_version_as_text(flag):
    result = subprocess.run([BIN / "protoc-gen-fleet-strategy", flag], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    if flag == "--version":
        assert result.stdout == "protoc-gen-fleet-strategy (fleet-strategy-codegen) 0.1.0\n"
    else:
        assert result.stdout.startswith("usage: protoc --plugin=protoc-gen-fleet-strategy=PATH")
        assert "require_docs" in result.stdout


def test_protoc_plugin_reports_a_bad_parameter(tmp_path):
    result = _protoc_with_plugin(tmp_path, "proto_path=proto", "pakage=x")
    assert result.returncode != 0
    assert "unknown plugin parameter 'pakage' (did you mean 'package'?)" in result.stderr
    assert not list(tmp_path.iterdir())


def test_protoc_plugin_reports_an_internal_error_in_one_line(monkeypatch):
    from google.protobuf.compiler import plugin_pb2

    from generator import plugin

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline, "build", broken)
    monkeypatch.chdir(ROOT)
    request = plugin_pb2.CodeGeneratorRequest(parameter="proto_path=proto", file_to_generate=["distributed_strategy.proto"])
    response = plugin_pb2.CodeGeneratorResponse.FromString(plugin.generate(request.SerializeToString()))
    assert response.error == "internal error: RuntimeError: boom (a bug in fleet-strategy-codegen 0.1.0; please report it)"
    assert not response.file


# ---------------------------------------------- installed, outside this repo


def _run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def _wheel(source: Path, dest: Path) -> tuple[Path, list[str], str]:
    """Build a wheel of ``source`` into ``dest``: (the wheel, its file names, its METADATA)."""
    import zipfile

    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dest, source)
    assert built.returncode == 0, built.stderr
    wheel = next(dest.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        files = archive.namelist()
        return wheel, files, archive.read(next(n for n in files if n.endswith("METADATA"))).decode()


def test_built_wheel_works_in_a_new_venv_outside_the_repo(tmp_path):
    """sdist -> wheel (so the sdist holds what a build needs) -> a venv outside
    the repository -> the console script on a consumer repo of its own."""
    import sysconfig
    import tarfile
    import zipfile

    clone = tmp_path / "clone"  # the working tree as a fresh clone has it (no build leftovers)
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for relative in filter(None, listed.stdout.split("\0")):
        if (ROOT / relative).is_file():
            (clone / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / relative, clone / relative)
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.build_sdist({str(dist)!r}))", cwd=clone)
    assert built.returncode == 0, built.stderr
    sdist = dist / built.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(tmp_path / "unpacked", filter="data")
    assert any(n.endswith("/LICENSE") for n in names) and any(n.endswith("/templates/_header.j2") for n in names)
    assert not [n for n in names if "/generated/" in n]  # the runtime is its own distribution
    wheel, files, metadata = _wheel(next((tmp_path / "unpacked").iterdir()), tmp_path / "wheel")
    with zipfile.ZipFile(wheel) as archive:
        entry_points = archive.read(next(n for n in files if n.endswith("entry_points.txt"))).decode()
    assert "fleet_strategy_codegen/templates/REFERENCE.md.j2" in files
    # every module of every package of the generator (pyproject.toml lists the packages)
    sources = {f"fleet_strategy_codegen/{p.relative_to(ROOT / 'generator').as_posix()}" for p in (ROOT / "generator").rglob("*.py")}
    assert sources <= set(files), sorted(sources - set(files))
    # the templates compiled at build time (build_hooks.py), one module each; never committed
    compiled = [n for n in files if n.startswith("fleet_strategy_codegen/render/compiled_templates/t_")]
    assert len(compiled) == len(list((ROOT / "templates").glob("*.j2")))
    assert "build_hooks.py" in {Path(n).name for n in names} and not (ROOT / "generator" / "render" / "compiled_templates").exists()
    assert not [n for n in files if n.startswith(("fleet_strategy/", "generator/", "templates/", "tests/"))]
    assert "License-Expression: Apache-2.0" in metadata
    for requirement in ("grpcio-tools<2,>=1.71.2", "black<27,>=24.1", "jinja2", "pyyaml", "protobuf<8,>=5.29", 'tomli>=1.1; python_version < "3.11"'):
        assert f"Requires-Dist: {requirement}" in metadata
    assert "fleet-strategy-codegen = fleet_strategy_codegen.cli:run" in entry_points
    assert "protoc-gen-fleet-strategy = fleet_strategy_codegen.plugin:main" in entry_points

    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", "--without-pip", venv).returncode == 0
    python = venv / "bin" / "python"
    installed = _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel)
    assert installed.returncode == 0, installed.stderr
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    # the dependencies from this environment (its .pth files are not processed there: no editable install leaks in)
    (site / "_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = _run(python, "-c", "import fleet_strategy_codegen; print(fleet_strategy_codegen.__file__)")
    assert where.stdout.startswith(str(site)), where

    consumer = make_consumer(tmp_path / "consumer")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    before = _tree(site)
    tool = venv / "bin" / "fleet-strategy-codegen"
    generated = _run(tool, "generate", cwd=consumer, env=env)
    assert generated.returncode == 0, generated.stderr
    assert generated.stdout.endswith("shop_api: generated 25 files, 25 changed\n")
    assert _run(tool, "check", "--require-docs", cwd=consumer, env=env).returncode == 0
    full = _run(tool, "check", "--require-docs", "--full", cwd=consumer, env=env)
    assert (full.returncode, full.stdout) == (0, "shop_api: clean (25 generated files match the inputs)\n")
    drift(consumer)
    drifted = _run(tool, "check", cwd=consumer, env=env)
    assert drifted.returncode == 1 and "stale: src/shop_api/shop.py" in drifted.stdout
    assert _run(python, "-m", "fleet_strategy_codegen", "--version", cwd=consumer, env=env).stdout == "fleet-strategy-codegen 0.1.0\n"
    assert (venv / "bin" / "protoc-gen-fleet-strategy").is_file()
    assert _tree(site) == before, "nothing is written into site-packages at run time"
    assert not (tmp_path / "cache" / "fleet-strategy-codegen" / "templates").exists()  # none compiled: the wheel's
    imported = _run(python, "-c", "import shop_api; s = shop_api.Settings(); s.sunday = True; print(s.sunday)", cwd=consumer / "src", env=env)
    assert imported.stdout == "True\n", imported.stderr


def test_an_editable_install_byte_compiles_the_checkout(tmp_path, monkeypatch):
    """An editable install runs from the checkout (its templates compile in
    memory): its build step byte-compiles the checkout's modules, as pip does
    a wheel's, so the first generate after README command 1 compiles none."""
    import importlib.util

    import build_hooks

    calls: list[Path] = []
    monkeypatch.setattr(build_hooks.build_py, "run", lambda self: None)
    monkeypatch.setattr(build_hooks, "byte_compile", calls.append)
    command = build_hooks.BuildPy.__new__(build_hooks.BuildPy)
    command.editable_mode = True
    command.run()
    assert calls == [ROOT / "generator"]
    monkeypatch.undo()
    copy = tmp_path / "generator"
    shutil.copytree(ROOT / "generator", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert build_hooks.byte_compile(copy)
    modules = sorted(copy.rglob("*.py"))
    assert len(modules) > 40
    assert [m for m in modules if not Path(importlib.util.cache_from_source(str(m))).is_file()] == []


def test_runtime_package_is_its_own_distribution_needing_protobuf_only(tmp_path):
    source = tmp_path / "runtime"  # a copy: a build leaves build/ and *.egg-info beside its sources
    shutil.copytree(ROOT / "generated", source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    _, files, metadata = _wheel(source, tmp_path / "wheel")
    package = sorted(n for n in files if not n.startswith("fleet_strategy-"))
    assert package == sorted(
        p.relative_to(ROOT / "generated").as_posix()
        for p in (ROOT / "generated" / "fleet_strategy").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert "fleet_strategy/schemas/paddle.fleet.DistributedStrategy.schema.json" in package
    # protobuf only; PyYAML only with the `yaml` extra (configs as YAML files), ruamel.yaml
    # with `migrate` (YAML rewritten keeping its comments)
    assert [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")] == [
        "Requires-Dist: protobuf<8,>=4.22",
        'Requires-Dist: PyYAML<7,>=5.4; extra == "yaml"',
        'Requires-Dist: ruamel.yaml<1,>=0.18; extra == "migrate"',
    ]
    assert "Provides-Extra: yaml" in metadata and "Provides-Extra: migrate" in metadata
    assert "License-Expression: Apache-2.0" in metadata and any(n.endswith("licenses/LICENSE") for n in files)


# ----------------------------------------------------------------- pre-commit


def test_pre_commit_hook_in_a_scratch_repository(tmp_path):
    """The hook from this checkout (pre-commit installs it, with its declared
    dependencies, into an environment of its own) in a repository that is not
    this one: a clean tree passes, a drift fails."""
    consumer = make_consumer(tmp_path / "consumer")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    assert _run(BIN / "fleet-strategy-codegen", "generate", cwd=consumer, env=env).returncode == 0
    git = ["git", "-c", "user.email=test@example.com", "-c", "user.name=test"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "consumer"]):
        assert _run(*git, *command, cwd=consumer).returncode == 0
    hook = [BIN / "pre-commit", "try-repo", ROOT, "fleet-strategy-check", "--all-files"]
    clean = _run(*hook, cwd=consumer, env=env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "fleet-strategy generated package is up to date" in clean.stdout and "Passed" in clean.stdout
    drift(consumer)
    drifted = _run(*hook, cwd=consumer, env=env)
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "Failed" in drifted.stdout and "stale: src/shop_api/shop.py" in drifted.stdout
    assert "+Open on Sundays and holidays." in drifted.stdout


# ---------------------------------------------------------- the Markdown reference


def test_reference_has_every_doc_and_example_spelled_as_users_write_types():
    import yaml

    reference = (ROOT / "generated" / "fleet_strategy.md").read_text()
    assert "_containers" not in reference and "_pb2." not in reference
    assert "| `` |" not in reference and "default ``" not in reference  # no empty default
    assert "Type `list[TableParameter]`." in reference  # sparse_table_configs, a hook property

    def examples(node):  # of every class and property (a field with `property: false` is none)
        if isinstance(node, dict) and node.get("property") is not False:
            for key, value in node.items():
                if key == "example" and isinstance(value, str):
                    yield value
                else:
                    yield from examples(value)

    notes = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text())
    found = list(examples(notes))
    assert len(found) > 60
    missing = [text.splitlines()[0] for text in found if text.strip() not in reference]
    assert not missing
    # the long docs too: a later paragraph of a property's doc
    assert "all tables are built before any is added" in reference


# ---------------------------------------------- the commands the tool suggests


def _suggested(text: str, after: str) -> list[str]:
    """The command a line of the tool's output suggests, split as a POSIX shell does."""
    import shlex

    line = next(line for line in text.splitlines() if after in line)
    return shlex.split(line.split(after, 1)[1].rstrip(")"))


def test_every_suggested_command_works_as_printed_without_a_config_table(tmp_path):
    """Issue 20: in a repository without [tool.fleet-strategy-codegen], the
    header's Regenerate line, generate's "details" hint, check's Fix line and
    the --strict note each carry the options used, and run as printed."""
    repo = tmp_path / "no table"  # a space: the suggestions quote their paths
    (repo / "schema").mkdir(parents=True)
    (repo / "schema" / "shop.proto").write_text(CONSUMER_PROTO)
    (repo / "pyproject.toml").write_text('[project]\nname = "consumer"\nversion = "1"\n')
    (repo / "sub").mkdir()
    env = {**os.environ, "FLEET_CODEGEN_NO_CACHE": "1"}
    tool = BIN / "fleet-strategy-codegen"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]

    def run(*args: str | Path, cwd: Path = repo) -> subprocess.CompletedProcess[str]:
        return _run(*args, cwd=cwd, env=env)

    # from a subfolder, with paths relative to it: the header names them from the project's root
    first = run(tool, "generate", "--proto", "../schema", "--out", "../out dir", "--package", "shop_api", cwd=repo / "sub")
    assert first.returncode == 0, first.stderr
    header = (repo / "out dir" / "shop_api" / "shop.py").read_text().splitlines()[2]
    assert header == "# Regenerate: fleet-strategy-codegen generate --proto schema --out 'out dir' --package shop_api"
    regenerate = _suggested(header, "# Regenerate: ")
    assert run(tool, *regenerate[1:]).stdout.endswith("0 changed\n")  # as printed, from the root: nothing to change

    drift(repo)
    check = run(tool, "check", "--proto", "schema", "--out", "out dir", "--package", "shop_api")
    assert check.returncode == 1
    fix = _suggested(check.stdout, "Fix: ")
    assert fix[:2] == ["fleet-strategy-codegen", "generate"] and "--proto" in fix
    fixed = run(tool, *fix[1:])
    assert fixed.returncode == 0, fixed.stderr
    assert run(tool, "check", "--proto", "schema", "--out", "out dir", "--package", "shop_api").returncode == 0

    assert run(*git, "init", "-q").returncode == 0 and run(*git, "add", "-A").returncode == 0
    assert run(*git, "commit", "-qm", "start").returncode == 0
    proto = repo / "schema" / "shop.proto"
    proto.write_text(proto.read_text().replace("  bool sunday = 2;\n", "  bool sunday = 2;\n  // Open late.\n  bool late = 3;\n"))
    generated = run(tool, *regenerate[1:])
    assert generated.returncode == 0, generated.stderr
    details = _suggested(generated.stdout, "(details: ")
    assert details[1:3] == ["check", "--proto"] and details[-2:] == ["--against", "HEAD"]
    report = run(tool, *details[1:])
    assert report.returncode == 0 and "added" in report.stdout and "Settings.late" in report.stdout, report.stdout + report.stderr

    strict = run(tool, "check", "--strict", "--proto", "schema", "--out", "out dir", "--package", "shop_api")
    note = next(line for line in strict.stderr.splitlines() if "--strict is deprecated" in line)
    again = _suggested(note, "write --require-docs (")
    assert "--strict" not in again and again[-1] == "--require-docs"
    assert run(tool, *again[1:]).returncode == 0
