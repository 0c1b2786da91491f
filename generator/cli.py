"""``fleet-strategy-codegen generate|check`` (``python -m generator`` in this
repository): a thin layer over the pipeline."""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, cast

import msgspec

from . import COMMAND, __version__, cache
from .errors import Exit, GeneratorError, Problem
from .output import (
    LEFT_AS_IT_WAS,
    MANIFEST_SUFFIX,
    RECOVERED,
    STAGED,
    STAGING,
    WRITTEN,
    Interrupted,
    Plan,
    apply,
    busy,
    diff,
    fast_clean,
    locked,
    pending,
    plan,
    read_manifest,
    recover,
)
from .pipeline import (
    Generated,
    Options,
    api_at_ref,
    build,
    check_package_name,
    input_hash,
    known_output,
    remember_output,
    resolve_protos,
)
from .project import CONFIG_TABLE, project_defaults, project_root

if TYPE_CHECKING:
    from .api_changes import Change, Report

# The API change report (generator.api_changes) is imported where it is used: a
# check whose inputs are unchanged answers from the manifest without the stages.
LAST_GENERATION = "the last generation"
NO_DRIFT: dict[str, list[str]] = {"missing": [], "stale": [], "orphaned": []}

EXIT_CODES = """\
exit codes: 0 clean / generated, 1 drift (check), 2 bad input or environment
(a missing or malformed input, an unusable output folder), 3 internal error
(a bug: please report it), 130 interrupted (Ctrl-C)"""

DESCRIPTION = """\
Generate a typed Python API (wrapper classes, TypedDicts, docs) from .proto
files and an annotations file. Defaults come from [tool.fleet-strategy-codegen]
in the nearest pyproject.toml, so the bare commands do the project's own job.
"""


