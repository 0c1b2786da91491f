"""Every option of the tool, declared once, and the one place they are merged.

``OPTIONS`` says, for each option, its name (the ``Options`` field), its type,
default and help text, and where it applies: a command-line flag of some
commands, a key of ``[tool.fleet-strategy-codegen]`` in pyproject.toml, a
parameter of the protoc plugin. The CLI's argparse parser, the table's
checking, the plugin's parameter parsing and ``--help``, the option list in
docs/schema-owners.md and the merge into ``Options`` (``merge``) are all
made from it. Imports: errors and inputs only (the bottom of the import graph).
"""

from __future__ import annotations

import argparse
import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import msgspec

from .errors import GeneratorError, Problem, closest, shown_path
from .inputs.files import kind_of

CONFIG_TABLE = "fleet-strategy-codegen"
TABLE = f"[tool.{CONFIG_TABLE}]"
COMMANDS = ("generate", "check", "patch")

# paths: repeatable paths; path: one path; text: one word; switch: on when
# given; bool: on/off (--x / --no-x, true/false); choice: one of `choices`
Kind = Literal["paths", "path", "text", "switch", "bool", "choice"]
Where = Literal["cli", "plugin"]  # who gives the values merge() starts from


@dataclass(frozen=True)
class Option:
    name: str  # the Options field it sets
    kind: Kind
    help: str
    # its command-line spellings; none: not on the command line
    flags: tuple[str, ...] = ()
    commands: tuple[str, ...] = COMMANDS  # the commands that take the flags
    key: str | None = None  # its key in [tool.fleet-strategy-codegen]; None: none
    parameter: str | None = None  # its protoc plugin parameter; None: none
    metavar: str | None = None
    choices: tuple[str, ...] = ()
    default: object = None  # when neither given nor in the table
    required: bool = False  # a value must come from somewhere it applies
    replaced_by: str | None = None  # a deprecated spelling of that option
    clears: str | None = None  # a switch that unsets that option
    # says what is generated: repeated in the commands the tool suggests
    selects_output: bool = False
    plugin_help: str | None = None  # what it means to the plugin, when that differs

    @property
    def short_help(self) -> str:
        """The help text's first clause (the plugin's --help: one line each)."""
        return self.plugin_help or re.split(r"[;:(]", self.help)[0].strip()


