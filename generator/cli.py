"""``fleet-strategy-codegen generate|check`` (``python -m generator`` in this
repository): a thin layer over the pipeline."""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, NoReturn, TextIO, cast

# Any: a pyproject.toml value, of its key's type (project checks it)

import msgspec

from . import COMMAND, __version__, cache
from .inputs.compile import find_proto_files, include_folders
from .errors import Exit, GeneratorError, Problem, closest, shell_word, shown_path
from .options import (
    OPTIONS,
    Config,
    add_arguments,
    flag_words,
    merge,
    out_problem,
)
from .output.files import STAGING, shown
from .output.lock import DEFAULT_TIMEOUT, TIMEOUT_VARIABLE, busy, locked
from .output.manifest import DAMAGED, MANIFEST_SUFFIX, Damaged, read_manifest
from .output.plan import Plan, diff, fast_clean, plan
from .output.write import (
    LEFT_AS_IT_WAS,
    REPAIR,
    SHADOWS,
    WRITTEN,
    Interrupted,
    apply,
)
from .options import Options
from .pipeline import (
    Generated,
    api_at_ref,
    build,
    check_package_name,
    input_hash,
    known_output,
    remember_output,
    resolve_protos,
)
from .project import find_config, output_config, project_root, spelled

if TYPE_CHECKING:
    # what add_subparsers returns (argparse names its class privately; generic only in typeshed)
    _Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
    from .api_changes.report import Report
    from .api_changes.rules import Change
    from .api_changes.surface import Surface

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
    parser = argparse.ArgumentParser(
        prog=prog, description=DESCRIPTION, epilog=EXIT_CODES
    )
    parser.add_argument(
        "--version", action="version", version=f"fleet-strategy-codegen {__version__}"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command, (summary, description) in COMMAND_TEXTS.items():
        add_arguments(
            sub.add_parser(command, help=summary, description=description), command
        )
    return parser


# each command's one-line summary and --help description; its options: generator.options
COMMAND_TEXTS = {
    "generate": (
        "regenerate: write files whose content changed, remove orphaned generated files",
        "Regenerate the package. Only files whose content changed are written; generated "
        "files the inputs no longer produce are removed. Ctrl-C or SIGTERM leaves the old tree or the "
        "new one; after a kill, the next run writes what the inputs generate (nothing found on disk is "
        "replayed). Only files the tool wrote (they carry its @generated marker) are replaced or removed; "
        "links are never followed. One run at a time per output folder: a run that waits says who holds "
        f"it and gives up after {TIMEOUT_VARIABLE} seconds (default {DEFAULT_TIMEOUT:g}). Exit 0 on success, 2 on "
        "bad input or an unusable output folder, 3 on an internal error.",
    ),
    "check": (
        "drift check: write nothing; exit 0 clean, 1 drift, 2 bad input",
        "Compare the output folder with what the inputs generate, writing nothing. Prints "
        "what the change means for users (the API change report) when the output drifted, then "
        "missing files, stale files (with a unified diff) and orphaned files, and the command that "
        "fixes them. Exit 0 clean, 1 drift, 2 bad input or environment, 3 internal error; with "
        "--fail-on-breaking, a breaking API change the annotations file does not accept also exits 1.",
    ),
    "patch": (
        "write a unified diff (for git apply) that makes a source tree hold one build's files",
        "Generate (from the inputs alone, as check --full does), then write a unified diff in git's "
        "format that turns the files of one build in a source tree into what the inputs generate: changed "
        "files, new ones, and files this generator wrote there earlier that the inputs no longer produce. "
        "Paths in the diff are relative to the tree, so `git apply` (or `patch -p1`) in the tree applies it. "
        "Writes nothing else. Exit 0 (an empty diff when the tree is up to date), 2 on bad input.",
    ),
}


def regenerate_command(options: Options) -> str:
    """What the generated headers print: the same from whatever folder the
    tool runs in. The bare ``generate`` when the table that governs the
    output folder (project.output_config) gives exactly these inputs;
    otherwise every option, each path relative to the output's project root
    (project_root: run it there) when it lies under it, else absolute, and
    normalised without resolving a link (project.spelled); each word quoted
    for a POSIX shell, on one line (errors.shell_word)."""
    home = output_config(options.out)
    if home is not None and _same_inputs(options, home):
        return f"{COMMAND} generate"
    root = project_root(options.out)

    def shown(path: Path) -> str:
        full = spelled(path)
        return (
            full.relative_to(root) if full.is_relative_to(root) else full
        ).as_posix()

    proto_paths = options.proto_paths
    if not proto_paths and home is not None and "proto_paths" in home.values:
        # run at the root, the command would take the table's -I: say the one used
        proto_paths = include_folders(find_proto_files(list(options.protos)), ())
    words = [
        COMMAND,
        "generate",
        *(w for p in options.protos for w in ("--proto", shown(p))),
    ]
    words += [w for p in proto_paths for w in ("-I", shown(p))]
    if options.annotations is not None:
        words += ["--annotations", shown(options.annotations)]
    elif home is not None and "annotations" in home.values:
        words.append("--no-annotations")  # else the table's file would be read
    words += ["--out", shown(options.out), "--package", options.package]
    return " ".join(map(shell_word, words))


def _same_inputs(options: Options, config: Config) -> bool:
    """Whether the table alone gives ``options``' inputs (paths compared as
    spelled, links unresolved)."""
    assert config.file is not None  # a table that was found
    try:
        alone = merge({}, config, "cli", config.file.parent)
    except GeneratorError:  # it lacks a setting: it does not give these inputs
        return False

    def key(o: Options) -> tuple[object, ...]:
        paths = (*o.protos, None, *o.proto_paths, None, o.annotations, o.out)
        return (o.package, *(None if p is None else spelled(p) for p in paths))

    return key(alone) == key(options)


def _options(args: argparse.Namespace) -> tuple[Options, list[str]]:
    """The run's options (merged from the command line and the table: generator.options)
    and the command-line words of the ones given that select the output (for the
    commands the tool suggests)."""
    given = {option.name: getattr(args, option.name, None) for option in OPTIONS}
    options = merge(given, find_config(Path.cwd()), "cli", Path.cwd())
    problem = out_problem(options, given)
    if problem is not None:
        raise GeneratorError(problem)
    options = msgspec.structs.replace(options, regenerate=regenerate_command(options))
    return options, flag_words(options, [n for n, v in given.items() if v])


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


# the collector's threshold while a command runs (see _main)
COLLECT_AFTER = 100_000


def run(prog: str = COMMAND) -> NoReturn:
    """The console script and ``python -m generator``: main(), then leave at once.

    A run leaves millions of objects behind, and the interpreter's exit would
    collect and free them all for nothing: flush the output and exit without
    that teardown, as mypy does (an edit's CPU time is 0.65x betterproto2's
    with it, 0.71x without; its budget is 0.75x: docs/benchmarks.md). The
    collector's raised threshold is set before main(), so that main()
    restores that one when it returns: restoring the default would start a
    collection of everything the run allocated since the last one (~8 ms of
    CPU) on the way out. Then the collector is disabled."""
    gc.set_threshold(COLLECT_AFTER, *gc.get_threshold()[1:])
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
    gc.set_threshold(COLLECT_AFTER, *thresholds[1:])
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
    if args.strict:
        again = [
            word for word in args.argv if word != "--strict"
        ]  # the same command, spelled the current way
        print(
            f"note: --strict is deprecated; write --require-docs ({_command(prog, *again, '--require-docs')})",
            file=sys.stderr,
        )
    try:
        options, flags = _options(args)
        check_package_name(options.package)
        if args.command == "patch":
            return _patch(options)
        # Unchanged inputs and untouched output, and the user cache knows that this
        # generator made exactly that output from these inputs: no regeneration.
        digest = input_hash(options, resolve_protos(options))
        against = options.against
        known = None if options.full or against else known_output(digest)
        undocumented = (
            None if known is None else fast_clean(options.out, options.package, known)
        )
        if undocumented is not None:
            if report_undocumented(undocumented, options.require_docs):
                return Exit.ERROR
            if (
                args.command == "check" and options.report_format == "json"
            ):  # nothing changed, for users either
                from .api_changes.report import Report, render_json

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
        if report_undocumented(result.undocumented, options.require_docs):
            return Exit.ERROR
        if args.command == "check":
            damaged, recorded = _last_generation(options)
            before: Surface | None
            if against:
                before, missing = api_at_ref(options, against)
                for name in missing:  # a renamed input would otherwise pass for all-new
                    print(
                        f"warning: {name} does not exist at {against}: what it defines counts as new",
                        file=sys.stderr,
                    )
            else:
                before = recorded
            label = against or LAST_GENERATION
            code = _check(options, result, flags, before, label, prog, damaged)
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
        where = f"{shown_path(exc.filename)}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR


class _Writing(msgspec.Struct):
    """What a generate did to the output folder so far: read when Ctrl-C comes."""

    out: Path
    # this run's plan, once made (drift.written: the new tree is in place)
    drift: Plan | None = None


def _left(exc: KeyboardInterrupt, writing: _Writing | None) -> str:
    """What the output folder holds when Ctrl-C came, said truly."""
    if writing is not None and writing.drift is not None and writing.drift.written:
        return WRITTEN
    return exc.left if isinstance(exc, Interrupted) else LEFT_AS_IT_WAS


def _command(prog: str, *words: str) -> str:
    """A command to suggest, as the user runs the tool (``prog``: one word or
    ``python -m generator``), its arguments quoted for a POSIX shell."""
    return f"{prog} {' '.join(map(shell_word, words))}"


def _generate(
    options: Options,
    result: Generated,
    prog: str,
    args: argparse.Namespace,
    flags: list[str],
) -> int:
    _, previous = _last_generation(options)
    args.writing = writing = _Writing(options.out)
    with locked(options.out):
        writing.drift = drift = plan(options.out, result.files, options.package)
        changed = apply(drift, options.overwrite)
    if drift.interrupted:
        print(
            f"note: removed the staging folder an interrupted generate left ({_display(options.out / STAGING)}); "
            "the output was written from the inputs"
        )
    for relative in changed:
        if relative in drift.orphaned or relative in drift.leftover:
            verb = "removed"
        else:
            verb = "created" if relative in drift.missing else "updated"
        print(f"{verb} {_display(options.out / relative)}")
    print(
        f"{options.package}: generated {len(result.files)} files, {len(changed)} changed"
    )
    if changed and previous is not None:
        from .api_changes.report import make_report, summary_line

        report = make_report(previous, result.api, result.notes, LAST_GENERATION)
        details = (
            f" (details: {_command(prog, 'check', *flags, '--against', 'HEAD')})"
            if report.changes
            else ""
        )
        print(summary_line(report) + details)
    return Exit.OK


def _display(path: Path) -> str:
    """A path as messages print it: as the user typed it (a table's path:
    relative to the working folder when under it), never through a resolved
    link, quoted when it cannot be printed as it is (errors.shown_path)."""
    if path.is_absolute() and path.is_relative_to(Path.cwd()):
        path = path.relative_to(Path.cwd())
    return shown_path(path.as_posix())


def _last_generation(options: Options) -> tuple[Damaged | None, Surface | None]:
    """What the last generate into the output folder recorded: its API
    surface (None: no manifest or no record). A manifest, or an API record in
    it, that fails its schema is damaged: check reports it, generate rewrites it."""
    from .api_changes.surface import SurfaceError, decode_surface

    manifest = read_manifest(options.out, options.package)
    if isinstance(manifest, Damaged):
        return manifest, None
    if manifest is None or manifest.api is None:
        return None, None
    try:
        return None, decode_surface(manifest.api)
    except SurfaceError as exc:
        return Damaged(str(exc)), None


def _check(
    options: Options,
    result: Generated,
    flags: list[str],
    before: Surface | None,
    label: str,
    prog: str,
    damaged: Damaged | None = None,
) -> int:
    from .api_changes.report import make_report, render_json, unmatched_warnings

    drift = plan(options.out, result.files, options.package)
    as_json = options.report_format == "json"
    report = None
    if before is not None and (options.against or not drift.clean or as_json):
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
        if drift.interrupted:
            listing["interrupted"] = [STAGING]
        if drift.shadowing:
            listing["shadowing"] = drift.shadowing
        if damaged is not None:
            listing["damaged"] = [f"{options.package}{MANIFEST_SUFFIX}"]
        print(render_json(report, listing, label), end="")
    with (
        contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()
    ):
        code = _print_drift(options, drift, flags, report, as_json, prog, damaged)
    for warning in unmatched_warnings(report) if report else []:
        print(warning, file=sys.stderr)
    if options.fail_on_breaking and report is not None and report.unaccepted_breaking:
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
    damaged: Damaged | None = None,
) -> int:
    if report is not None and not as_json:
        from .api_changes.report import render_text

        print(_escaped(render_text(report)))
    if drift.clean and damaged is None:
        print(
            f"{options.package}: clean ({len(drift.files)} generated files match the inputs)"
        )
        return Exit.OK
    if drift.interrupted:
        print(_interrupted_line(options.out))
    manifest = f"{options.package}{MANIFEST_SUFFIX}"
    if damaged is not None:
        print(
            f"damaged: {_display(options.out / manifest)}: {DAMAGED} ({shown(damaged.why)})"
        )
    if report is None and not as_json:
        record = (
            "is damaged" if damaged else "holds no API record of the last generation"
        )
        print(
            f"API changes for users: unknown (the manifest {record}; "
            "check --against REF compares with the inputs at a git ref)\n"
        )
    for relative in drift.missing:
        print(f"missing: {_display(options.out / relative)}")
    drift.stale.sort(
        key=lambda relative: relative == manifest
    )  # the files first, their records last
    for relative in drift.stale:
        print(
            f"stale: {_display(options.out / relative)}{_stale_note(options.out, relative, drift, manifest)}"
        )
    for relative in drift.orphaned:
        print(f"orphaned: {_display(options.out / relative)} (no longer generated)")
    for relative in drift.shadowing:
        print(f"shadowing: {_display(options.out / relative)} ({SHADOWS}; remove it)")
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
            # what is on disk may carry escape sequences that redraw the
            # terminal (hiding the very lines this diff is about)
            print(_escaped(diff(options.out, relative, drift.files[relative])), end="")
    fix = _command(prog, "generate", *flags)
    if drift.foreign:
        fix += " (it keeps the files marked 'not written by the tool': move them away, or add --overwrite)"
    if drift.shadowing:
        fix = f"remove the files marked 'shadowing', then {fix}"
    print(f"\nThe generated package is out of date. Fix: {fix}")
    return Exit.DRIFT