def _parser(prog: str) -> argparse.ArgumentParser:
    common = _common_options()
    parser = argparse.ArgumentParser(
        prog=prog, description=DESCRIPTION, epilog=EXIT_CODES
    )
    parser.add_argument(
        "--version", action="version", version=f"fleet-strategy-codegen {__version__}"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_generate_parser(sub, common)
    _add_check_parser(sub, common)
    _add_patch_parser(sub, common)
    return parser


def _common_options() -> argparse.ArgumentParser:
    """The options every command takes."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--proto",
        action="append",
        type=Path,
        metavar="PATH",
        help="a .proto file or a folder of them (searched recursively; links inside it are not followed); "
        "repeatable (default: from pyproject.toml)",
    )
    common.add_argument(
        "-I",
        "--proto-path",
        action="append",
        type=Path,
        metavar="DIR",
        dest="proto_path",
        help="a folder imports are resolved against, as protoc's -I; repeatable, searched in order, then "
        "the well-known types bundled with grpcio-tools. Each --proto file must lie under one "
        "(default: from pyproject.toml; none: the common folder of the --proto files)",
    )
    common.add_argument(
        "--annotations",
        type=Path,
        metavar="FILE",
        help="the annotations YAML file (default: from pyproject.toml)",
    )
    common.add_argument(
        "--no-annotations",
        action="store_true",
        help="ignore any annotations file: derive classes and docs from the schema alone",
    )
    common.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="output folder (default: from pyproject.toml)",
    )
    common.add_argument(
        "--package",
        metavar="NAME",
        help="name of the generated package (default: from pyproject.toml)",
    )
    common.add_argument(
        "--require-docs",
        action="store_true",
        dest="require_docs",
        help="a field without documentation is an error, not a warning; CI uses this",
    )
    # the deprecated spelling of --require-docs: still accepted (with a note), not shown
    common.add_argument(
        "--strict", action="store_true", dest="strict_alias", help=argparse.SUPPRESS
    )
    common.add_argument(
        "--full",
        action="store_true",
        help="rebuild from the inputs alone, trusting nothing in the output folder (no answer from "
        "its manifest) nor in the user cache (no entry read, as on a fresh machine); CI's check uses this",
    )
    return common


def _add_generate_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    generate = sub.add_parser(
        "generate",
        parents=[common],
        help="regenerate: write files whose content changed, remove orphaned generated files",
        description="Regenerate the package. Only files whose content changed are written; generated "
        "files the inputs no longer produce are removed. All or nothing: an interrupted run leaves the "
        "old tree or the new one, and the next run finishes or undoes it. Only files the tool wrote "
        "(they carry its @generated marker) are replaced or removed; links are never followed. Exit 0 "
        "on success, 2 on bad input or an unusable output folder, 3 on an internal error.",
    )
    generate.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a file at a path the tool writes even though the tool did not write it (no @generated "
        "marker), or a symbolic link there (the link itself, never its target); without it such a file is "
        "kept, reported, and nothing is written (exit 2)",
    )


def _add_check_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    check = sub.add_parser(
        "check",
        parents=[common],
        help="drift check: write nothing; exit 0 clean, 1 drift, 2 bad input",
        description="Compare the output folder with what the inputs generate, writing nothing. Prints "
        "what the change means for users (the API change report) when the output drifted, then "
        "missing files, stale files (with a unified diff) and orphaned files, and the command that "
        "fixes them. Exit 0 clean, 1 drift, 2 bad input or environment, 3 internal error; with "
        "--fail-on-breaking, a breaking API change the annotations file does not accept also exits 1.",
    )
    check.add_argument(
        "--against",
        metavar="REF",
        help="report the API changes between the inputs at git REF (e.g. origin/main) and now, whether or not "
        "the output drifted",
    )
    check.add_argument(
        "--report-format",
        choices=("text", "json"),
        default="text",
        help="the API change report as text, or as one JSON document on stdout (the drift listing then goes to "
        "stderr), for bots",
    )
    check.add_argument(
        "--fail-on-breaking",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="exit 1 when the API change report has a breaking change that the annotations file does not "
        "accept (accepted_changes); default: fail-on-breaking in pyproject.toml, else off",
    )


def regenerate_command(options: Options, root: Path | None) -> str:
    """What the generated headers print. With a config table (``root``
    None) the bare ``generate``, which does the project's job from anywhere
    in it; without one, every option, paths relative to ``root`` (where it
    is run from: project_root), so that the text does not depend on the
    working folder."""
    if root is None:
        return f"{COMMAND} generate"

    def shown(
        path: Path,
    ) -> str:  # absolute outside the project: where the project is must not matter
        full = Path(os.path.normpath(path.absolute()))
        return (
            full.relative_to(root).as_posix()
            if full.is_relative_to(root)
            else full.as_posix()
        )

    words = [
        COMMAND,
        "generate",
        *(w for p in options.protos for w in ("--proto", shown(p))),
    ]
    words += [w for p in options.proto_paths for w in ("-I", shown(p))]
    words += (
        ["--annotations", shown(options.annotations)] if options.annotations else []
    )
    return shlex.join(
        [*words, "--out", shown(options.out), "--package", options.package]
    )


def _options(args: argparse.Namespace) -> tuple[Options, list[str]]:
    table, root = project_defaults(Path.cwd())
    from_table: Callable[[str], Any] = table.get  # the table's value, or None

    protos = args.proto or [root / p for p in (from_table("proto") or [])]
    proto_paths = args.proto_path or [
        root / p for p in (from_table("proto_path") or [])
    ]
    annotations = None
    if not args.no_annotations:
        annotations = args.annotations or (
            root / from_table("annotations") if from_table("annotations") else None
        )
    out = args.out or (root / from_table("out") if from_table("out") else None)
    package = args.package or from_table("package")
    # every missing setting at once, not one a run
    missing = [
        name
        for name, value in (("proto", protos), ("out", out), ("package", package))
        if not value
    ]
    if missing:
        raise GeneratorError(
            [
                Problem(
                    f"no --{name} given and no [tool.{CONFIG_TABLE}] {name} in pyproject.toml"
                )
                for name in missing
            ]
        )
    assert out is not None and package  # for mypy: checked just above
    flags = []
    for path in args.proto or []:
        flags += ["--proto", str(path)]
    for path in args.proto_path or []:
        flags += ["-I", str(path)]
    for name in ("annotations", "out", "package"):
        if getattr(args, name):
            flags += [f"--{name}", str(getattr(args, name))]
    if args.no_annotations:
        flags.append("--no-annotations")
    options = Options(
        protos=tuple(protos),
        annotations=annotations,
        out=out,
        package=package,
        proto_paths=tuple(proto_paths),
    )
    options = msgspec.structs.replace(
        options,
        regenerate=regenerate_command(options, None if table else project_root(out)),
    )
    if args.command == "check" and args.fail_on_breaking is None:
        value = from_table("fail-on-breaking")
        if value is not None and not isinstance(value, bool):
            raise GeneratorError(
                Problem(
                    f"[tool.{CONFIG_TABLE}] fail-on-breaking must be true or false, got {value!r}",
                    str(root / "pyproject.toml"),
                )
            )
        args.fail_on_breaking = bool(value)
    return options, flags


def report_undocumented(undocumented: Sequence[str], required: bool) -> bool:
    """Print the undocumented fields; True when that is an error (--require-docs)."""
    if not undocumented:
        return False
    level = "error" if required else "warning"
    print(
        f"{level}: {len(undocumented)} field(s) have no documentation "
        "(neither in the annotations file nor as a proto comment):",
        file=sys.stderr,
    )
    for path in undocumented:
        print(f"  {path}", file=sys.stderr)
    return required


def run(prog: str = COMMAND) -> NoReturn:
    """The console script and ``python -m generator``: main(), then leave at once.

    A run leaves millions of objects behind, and the interpreter's exit would
    collect and free them all for nothing: flush the output and exit without
    that teardown, as mypy does (an edit's CPU time is 0.65x betterproto2's
    with it, 0.71x without; its budget is 0.75x: docs/benchmarks.md). The
    collector is disabled first: main() restored its threshold, and the next
    allocation would start a collection."""
    code = main(prog=prog)
    gc.disable()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None, prog: str = COMMAND) -> int:
    with _closed_stdout_ignored():
        return _main(argv, prog)


class _PipeGuard(io.TextIOBase):
    """A stream that outlives its reader: ``check | head -1`` closes the pipe
    early, and the rest of the output then goes to os.devnull, as Python's
    docs advise for SIGPIPE, instead of failing the run with EPIPE."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self) -> None:
        try:
            fd = self._stream.fileno()
        except (
            OSError,
            ValueError,
        ):  # not a file (a test's capture): nothing is written anywhere
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(
            devnull, fd
        )  # what is still buffered is flushed there, and the exit flush succeeds
        os.close(devnull)
        with contextlib.suppress(BrokenPipeError):
            self._stream.flush()


@contextlib.contextmanager
def _closed_stdout_ignored() -> Iterator[None]:
    """A closed stdout never changes the exit code (its reader has what it wanted)."""
    guard = _PipeGuard(sys.stdout)
    try:
        with contextlib.redirect_stdout(cast(TextIO, guard)):
            yield
    finally:
        guard.flush()


def _main(argv: Sequence[str] | None, prog: str) -> int:
    args = _parser(prog).parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    # A run allocates millions of small objects that live to its end (descriptor
    # views, the model, rendered text): at the default threshold (700) the cycle
    # collector runs thousands of times and rescans them (12% of a 4,500-message
    # run). A high one still collects the few cycles there are, at a fraction of that
    # (without it, 450 -> 4,500 messages took 10.2x the CPU, over the 10x budget:
    # docs/benchmarks.md).
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, *thresholds[1:])
    try:
        with cache.fresh() if args.full else contextlib.nullcontext():
            return _run(args, prog)
    except KeyboardInterrupt as exc:
        print(
            f"interrupted; {_left(exc, getattr(args, 'writing', None))}",
            file=sys.stderr,
        )
        return Exit.INTERRUPTED
    except Exception as exc:  # a bug, not the user's mistake: never exit 1 (drift)
        if os.environ.get("FLEET_CODEGEN_TRACEBACK"):
            raise
        print(
            f"internal error: {type(exc).__name__}: {exc}\n"
            f"hint: this is a bug in fleet-strategy-codegen {__version__}; rerun with "
            "FLEET_CODEGEN_TRACEBACK=1 for the traceback and report it",
            file=sys.stderr,
        )
        return Exit.INTERNAL
    finally:
        gc.set_threshold(*thresholds)