OPTIONS: tuple[Option, ...] = (
    Option(
        "protos",
        "paths",
        "a .proto file or a folder of them (searched recursively; links inside it are not "
        "followed); repeatable",
        flags=("--proto",),
        key="proto",
        metavar="PATH",
        default=(),
        required=True,
        selects_output=True,
    ),
    Option(
        "proto_paths",
        "paths",
        "a folder imports are resolved against, as protoc's -I; repeatable, searched in "
        "order, then the well-known types bundled with grpcio-tools. Each --proto file "
        "must lie under one; with none, the common folder of the --proto files is the one",
        flags=("-I", "--proto-path"),
        key="proto_path",
        parameter="proto_path",
        metavar="DIR",
        default=(),
        selects_output=True,
        plugin_help="accepted and ignored: protoc's request holds the compiled files",
    ),
    Option(
        "annotations",
        "path",
        "the annotations YAML file",
        flags=("--annotations",),
        key="annotations",
        parameter="annotations",
        metavar="FILE",
        selects_output=True,
    ),
    Option(
        "no_annotations",
        "switch",
        "ignore any annotations file: derive classes and docs from the schema alone",
        flags=("--no-annotations",),
        parameter="no_annotations",
        clears="annotations",
        default=False,
        selects_output=True,
    ),
    Option(
        "out",
        "path",
        "the output folder",
        flags=("--out",),
        key="out",
        parameter="out",
        metavar="DIR",
        required=True,
        selects_output=True,
        plugin_help="the folder given as --fleet-strategy_out (its hooks module is read)",
    ),
    Option(
        "package",
        "text",
        "the name of the generated package",
        flags=("--package",),
        key="package",
        parameter="package",
        metavar="NAME",
        required=True,
        selects_output=True,
    ),
    Option(
        "require_docs",
        "switch",
        "a field without documentation is an error, not a warning; CI uses this",
        flags=("--require-docs",),
        parameter="require_docs",
        default=False,
    ),
    Option(
        "strict",
        "switch",
        "the deprecated spelling of --require-docs (still accepted, with a note)",
        flags=("--strict",),
        parameter="strict",
        replaced_by="require_docs",
        default=False,
    ),
    Option(
        "runtime",
        "choice",
        "how the package gets its runtime: 'copy' writes the runtime's modules into it "
        "(self-contained, protobuf its only dependency); 'dependency' writes none and "
        "imports them from the fleet-strategy-codegen-runtime distribution of this tool's "
        "version, which the package then needs installed (a build for a target tree "
        "always copies)",
        flags=("--runtime",),
        key="runtime",
        parameter="runtime",
        choices=("copy", "dependency"),
        default="copy",
        selects_output=True,
    ),
    Option(
        "full",
        "switch",
        "rebuild from the inputs alone, trusting nothing in the output folder (no answer "
        "from its manifest) nor in the user cache (no entry read, as on a fresh machine); "
        "CI's check uses this",
        flags=("--full",),
        default=False,
    ),
    Option(
        "overwrite",
        "switch",
        "replace a file at a path the tool writes even though the tool did not write it "
        "(no @generated marker), or a symbolic link there (the link itself, never its "
        "target); without it such a file is kept, reported, and nothing is written (exit 2)",
        flags=("--overwrite",),
        commands=("generate",),
        default=False,
    ),
    Option(
        "against",
        "text",
        "report the API changes between the inputs at git REF (e.g. origin/main) and now, "
        "whether or not the output drifted",
        flags=("--against",),
        commands=("check",),
        metavar="REF",
    ),
    Option(
        "report_format",
        "choice",
        "the API change report as text, or as one JSON document on stdout (the drift "
        "listing then goes to stderr), for bots",
        flags=("--report-format",),
        commands=("check",),
        choices=("text", "json"),
        default="text",
    ),
    Option(
        "fail_on_breaking",
        "bool",
        "exit 1 when the API change report has a breaking change that the annotations "
        "file does not accept (accepted_changes)",
        flags=("--fail-on-breaking",),
        commands=("check",),
        key="fail-on-breaking",
        default=False,
    ),
    Option(
        "tree",
        "path",
        "the source tree to diff against (its root)",
        flags=("--tree",),
        commands=("patch",),
        metavar="DIR",
        required=True,
    ),
    Option(
        "target",
        "text",
        "the build: a name under targets: in the annotations file, or 'standalone' "
        "(default: the one build besides the standalone package)",
        flags=("--target",),
        commands=("patch",),
        metavar="NAME",
    ),
    Option(
        "prefix",
        "text",
        "the folder of the tree that the build's paths start from (e.g. 'python' when "
        "the tree holds the package in python/); default: the tree's root",
        flags=("--prefix",),
        commands=("patch",),
        metavar="PATH",
        default="",
    ),
    Option(
        "output",
        "path",
        "write the diff to FILE (default: stdout)",
        flags=("--output", "-o"),
        commands=("patch",),
        metavar="FILE",
    ),
)
BY_NAME = {option.name: option for option in OPTIONS}
BY_KEY = {option.key: option for option in OPTIONS if option.key}
BY_PARAMETER = {option.parameter: option for option in OPTIONS if option.parameter}


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """One run's options, merged (``merge``): a field per entry of OPTIONS,
    and the hint the generated headers carry. Paths are as the user typed
    them (relative to the working folder), or the table's folder joined with
    the table's value."""

    protos: tuple[Path, ...]
    annotations: Path | None
    out: Path
    package: str
    # protoc's -I folders, searched in order (then the well-known types); none:
    # the common folder of the .proto inputs
    proto_paths: tuple[Path, ...] = ()
    no_annotations: bool = False
    require_docs: bool = False
    strict: bool = False
    runtime: str = "copy"  # "copy" | "dependency" (OPTIONS says what each means)
    full: bool = False
    overwrite: bool = False
    against: str | None = None
    report_format: str = "text"
    fail_on_breaking: bool = False
    tree: Path | None = None
    target: str | None = None
    prefix: str = ""
    output: Path | None = None
    # the command the generated headers tell readers to regenerate with (the CLI's
    # choice: cli.regenerate_command); None: the console script's bare generate
    regenerate: str | None = None


