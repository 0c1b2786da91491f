"""Stage 1: .proto files -> a FileDescriptorSet (bytes), via grpcio-tools' protoc.

protoc runs in-process (no system protoc, no subprocess); its diagnostics are
written to file descriptor 2 by C++ code, so they are captured at that level.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import msgspec

from ..errors import GeneratorError, Problem
from .files import check_regular, decode_utf8, kind_of, read_input, walk_files

MAX_PROBLEMS = 20
# protoc's logging library (absl) also writes to stderr: its banner and its
# "W0000 00:00:... file.cc:123]" lines are not the user's errors.
_ABSL_LOG = re.compile(
    r"^(WARNING: All log messages before absl::InitializeLog\(\)|[IWEF]\d{4} )"
)


class CompiledSchema(msgspec.Struct, frozen=True):
    descriptor_set: bytes  # serialized FileDescriptorSet with source info
    proto_files: tuple[Path, ...]  # the inputs, as given (sorted)
    names: tuple[
        str, ...
    ]  # protoc's names of the inputs (relative to their include folder), same order


def well_known_folder() -> Path:
    """The well-known types' .proto files bundled with grpcio-tools (searched last)."""
    import grpc_tools  # type: ignore[import-untyped]  # deferred: only compilation needs it

    return Path(grpc_tools.__file__).parent / "_proto"


def find_proto_files(paths: list[Path]) -> list[Path]:
    """Expand folders into the .proto files they hold (recursively); keep order stable.

    A file named on the command line is read through a link; in a folder,
    no link is followed: a symlinked folder is not entered, and a symlinked
    .proto file is an error (name it with --proto to read it), so what a
    folder holds never silently changes. Anything but a regular file (a FIFO,
    a device) is refused before it is opened."""
    found: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            for entry in walk_files(path, ".proto"):
                if entry.is_symlink():
                    problems.append(
                        Problem(
                            "a symbolic link inside a --proto folder is not followed",
                            str(entry),
                            hint="name the file itself with --proto, or put a copy in the folder",
                        )
                    )
                    continue
                try:
                    check_regular(entry, ".proto file")
                except GeneratorError as exc:
                    problems.extend(exc.problems)
                    continue
                found.append(entry)
        elif not path.exists() and not path.is_symlink():
            problems.append(Problem("no such .proto file or folder", file=str(path)))
        elif path.suffix != ".proto":
            problems.append(
                Problem(
                    "not a .proto file (give .proto files or folders of them)",
                    file=str(path),
                )
            )
        else:
            try:
                check_regular(path, ".proto file")
            except GeneratorError as exc:
                problems.extend(exc.problems)
                continue
            found.append(path)
    if problems:
        raise GeneratorError(problems)
    if not found:
        raise GeneratorError(
            Problem("no .proto files found", file=", ".join(map(str, paths)))
        )
    return sorted(set(found))


def include_folders(
    files: list[Path], proto_paths: tuple[Path, ...] | list[Path]
) -> tuple[Path, ...]:
    """The -I folders, resolved; without any, the common folder of the inputs."""
    if not proto_paths:
        return (Path(os.path.commonpath([str(f.resolve().parent) for f in files])),)
    folders = []
    for folder in proto_paths:
        try:
            mode = os.stat(folder).st_mode
        except (OSError, ValueError):
            raise GeneratorError(
                Problem("no such include folder (-I/--proto-path)", file=str(folder))
            ) from None
        if not stat.S_ISDIR(mode):
            raise GeneratorError(
                Problem(
                    f"include folder (-I/--proto-path) is {kind_of(mode)}, not a folder",
                    str(folder),
                )
            )
        folders.append(folder.resolve())
    return tuple(folders)


def proto_names(files: list[Path], folders: tuple[Path, ...]) -> list[str]:
    """protoc's name of each input: its path relative to the first include folder
    holding it (protoc's rule). A file under none of them is an error."""
    names, problems = [], []
    for f in files:
        resolved = f.resolve()
        folder = next((x for x in folders if resolved.is_relative_to(x)), None)
        if folder is None:
            problems.append(
                Problem(
                    "this --proto file is not under any include folder ("
                    + ", ".join(map(str, folders))
                    + ")",
                    file=str(f),
                    hint="add the folder its imports are relative to with -I DIR",
                )
            )
            continue
        name = resolved.relative_to(folder).as_posix()
        if name.startswith(
            ("-", "@")
        ):  # on protoc's command line: an option, or a file of arguments
            problems.append(
                Problem(
                    "protoc would read this .proto file's name as an option ('-') or an argument file ('@')",
                    file=str(f),
                    hint="rename the file, or put it in a folder",
                )
            )
            continue
        names.append(name)
    if problems:
        raise GeneratorError(problems)
    return names


# The text as tokens: the import statements, and what protoc's parser skips
# (comments, string literals) in runs of other text: enough to follow imports,
# never to judge a file (protoc does that).
_IMPORTS = re.compile(
    r"""[^/"'i]+|//[^\n]*|/\*.*?(?:\*/|\Z)"""
    r"""|\bimport\s+(?:(?:weak|public|option)\s+)?(?P<q>["'])(?P<name>[^"'\\\n]*)(?P=q)"""
    r"""|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|.""",
    re.S,
)


def _imports(text: str) -> list[str]:
    """The files ``text`` imports. Only the text up to the last word "import"
    (and its statement's end) can hold one: a large schema is not read to its end."""
    last = text.rfind("import")
    if last < 0:
        return []
    end = text.find(";", last)
    return [
        m["name"]
        for m in _IMPORTS.finditer(text, 0, len(text) if end < 0 else end + 1)
        if m["name"]
    ]