def _run(args: argparse.Namespace, prog: str) -> int:
    if args.strict_alias:
        again = [
            word for word in args.argv if word != "--strict"
        ]  # the same command, spelled the current way
        print(
            f"note: --strict is deprecated; write --require-docs ({_command(prog, *again, '--require-docs')})",
            file=sys.stderr,
        )
        args.require_docs = True
    try:
        options, flags = _options(args)
        check_package_name(options.package)
        if args.command == "patch":
            return _patch(options, args)
        # Unchanged inputs and untouched output, and the user cache knows that this
        # generator made exactly that output from these inputs: no regeneration.
        digest = input_hash(options, resolve_protos(options))
        against = getattr(args, "against", None)
        # (none under --full: the user cache is not read, see _main)
        known = None if against else known_output(digest)
        undocumented = (
            None if known is None else fast_clean(options.out, options.package, known)
        )
        if undocumented is not None:
            if report_undocumented(undocumented, args.require_docs):
                return Exit.ERROR
            if (
                args.command == "check" and args.report_format == "json"
            ):  # nothing changed, for users either
                from .api_changes import Report, render_json

                print(
                    render_json(Report(against=LAST_GENERATION, changes=()), NO_DRIFT),
                    end="",
                )
                return Exit.OK
            state = (
                "clean" if args.command == "check" else "up to date, nothing generated"
            )
            why = "the user cache records that this generator made these very files from these inputs"
            print(f"{options.package}: {state} ({why})")
            return Exit.OK
        # Otherwise regenerate (from the inputs alone: nothing in the output folder is reused).
        result = build(options)
        if report_undocumented(result.model.undocumented, args.require_docs):
            return Exit.ERROR
        if args.command == "check":
            before: dict[str, Any] | None
            if against:
                before, missing = api_at_ref(options, against)
                for name in missing:  # a renamed input would otherwise pass for all-new
                    print(
                        f"warning: {name} does not exist at {against}: what it defines counts as new",
                        file=sys.stderr,
                    )
            else:
                before = _recorded_api(options)
            label = against or LAST_GENERATION
            code = _check(options, result, flags, before, label, args, prog)
        else:
            code = _generate(options, result, prog, args, flags)
        if code == Exit.OK:
            remember_output(digest, result.files)
        return code
    except GeneratorError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return Exit.ERROR
    except OSError as exc:  # the environment: a folder that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR


