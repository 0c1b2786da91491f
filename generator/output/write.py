"""Make the output folder hold what the inputs generate (``apply``), all or
nothing as far as the file system allows.

Every check comes first (names, folders, links, files that are not the
tool's, permissions, one file system); then every new file is written into
one staging folder in the output root (``STAGING``: same file system), then,
with SIGINT and SIGTERM held, the files are renamed into place (the manifest
last), the orphans deleted and the staging folder removed. Ctrl-C or SIGTERM
before the renames leaves the old tree (the staged files are removed); during
them it waits, so it leaves the new tree. A killed process leaves its writes
in the page cache, in order; surviving a power cut as well takes an fsync of
every file and folder on the way (FLEET_CODEGEN_FSYNC=1; ~5 ms each on a
cloud disk, which would double a first generation, so it is not the default).

Nothing found on disk is followed. There is no journal and no recovery: the
output is a function of the inputs, so the next run recomputes it and writes
it like any other. What SIGKILL (or a crash, or an I/O error) in the middle of
the renames costs: the tree is a mix of old and new files until the next
generate, which writes what the inputs then generate (not necessarily what the
killed run was writing). ``check`` never calls such a mix clean: the staging
folder is still there (check exits 1 naming it), and without it the mix
differs from the output in content (the manifest, renamed last, still
describes the old tree, so the fast check does not pass either).

Whatever is found in the staging folder is data: the tool's own files there
(regular files with the generated marker, or empty ones) are removed; anything
else is kept and reported (exit 2) and nothing is written; nothing found there
is ever renamed into place, and nothing there decides a write or a delete.

The tool owns only what it wrote. No path under the output folder is
resolved: every folder on the way is checked with lstat (a link is refused
before the first write) and opened without following links, and a file is
the tool's only when it is a regular file with the generated marker (or holds
exactly what would be generated, as an empty py.typed). The tool writes no
links, so a link is never its own: never followed, never removed as an
orphan; at a path the tool writes, it is kept and reported like a hand-written
file, and ``overwrite`` replaces the link itself, never its target.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from ..errors import GeneratorError, Problem
from .files import CLOEXEC, FOLDER, NOFOLLOW, NONBLOCK, STAGING, has_marker, head
from .manifest import MANIFEST_SUFFIX
from .plan import Plan

# Said of a file that ``import`` would run instead of a generated module (plan.shadowing).
SHADOWS = "Python would import this instead of the generated module beside it"
# What the output folder holds after an interrupt, said for users.
LEFT_AS_IT_WAS = "the output folder was left as it was"
WRITTEN = "the new output had been written in full"
REPAIR = "run generate: it writes what the inputs generate, whatever was left"


# the calls the writer makes relative to an opened folder (Windows has none)
_RELATIVE_CALLS = {os.open, os.mkdir, os.rename, os.unlink, os.rmdir, os.stat}


def _fsync(fd: int) -> None:
    """On disk before the next step, when the user asks for that (see the module's docstring)."""
    if os.environ.get("FLEET_CODEGEN_FSYNC"):
        os.fsync(fd)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while the output folder was being written: ``left`` says what it holds."""

    def __init__(self, left: str) -> None:
        super().__init__(left)
        self.left = left


class _Held(msgspec.Struct):
    left: str  # what the output folder holds after the block, said for users


@contextlib.contextmanager
def _signals_held(left: str) -> Iterator[_Held]:
    """SIGINT and SIGTERM wait until the block is done; then SIGTERM is
    delivered as if it came now, and SIGINT raises Interrupted with what the
    folder holds (``left``, which the block may correct)."""
    said = _Held(left)
    came: list[int] = []
    # Any: handlers as signal.getsignal returns them (typeshed names their type privately)
    held: dict[int, Any] = {}
    # not the main thread: Python runs no handler in this one (ValueError)
    with contextlib.suppress(ValueError):
        for signum in (signal.SIGINT, signal.SIGTERM):
            # None: set outside Python, could not be put back
            if signal.getsignal(signum) is not None:
                held[signum] = signal.signal(
                    signum, lambda number, frame: came.append(number)
                )
    try:
        yield said
    finally:
        for number, previous in held.items():
            signal.signal(number, previous)
        if signal.SIGTERM in came:
            signal.raise_signal(signal.SIGTERM)
    if signal.SIGINT in came:
        raise Interrupted(said.left)


class _Folders:
    """Folders under the output root, opened a name at a time without
    following a link (ELOOP) or passing a file (ENOTDIR); created on demand."""

    def __init__(self, root: int) -> None:
        self.fds = {"": root}
        self.opened: list[int] = []
        # folders a folder was created in (synced with the renames)
        self.grown: set[int] = set()

    def open(self, folder: str, create: bool) -> int:
        if folder not in self.fds:
            parent, _, name = folder.rpartition("/")
            at = self.open(parent, create)
            if create:
                try:
                    os.mkdir(name, dir_fd=at)
                    self.grown.add(at)
                except FileExistsError:
                    pass
            self.fds[folder] = os.open(name, FOLDER, dir_fd=at)
            self.opened.append(self.fds[folder])
        return self.fds[folder]

    def close(self) -> None:
        for fd in self.opened:
            os.close(fd)


def apply(result: Plan, overwrite: bool = False) -> list[str]:
    """Make the output folder hold ``result.files``: write the missing and
    stale files, delete orphans and leftover temp files, remove a staging
    folder an interrupted generate left (see the module's docstring). A file
    at a target path that is not the tool's is kept and reported
    (GeneratorError, nothing changed) unless ``overwrite``. Returns what
    changed. The caller holds ``locked(out)``."""
    out = result.out
    _refuse(result, overwrite)
    writes = result.missing + result.stale
    deletes = result.orphaned + result.leftover
    if writes or deletes or result.interrupted:
        if not _RELATIVE_CALLS <= os.supports_dir_fd:
            raise GeneratorError(
                Problem(
                    "this platform cannot open files relative to a folder (dir_fd), which the writer needs to "
                    "never follow a link on the way; nothing was changed",
                    str(out),
                    hint="check works here; generate on Linux or macOS",
                )
            )
        try:
            out.mkdir(parents=True, exist_ok=True)
            # not through a link (plan.check_root refused one): the folders
            # above ``out`` are the user's layout and may be links
            root = os.open(out, FOLDER)
        except OSError as exc:
            raise GeneratorError(
                Problem(
                    f"cannot use the output folder: {exc.strerror}; nothing was changed",
                    str(out),
                )
            ) from None
        try:
            found = _staged_before(out, root)
            _check_writable(out, root, writes + deletes)
            modes = {relative: _mode(out / relative) for relative in writes}
            manifest = f"{result.package}{MANIFEST_SUFFIX}"
            ordered = sorted(writes, key=lambda relative: relative == manifest)
            data = {r: result.files[r].encode("utf-8") for r in ordered}
            _commit(out, root, data, modes, deletes, found, result)
        finally:
            os.close(root)
    result.written = True
    return writes + deletes


def _mode(path: Path) -> int:
    """A replaced file keeps its permissions (a link's are not its target's)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return 0o644
    return stat.S_IMODE(mode) if stat.S_ISREG(mode) else 0o644


def _refuse(result: Plan, overwrite: bool) -> None:
    """Before any write: a folder where a file goes, and (unless ``overwrite``)
    every file at a target path that the tool did not write."""
    problems = [
        Problem(
            "cannot write the output: a folder is in the way; the previous files were kept",
            (result.out / relative).as_posix(),
            hint="move it away",
        )
        for relative in result.blocked
    ]
    problems += [
        Problem(
            f"{SHADOWS}; it is not the tool's, so it was kept and nothing was changed",
            (result.out / relative).as_posix(),
            hint="remove it (the generated module beside it is the one to import)",
        )
        for relative in result.shadowing
    ]
    for relative in [] if overwrite else result.foreign:
        path = result.out / relative
        if os.path.islink(path):
            problems.append(
                Problem(
                    f"a symbolic link (to {os.readlink(path)}) is where a generated file goes; the tool never writes "
                    "through a link, so it was kept and nothing was changed",
                    path.as_posix(),
                    hint="remove it, or generate --overwrite to replace the link itself (never its target)",
                )
            )
        elif (unreadable := _unreadable(path)) is not None:
            problems.append(
                Problem(
                    f"cannot read this file of the output folder ({unreadable}), so it was kept and nothing was "
                    "changed",
                    path.as_posix(),
                    hint="make it readable, move it away, or generate --overwrite to replace it",
                )
            )
        else:
            problems.append(
                Problem(
                    "not written by fleet-strategy-codegen (no @generated marker), so it was kept and nothing was "
                    "changed",
                    path.as_posix(),
                    hint="move it away, or generate --overwrite to replace it",
                )
            )
    if problems:
        raise GeneratorError(problems)


def _unreadable(path: Path) -> str | None:
    """Why a file the tool found in its way cannot be read (None: it can):
    such a file is not called hand-written, since nobody could tell."""
    try:
        os.close(os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | CLOEXEC))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _staged_before(out: Path, root: int) -> list[str] | None:
    """What an earlier generate left in the staging folder: the names of the
    tool's own files there (to remove), or None when there is no such folder.
    Anything else found there is kept and reported: nothing was changed."""
    where = out / STAGING
    try:
        mode = os.stat(STAGING, dir_fd=root, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(mode):
        raise GeneratorError(
            Problem(
                "a link or a file has the name of the tool's staging folder; it was kept and nothing was changed",
                where.as_posix(),
                hint="remove it (an interrupted generate leaves a folder here, never a link or a file)",
            )
        )
    fd = os.open(STAGING, FOLDER, dir_fd=root)
    try:
        ours: list[str] = []
        foreign: list[str] = []
        for name in sorted(os.listdir(fd)):
            (ours if _own_staged(name, fd) else foreign).append(name)
    finally:
        os.close(fd)
    if foreign:
        raise GeneratorError(
            [
                Problem(
                    "in the tool's staging folder but not written by fleet-strategy-codegen (no @generated marker), "
                    "so it was kept and nothing was changed; nothing found there is ever put in place",
                    (where / name).as_posix(),
                    hint="remove it (an interrupted generate leaves only its own files there)",
                )
                for name in foreign
            ]
        )
    return ours


def _own_staged(name: str, staging: int) -> bool:
    """A regular file with the generated marker, or an empty one (a staged
    py.typed: removing it loses nothing)."""
    start = head(name, 200, staging)
    return start is not None and (not start or has_marker(start))


def _check_writable(out: Path, root: int, relatives: list[str]) -> None:
    """Before any write: every folder the run changes (or the nearest one that
    exists) is writable and on the output root's filesystem, so the renames
    cannot fail for a reason known now (a rename is atomic only within one
    filesystem)."""
    device = os.fstat(root).st_dev
    problems = {}
    for folder in sorted({relative.rpartition("/")[0] for relative in relatives}):
        path = out / folder
        while not os.path.lexists(path):
            path = path.parent
        if os.stat(path).st_dev != device:
            problems[path] = (
                "on another filesystem than the output folder: its files cannot be replaced atomically"
            )
        elif not os.access(path, os.W_OK | os.X_OK):
            problems[path] = "cannot write the output: permission denied"
    if problems:
        raise GeneratorError(
            [
                Problem(f"{why}; nothing was changed", path.as_posix())
                for path, why in problems.items()
            ]
        )


def _commit(
    out: Path,
    root: int,
    data: dict[str, bytes],
    modes: dict[str, int],
    deletes: list[str],
    found: list[str] | None,
    result: Plan,
) -> None:
    """Stage every file, then rename them into place and delete the orphans
    with signals held; see the module's docstring. ``found``: the tool's files
    in a staging folder an earlier run left (None: there was none).
    ``result.written`` is set before a held Ctrl-C is delivered."""
    where = (out / STAGING).as_posix()
    staging = None
    renaming = False
    try:
        # a Ctrl-C comes once ``staging`` says what to remove
        with _signals_held(LEFT_AS_IT_WAS):
            staging = _open_staging(root, found)
        staged = _stage(staging, data, modes)
        with _signals_held(WRITTEN):
            renaming = True
            _finish(out, root, staging, staged, deletes)
            result.written = True
    except BaseException as exc:
        if renaming:
            raise
        with _signals_held(LEFT_AS_IT_WAS) as said:
            try:
                if staging is not None:
                    # a folder found on the way in stays (empty): check
                    # still reports whatever mix it marked
                    _empty_staging(root, staging, remove=found is None)
            except OSError:
                said.left = f"the output files were left as they were ({where} is left over: the next generate removes it)"
        if isinstance(exc, OSError):
            raise GeneratorError(
                Problem(
                    f"cannot write the output: {exc.strerror}; {said.left}",
                    where,
                )
            ) from None
        if isinstance(exc, KeyboardInterrupt):
            raise Interrupted(said.left) from None
        raise
    finally:
        if staging is not None:
            os.close(staging)


def _open_staging(root: int, found: list[str] | None) -> int:
    """The staging folder, empty: made, or the one found with the tool's files removed."""
    if found is None:
        _make_staging(root)
    staging = os.open(STAGING, FOLDER, dir_fd=root)
    for name in found or ():
        _delete(name, staging)
    return staging


def _stage(
    staging: int, data: dict[str, bytes], modes: dict[str, int]
) -> list[tuple[str, str]]:
    """Write every new file into the staging folder: (staged name, target), in order."""
    staged = []
    for index, (relative, content) in enumerate(data.items()):
        name = f"{index}.new"
        _write_staged(staging, name, content, modes[relative])
        staged.append((name, relative))
    _fsync(staging)
    return staged


def _finish(
    out: Path,
    root: int,
    staging: int,
    staged: list[tuple[str, str]],
    deletes: list[str],
) -> None:
    """Rename the staged files into place, delete the orphans, remove the
    staging folder. A failure names the path it was about (the tree is then a
    mix that check reports until a generate completes)."""
    folders = _Folders(root)
    touched = set()
    relative = STAGING
    try:
        for name, relative in staged:
            parent, _, base = relative.rpartition("/")
            at = folders.open(parent, create=True)
            _rename(staging, name, at, base)  # a link there is replaced, never followed
            touched.add(at)
        for relative in deletes:
            parent, _, base = relative.rpartition("/")
            with contextlib.suppress(FileNotFoundError):
                at = folders.open(parent, create=False)
                if stat.S_ISREG(
                    os.stat(base, dir_fd=at, follow_symlinks=False).st_mode
                ):  # never a link
                    _delete(base, at)
                    touched.add(at)
        relative = STAGING
        for fd in touched | folders.grown:
            _fsync(fd)  # the renames are on disk before the staging folder goes
        _empty_staging(root, staging, remove=True)
    except OSError as exc:
        mixed = relative != STAGING
        raise GeneratorError(
            Problem(
                f"cannot write the output: {exc.strerror}; "
                + (
                    "the output is now part old, part new (check reports it)"
                    if mixed
                    else "the new output is in place, but this folder is left over (check reports it)"
                ),
                (out / relative).as_posix(),
                hint=f"fix the cause, then {REPAIR}",
            )
        ) from None
    finally:
        folders.close()


def _empty_staging(root: int, staging: int, remove: bool) -> None:
    """Remove what this run staged (the tool's own files: nothing else was
    there when it began) and, with ``remove``, the folder."""
    for name in os.listdir(staging):
        _delete(name, staging)
    if remove:
        _remove_staging(root)


# The file system steps of a write, each one call (tests/stages/test_output.py
# interrupts or fails the run at every one of them by wrapping these).


def _make_staging(root: int) -> None:
    os.mkdir(STAGING, 0o700, dir_fd=root)


def _write_staged(staging: int, name: str, content: bytes, mode: int) -> None:
    fd = os.open(
        name,
        os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | CLOEXEC,
        0o600,
        dir_fd=staging,
    )
    with open(fd, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fchmod(fd, mode)
        _fsync(fd)


def _rename(staging: int, name: str, at: int, base: str) -> None:
    os.replace(name, base, src_dir_fd=staging, dst_dir_fd=at)


def _delete(base: str, at: int) -> None:
    os.unlink(base, dir_fd=at)


def _remove_staging(root: int) -> None:
    os.rmdir(STAGING, dir_fd=root)