def check_sources(
    names: list[str], folders: tuple[Path, ...], files: list[Path]
) -> None:
    """Before protoc opens anything: each input, and each file it imports
    (found in the include folders as protoc finds it, at any depth), must be
    a regular file (protoc would block on a FIFO), and the inputs must be
    UTF-8 (protobuf hands back comments and defaults in another encoding as
    bytes). The bundled well-known types are not followed."""
    pending = list(names)
    seen = set(pending)
    inputs = dict(zip(names, files))  # name -> the path as the user gave it
    while pending:
        name = pending.pop()
        for folder in folders:
            candidate = folder / name
            try:
                os.stat(candidate)
            except (OSError, ValueError):
                continue
            given = inputs.get(name)
            is_input = given is not None and given.resolve() == candidate.resolve()
            what = ".proto file" if is_input else f'imported file ("{name}")'
            shown = given if given is not None and is_input else _relative(candidate)
            data = read_input(shown, what)
            text = (
                decode_utf8(data, shown, what)
                if is_input
                else data.decode("utf-8", "replace")
            )
            for imported in _imports(text):
                if imported not in seen:
                    seen.add(imported)
                    pending.append(imported)
            break


def compile_protos(
    paths: list[Path], proto_paths: tuple[Path, ...] | list[Path] = ()
) -> CompiledSchema:
    """Compile the given .proto files (and folders) into a FileDescriptorSet.

    Imports resolve against ``proto_paths`` (protoc's -I, in order; without
    any, the common folder of the inputs), then against the well-known types
    bundled with grpcio-tools."""
    import tempfile  # here: a check whose inputs are unchanged never compiles

    # grpcio-tools' compiler itself, not its grpc_tools.protoc wrapper: importing
    # that module adds import hooks to sys.meta_path and its proto folder to
    # sys.path ("dynamic stubs"), which a library must not do to its host process
    from grpc_tools import _protoc_compiler

    files = find_proto_files(paths)
    folders = include_folders(files, proto_paths)
    names = proto_names(files, folders)
    check_sources(names, folders, files)
    with tempfile.TemporaryDirectory(prefix="fsc-protoc-") as tmp:
        out = Path(tmp) / "set.bin"
        errors = Path(tmp) / "stderr.txt"
        args = [
            "protoc",
            *(f"-I{folder}" for folder in folders),
            f"-I{well_known_folder()}",
            "--include_source_info",
            "--include_imports",
            f"--descriptor_set_out={out}",
            *names,
        ]
        code = _run_capturing_stderr(
            lambda: _protoc_compiler.run_main([a.encode() for a in args]), errors
        )
        message = errors.read_text(encoding="utf-8", errors="replace").strip()
        if code != 0 or not out.exists():
            problems = _protoc_problems(
                [line for line in message.splitlines() if not _ABSL_LOG.match(line)],
                folders,
            )
            if (
                len(problems) > MAX_PROBLEMS
            ):  # one broken file can give hundreds; the first ones tell
                more = len(problems) - MAX_PROBLEMS
                problems = [
                    *problems[:MAX_PROBLEMS],
                    Problem(f"... and {more} more protoc errors"),
                ]
            raise GeneratorError(
                problems or [Problem(f"protoc failed with exit code {code}")]
            )
        data = out.read_bytes()
    return CompiledSchema(
        descriptor_set=data, proto_files=tuple(files), names=tuple(names)
    )


def _run_capturing_stderr(run: Callable[[], int], target: Path) -> int:
    """Run ``run()`` with OS-level stderr redirected into ``target``."""
    import sys

    sys.stderr.flush()
    saved = os.dup(2)
    with open(target, "wb") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            return int(run())
        finally:
            os.dup2(saved, 2)
            os.close(saved)


_NOT_FOUND = re.compile(r'^Import "(?P<name>[^"]+)" was not found or had errors\.$')


def _protoc_problems(lines: list[str], folders: tuple[Path, ...]) -> list[Problem]:
    """protoc's diagnostics as problems. An import it could not find is said
    once, with the folders searched and the flag that fixes it (protoc's own
    ``x.proto: File not found.`` line is then dropped)."""
    problems = [_protoc_problem(line, folders) for line in lines if line.strip()]
    missing = set()
    for i, problem in enumerate(problems):
        match = _NOT_FOUND.match(problem.message)
        if match and not any((folder / match["name"]).is_file() for folder in folders):
            missing.add(match["name"])
            searched = ", ".join(
                [*map(str, folders), f"{well_known_folder()} (well-known types)"]
            )
            problems[i] = Problem(
                f'import "{match["name"]}" not found; searched {searched}',
                problem.file,
                problem.line,
                hint="add the folder the import is relative to with -I DIR (--proto-path DIR)",
            )
    return [
        p
        for p in problems
        if not (p.file is None and p.message.split(":")[0] in missing)
    ]


def _protoc_problem(line: str, folders: tuple[Path, ...]) -> Problem:
    """protoc prints ``file:line:col: message``; keep file relative to the cwd."""
    parts = line.split(":", 3)
    if len(parts) == 4 and parts[1].isdigit():
        file = parts[0]
        candidate = next(
            (folder / file for folder in folders if (folder / file).exists()),
            Path(file),
        )
        if candidate.exists():
            file = str(_relative(candidate))
        return Problem(
            parts[3].strip(), file=file, line=int(parts[1]), hint=f"column {parts[2]}"
        )
    return Problem(line.strip())


def _relative(path: Path) -> Path:
    """``path`` relative to the working folder when it lies under it (as messages name files)."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path