class _Writing(msgspec.Struct):
    """What a generate did to the output folder so far: read when Ctrl-C comes."""

    out: Path
    before: str | None = (
        None  # what an interrupted earlier generate had left there (output.pending)
    )
    drift: Plan | None = (
        None  # this run's plan, once made (drift.written: the new tree is in place)
    )


def _left(exc: KeyboardInterrupt, writing: _Writing | None) -> str:
    """What the output folder holds when Ctrl-C came, said truly."""
    if (
        writing is None
    ):  # a check, or a generate before it took the output folder's lock
        return LEFT_AS_IT_WAS
    drift = writing.drift
    if drift is None and isinstance(exc, Interrupted):
        return exc.left  # said by recover
    if drift is not None and drift.written:
        left = WRITTEN
    else:
        left = exc.left if isinstance(exc, Interrupted) else LEFT_AS_IT_WAS
    if writing.before is not None and (
        drift is not None or pending(writing.out) is None
    ):
        return f"{RECOVERED[writing.before]}, then {left}"
    return left


def _command(prog: str, *words: str) -> str:
    """A command to suggest, as the user runs the tool (``prog``: one word or
    ``python -m generator``), its arguments quoted for a POSIX shell."""
    return f"{prog} {shlex.join(words)}"


def _generate(
    options: Options,
    result: Generated,
    prog: str,
    args: argparse.Namespace,
    flags: list[str],
) -> int:
    previous = _recorded_api(options)
    args.writing = writing = _Writing(options.out)
    with locked(options.out):
        writing.before = pending(options.out)
        recover(options.out)
        if writing.before is not None:
            print(
                f"note: {RECOVERED[writing.before]} ({_display(options.out / STAGING)})"
            )
        writing.drift = drift = plan(options.out, result.files, options.package)
        changed = apply(drift, args.overwrite)
    for relative in changed:
        verb = (
            "removed"
            if relative in drift.orphaned or relative in drift.leftover
            else "updated"
        )
        print(f"{verb} {_display(options.out / relative)}")
    print(
        f"{options.package}: generated {len(result.files)} files, {len(changed)} changed"
    )
    if changed and previous is not None:
        from .api_changes import make_report, summary_line

        report = make_report(previous, result.api, result.notes, LAST_GENERATION)
        details = (
            f" (details: {_command(prog, 'check', *flags, '--against', 'HEAD')})"
            if report.changes
            else ""
        )
        print(summary_line(report) + details)
    return Exit.OK


