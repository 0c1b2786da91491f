"""The JSON Schemas and the API change report (issue 31, point 1).

The schemas are made from the facts the API surface records (types, labels,
enum values, choices, bounds, oneofs, deprecation, defaults) plus the docs,
so the report's rules are the schemas' change rules: a schema change that
narrows what documents may hold (a document valid before is rejected now)
is always reported as breaking, and a widening alone never is. Checked on
every case of tests/stages/api_changes/: the schemas of both sides are
probed with documents built from the keywords of both (every enum name,
choice, bound and its neighbours, each JSON type), validated by the
``jsonschema`` library.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from generator.api_changes.report import make_report
from generator.api_changes.rules import Rule
from generator.api_changes.surface import api_surface
from generator.options import Options
from generator.pipeline import analyse

CASES = Path(__file__).resolve().parent / "api_changes"
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())

# cases whose change the schemas must show, each way (so the probe can fail)
NARROWING = {
    "choices-tightened",
    "constraint-tightened",
    "enum-value-removed",
    "enum-value-renamed",
    "field-removed",
    "field-renamed",
    "message-removed",
    "type-changed",
}
WIDENING = {
    "choices-loosened",
    "constraint-loosened",
    "enum-value-added",
    "field-added",
    "message-added",
    "type-widened",
}


def _side(side: Path, work: Path) -> tuple[Any, dict[str, dict[str, Any]]]:
    out = work / side.name
    (out / "demo_api").mkdir(parents=True, exist_ok=True)
    notes = side / "annotations.yaml"
    analysis = analyse(
        Options(
            protos=tuple(sorted(side.glob("*.proto"))),
            annotations=notes if notes.exists() else None,
            out=out,
            package="demo_api",
        )
    )
    schemas = {s.full_name: json.loads(s.text) for s in analysis.model.json_schemas}
    return analysis, schemas


def _validators(schemas: dict[str, dict[str, Any]]) -> dict[str, jsonschema.Draft202012Validator]:
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in schemas.values()
    )
    return {name: jsonschema.Draft202012Validator(s, registry=registry) for name, s in schemas.items()}


_PLAIN: list[object] = [
    True, False, 0, 1, -1, 2, 0.5, -0.5, 2**31, 2**32, 2**63, 2**64, 1e39,
    "", "x", "5", "-5", "AAE=", "true", [], {},
]  # fmt: skip


def _keyword_values(node: object) -> list[object]:
    """Values a schema's keywords single out: enum members, consts,
    defaults, bounds and their neighbours (also as digit strings)."""
    found: list[object] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("enum", "const", "default"):
                    found += value if isinstance(value, list) else [value]
                elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                    for near in (value - 1, value - 0.5, value, value + 0.5, value + 1):
                        found.append(near)
                        if float(near).is_integer():
                            found.append(str(int(near)))
                else:
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _documents(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """One-key documents of a message: each property of either side with
    every probe value, alone, in a list and as a map's value; and the oneof
    pairs (two members set)."""
    names = list({**before.get("properties", {}), **after.get("properties", {})})
    values = _PLAIN + _keyword_values(before) + _keyword_values(after)
    documents: list[dict[str, Any]] = [{}]
    for name in names:
        for value in values:
            documents += [{name: value}, {name: [value]}, {name: {"k": value}}]
    documents += [{a: "x", b: "y"} for a in names for b in names if a < b]
    return documents


def _probe(case: str, work: Path) -> tuple[bool, bool, list[Any]]:
    """(narrowed, widened, the report's changes) of a case's schemas."""
    analysis_before, before = _side(CASES / case / "before", work)
    analysis_after, after = _side(CASES / case / "after", work)
    check_before, check_after = _validators(before), _validators(after)
    narrowed = widened = False
    for message in before.keys() | after.keys():
        if message not in after:
            narrowed = True
            continue
        if message not in before:
            widened = True
            continue
        for document in _documents(before[message], after[message]):
            was = check_before[message].is_valid(document)
            now = check_after[message].is_valid(document)
            narrowed |= was and not now
            widened |= now and not was
    report = make_report(
        api_surface(analysis_before.schema, analysis_before.model),
        api_surface(analysis_after.schema, analysis_after.model),
        analysis_after.notes,
        "before",
    )
    return narrowed, widened, list(report.changes)


@pytest.mark.parametrize("case", CASE_NAMES, ids=str)
def test_a_narrowed_schema_is_a_breaking_change(case: str, tmp_path: Path) -> None:
    narrowed, widened, changes = _probe(case, tmp_path)
    breaking = [c for c in changes if c.rule.category == "breaking"]
    if narrowed:
        assert breaking, f"{case}: the schemas reject documents they accepted, the report says nothing breaking"
    rule = case.split("--")[0]
    if rule in NARROWING:
        assert narrowed, f"{case}: the schemas should reject a document they accepted"
    if rule in WIDENING:
        assert widened and not narrowed, f"{case}: the schemas should accept more, and nothing less"
        assert not breaking
    assert Rule(rule)  # every case names a rule
