"""The inputs as they are at a git ref, copied out with ``git show`` for
``check --against REF`` (the caller runs the stages on the copy to build the
surface of that ref)."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from ..errors import GeneratorError, Problem


def _git(root: Path, *args: str) -> bytes:
    import subprocess  # deferred: only --against reads git (~5 ms of every run's start)

    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, check=False
        )
    except OSError as exc:
        raise GeneratorError(Problem(f"cannot run git: {exc.strerror}")) from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GeneratorError(
            Problem(
                f"git {' '.join(args[:2])}: {message[-1] if message else 'failed'}",
                str(root),
            )
        )
    return done.stdout


class RefInputs(msgspec.Struct, frozen=True, kw_only=True):
    protos: tuple[Path, ...]  # inside the copy; empty when no input existed at the ref
    annotations: Path | None
    out: Path
    missing: tuple[
        str, ...
    ] = ()  # inputs (repository paths) that did not exist at the ref
    # protoc's -I folders for the copy: one inside the repository is its copy at
    # the ref, one outside it is used as it is on disk
    proto_paths: tuple[Path, ...] = ()


def inputs_at_ref(
    ref: str,
    protos: tuple[Path, ...],
    annotations: Path | None,
    package_dir: Path,
    dest: Path,
    proto_paths: tuple[Path, ...] = (),
) -> RefInputs:
    """Copy the inputs as they are at git ``ref`` under ``dest`` (same relative
    layout): every .proto under the protos' common folder and under each -I
    folder inside the repository (imports), the annotations file and the
    hand-written modules beside it (hooks; at a ref from before they moved
    there, those of the package folder, copied beside it)."""
    from ..output.files import is_generated

    repo = _AtRef(_repository(ref, (*protos, package_dir)), ref, dest)
    proto_folders = [p if p.is_dir() else p.parent for p in protos]
    root = Path(os.path.commonpath([str(p.resolve()) for p in proto_folders]))
    include_copies = []
    for folder in proto_paths:
        where = repo.inside(folder)
        include_copies.append(folder if where is None else dest / where)
        if where is not None:
            (dest / where).mkdir(parents=True, exist_ok=True)
    for top_folder in {repo.rel(root), *(repo.inside(f) for f in proto_paths)} - {None}:
        for name in repo.listed(str(top_folder)):
            if name.endswith(".proto") and not (dest / name).exists():
                repo.copy(name)
    wanted, missing = [], []
    for p in protos:
        names = [n for n in repo.listed(repo.rel(p)) if n.endswith(".proto")]
        wanted += [dest / n for n in names]
        if not names:
            missing.append(repo.rel(p))
    notes_copy = None
    if annotations is not None and repo.listed(repo.rel(annotations)):
        notes_copy = repo.copy(repo.rel(annotations))
        beside = repo.rel(annotations.parent)
        modules = [n for n in repo.listed(beside) if _in_folder(n, beside, ".py")]
        for name in modules:
            repo.copy(name)
        if not modules:  # before hand-written modules moved beside the annotations
            package = repo.rel(package_dir)
            for name in repo.listed(package):
                if _in_folder(name, package, ".py"):
                    copied = repo.copy(name)
                    if not is_generated(copied):
                        copied.rename(notes_copy.parent / copied.name)
                    else:
                        copied.unlink()
    elif annotations is not None:
        missing.append(repo.rel(annotations))
    return RefInputs(
        protos=tuple(sorted(set(wanted))),
        annotations=notes_copy,
        out=dest / repo.rel(package_dir.parent),
        missing=tuple(missing),
        proto_paths=tuple(include_copies),
    )


def _in_folder(name: str, folder: str, suffix: str) -> bool:
    """A file listed by git lies directly in ``folder`` (not below) and ends in ``suffix``."""
    inner = name[len(folder) + 1 :] if folder not in ("", ".") else name
    return name.endswith(suffix) and "/" not in inner


def _repository(ref: str, inputs: tuple[Path, ...]) -> Path:
    """The top folder of the git repository holding ``inputs``, which has ``ref``."""
    anchor = Path(os.path.commonpath([str(p.resolve()) for p in inputs]))
    while not anchor.is_dir():
        anchor = anchor.parent
    try:
        top = Path(_git(anchor, "rev-parse", "--show-toplevel").decode().strip())
    except GeneratorError as exc:
        raise GeneratorError(
            Problem(
                f"--against reads the inputs with git, but {exc.problems[0].message}",
                str(anchor),
            )
        ) from None
    try:
        _git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except GeneratorError:
        raise GeneratorError(
            Problem(
                f"--against {ref}: no such commit in this repository",
                str(top),
                hint="fetch it first, e.g. git fetch origin main",
            )
        ) from None
    return top


class _AtRef:
    """The repository's files as they are at a ref, copied out on demand."""

    def __init__(self, top: Path, ref: str, dest: Path) -> None:
        self.top, self.ref, self.dest = top, ref, dest

    def inside(self, path: Path) -> str | None:
        """``path`` relative to the repository (None: outside it)."""
        try:
            return path.resolve().relative_to(self.top.resolve()).as_posix()
        except ValueError:
            return None

    def rel(self, path: Path) -> str:
        found = self.inside(path)
        if found is None:
            raise GeneratorError(
                Problem(
                    "--against reads inputs with git: this input is outside the repository",
                    str(path),
                )
            )
        return found

    def listed(self, path: str) -> list[str]:
        out = _git(self.top, "ls-tree", "-r", "--name-only", self.ref, "--", path)
        return [x for x in out.decode().splitlines() if x]

    def copy(self, name: str) -> Path:
        target = self.dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_git(self.top, "show", f"{self.ref}:{name}"))
        return target