def _display(path: Path) -> str:
    try:  # the file's own name as it is: a link is shown, not its target
        return (
            (path.parent.resolve() / path.name)
            .relative_to(Path.cwd().resolve())
            .as_posix()
        )
    except ValueError:
        return path.as_posix()


def _recorded_api(options: Options) -> dict[str, Any] | None:
    """The API surface the last generate into the output folder recorded."""
    from .api_changes import READABLE_VERSIONS

    data = read_manifest(options.out, options.package)
    api = data.get("api") if data is not None else None
    return (
        api
        if isinstance(api, dict) and api.get("version") in READABLE_VERSIONS
        else None
    )


def _check(
    options: Options,
    result: Generated,
    flags: list[str],
    before: dict[str, Any] | None,
    label: str,
    args: argparse.Namespace,
    prog: str,
) -> int:
    from .api_changes import make_report, render_json, unmatched_warnings

    drift = plan(options.out, result.files, options.package)
    as_json = args.report_format == "json"
    report = None
    if before is not None and (args.against or not drift.clean or as_json):
        report = make_report(before, result.api, result.notes, label)
    if as_json:
        listing = {
            "missing": drift.missing,
            "stale": drift.stale,
            "orphaned": drift.orphaned,
        }
        if (
            drift.leftover
        ):  # rare: bots see these keys only when there is something to say
            listing["leftover"] = drift.leftover
        if drift.interrupted is not None:
            listing["interrupted"] = [STAGING]
        print(render_json(report, listing, label), end="")
    with (
        contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()
    ):
        code = _print_drift(options, drift, flags, report, as_json, prog)
    for warning in unmatched_warnings(report) if report else []:
        print(warning, file=sys.stderr)
    if args.fail_on_breaking and report is not None and report.unaccepted_breaking:
        _print_unaccepted(report.unaccepted_breaking, options.annotations)
        return Exit.DRIFT
    return code


def _print_drift(
    options: Options,
    drift: Plan,
    flags: list[str],
    report: Report | None,
    as_json: bool,
    prog: str,
) -> int:
    if report is not None and not as_json:
        from .api_changes import render_text

        print(render_text(report))
    if drift.clean:
        print(
            f"{options.package}: clean ({len(drift.files)} generated files match the inputs)"
        )
        return Exit.OK
    if drift.interrupted is not None:
        print(_interrupted_line(options.out, drift.interrupted))
    if report is None and not as_json:
        print(
            "API changes for users: unknown (the manifest holds no API record of the last generation; "
            "check --against REF compares with the inputs at a git ref)\n"
        )
    for relative in drift.missing:
        print(f"missing: {_display(options.out / relative)}")
    manifest = f"{options.package}{MANIFEST_SUFFIX}"
    drift.stale.sort(
        key=lambda relative: relative == manifest
    )  # the files first, their records last
    for relative in drift.stale:
        print(
            f"stale: {_display(options.out / relative)}{_stale_note(options.out, relative, drift, manifest)}"
        )
    for relative in drift.orphaned:
        print(f"orphaned: {_display(options.out / relative)} (no longer generated)")
    for relative in drift.leftover:
        print(
            f"leftover: {_display(options.out / relative)} (a temp file of an interrupted generate)"
        )
    for relative in drift.stale:
        if (
            relative != manifest
            and relative not in drift.blocked
            and not (options.out / relative).is_symlink()
        ):
            print()  # the manifest's hashes and offsets: noise beside the real hunks
            print(diff(options.out, relative, drift.files[relative]), end="")
    fix = _command(prog, "generate", *flags)
    if drift.foreign:
        fix += " (it keeps the files marked 'not written by the tool': move them away, or add --overwrite)"
    print(f"\nThe generated package is out of date. Fix: {fix}")
    return Exit.DRIFT