class Config(msgspec.Struct, frozen=True):
    """A checked [tool.fleet-strategy-codegen] table: its values by option
    name, the pyproject.toml it is in (None: no table was found) and the
    folders searched for one."""

    values: dict[str, object]
    file: Path | None
    searched: tuple[Path, ...] = ()


def _did_you_mean(name: str, choices: Sequence[str]) -> str:
    guess = closest(name, choices)
    return f"did you mean {guess!r}?" if guess else f"valid: {', '.join(choices)}"


# -------------------------------------------------- pyproject.toml's table

_TABLE_TYPES: dict[Kind, str] = {
    "paths": "a string or a list of strings",
    "path": "a string",
    "text": "a string",
    "bool": "true or false",
}


def _table_value(kind: Kind, value: object) -> object | None:
    """The table's value in the option's terms (a list of paths: a list), or
    None when it is not of the option's type."""
    if kind == "paths":
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
        return None
    if kind == "bool":
        return value if isinstance(value, bool) else None
    return value if isinstance(value, str) else None


def _must_be(option: Option) -> str:
    """What a value of ``option`` must be, in an error message."""
    if option.kind == "choice":
        return "one of " + ", ".join(repr(choice) for choice in option.choices)
    return _TABLE_TYPES[option.kind]


def check_table(table: object, file: Path) -> dict[str, object]:
    """The table's values by option name; every unknown key and value of the
    wrong type is an error (all at once), naming the file and the key."""
    if not isinstance(table, dict):
        raise GeneratorError(Problem(f"{TABLE} must be a table", str(file)))
    values: dict[str, object] = {}
    problems = []
    for key, value in table.items():
        option = BY_KEY.get(key)
        if option is None:
            hint = _did_you_mean(key, list(BY_KEY))
            problems.append(
                Problem(f"{TABLE}: unknown key {key!r}", str(file), hint=hint)
            )
            continue
        checked = _table_value(option.kind, value)
        if checked is None or (option.choices and checked not in option.choices):
            shown = "null" if value is None else repr(value)
            problems.append(
                Problem(
                    f"{TABLE}: {key} must be {_must_be(option)}, got {shown}",
                    str(file),
                )
            )
            continue
        values[option.name] = checked
    if problems:
        raise GeneratorError(problems)
    return values


# -------------------------------------------------- the command line


def add_arguments(parser: argparse.ArgumentParser, command: str) -> None:
    """The flags of ``command``, each with its help text and where its
    default comes from. Every default is None here: merge() tells a value
    given from one that is not."""
    for option in OPTIONS:
        if command not in option.commands or not option.flags:
            continue
        settings: dict[str, object] = {"dest": option.name, "default": None}
        if option.replaced_by is not None:
            settings["help"] = argparse.SUPPRESS
        else:
            settings["help"] = option.help + _default_words(option)
        if option.metavar:
            settings["metavar"] = option.metavar
        if option.kind == "paths":
            settings.update(action="append", type=Path)
        elif option.kind == "path":
            settings["type"] = Path
        elif option.kind == "switch":
            settings["action"] = "store_true"
        elif option.kind == "bool":
            settings["action"] = argparse.BooleanOptionalAction
        elif option.kind == "choice":
            settings["choices"] = option.choices
        if option.required and option.key is None:
            settings["required"] = True  # nothing else can give it
        # settings' values differ in type by key, as add_argument's keywords do
        parser.add_argument(*option.flags, **settings)  # type: ignore[arg-type]


def _default_words(option: Option) -> str:
    if option.key is not None:
        fallback = (
            f", else {_plain(option.default)}"
            if option.default not in (None, ())
            else ""
        )
        return f" (default: {option.key} in pyproject.toml{fallback})"
    if option.kind == "choice":
        return f" (default: {option.default})"
    return ""


