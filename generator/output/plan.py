"""Compare what the inputs generate with the output folder, writing nothing:
which files are missing, stale (and of those, which are not the tool's, or
have a folder in the way), which of the tool's files the inputs no longer
produce (orphans), and whether an interrupted generate left its staging
folder. Also the fast check (``fast_clean``): the manifest and the files it
lists against what the user cache says this generator made from these inputs."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path

import msgspec
from msgspec import field

from ..errors import GeneratorError, Problem
from .files import (
    STAGING,
    check_folders,
    check_names,
    check_root,
    head,
    is_generated,
    read_bytes,
    read_text,
    safe_target,
    shown,
)
from .manifest import (
    MANIFEST_SUFFIX,
    MAX_MANIFEST_BYTES,
    Manifest,
    output_digest,
    read_manifest,
)

# The temp files of the versions before the staging folder, beside their
# targets: tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp"), holding the
# generated text (so the marker). Only such marked files are the tool's.
_OLD_TEMP = re.compile(r"\.(.+)\.[a-z0-9_]{8}\.tmp")


class Plan(msgspec.Struct):
    out: Path
    files: dict[str, str]  # relative path -> expected text
    package: str
    missing: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    # stale, and not the tool's: no marker, or a link
    foreign: list[str] = field(default_factory=list)
    # stale: a folder is where the file goes
    blocked: list[str] = field(default_factory=list)
    # marked temp files an earlier version's interrupted run left
    leftover: list[str] = field(default_factory=list)
    # not the tool's, beside a generated module, and imported instead of it
    # (see shadowing): check is never clean with one, generate refuses
    shadowing: list[str] = field(default_factory=list)
    # a staging folder is there (an interrupted generate's, or planted: data either way)
    interrupted: bool = False
    # set by apply once the new tree is in place (read after an interrupt)
    written: bool = False

    @property
    def clean(self) -> bool:
        return not (
            self.missing
            or self.stale
            or self.orphaned
            or self.leftover
            or self.interrupted
            or self.shadowing
        )


def interrupted(out: Path) -> bool:
    """Whether a staging folder (or anything by its name) is in ``out``."""
    return os.path.lexists(out / STAGING)


def plan(out: Path, files: dict[str, str], package: str) -> Plan:
    check_root(out)
    check_names(out, list(files))
    check_folders(out, list(files))
    result = Plan(out=out, files=files, package=package, interrupted=interrupted(out))
    for relative, text in sorted(files.items()):
        path = out / relative
        try:
            mode = os.lstat(path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            # (a file in place of ``out``: all is missing)
            result.missing.append(relative)
            continue
        if stat.S_ISREG(mode) and read_text(path) == text:
            result.unchanged.append(relative)
            continue
        result.stale.append(relative)
        if stat.S_ISDIR(mode):
            result.blocked.append(relative)
        elif not is_generated(path):  # a link, or a file without the marker
            result.foreign.append(relative)
    result.orphaned, result.leftover = _scan(out, set(files), package)
    result.shadowing = shadowing(out, set(files))
    return result


# An extension module of any interpreter (lint.cpython-313-x86_64-linux-gnu.so,
# lint.abi3.so, lint.pyd); the import system tries these before the source.
_EXTENSION = r"(\.[^./]+)?\.(so|pyd)"


def shadowing(out: Path, expected: set[str]) -> list[str]:
    """What a pull request can add beside a generated module ``X.py`` that
    ``import`` runs instead, while ``X.py`` itself matches: a folder (or link)
    ``X`` (a package wins over a module), an extension module ``X.*.so``, and
    in ``__pycache__`` a hash-based ``X.*.pyc`` (the import system writes only
    timestamp-based ones; a hash-based one is used without looking at the
    source's time, an unchecked one without looking at the source at all)
    or a link there. Found without following a link; none of it is the tool's."""
    folders: dict[str, set[str]] = {}
    for relative in expected:
        folder, _, name = relative.rpartition("/")
        if name.endswith(".py"):
            folders.setdefault(folder, set()).add(name[:-3])
    needed = {f for r in expected for f in _parents(r)}
    found: list[str] = []
    for folder, stems in sorted(folders.items()):
        prefix = f"{folder}/" if folder else ""
        names = _entries(out / folder)
        modules = re.compile(
            f"({'|'.join(map(re.escape, sorted(stems)))})({_EXTENSION})?"
        )
        for name in names:
            match = modules.fullmatch(name)
            relative = prefix + name
            if match is None or relative in expected:
                continue
            if match[2] or (  # an extension module, or a folder or link named X
                relative not in needed and not stat.S_ISREG(_lstat_mode(out / relative))
            ):
                found.append(relative)
        cache = f"{prefix}__pycache__"
        if stat.S_ISLNK(_lstat_mode(out / cache)):
            found.append(cache)
            continue
        compiled = re.compile(
            f"({'|'.join(map(re.escape, sorted(stems)))})\\.[^/]*\\.pyc"
        )
        for name in _entries(out / cache):
            if compiled.fullmatch(name) and _hash_based(out / cache / name):
                found.append(f"{cache}/{name}")
    return sorted(found)


def _parents(relative: str) -> list[str]:
    parts = relative.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _entries(folder: Path) -> list[str]:
    """The names in ``folder``; none when it is not a folder (never through a link)."""
    if not stat.S_ISDIR(_lstat_mode(folder)):
        return []
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _lstat_mode(path: Path) -> int:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return 0


def _hash_based(path: Path) -> bool:
    """A pyc the import system did not write: a link, anything but a regular
    file, or a hash-based one (its flags word, after the magic number, is not 0)."""
    start = head(path, 8)
    return start is None or len(start) < 8 or start[4:8] != bytes(4)


def _scan(out: Path, expected: set[str], package: str) -> tuple[list[str], list[str]]:
    """The tool's files the inputs no longer produce (orphans: regular files
    with the marker in the builds' folders, or the package's docs and
    manifest), and the marked temp files an earlier version left beside a target."""
    names: dict[str, set[str]] = {}
    for relative in expected:
        folder, _, name = relative.rpartition("/")
        names.setdefault(folder, set()).add(name)
    orphans: list[str] = []
    leftovers: list[str] = []

    def visit(start: str, recurse: bool) -> None:
        # a stack, not recursion: a pull request can add folders nested
        # deeper than Python's recursion limit
        pending = [start]
        while pending:
            folder = pending.pop()
            for entry in _listed(out, folder):
                relative = f"{folder}/{entry.name}" if folder else entry.name
                if entry.is_dir(follow_symlinks=False):  # never a link
                    if recurse and entry.name != "__pycache__":
                        _check_depth(out, relative, deepest)
                        pending.append(relative)
                elif entry.is_file(follow_symlinks=False):
                    old = _OLD_TEMP.fullmatch(entry.name)
                    if old and old[1] in names.get(folder, ()):
                        if is_generated(Path(entry.path)):
                            leftovers.append(relative)
                    elif (
                        relative not in expected
                        and (
                            Path(entry.name).suffix in (".py", ".pyi", ".md")
                            if recurse
                            else entry.name in top_files
                        )
                        and is_generated(Path(entry.path))
                    ):
                        orphans.append(relative)

    deepest = max((relative.count("/") for relative in expected), default=0)
    top_files = {f"{package}.md", f"{package}{MANIFEST_SUFFIX}"}
    visit("", False)
    # the package's folder, and the top folder of every other build in ``out``
    for top in sorted(
        {package}
        | {relative.split("/", 1)[0] for relative in expected if "/" in relative}
    ):
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(os.lstat(out / top).st_mode):
                visit(top, True)
    return sorted(orphans), sorted(leftovers)


# Folders nested deeper below the output folder than this (or than the
# deepest path the inputs generate) are none of the tool's: a pull request can
# nest them past the recursion limit, the open-file limit and PATH_MAX.
MAX_DEPTH = 64


def _check_depth(out: Path, relative: str, deepest: int) -> None:
    if relative.count("/") >= max(MAX_DEPTH, deepest):
        raise GeneratorError(
            Problem(
                f"folders nested more than {max(MAX_DEPTH, deepest)} deep in the output folder; the tool never "
                "writes there, and does not look further, so nothing was changed",
                shown((out / relative).as_posix()),
                hint="remove them",
            )
        )


def _listed(out: Path, folder: str) -> list[os.DirEntry[str]]:
    """The entries of a folder of the output, by name; none when it is gone.
    One that cannot be listed (a path too long for the system) is exit 2:
    an orphan in it would go unseen."""
    try:
        with os.scandir(out / folder) as found:
            return sorted(found, key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise GeneratorError(
            Problem(
                f"cannot list this folder of the output folder: {exc.strerror}; nothing was changed",
                shown((out / folder).as_posix()),
                hint="remove it (the tool never writes there)",
            )
        ) from None


def diff(out: Path, relative: str, expected: str) -> str:
    import difflib

    current = read_text(out / relative) or ""
    shown = (out / relative).as_posix()
    return "".join(
        difflib.unified_diff(
            current.splitlines(keepends=True),
            expected.splitlines(keepends=True),
            fromfile=f"{shown} (on disk)",
            tofile=f"{shown} (generated)",
        )
    )


def fast_clean(out: Path, package: str, known_output: str) -> list[str] | None:
    """When the files the manifest lists (manifest included) are the output
    ``known_output`` that the running generator produced from the inputs at
    hand before (the caller's memo), return the manifest's list of
    undocumented fields; otherwise None, and the caller regenerates to compare
    (as it does when a staging folder is there: the tree may be a mix).
    A mix never passes: the manifest is renamed into place last, and the
    digest covers every file it lists."""
    if interrupted(out) or os.path.islink(out):
        return None
    manifest = read_manifest(out, package)
    if not isinstance(manifest, Manifest):
        return None
    expected = [*manifest.files, f"{package}{MANIFEST_SUFFIX}"]
    try:
        check_folders(out, expected)
        on_disk = {
            relative: read_bytes(safe_target(out, relative), MAX_MANIFEST_BYTES)
            for relative in expected
        }
    except (OSError, GeneratorError):
        return None
    if (
        output_digest(on_disk) != known_output
        or any(_scan(out, set(expected), package))
        or shadowing(out, set(expected))
    ):
        return None
    return manifest.undocumented