def _stale_note(out: Path, relative: str, drift: Plan, manifest: str) -> str:
    if relative == manifest:
        return " (its records of the files; no diff shown)"
    if relative in drift.blocked:
        return " (a folder is in the way)"
    if (out / relative).is_symlink():
        return " (a symbolic link: not written by the tool, which never writes through a link)"
    if relative in drift.foreign:
        return " (not written by the tool: it has no @generated marker)"
    return ""


def _interrupted_line(out: Path, state: str) -> str:
    where = _display(out / STAGING)
    if busy(out):
        return f"busy: {where}: a generate is writing the output folder now; check again when it is done"
    if state == STAGED:
        return (
            f"interrupted: {where}: left by an interrupted generate (the output files are whole: as before it, "
            "or as it wrote them); the next generate removes it"
        )
    return (
        f"interrupted: {where}: a generate was interrupted while it replaced the files: the output is incomplete "
        "until the next generate finishes it"
    )


def _print_unaccepted(changes: Sequence[Change], annotations: Path | None) -> None:
    where = _display(annotations) if annotations else "the annotations file"
    print(
        f"error: {len(changes)} breaking API change(s) not accepted (fail-on-breaking). Undo them, or accept "
        f"each in {where} so reviewers see it:\naccepted_changes:",
        file=sys.stderr,
    )
    for c in changes:
        print(
            f"  - rule: {c.rule}\n    path: {json.dumps(c.path)}\n    reason: <why users can live with it>",
            file=sys.stderr,
        )


# ------------------------------------------------- patch: a build as a diff


def _add_patch_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    patch = sub.add_parser(
        "patch",
        parents=[common],
        help="write a unified diff (for git apply) that makes a source tree hold one build's files",
        description="Generate (from the inputs alone, as check --full does), then write a unified diff in git's "
        "format that turns the files of one build in a source tree into what the inputs generate: changed "
        "files, new ones, and files this generator wrote there earlier that the inputs no longer produce. "
        "Paths in the diff are relative to the tree, so `git apply` (or `patch -p1`) in the tree applies it. "
        "Writes nothing else. Exit 0 (an empty diff when the tree is up to date), 2 on bad input.",
    )
    patch.add_argument(
        "--tree",
        type=Path,
        required=True,
        metavar="DIR",
        help="the source tree to diff against (its root)",
    )
    patch.add_argument(
        "--target",
        metavar="NAME",
        help="the build: a name under targets: in the annotations file, or 'standalone' "
        "(default: the one build besides the standalone package)",
    )
    patch.add_argument(
        "--prefix",
        default="",
        metavar="PATH",
        help="the folder of the tree that the build's paths start from (e.g. 'python' when the tree holds "
        "the package in python/); default: the tree's root",
    )
    patch.add_argument(
        "--output",
        "-o",
        type=Path,
        metavar="FILE",
        help="write the diff to FILE (default: stdout)",
    )