def _plain(value: object) -> str:
    return ("off", "on")[value] if isinstance(value, bool) else str(value)


def flag_words(options: Options, given: Sequence[str]) -> list[str]:
    """``options``' values of the options named in ``given`` that select the
    output, spelled as command-line words (for the commands the tool suggests)."""
    words: list[str] = []
    for option in OPTIONS:
        if option.name not in given or not option.selects_output:
            continue
        value = getattr(options, option.name)
        flag = option.flags[0]
        if option.kind == "paths":
            words += [w for item in value for w in (flag, str(item))]
        elif option.kind == "switch":
            words += [flag] if value else []
        elif value is not None:
            words += [flag, str(value)]
    return words


# -------------------------------------------------- the protoc plugin


def parse_parameter(parameter: str) -> dict[str, object]:
    """protoc's ``--fleet-strategy_opt`` text (``a=1,b``) -> values by option
    name, as merge() takes them; unknown, repeated or misspelt keys are errors."""
    values: dict[str, object] = {}
    seen: set[str] = set()
    problems = []
    for item in filter(None, (part.strip() for part in parameter.split(","))):
        key, _, value = item.partition("=")
        option = BY_PARAMETER.get(key)
        if option is None:
            hint = _did_you_mean(key, list(BY_PARAMETER))
            problems.append(Problem(f"unknown plugin parameter {key!r}", hint=hint))
        elif key in seen:
            problems.append(Problem(f"plugin parameter {key!r} given twice"))
        elif (option.kind == "switch") == bool(value):
            form = key if option.kind == "switch" else f"{key}=VALUE"
            problems.append(Problem(f"plugin parameter {item!r}: write it as {form}"))
        elif option.choices and value not in option.choices:
            problems.append(
                Problem(f"plugin parameter {item!r}: {key} must be {_must_be(option)}")
            )
        else:
            seen.add(key)
            values[option.name] = True if option.kind == "switch" else value
    if problems:
        raise GeneratorError(problems)
    return values


def plugin_usage() -> str:
    """The plugin's --help text: its parameters, from OPTIONS."""
    rows = []
    for option in OPTIONS:
        if option.parameter is None or option.replaced_by is not None:
            continue
        value = option.metavar or "|".join(option.choices)
        form = option.parameter + (f"={value}" if option.kind != "switch" else "")
        rows.append(f"  {form:<18} {option.short_help}")
    return (
        "usage: protoc --plugin=protoc-gen-fleet-strategy=PATH --fleet-strategy_out=DIR \\\n"
        "              [--fleet-strategy_opt=KEY=VALUE,...] FILE.proto ...\n\n"
        "protoc-gen-fleet-strategy is a protoc plugin: protoc runs it and writes its\n"
        "answer to a CodeGeneratorRequest on standard input; it is not run by hand.\n"
        "Parameters (--fleet-strategy_opt, comma-separated; defaults from\n"
        f"{TABLE} in the pyproject.toml of the folder protoc runs in):\n"
        + "\n".join(rows)
        + "\nOptions: --help (this text), --version.\n"
    )


# -------------------------------------------------- the merge


def merge(
    given: Mapping[str, object], config: Config, where: Where, cwd: Path
) -> Options:
    """The run's Options: each option's value as given (on the command line,
    or as a plugin parameter), else the table's (paths relative to the table's
    folder), else its default. A deprecated spelling sets the option it
    stands for; a clearing switch unsets its option. Every missing required
    value is an error, all at once, saying where the tool looked."""
    base = config.file.parent if config.file is not None else cwd
    # the plugin's paths are relative to where protoc runs; the CLI's, as typed
    anchor = cwd if where == "plugin" else None
    values: dict[str, object] = {}
    for option in OPTIONS:
        value = _value(option, given.get(option.name), anchor)
        if value is None:
            value = _value(option, config.values.get(option.name), base)
        values[option.name] = option.default if value is None else value
    for option in OPTIONS:
        if option.replaced_by is not None and values[option.name]:
            values[option.replaced_by] = True
        if option.clears is not None and values[option.name]:
            values[option.clears] = None
    missing = [
        option
        for option in OPTIONS
        if option.required
        and option.key is not None
        and (option.flags if where == "cli" else option.parameter)
        and not values[option.name]
    ]
    if missing:
        raise GeneratorError(_missing(missing, config, where))
    return Options(**values)  # type: ignore[arg-type]  # each value made per its kind above


