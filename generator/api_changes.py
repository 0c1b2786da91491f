"""API change report: what an edit of the inputs changes for the users of the
generated package.

Both sides are *API surfaces*: plain JSON-able dicts extracted, by
``api_surface``, from the same PackageModel the templates render (property
names, kinds and types, TypedDict keys and types, validation specs, enum
values) plus the schema's wire facts (field numbers, labels, wire types, JSON
names, ``reserved``, ``deprecated``). ``compare`` classifies every difference
by a named rule (``RULES``) into one of three categories:

* ``breaking``: code or data that worked before fails or means something else
  (a property, key, message or enum value removed or renamed, a type that
  rejects old values, a changed default, tightened validation, and the wire
  rules of buf's WIRE/WIRE_JSON categories);
* ``behaviour``: visible, but every value that was valid stays valid
  (validation loosened, a type widened, ``deprecated`` added, other hooks);
* ``addition``: new classes, properties, keys, messages, enums, enum values.

Where the "before" side comes from: every ``generate`` records the surface it
emitted in the manifest (``"api"``), so ``check`` and ``generate`` compare with
exactly what is in the output folder, with or without git; ``check --against
REF`` rebuilds the surface from the inputs as they are at a git ref
(``inputs_at_ref`` copies them out with ``git show``; the caller runs the
stages on the copy). A hand edit of the manifest's record is itself drift.

Where users meet each change (its *path*: ``Class.prop['key']``) is worked
out from a surface when a change is reported (``FieldPaths``), not stored per
field: a field nested n messages deep has a path of length n, so storing them
made the record grow with the square of a chain of nested messages.

Breaking changes can be accepted in the annotations file (``accepted_changes``:
rule, path, reason), so the acknowledgement is reviewed with the edit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec

from .annotations.keys import AcceptedChange, Annotations
from .errors import closest
from .api_diff import compare
from .api_rules import CATEGORIES, RULES, Change
from .api_surface import (
    READABLE_VERSIONS,
    SURFACE_VERSION,
    FieldPaths,
    api_surface,
    empty_surface,
)
from .errors import GeneratorError, Problem

__all__ = [
    "CATEGORIES",
    "READABLE_VERSIONS",
    "RULES",
    "SURFACE_VERSION",
    "Change",
    "FieldPaths",
    "RefInputs",
    "Report",
    "api_surface",
    "check_accepted",
    "compare",
    "empty_surface",
    "inputs_at_ref",
    "make_report",
    "render_json",
    "render_text",
    "summary_line",
    "unmatched_warnings",
]


class Report(msgspec.Struct, frozen=True, kw_only=True):
    against: str  # what the "before" side is, for the heading
    changes: tuple[Change, ...]
    unmatched: tuple[AcceptedChange, ...] = ()  # acceptances that match no change
    annotations: str | None = None  # the file holding accepted_changes

    def count(self, category: str) -> int:
        return sum(1 for c in self.changes if c.category == category)

    @property
    def unaccepted_breaking(self) -> tuple[Change, ...]:
        return tuple(
            c for c in self.changes if c.category == "breaking" and c.accepted is None
        )


# ------------------------------------------------------------ acceptance


def check_accepted(notes: Annotations) -> None:
    """Every accepted_changes entry names a breaking rule (bad input otherwise)."""
    problems = []
    breaking = [r for r, (category, _) in RULES.items() if category == "breaking"]
    for item in notes.accepted_changes:
        if item.rule not in RULES:
            guess = closest(item.rule, breaking)
            hint = f"did you mean {guess!r}?" if guess else "see the rules in README.md"
            problems.append(
                Problem(
                    f"accepted_changes: unknown rule {item.rule!r}",
                    notes.path,
                    item.line,
                    hint,
                )
            )
        elif RULES[item.rule][0] != "breaking":
            problems.append(
                Problem(
                    f"accepted_changes: {item.rule!r} is not a breaking rule; only breaking "
                    "changes need accepting",
                    notes.path,
                    item.line,
                )
            )
    if problems:
        raise GeneratorError(problems)


def make_report(
    before: dict[str, Any], after: dict[str, Any], notes: Annotations, against: str
) -> Report:
    """Compare, and mark the changes accepted in ``notes``."""
    if (
        before.get("version") not in READABLE_VERSIONS
        or after.get("version") not in READABLE_VERSIONS
    ):
        raise GeneratorError(
            Problem(f"cannot compare API records of different formats ({against})")
        )
    accepted = {(a.rule, a.path): a for a in notes.accepted_changes}
    used: set[tuple[str, str]] = set()
    changes = []
    for change in compare(before, after):
        hit = accepted.get((change.rule, change.path))
        if hit is not None:
            used.add((change.rule, change.path))
            change = msgspec.structs.replace(change, accepted=hit.reason)
        changes.append(change)
    unmatched = tuple(a for key, a in accepted.items() if key not in used)
    return Report(
        against=against,
        changes=tuple(changes),
        unmatched=unmatched,
        annotations=notes.path,
    )


# ------------------------------------------------------------------ output


def summary_line(report: Report) -> str:
    if not report.changes:
        return f"API changes for users (against {report.against}): none"
    counts = ", ".join(
        f"{report.count(c)} {c if c != 'addition' or report.count(c) == 1 else 'additions'}"
        for c in CATEGORIES
    )
    return f"API changes for users (against {report.against}): {counts}"


def render_text(report: Report) -> str:
    lines = [summary_line(report)]
    width = max((len(c.rule) for c in report.changes), default=0)
    for category in CATEGORIES:
        for c in (c for c in report.changes if c.category == category):
            arrow = f"{c.old or '(none)'} -> {c.new or '(none)'}"
            tag = f"{category:<9}" if c.accepted is None else "accepted "
            lines.append(f"  {tag} {c.rule:<{width}}  {c.path}: {arrow}")
            lines.append(f"  {'':<9} {'':<{width}}  {c.consequence}")
            if c.accepted is not None:
                lines.append(f"  {'':<9} {'':<{width}}  accepted: {c.accepted}")
    return "\n".join(lines) + "\n"


def unmatched_warnings(report: Report) -> list[str]:
    return [
        str(
            Problem(
                f"accepted_changes: {a.rule} {a.path!r} matches no change (remove it once the change is "
                "in the compared generation)",
                report.annotations,
                a.line,
            )
        ).join(("warning: ", ""))
        for a in report.unmatched
    ]


def render_json(
    report: Report | None, drift: dict[str, list[str]] | None = None, against: str = ""
) -> str:
    """The report for bots; ``report`` None: there is no API record to compare with."""
    if report is None:
        data: dict[str, Any] = {"against": against, "available": False, "changes": None}
        if drift is not None:
            data["drift"] = drift
        return json.dumps(data, indent=1) + "\n"
    data = {
        "against": report.against,
        "available": True,
        "counts": {c: report.count(c) for c in CATEGORIES},
        "unaccepted_breaking": len(report.unaccepted_breaking),
        "changes": [
            {
                "rule": c.rule,
                "category": c.category,
                "path": c.path,
                "old": c.old,
                "new": c.new,
                "consequence": c.consequence,
                "accepted": c.accepted,
            }
            for c in report.changes
        ],
        "unmatched_acceptances": [
            {"rule": a.rule, "path": a.path, "line": a.line} for a in report.unmatched
        ],
    }
    if drift is not None:
        data["drift"] = drift
    return json.dumps(data, indent=1) + "\n"


# ------------------------------------------------------------------ git ref


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
    from .output import is_generated

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