def _patch(options: Options, args: argparse.Namespace) -> int:
    from .annotations import closest

    tree: Path = args.tree
    if not tree.is_dir():
        raise GeneratorError(Problem("the source tree is not a folder", str(tree)))
    prefix = (
        PurePosixPath(args.prefix.strip("/"))
        if args.prefix.strip("/")
        else PurePosixPath()
    )
    if prefix.is_absolute() or ".." in prefix.parts:
        raise GeneratorError(
            Problem(
                f"--prefix {args.prefix!r} must be a folder inside the tree", str(tree)
            )
        )
    result = build(options)
    if report_undocumented(result.model.undocumented, args.require_docs):
        return Exit.ERROR
    targets = {t.name: t for t in result.model.targets}
    others = [n for n in targets if n != "standalone"]
    name = args.target or (others[0] if len(others) == 1 else None)
    if name is None or name not in targets:
        guess = closest(name, list(targets)) if name else None
        hint = f"did you mean {guess!r}?" if guess else f"builds: {', '.join(targets)}"
        what = (
            f"no build named {name!r}"
            if name
            else "give --target: there is not one build besides the standalone package"
        )
        raise GeneratorError(
            Problem(
                what,
                str(options.annotations) if options.annotations else None,
                hint=hint,
            )
        )
    target = targets[name]
    top = target.folder(target.classes_package) + "/"
    mine = {
        path: text
        for path, text in result.files.items()
        if path.startswith(top)
        or (target.standalone and path == f"{target.package}.md")
    }
    diff_text, counts = _tree_diff(mine, tree, prefix)
    if args.output is None:
        sys.stdout.write(diff_text)
    else:
        args.output.write_text(diff_text, encoding="utf-8")
    where = tree / prefix if prefix.parts else tree
    summary = (
        ", ".join(f"{n} {what}" for what, n in counts.items() if n)
        or "nothing to change"
    )
    print(
        f"{options.package} ({name}): {summary} in {_display(where)}"
        + (
            f"; diff written to {_display(args.output)}"
            if args.output is not None
            else ""
        ),
        file=sys.stderr,
    )
    return Exit.OK


def _tree_diff(
    files: dict[str, str], tree: Path, prefix: PurePosixPath
) -> tuple[str, dict[str, int]]:
    """A git-format unified diff turning ``tree/prefix`` into ``files`` (paths
    relative to ``prefix``): each file that differs or is missing, and each
    file the generator wrote in one of those folders that ``files`` lacks."""
    import difflib

    from .output import is_generated

    def tree_text(relative: str) -> str | None:
        path = tree / prefix / relative
        if not path.is_file():
            return None
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise GeneratorError(
                Problem("not UTF-8 text: cannot diff it", str(path))
            ) from None

    folders = {PurePosixPath(path).parent for path in files}
    removed = sorted(
        (PurePosixPath(folder) / entry.name).as_posix()
        for folder in folders
        if (tree / prefix / folder).is_dir()
        for entry in (tree / prefix / folder).iterdir()
        if (folder / entry.name).as_posix() not in files
        and entry.suffix in (".py", ".pyi", ".md")
        and entry.is_file()
        and is_generated(entry)
    )
    chunks: list[str] = []
    counts = {"new": 0, "changed": 0, "removed": 0}
    for relative in sorted([*files, *removed]):
        old = tree_text(relative)
        new = files.get(relative)
        if old == new:
            continue
        shown = (prefix / relative).as_posix()
        head = [f"diff --git a/{shown} b/{shown}\n"]
        if old is None:
            head += ["new file mode 100644\n", "--- /dev/null\n", f"+++ b/{shown}\n"]
            counts["new"] += 1
        elif new is None:
            head += [
                "deleted file mode 100644\n",
                f"--- a/{shown}\n",
                "+++ /dev/null\n",
            ]
            counts["removed"] += 1
        else:
            head += [f"--- a/{shown}\n", f"+++ b/{shown}\n"]
            counts["changed"] += 1
        hunks = difflib.unified_diff(
            (old or "").splitlines(keepends=True),
            (new or "").splitlines(keepends=True),
            n=3,
        )
        body = [
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            for line in list(hunks)[2:]
        ]
        chunks.append("".join(head + body))
    return "".join(chunks), counts
