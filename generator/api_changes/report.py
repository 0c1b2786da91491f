"""The API change report: the changes between two API surfaces, marked
accepted where the annotations' ``accepted_changes`` say so, and its text
and JSON forms (what ``check`` and ``generate`` print)."""

from __future__ import annotations

import json

import msgspec

from ..annotations.keys import AcceptedChange, Annotations
from ..errors import closest
from ..errors import GeneratorError, Problem
from .rules import CATEGORIES, Category, Change, Rule, compare
from .surface import Surface


class Report(msgspec.Struct, frozen=True, kw_only=True):
    against: str  # what the "before" side is, for the heading
    changes: tuple[Change, ...]
    unmatched: tuple[AcceptedChange, ...] = ()  # acceptances that match no change
    annotations: str | None = None  # the file holding accepted_changes

    def count(self, category: Category) -> int:
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
    rules = {r.id: r for r in Rule}
    breaking = [r.id for r in Rule if r.category == "breaking"]
    for item in notes.accepted_changes:
        rule = rules.get(item.rule)
        if rule is None:
            guess = closest(item.rule, breaking)
            hint = (
                f"did you mean {guess!r}?"
                if guess
                else "see the rules in docs/schema-owners.md"
            )
            problems.append(
                Problem(
                    f"accepted_changes: unknown rule {item.rule!r}",
                    notes.path,
                    item.line,
                    hint,
                )
            )
        elif rule.category != "breaking":
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
    before: Surface, after: Surface, notes: Annotations, against: str
) -> Report:
    """Compare, and mark the changes accepted in ``notes``."""
    accepted = {(a.rule, a.path): a for a in notes.accepted_changes}
    used: set[tuple[str, str]] = set()
    changes = []
    for change in compare(before, after):
        key = (change.rule.id, change.path)
        hit = accepted.get(key)
        if hit is not None:
            used.add(key)
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
    width = max((len(c.rule.id) for c in report.changes), default=0)
    for category in CATEGORIES:
        for c in (c for c in report.changes if c.category == category):
            arrow = f"{c.old or '(none)'} -> {c.new or '(none)'}"
            tag = f"{category:<9}" if c.accepted is None else "accepted "
            lines.append(f"  {tag} {c.rule.id:<{width}}  {c.path}: {arrow}")
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
        data: dict[str, object] = {
            "against": against,
            "available": False,
            "changes": None,
        }
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
                "rule": c.rule.id,
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
