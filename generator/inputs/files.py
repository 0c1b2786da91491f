"""Reading the user's input files: regular files only, refused before opening.

Opening a FIFO blocks until something writes to it, and a device may never
end: every input (the .proto files, the annotations, pyproject.toml, the
hooks module) is checked with os.stat first, and once more on the opened
descriptor, so a file swapped in between cannot block either.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import GeneratorError, Problem

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def check_regular(path: Path, what: str) -> None:
    """Raise unless ``path`` is a regular file (a symlink to one is fine: the
    user named it). ``what`` names the input in the message."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise GeneratorError(Problem(f"{what} not found", str(path))) from None
    except OSError as exc:
        raise GeneratorError(
            Problem(f"cannot read {what}: {exc.strerror or exc}", str(path))
        ) from None
    except ValueError:  # a NUL byte in the path (pyproject.toml can hold one)
        raise GeneratorError(
            Problem(f"{what}: not a usable path", repr(str(path)))
        ) from None
    if not stat.S_ISREG(mode):
        raise GeneratorError(
            Problem(f"{what} is {kind_of(mode)}, not a regular file", str(path))
        )


def read_input(path: Path, what: str) -> bytes:
    """The bytes of the regular file ``path`` (see check_regular)."""
    check_regular(path, what)
    # O_NONBLOCK: if a FIFO was swapped in since the stat, open returns at once
    # and fstat refuses it; reading a regular file is unaffected
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise GeneratorError(
            Problem(f"cannot read {what}: {exc.strerror or exc}", str(path))
        ) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise GeneratorError(
                Problem(f"{what} is {kind_of(mode)}, not a regular file", str(path))
            )
        try:
            return handle.read()
        except OSError as exc:
            raise GeneratorError(
                Problem(f"cannot read {what}: {exc.strerror or exc}", str(path))
            ) from None


def decode_utf8(data: bytes, path: Path, what: str) -> str:
    """``data`` as text; anything but UTF-8 (a UTF-8 byte-order mark is
    allowed) is an error naming the line of the first bad byte."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise GeneratorError(
            Problem(
                f"{what} is UTF-16 (it starts with a UTF-16 byte-order mark); it must be UTF-8",
                str(path),
                1,
                hint="save it as UTF-8",
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = data[exc.start]
        raise GeneratorError(
            Problem(
                f"{what} is not UTF-8: byte 0x{byte:02x} at column {column}",
                str(path),
                line,
                hint="save it as UTF-8; Latin-1 and other legacy encodings are not read",
            )
        ) from None


def hand_written_module(annotations: Path, module: str) -> Path:
    """Where a hand-written module the annotations name (``hooks:``, a target's
    ``module_members.from``) is read: beside the annotations file, an input
    like it. The output folder is never read for one: only the tool writes
    there, and each build carries a generated copy. Found, not named by the
    user, and copied verbatim into the output (which check diffs into its
    log): a link there is never followed, as inside a --proto folder, or a
    pull request could make it copy any file of the machine (a secret)."""
    path = annotations.parent / f"{module}.py"
    if os.path.islink(path):
        raise GeneratorError(
            Problem(
                "a symbolic link where a hand-written module goes is not followed (the tool copies the module "
                "into the output)",
                str(path),
                hint="put the file itself beside the annotations file",
            )
        )
    return path


def hand_written_modules(annotations: Path) -> list[Path]:
    """Every module beside the annotations file that could be one (``.py``
    regular files; a link is refused where it is named): what the input
    hash covers, without reading the annotations to learn which are named."""
    return sorted(
        p
        for p in annotations.parent.glob("*.py")
        if p.is_file()
        and not p.is_symlink()  # a link is never read (hand_written_module)
    )


def walk_files(folder: Path, suffix: str) -> Iterator[Path]:
    """The entries named ``*suffix`` under ``folder``, at any depth. A link is
    never followed: a symlinked folder is not entered (as ``find`` without
    ``-L``), and a symlink (or FIFO...) named ``*suffix`` is yielded as it is,
    for the caller to refuse. A folder that cannot be listed is an error, not
    a silent gap."""

    def fail(exc: OSError) -> None:
        raise GeneratorError(
            Problem(
                f"cannot list folder: {exc.strerror or exc}",
                exc.filename or str(folder),
            )
        )

    for root, dirs, files in os.walk(folder, onerror=fail, followlinks=False):
        dirs.sort()
        yield from (Path(root, name) for name in sorted(files) if name.endswith(suffix))