def _escaped(text: str) -> str:
    """Text for a terminal that holds what was found on disk (a report's
    names from the manifest's API record, a diff's lines of a file a pull
    request may have edited): every control (a carriage return too), bidi or
    other invisible character is shown escaped; its lines are kept."""
    return "\n".join(shown(line, len(line)) for line in text.split("\n"))


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


def _interrupted_line(out: Path) -> str:
    where = _display(out / STAGING)
    if busy(out):
        return f"busy: {where}: a generate is writing the output folder now; check again when it is done"
    return (
        f"interrupted: {where}: an interrupted generate left it; the output files may be part old, part new: "
        f"{REPAIR}"
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
            f"  - rule: {c.rule.id}\n    path: {json.dumps(c.path)}\n    reason: <why users can live with it>",
            file=sys.stderr,
        )


# ------------------------------------------------- patch: a build as a diff


def _patch(options: Options) -> int:
    tree = options.tree
    assert tree is not None  # argparse requires it for patch
    if not tree.is_dir():
        raise GeneratorError(Problem("the source tree is not a folder", str(tree)))
    prefix = (
        PurePosixPath(options.prefix.strip("/"))
        if options.prefix.strip("/")
        else PurePosixPath()
    )
    if prefix.is_absolute() or ".." in prefix.parts:
        raise GeneratorError(
            Problem(
                f"--prefix {options.prefix!r} must be a folder inside the tree",
                str(tree),
            )
        )
    result = build(options)
    if report_undocumented(result.undocumented, options.require_docs):
        return Exit.ERROR
    targets = {t.name: t for t in result.targets}
    others = [n for n in targets if n != "standalone"]
    name = options.target or (others[0] if len(others) == 1 else None)
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
    if options.output is None:
        sys.stdout.write(diff_text)
    else:
        options.output.write_text(diff_text, encoding="utf-8")
    where = tree / prefix if prefix.parts else tree
    summary = (
        ", ".join(f"{n} {what}" for what, n in counts.items() if n)
        or "nothing to change"
    )
    print(
        f"{options.package} ({name}): {summary} in {_display(where)}"
        + (
            f"; diff written to {_display(options.output)}"
            if options.output is not None
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

    from .output.files import is_generated

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