def _value(option: Option, value: object, base: Path | None) -> object:
    """``value`` (a string, a list of them, a Path, a bool, None) in the
    option's type, paths joined to ``base``; None when it is not set."""
    if value is None or value == []:
        return None
    if option.kind == "paths" and isinstance(value, str):  # a plugin parameter
        value = [value]
    if option.kind == "paths" and isinstance(value, (list, tuple)):
        return tuple(base / item if base else Path(item) for item in value)
    if option.kind == "path" and isinstance(value, (str, Path)):
        return base / value if base else Path(value)
    return value


def _missing(options: list[Option], config: Config, where: Where) -> Problem:
    """One problem naming every missing setting and where the tool looked."""

    def listed(words: list[str]) -> str:
        return " or ".join(
            [", ".join(words[:-1]), words[-1]] if len(words) > 1 else words
        )

    if where == "cli":
        named = f"no {listed([o.flags[0] for o in options])} given"
    else:
        named = f"no {listed([f'{o.parameter}=' for o in options])} plugin parameter"
    if config.file is not None:
        keys = listed([str(o.key) for o in options])
        return Problem(f"{named}, and {TABLE} has no {keys}", str(config.file))
    looked = (
        f" in {shown_path(config.searched[0])} or a folder above it"
        if config.searched
        else ""
    )
    return Problem(
        f"{named}, and no pyproject.toml with a {TABLE} table was found{looked}"
    )


def out_problem(options: Options, given: Mapping[str, object]) -> Problem | None:
    """Why the output folder cannot be one (a file is there, or above it),
    said in the terms the user typed; None when it can."""
    path = options.out
    for folder in (path, *path.parents):
        try:
            is_dir = os.path.isdir(folder)
            exists = is_dir or os.path.lexists(folder)
        except ValueError:  # a NUL byte
            return None
        if not exists:
            continue
        if is_dir:
            return None
        said = (
            f"--out {shown_path(given['out'])}"
            if given.get("out") is not None
            else f"out in {TABLE} ({shown_path(options.out)})"
        )
        what = _kind(folder)
        if folder == path:
            return Problem(f"{said} is {what}, not a folder", hint="name a folder")
        return Problem(f"{said}: {shown_path(folder)} is {what}, not a folder")
    return None


def _kind(path: Path) -> str:
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        return (
            "a symbolic link to a file"
            if os.path.exists(path)
            else "a symbolic link to nothing"
        )
    return "a file" if stat.S_ISREG(mode) else kind_of(mode)


# -------------------------------------------------- the docs


def markdown_table() -> str:
    """docs/schema-owners.md's option list (tests/stages/test_options.py keeps
    the two the same)."""
    lines = [
        "| option | `pyproject.toml` key | plugin parameter | commands | what it does |",
        "|---|---|---|---|---|",
    ]
    for option in OPTIONS:
        if option.replaced_by is not None:
            continue
        value = option.metavar or "\\|".join(option.choices)
        flags = ", ".join(
            f"`{flag}{' ' + value if value else ''}`" for flag in option.flags
        )
        if option.kind == "bool":
            flags += f", `--no-{option.flags[0][2:]}`"
        key = f"`{option.key}`" if option.key else ""
        parameter = f"`{option.parameter}`" if option.parameter else ""
        commands = "all" if option.commands == COMMANDS else ", ".join(option.commands)
        text = option.help
        if option.required:
            text += (
                " (required: as a flag or in the table)"
                if option.key
                else " (required)"
            )
        elif option.default not in (None, (), "", False):
            text += f" (default: {_plain(option.default)})"
        lines.append(f"| {flags} | {key} | {parameter} | {commands} | {text} |")
    return "\n".join(lines) + "\n"
