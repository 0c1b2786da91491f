"""One declaration per option (issue 29 point 3): the command line, the
pyproject.toml table, the protoc plugin, the docs and the Options record are
all made from generator.options.OPTIONS, and merged in one place."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import msgspec
import pytest

from generator import options as o
from generator.cli import _parser
from generator.errors import GeneratorError
from generator.project import find_config
from tests.support import ROOT


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_docs_option_list_is_the_table():
    text = (ROOT / "docs" / "schema-owners.md").read_text()
    found = re.search(r"<!-- options: .*? -->\n(.*?)<!-- end of options -->", text, re.S)
    assert found, "docs/schema-owners.md lost its option list's markers"
    assert found.group(1) == o.markdown_table(), "regenerate it from generator.options.markdown_table()"


def test_every_command_takes_exactly_its_options_from_the_table():
    commands = _subparsers(_parser("fleet-strategy-codegen"))
    assert sorted(commands) == sorted(o.COMMANDS)
    for command, parser in commands.items():
        flags = {s for a in parser._actions for s in a.option_strings} - {"-h", "--help"}
        expected = {f for option in o.OPTIONS if command in option.commands for f in option.flags}
        expected |= {f"--no-{opt.flags[0][2:]}" for opt in o.OPTIONS if opt.kind == "bool" and command in opt.commands}
        assert flags == expected, command
        for action in parser._actions:
            if action.dest in o.BY_NAME:
                option = o.BY_NAME[action.dest]
                hidden = action.help == argparse.SUPPRESS
                assert hidden == (option.replaced_by is not None)
                assert hidden or action.help.startswith(option.help)


def test_the_options_record_has_a_field_per_option():
    fields = {field.name for field in msgspec.structs.fields(o.Options)}
    assert fields == {option.name for option in o.OPTIONS} | {"regenerate"}


def test_the_table_is_checked_against_the_option_table(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[tool.fleet-strategy-codegen]\nproto = "a.proto"\nfail-on-breaking = "yes"\npakage = "x"\nout = 1\n'
    )
    with pytest.raises(GeneratorError) as caught:
        find_config(tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        f"{pyproject}: [tool.fleet-strategy-codegen]: fail-on-breaking must be true or false, got 'yes'",
        f"{pyproject}: [tool.fleet-strategy-codegen]: unknown key 'pakage' (did you mean 'package'?)",
        f"{pyproject}: [tool.fleet-strategy-codegen]: out must be a string, got 1",
    ]
    pyproject.write_text("[tool.fleet-strategy-codegen]\nannotations = []\n")
    with pytest.raises(GeneratorError, match="annotations must be a string, got \\[\\]"):
        find_config(tmp_path)


def test_one_merge_for_the_command_line_and_the_table(tmp_path):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.fleet-strategy-codegen]\nproto = "schema"\nout = "gen"\npackage = "pkg"\n'
        'annotations = "notes.yaml"\nfail-on-breaking = true\n'
    )
    config = find_config(project / "sub")  # found from below: the paths are the table's folder's
    merged = o.merge({}, config, "cli", project / "sub")
    assert (merged.protos, merged.out, merged.annotations) == (
        (project / "schema",), project / "gen", project / "notes.yaml"
    )
    assert merged.fail_on_breaking and merged.report_format == "text" and merged.proto_paths == ()
    given = {"out": Path("elsewhere"), "fail_on_breaking": False, "no_annotations": True, "strict": True}
    merged = o.merge(given, config, "cli", project / "sub")
    assert merged.out == Path("elsewhere")  # as typed: relative to the working folder
    assert not merged.fail_on_breaking  # --no-fail-on-breaking wins over the table's true
    assert merged.annotations is None and merged.require_docs  # --no-annotations; --strict's meaning


def test_one_merge_for_the_plugin(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.fleet-strategy-codegen]\npackage = "pkg"\nout = "gen"\n')
    given = o.parse_parameter("annotations=notes.yaml,strict,proto_path=inc")
    merged = o.merge(given, find_config(tmp_path), "plugin", tmp_path)
    assert (merged.package, merged.out, merged.annotations) == ("pkg", tmp_path / "gen", tmp_path / "notes.yaml")
    assert merged.proto_paths == (tmp_path / "inc",)
    assert merged.require_docs and merged.protos == ()  # protoc's request gives the protos
    with pytest.raises(GeneratorError) as caught:
        o.parse_parameter("pakage=x,require_docs=1,out,package=a,package=b")
    assert [str(p) for p in caught.value.problems] == [
        "unknown plugin parameter 'pakage' (did you mean 'package'?)",
        "plugin parameter 'require_docs=1': write it as require_docs",
        "plugin parameter 'out': write it as out=VALUE",
        "plugin parameter 'package' given twice",
    ]


def test_the_plugins_help_lists_its_parameters():
    usage = o.plugin_usage()
    for option in o.OPTIONS:
        if option.parameter and option.replaced_by is None:
            assert f"\n  {option.parameter}" in usage
    assert "strict" not in usage and "--proto" not in usage
