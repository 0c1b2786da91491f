"""Issue 14: the API change report.

1. One case per rule (``tests/stages/api_changes/<rule>/{before,after}/`` with the
   expected report in ``expected.txt``): the report must name that rule, and
   read exactly as reviewed. ``API_CHANGES_UPDATE=1`` rewrites the expected
   reports (review the diff).
2. On this repository: removing a field, renaming a config key, changing a
   float default and tightening a constraint, through the CLI; fail-on-breaking
   until the change is accepted in the annotations; the JSON form; the one-line
   summary of ``generate``.
3. ``check --against REF`` in a scratch git repository.
4. Hypothesis: random schema edits never give a report that misses a removed
   field or a changed default.
"""

from __future__ import annotations

import heapq
import json
import os
import shutil
import subprocess
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.annotations.keys import COMPAT_ACTIONS
from generator.api_changes.comparisons import POLICY_RANK, CompatAction, Numbers
from generator.api_changes.paths import FieldPaths
from generator.api_changes.report import make_report, render_json, render_text, unmatched_warnings
from generator.api_changes.rules import Rule, compare
from generator.api_changes.surface import Surface, SurfaceError, api_surface, decode_surface, surface_json
from generator.cli import main
from generator.errors import GeneratorError
from generator.output.manifest import manifest_text
from generator.options import Options
from generator.pipeline import analyse
from tests.support import ROOT
from tests.stages.test_cli import project  # noqa: F401 - the fixture: a copy of this project, cwd set to it
from tests.fuzz.test_fuzz_schemas import FUZZ, declared_default, proto_text, schemas

CASES = Path(__file__).resolve().parent / "api_changes"
UPDATE = os.environ.get("API_CHANGES_UPDATE") == "1"


def surface_of(side: Path, work: Path, package: str = "demo_api") -> tuple[Surface, Any]:
    """(API surface, annotations) of the inputs in ``side``."""
    out = work / side.name
    (out / package).mkdir(parents=True, exist_ok=True)
    notes = side / "annotations.yaml"  # its hooks.py beside it
    protos = tuple(sorted(side.glob("*.proto")))
    analysis = analyse(
        Options(protos=protos, annotations=notes if notes.exists() else None, out=out, package=package)
    )
    return api_surface(analysis.schema, analysis.model), analysis.notes


# ============================================================ one case per rule


# A case folder is named after its rule, or <rule>--<variant> for another shape of it.
CASE_NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def test_every_rule_has_a_case():
    assert sorted({name.split("--")[0] for name in CASE_NAMES}) == sorted(r.id for r in Rule)


@pytest.mark.parametrize("case", CASE_NAMES, ids=str)
def test_rule(case, tmp_path):
    rule = case.split("--")[0]
    before, _ = surface_of(CASES / case / "before", tmp_path)
    after, notes = surface_of(CASES / case / "after", tmp_path)
    report = make_report(before, after, notes, "before")
    text = render_text(report)
    hits = [c for c in report.changes if c.rule.id == rule]
    assert hits, f"the {rule} case does not report {rule}:\n{text}"
    assert all(c.category == Rule(rule).category for c in hits)
    expected = CASES / case / "expected.txt"
    if UPDATE:
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")


def test_docs_list_every_rule():
    guide = (ROOT / "docs" / "schema-owners.md").read_text(encoding="utf-8")
    for rule in Rule:
        assert f"| {rule.category} | `{rule.id}` | {rule.meaning} |" in guide, rule


def test_no_change_no_report(tmp_path):
    before, _ = surface_of(CASES / "default-changed" / "before", tmp_path)
    assert compare(before, before) == []


def test_the_committed_record_is_the_current_surface():
    """The manifest's "api" is what the inputs give now (the report's "before")."""
    data = json.loads((ROOT / "generated" / "fleet_strategy.manifest.json").read_text(encoding="utf-8"))
    analysis = analyse(
        Options(
            protos=(ROOT / "proto" / "distributed_strategy.proto",),
            annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
            out=ROOT / "generated",
            package="fleet_strategy",
        )
    )
    surface = api_surface(analysis.schema, analysis.model)
    assert data["api"] == surface_json(surface)
    assert decode_surface(data["api"]) == surface


@pytest.mark.parametrize(
    ("old", "new", "rule"),
    [
        ("> 0", ">= 0", "constraint-loosened"),
        (">= 0", "> 0", "constraint-tightened"),
        ("> 0", "> 1", "constraint-tightened"),
        ("< 10", "<= 10", "constraint-loosened"),
        ("!= 0", "> 0", "constraint-tightened"),
        ("> 0", "!= 0", "constraint-loosened"),
        ("> 5", "!= 3", "constraint-loosened"),
        ("> 2", "!= 3", "constraint-tightened"),
        (None, "!= 3", "constraint-tightened"),
        ("<= 3", None, "constraint-loosened"),
    ],
)
def test_constraint_comparison(old, new, rule, tmp_path):
    case = CASES / "constraint-tightened" / "before"
    surfaces = []
    for side, constraint in (("before", old), ("after", new)):
        folder = tmp_path / side
        shutil.copytree(case, folder)
        notes = yaml.safe_load((folder / "annotations.yaml").read_text())
        field = notes["messages"]["demo.Strategy"]["fields"]["workers"]
        if constraint:
            field["constraint"] = constraint
        (folder / "annotations.yaml").write_text(yaml.safe_dump(notes))
        surfaces.append(surface_of(folder, tmp_path / "work")[0])
    assert [c.rule.id for c in compare(*surfaces)] == [rule]


def test_equivalent_integer_constraints_are_no_change(tmp_path):
    surfaces = []
    for side, constraint in (("before", "> 0"), ("after", ">= 1")):
        folder = tmp_path / side
        shutil.copytree(CASES / "constraint-tightened" / "before", folder)
        notes = yaml.safe_load((folder / "annotations.yaml").read_text())
        notes["messages"]["demo.Strategy"]["fields"]["workers"]["constraint"] = constraint
        (folder / "annotations.yaml").write_text(yaml.safe_dump(notes))
        surfaces.append(surface_of(folder, tmp_path / "work")[0])
    assert compare(*surfaces) == []


def test_a_default_spelt_differently_is_no_change(tmp_path):
    """A record written by another generator version may spell a default as
    protoc does (5e+01); the same value is not a changed default."""
    before, _ = surface_of(CASES / "default-changed" / "before", tmp_path)
    respelt = json.loads(json.dumps(surface_json(before)))
    changed = 0
    for fact in _facts_with_defaults(respelt):
        if isinstance(fact["default"], str) and fact["default"].replace(".", "").isdigit():
            fact["default"] = format(float(fact["default"]), "e")
            changed += 1
    assert changed and compare(decode_surface(respelt), before) == []


def _facts_with_defaults(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        own = [node] if "default" in node else []
        return own + [f for value in node.values() for f in _facts_with_defaults(value)]
    if isinstance(node, list):
        return [f for value in node for f in _facts_with_defaults(value)]
    return []


# ==================================================== paths, and the record's size


def reference_paths(surface: dict[str, Any]) -> dict[tuple[str, str], str]:
    """The paths as the record stored them before version 2: every path
    spelt out while walking messages from the properties, shortest route first,
    each field keeping its shortest (then first in text order) path."""
    best: dict[tuple[str, str], str] = {}

    def offer(key: tuple[str, str], path: str) -> None:
        if key not in best or (len(path), path) < (len(best[key]), best[key]):
            best[key] = path

    messages = surface["messages"]
    frontier: list[tuple[int, str, str, bool]] = []
    for cls_name, cls in surface["classes"].items():
        fields = messages[cls["message"]]["fields"]
        for prop_name, prop in cls["properties"].items():
            if "field" not in prop:
                continue
            path = f"{cls_name}.{prop_name}"
            offer((cls["message"], prop["field"]), path)
            kind, _, target = fields[prop["field"]]["type"].partition(" ")
            if prop["kind"] in ("config", "message") and kind == "message":
                heapq.heappush(frontier, (len(path), path, target, prop["kind"] == "config"))
    walked: set[str] = set()
    while frontier:
        _, prefix, name, dict_view = heapq.heappop(frontier)
        if name in walked or name not in messages:
            continue
        walked.add(name)
        for field, fact in messages[name]["fields"].items():
            path = f"{prefix}[{field!r}]" if dict_view else f"{prefix}.{field}"
            offer((name, field), path)
            kind, _, target = fact["type"].partition(" ")
            if kind == "message" and fact.get("label") != "repeated" and target not in walked:
                heapq.heappush(frontier, (len(path), path, target, dict_view))
    return best


def assert_paths_as_spelt_out(surface: Surface) -> int:
    expected, paths = reference_paths(surface_json(surface)), FieldPaths(surface)
    fields = [(m, f) for m, record in surface.messages.items() for f in record.fields]
    assert {key: paths(*key) for key in fields} == {key: expected.get(key) for key in fields}
    return len(fields)


# Routes of one length to one message: from parents of one length (R.x, R.y),
# of other lengths (R.b['zz'], R.ab['z']), from one parent (R.v['p'], R.v['o']),
# through attribute views (R.aB.c, R.a.Bcx), back to the class's own message.
TIES_PROTO = """syntax = "proto2";
package ties;
// Root.
message R {
  optional M1 b = 1;
  optional M2 ab = 2;
  optional M3 x = 3;
  optional M4 y = 4;
  optional M5 aB = 5;
  optional M6 a = 6;
  optional M7 v = 7;
}
message M1 { optional T zz = 1; optional int32 q = 2; }
message M2 { optional T z = 1; optional int32 q = 2; }
message M3 { optional U k = 1; }
message M4 { optional U k = 1; optional U j = 2; }
message M5 { optional W c = 1; }
message M6 { optional W Bc = 1; optional W a_c = 2; }
message M7 { optional V p = 1; optional V o = 2; }
message T { optional int32 leaf = 1; optional T self = 2; }
message U { optional int32 leaf = 1; }
message W { optional int32 leaf = 1; optional R back = 2; }
message V { optional int32 leaf = 1; repeated V more = 2; }
// A second class, with a longer name.
message RootTwo { optional M2 z = 1; optional T t = 2; }
"""
TIES_NOTES = """classes:
  R: {message: ties.R}
  RootTwo: {message: ties.RootTwo}
messages:
  ties.R:
    fields:
      aB: {view: message}
      a: {view: message}
"""


def test_paths_are_the_ones_the_record_stored(tmp_path):
    """Version 2 records no paths: they are worked out when a change is reported,
    and must be the very paths version 1 stored (acceptances name them)."""
    counted = assert_paths_as_spelt_out(
        decode_surface(json.loads((ROOT / "generated" / "fleet_strategy.manifest.json").read_text())["api"])
    )
    for case in CASE_NAMES:
        for side in ("before", "after"):
            counted += assert_paths_as_spelt_out(surface_of(CASES / case / side, tmp_path / case)[0])
    ties = tmp_path / "ties"
    ties.mkdir()
    (ties / "ties.proto").write_text(TIES_PROTO)
    (ties / "annotations.yaml").write_text(TIES_NOTES)
    surface = surface_of(ties, tmp_path / "work")[0]
    counted += assert_paths_as_spelt_out(surface)
    paths = FieldPaths(surface)
    assert [paths("ties.T", "leaf"), paths("ties.U", "leaf"), paths("ties.V", "leaf"), paths("ties.W", "leaf")] == [
        "R.ab['z']['leaf']", "R.x['k']['leaf']", "R.v['o']['leaf']", "R.a.Bc.leaf"
    ]
    assert paths("ties.R", "b") == "R.b" and paths("ties.RootTwo", "t") == "RootTwo.t"
    assert counted > 500


@given(schema=schemas(("proto2", "proto3")))
@FUZZ
def test_random_schemas_paths_are_the_ones_the_record_stored(tmp_path_factory, schema):
    folder = tmp_path_factory.mktemp("paths")
    for name, text in _field_line_map(schema).items():
        (folder / name).write_text(text, encoding="utf-8")
    assert_paths_as_spelt_out(surface_of(folder, folder / "out", "fz_paths")[0])


def chain_proto(links: int) -> str:
    """``links`` messages, each holding the next: a config key nested ``links`` deep."""
    out = ['syntax = "proto2";', "package chain;"]
    for i in range(links):
        out.append(f"message Link{i:04d} {{")
        out += [f"  optional int32 value_{k} = {k} [default = {k}];" for k in range(1, 6)]
        if i + 1 < links:
            out.append(f"  optional Link{i + 1:04d} next = 6;")
        out.append("}")
    return "\n".join(out) + "\n"


# one class, at the chain's start: every other link is reached through config keys
CHAIN_CLASS = "classes:\n  Link0000:\n    message: chain.Link0000\n"


def test_the_record_grows_linearly_with_nested_messages(tmp_path):
    """Stored per field, paths made the record of a chain of n messages grow
    as n² (1,500 messages: 88 MB); the report still names the deep paths."""
    sizes, surfaces = {}, {}
    for links in (40, 160):
        folder = tmp_path / f"chain{links}"
        folder.mkdir()
        (folder / "chain.proto").write_text(chain_proto(links))
        (folder / "annotations.yaml").write_text(CHAIN_CLASS)
        surfaces[links] = surface_of(folder, tmp_path / "work", "chain_api")[0]
        sizes[links] = len(manifest_text({}, (), surface_json(surfaces[links])))
    assert sizes[160] < 4.3 * sizes[40], sizes
    edited = tmp_path / "edited"
    edited.mkdir()
    deep = "value_5 = 5 [default = 5];\n  optional Link0159"  # in Link0158
    (edited / "chain.proto").write_text(chain_proto(160).replace(deep, deep.replace("default = 5", "default = 6")))
    (edited / "annotations.yaml").write_text(CHAIN_CLASS)
    after = surface_of(edited, tmp_path / "work2", "chain_api")[0]
    [change] = compare(surfaces[160], after)
    assert (change.rule.id, change.path) == ("default-changed", "Link0000.next" + "['next']" * 157 + "['value_5']")


ranges = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 8)).map(lambda r: [r[0], r[0] + r[1]]), max_size=5)


@given(a=ranges, b=ranges, used=st.sets(st.integers(0, 70)))
def test_reserved_ranges_work_as_the_sets_of_their_numbers(a, b, used):
    def numbers(spans: list[list[int]]) -> set[int]:
        return {n for low, high in spans for n in range(low, high + 1)}

    freed = Numbers(a) - Numbers(b) - Numbers.of(used)
    expected = sorted(numbers(a) - numbers(b) - used)
    assert [n for low, high in freed.ranges for n in range(low, high + 1)] == expected
    assert all((n in Numbers(a)) == (n in numbers(a)) for n in range(-1, 72))
    if expected:
        shown = ", ".join(f"{run[0]}" if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in _runs(expected))
        assert freed.text() == ("numbers " if len(expected) > 1 else "number ") + shown


def _runs(numbers: list[int]) -> list[list[int]]:
    """Consecutive numbers together: 1 2 3 5 -> [1 2 3] [5]."""
    out: list[list[int]] = []
    for n in numbers:
        if out and out[-1][-1] == n - 1:
            out[-1].append(n)
        else:
            out.append([n])
    return out


def test_a_reservation_up_to_max_is_reported_whole(tmp_path):
    """Reserved ranges are compared as ranges: "100 to max" is 536,870,812 numbers."""
    sides = {}
    for side, reserved in (("before", "  reserved 100 to max;\n"), ("after", "")):
        folder = tmp_path / side
        folder.mkdir()
        (folder / "schema.proto").write_text(
            f'syntax = "proto2";\npackage demo;\nmessage Job {{\n  optional int32 a = 1;\n{reserved}}}\n'
        )
        sides[side] = surface_of(folder, tmp_path / "work")[0]
    [change] = compare(sides["before"], sides["after"])
    assert (change.rule.id, change.old) == ("reserved-removed", "numbers 100-536870911")


# ================================================== accepted_changes (annotations)


def _with_accepted(case: str, tmp_path: Path, accepted: Any) -> Path:
    folder = tmp_path / "after"
    shutil.copytree(CASES / case / "after", folder)
    notes = yaml.safe_load((folder / "annotations.yaml").read_text())
    notes["accepted_changes"] = accepted
    (folder / "annotations.yaml").write_text(yaml.safe_dump(notes, sort_keys=False))
    return folder


def test_an_accepted_change_is_marked_and_a_stale_acceptance_warns(tmp_path):
    after_dir = _with_accepted(
        "default-changed",
        tmp_path,
        [
            {"rule": "default-changed", "path": "Strategy.train_configs['scale']", "reason": "4.0 converges faster"},
            {"rule": "field-removed", "path": "Strategy.gone", "reason": "old"},
        ],
    )
    before, _ = surface_of(CASES / "default-changed" / "before", tmp_path)
    after, notes = surface_of(after_dir, tmp_path)
    report = make_report(before, after, notes, "x")
    assert [c.accepted for c in report.changes] == ["4.0 converges faster"]
    assert report.unaccepted_breaking == ()
    assert [a.path for a in report.unmatched] == ["Strategy.gone"]
    text = render_text(report)
    assert "  accepted  default-changed  Strategy.train_configs['scale']: 2.0 -> 4.0\n" in text
    assert "accepted: 4.0 converges faster" in text
    [warning] = unmatched_warnings(report)
    assert warning.startswith(f"warning: {after_dir / 'annotations.yaml'}:")
    assert "accepted_changes: field-removed 'Strategy.gone' matches no change" in warning
    data = json.loads(render_json(report))
    assert data["unaccepted_breaking"] == 0 and data["changes"][0]["accepted"] == "4.0 converges faster"


@pytest.mark.parametrize(
    ("accepted", "message"),
    [
        ([{"rule": "default-chnged", "path": "p", "reason": "r"}], "unknown rule 'default-chnged' (did you mean 'default-changed'?)"),
        ([{"rule": "zzz", "path": "p", "reason": "r"}], "unknown rule 'zzz' (see the rules in docs/schema-owners.md)"),
        ([{"rule": "field-added", "path": "p", "reason": "r"}], "'field-added' is not a breaking rule"),
        ([{"rule": "default-changed", "path": "p"}], "accepted_changes[0]: 'reason' required"),
        ([{"rule": "default-changed", "path": "p", "reason": "r", "why": 1}], "unknown key in accepted_changes[0] 'why'"),
        ({"rule": "x"}, "annotations.accepted_changes: expected list, got dict"),
    ],
)
def test_bad_acceptances_name_file_and_line(accepted, message, tmp_path, capsys, monkeypatch):
    folder = _with_accepted("default-changed", tmp_path, accepted)
    monkeypatch.chdir(folder)
    code = main(["check", "--proto", "schema.proto", "--annotations", "annotations.yaml", "--out", "out", "--package", "demo_api"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert "annotations.yaml:" in err


# ============================================================ on this repository


PROTO = Path("proto/distributed_strategy.proto")
NOTES = Path("proto/fleet_strategy.annotations.yaml")

EDITS = {
    "remove a field": (
        [(PROTO, "  optional bool use_optimizer_fp16 = 12 [default = false];\n", "")],
        [(NOTES, "      use_optimizer_fp16:\n        doc: Let the optimizer update float16 parameters without fp32 master"
                 " copies. Read only by\n          the semi-automatic parallel pure float16 pass.\n", "")],
        "  breaking  field-removed  DistributedStrategy.amp_configs['use_optimizer_fp16']: bool use_optimizer_fp16 = 12"
        " -> (none)\n"
        "                           dicts naming 'use_optimizer_fp16' raise UnknownConfigKeyError; saved prototxt"
        " setting it no longer loads; number 12 is not reserved\n",
    ),
    "rename a config key": (
        [(PROTO, "optional float decr_ratio = 5", "optional float decrease_ratio = 5")],
        [(NOTES, "      decr_ratio:\n        doc: Multiplier (between", "      decrease_ratio:\n        doc: Multiplier (between")],
        "  breaking  field-renamed  DistributedStrategy.amp_configs['decr_ratio']: decr_ratio -> decrease_ratio\n"
        "                           code naming decr_ratio must use decrease_ratio; binary data still reads (same"
        " number 5), but prototxt and JSON naming decr_ratio no longer load\n",
    ),
    "change a float default": (
        [(PROTO, "optional float init_loss_scaling = 1 [default = 32768];", "optional float init_loss_scaling = 1 [default = 65536];")],
        [],
        "  breaking  default-changed  DistributedStrategy.amp_configs['init_loss_scaling']: 32768.0 -> 65536.0\n"
        "                             every DistributedStrategy that does not set it now gets 65536.0 instead of"
        " 32768.0\n",
    ),
    "tighten a constraint": (
        [],
        [(NOTES, "          >>> strategy.nccl_comm_num\n          2\n        constraint: '> 0'",
          "          >>> strategy.nccl_comm_num\n          2\n        constraint: '> 0'\n        enforce_constraint: always")],
        "  breaking  constraint-tightened  DistributedStrategy.nccl_comm_num: > 0 (strict) -> > 0 (always)\n"
        "                                  values outside > 0 are now rejected in compatible mode too, not only in"
        " strict mode (ValueError)\n",
    ),
}


def _edit(project: Path, edits: list[tuple[Path, str, str]]) -> None:
    for path, old, new in edits:
        text = (project / path).read_text(encoding="utf-8")
        assert old in text, old
        (project / path).write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("edit", list(EDITS), ids=str)
def test_the_four_edits_on_this_repository(edit, project, capsys):
    proto_edits, note_edits, expected = EDITS[edit]
    _edit(project, proto_edits + note_edits)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    head = "API changes for users (against the last generation): 1 breaking, 0 behaviour, 0 additions\n"
    assert out.startswith(head + expected + "\n"), out[:2000]
    assert out.index("API changes") < out.index("stale: ") < out.index("--- ")  # the report above the file diff


def test_check_prints_the_report_and_fails_on_breaking(project, capsys):
    """Plain check: the manifest's record is the "before"; --fail-on-breaking adds the error."""
    _edit(project, EDITS["change a float default"][0])
    assert main(["check"]) == 1  # drift
    assert "not accepted" not in capsys.readouterr().err
    assert main(["check", "--fail-on-breaking"]) == 1
    captured = capsys.readouterr()
    assert "default-changed  DistributedStrategy.amp_configs['init_loss_scaling']" in captured.out
    assert "error: 1 breaking API change(s) not accepted (fail-on-breaking)" in captured.err
    assert "  - rule: default-changed\n    path: \"DistributedStrategy.amp_configs['init_loss_scaling']\"" in captured.err
    assert main(["generate"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "API changes for users (against the last generation): 1 breaking, 0 behaviour, 0 additions"
        " (details: fleet-strategy-codegen check --against HEAD)"  # main() is the console script
    )
    assert main(["check", "--fail-on-breaking"]) == 0  # generated: nothing changed since the last generation


def _accept(project: Path, *items: tuple[str, str, str]) -> None:
    notes = project / NOTES
    text = notes.read_text()
    text += "" if "\naccepted_changes:\n" in text else "\naccepted_changes:\n"
    for rule, path, reason in items:
        text += f"  - rule: {rule}\n    path: {json.dumps(path)}\n    reason: {reason}\n"
    notes.write_text(text)


def test_fail_on_breaking_until_accepted(project, capsys):
    """The CI flow: a pull request branch compared with main."""
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    git(project, "checkout", "-q", "-b", "feature")
    _edit(project, EDITS["change a float default"][0])
    assert main(["generate"]) == 0
    git(project, "commit", "-qam", "new default")
    capsys.readouterr()
    assert main(["check", "--against", "main"]) == 0  # reported, not failed: the option is off
    assert main(["check", "--against", "main", "--fail-on-breaking"]) == 1
    captured = capsys.readouterr()
    assert "error: 1 breaking API change(s) not accepted" in captured.err
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace("[tool.fleet-strategy-codegen]\n", "[tool.fleet-strategy-codegen]\nfail-on-breaking = true\n")
    )
    assert main(["check", "--against", "main"]) == 1
    assert main(["check", "--against", "main", "--no-fail-on-breaking"]) == 0
    capsys.readouterr()
    _accept(project, ("default-changed", "DistributedStrategy.amp_configs['init_loss_scaling']", "Paddle 3.4 uses 65536"))
    # accepted: the generated files do not change (the manifest records the output, not an input hash)
    assert main(["check", "--against", "main"]) == 0
    assert "not accepted" not in capsys.readouterr().err
    assert main(["generate"]) == 0
    capsys.readouterr()
    assert main(["check", "--against", "main"]) == 0
    captured = capsys.readouterr()
    assert "  accepted  default-changed  DistributedStrategy.amp_configs['init_loss_scaling']: 32768.0 -> 65536.0" in captured.out
    assert "accepted: Paddle 3.4 uses 65536" in captured.out
    assert captured.err == ""
    # an acceptance that matches nothing warns with file:line, and does not fail
    _accept(project, ("field-removed", "DistributedStrategy.amp", "never happened"))
    assert main(["generate"]) == 0
    capsys.readouterr()
    assert main(["check", "--against", "main"]) == 0
    err = capsys.readouterr().err
    assert "warning: " in err and "annotations.yaml:" in err
    assert "accepted_changes: field-removed 'DistributedStrategy.amp' matches no change" in err


def test_fail_on_breaking_must_be_a_boolean(project, capsys):
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("[tool.fleet-strategy-codegen]\n", "[tool.fleet-strategy-codegen]\nfail-on-breaking = \"yes\"\n"))
    assert main(["check"]) == 2
    assert "fail-on-breaking must be true or false, got 'yes'" in capsys.readouterr().err


def test_json_report_for_bots(project, capsys):
    assert main(["check", "--report-format", "json"]) == 0  # unchanged inputs: answered from the manifest
    data = json.loads(capsys.readouterr().out)
    assert (data["available"], data["changes"], data["drift"]) == (True, [], {"missing": [], "stale": [], "orphaned": []})
    proto_edits, _, _ = EDITS["change a float default"]
    _edit(project, proto_edits)
    assert main(["check", "--report-format", "json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)  # stdout is one JSON document
    assert data["counts"] == {"breaking": 1, "behaviour": 0, "addition": 0}
    assert data["changes"] == [
        {
            "rule": "default-changed",
            "category": "breaking",
            "path": "DistributedStrategy.amp_configs['init_loss_scaling']",
            "old": "32768.0",
            "new": "65536.0",
            "consequence": "every DistributedStrategy that does not set it now gets 65536.0 instead of 32768.0",
            "accepted": None,
        }
    ]
    stale = data["drift"]["stale"]
    assert "generated/fleet_strategy/distributed_strategy_pb2.py" not in stale  # paths relative to the output folder
    assert "fleet_strategy/distributed_strategy_pb2.py" in stale
    assert "fleet_strategy/_pool.py" not in stale  # headers carry no hash: untouched files stay clean
    assert "stale: generated/fleet_strategy/distributed_strategy_pb2.py" in captured.err  # the listing goes to stderr


def test_no_record_says_so(project, capsys):
    manifest = project / "generated" / "fleet_strategy.manifest.json"
    data = json.loads(manifest.read_text())
    del data["api"]
    manifest.write_text(json.dumps(data))
    assert main(["check", "--full"]) == 1
    assert "API changes for users: unknown (the manifest holds no API record" in capsys.readouterr().out
    assert main(["check", "--full", "--report-format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["available"], data["changes"], data["drift"]["stale"]) == (False, None, ["fleet_strategy.manifest.json"])


def test_a_record_of_the_previous_format_is_compared(project, capsys):
    """A manifest written before version 2 (paths stored per field) still gives
    the report, with the same paths."""
    manifest = project / "generated" / "fleet_strategy.manifest.json"
    data = json.loads(manifest.read_text())
    api = data["api"]
    paths = reference_paths(api)
    for name, record in api["messages"].items():
        for field, fact in record["fields"].items():
            if (name, field) in paths:
                fact["path"] = paths[name, field]
    api["version"] = 1
    manifest.write_text(json.dumps(data, indent=1))
    _edit(project, EDITS["change a float default"][0])
    assert main(["check", "--full"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("API changes for users (against the last generation): 1 breaking, 0 behaviour, 0 additions\n"
                          + EDITS["change a float default"][2]), out[:2000]


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda api: api["messages"]["paddle.fleet.AMPConfig"]["fields"]["init_loss_scaling"].pop("type"),
         "Object missing required field `type` - at `$.messages[...].fields[...]`"),
        (lambda api: api["enums"].update({"x.Y": {"literal": "Y", "values": {"A": "one"}}}),
         "Expected `int`, got `str` - at `$.enums[...].values[...]`"),
        (lambda api: next(iter(api["classes"].values()))["properties"].update({"p": {"kind": "odd", "getter_type": "int"}}),
         "Invalid enum value 'odd' - at `$.classes[...].properties[...].kind`"),
        (lambda api: api.update(version=7), "format version 7; this generator reads versions 1, 2"),
    ],
    ids=["missing key", "wrong type", "unknown kind", "newer format"],
)
def test_a_damaged_record_is_named_not_an_internal_error(project, capsys, damage, said):
    """A hand-damaged API record in the manifest: the manifest is damaged
    (exit 1, saying what is wrong and where), and generate rewrites it."""
    manifest = project / "generated" / "fleet_strategy.manifest.json"
    data = json.loads(manifest.read_text())
    damage(data["api"])
    manifest.write_text(json.dumps(data, indent=1))
    assert main(["check", "--full"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "damaged: generated/fleet_strategy.manifest.json: the manifest is damaged: run generate (the API record"
    ), out
    assert said in out
    assert "API changes for users: unknown" in out
    assert main(["generate"]) == 0
    capsys.readouterr()
    assert main(["check", "--full"]) == 0
    assert decode_surface(json.loads(manifest.read_text())["api"]).version == 2


def test_decode_surface_reads_text_and_objects_and_names_the_defect():
    text = json.dumps(json.loads((ROOT / "generated" / "fleet_strategy.manifest.json").read_text())["api"])
    assert decode_surface(text) == decode_surface(text.encode()) == decode_surface(json.loads(text))
    with pytest.raises(SurfaceError, match=r"Expected `object`, got `array` - at `\$.classes`"):
        decode_surface({"version": 2, "classes": [], "messages": {}, "enums": {}})
    with pytest.raises(SurfaceError, match="the API record is damaged: Input data was truncated"):
        decode_surface(b"{")


def test_the_compat_actions_are_the_annotations_ones():
    """comparisons.CompatAction (typed) names what annotations accept as a compat_policies action."""
    assert set(typing.get_args(CompatAction)) == set(COMPAT_ACTIONS) == set(POLICY_RANK)


# =================================================================== git ref


def git(folder: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    return subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True, text=True).stdout


def test_against_a_git_ref(project, capsys):
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    assert main(["check", "--against", "HEAD"]) == 0
    assert capsys.readouterr().out.startswith("API changes for users (against HEAD): none\n")
    git(project, "checkout", "-q", "-b", "feature")
    _edit(project, EDITS["rename a config key"][0] + EDITS["rename a config key"][1] + EDITS["change a float default"][0])
    assert main(["generate"]) == 0
    git(project, "commit", "-qam", "edit")
    capsys.readouterr()
    assert main(["check", "--against", "main"]) == 0  # the output is regenerated: no drift, the report still shows
    out = capsys.readouterr().out
    assert out.startswith("API changes for users (against main): 2 breaking, 0 behaviour, 0 additions\n")
    assert "field-renamed    DistributedStrategy.amp_configs['decr_ratio']: decr_ratio -> decrease_ratio" in out
    assert "default-changed  DistributedStrategy.amp_configs['init_loss_scaling']: 32768.0 -> 65536.0" in out
    assert main(["check", "--against", "main", "--fail-on-breaking"]) == 1
    assert "2 breaking API change(s) not accepted" in capsys.readouterr().err
    assert main(["check", "--against", "HEAD"]) == 0
    assert "(against HEAD): none" in capsys.readouterr().out


def test_against_a_ref_from_before_the_hooks_moved_beside_the_annotations(project, capsys):
    """At such a ref the hand-written modules sit in the package folder (no
    marker): they are read from there for that ref only, and a hook changed
    since is reported."""
    git(project, "init", "-q", "-b", "main")
    for name in ("hooks.py", "module_helpers.py"):  # the old layout
        (project / "generated" / "fleet_strategy" / name).write_bytes((project / "proto" / name).read_bytes())
        (project / "proto" / name).unlink()
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "old layout")
    git(project, "rm", "-q", "generated/fleet_strategy/hooks.py", "generated/fleet_strategy/module_helpers.py")
    shutil.copy(ROOT / "proto" / "hooks.py", project / "proto" / "hooks.py")
    shutil.copy(ROOT / "proto" / "module_helpers.py", project / "proto" / "module_helpers.py")
    assert main(["generate"]) == 0
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "moved")
    capsys.readouterr()
    assert main(["check", "--against", "main~1"]) == 0
    assert "(against main~1): none" in capsys.readouterr().out
    notes = project / "proto" / "fleet_strategy.annotations.yaml"
    notes.write_text(notes.read_text().replace("getter: get_build_strategy", "getter: get_table_params", 1))
    assert main(["generate"]) == 0
    capsys.readouterr()
    assert main(["check", "--against", "main~1"]) == 0
    assert "get_build_strategy" in capsys.readouterr().out  # the hook the old ref's hooks module defined


def test_against_a_ref_where_the_inputs_did_not_exist(project, capsys):
    (project / "README").write_text("x")
    git(project, "init", "-q")
    git(project, "add", "README")
    git(project, "commit", "-q", "-m", "empty")
    assert main(["check", "--against", "HEAD", "--report-format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    # everything is new: 2 classes, 45 messages, 2 enums (their members are not listed one by one), 16 rules
    assert data["counts"] == {"breaking": 0, "behaviour": 0, "addition": 65}
    err = captured.err
    assert "warning: proto/distributed_strategy.proto does not exist at HEAD: what it defines counts as new" in err
    assert "warning: proto/fleet_strategy.annotations.yaml does not exist at HEAD" in err
    assert any(c["rule"] == "class-added" and c["path"] == "DistributedStrategy" for c in data["changes"])


def test_against_a_bad_ref_or_outside_git(project, capsys):
    assert main(["check", "--against", "HEAD"]) == 2
    assert "--against reads the inputs with git, but git rev-parse --show-toplevel: fatal: not a git repository" in capsys.readouterr().err
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    assert main(["check", "--against", "no-such-ref"]) == 2
    assert "--against no-such-ref: no such commit in this repository (fetch it first" in capsys.readouterr().err


def test_against_a_ref_with_bad_inputs_names_the_ref(project, capsys):
    git(project, "init", "-q")
    notes = project / NOTES
    good = notes.read_text()
    notes.write_text(good + "\nbogus_key: 1\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "broken")
    notes.write_text(good)
    assert main(["check", "--against", "HEAD"]) == 2
    err = capsys.readouterr().err
    assert "error: HEAD:proto/fleet_strategy.annotations.yaml:" in err and "at HEAD: unknown key in annotations 'bogus_key'" in err


def test_against_a_ref_honours_include_folders(tmp_path, monkeypatch, capsys):
    """Imports resolved against -I folders (published schemas import by
    repository-root paths) resolve at the ref too, in the ref's version."""
    repo = tmp_path / "repo"
    common = repo / "protos" / "acme" / "common" / "v1"
    trace = repo / "protos" / "acme" / "trace" / "v1"
    common.mkdir(parents=True)
    trace.mkdir(parents=True)
    (common / "common.proto").write_text(
        'syntax = "proto3";\npackage acme.common.v1;\n// A key.\nmessage Key {\n  // Its name.\n  string name = 1;\n}\n'
    )
    (trace / "trace.proto").write_text(
        'syntax = "proto3";\npackage acme.trace.v1;\nimport "acme/common/v1/common.proto";\n'
        "// A span.\nmessage Span {\n  // Its key.\n  acme.common.v1.Key key = 1;\n  // Its size.\n  int32 size = 2;\n}\n"
    )
    monkeypatch.chdir(repo)
    options = ["-I", "protos", "--proto", "protos/acme", "--no-annotations", "--out", "out", "--package", "acme_api"]
    assert main(["generate", *options]) == 0
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    capsys.readouterr()
    assert main(["check", *options, "--against", "HEAD"]) == 0
    assert capsys.readouterr().out.startswith("API changes for users (against HEAD): none\n")
    # the ref's version of the imported file is the one compared
    (common / "common.proto").write_text(
        'syntax = "proto3";\npackage acme.common.v1;\n// A key.\nmessage Key {\n  reserved 1;\n}\n'
    )
    assert main(["generate", *options]) == 0
    capsys.readouterr()
    assert main(["check", *options, "--against", "HEAD"]) == 0
    out = capsys.readouterr().out
    assert "field-removed" in out and "name" in out, out


# ================================================================ hypothesis


@st.composite
def schema_edits(draw: Any):
    """A random schema, and an edit: remove fields and/or change declared defaults."""
    schema = draw(schemas(("proto2", "proto3")))
    fields = [(m, f) for m in schema.messages.values() for f in m.fields]
    removed, changed = [], []
    for message, f in fields:
        action = draw(st.sampled_from(["keep", "keep", "remove", "default"]))
        if action == "remove":
            removed.append((message.full, f.name))
        elif action == "default" and f.kind == "scalar" and f.label != "repeated" and schema.file_of[message.full].syntax == "proto2" and f.oneof is None:
            text, _ = draw(declared_default(f.type))
            changed.append((message.full, f.name, text))
    return schema, removed, changed


def _field_line_map(schema: Any) -> dict[str, str]:
    return {d.name: proto_text(d) for d in schema.files}


@given(data=schema_edits())
@FUZZ
def test_random_edits_never_hide_a_removed_field_or_a_changed_default(tmp_path_factory, data):
    import copy

    schema, removed, changed = data
    after = copy.deepcopy(schema)
    for message in after.messages.values():
        message.fields = [f for f in message.fields if (message.full, f.name) not in removed]
        for f in message.fields:
            for full, name, text in changed:
                if (message.full, f.name) == (full, name):
                    f.default_text = text
    work = tmp_path_factory.mktemp("edit")
    surfaces = []
    for side, version in (("before", schema), ("after", after)):
        folder = work / side
        folder.mkdir()
        for name, text in _field_line_map(version).items():
            (folder / name).write_text(text, encoding="utf-8")
        try:
            surfaces.append(surface_of(folder, work / "out", "fz_api")[0])
        except GeneratorError as exc:
            raise AssertionError(f"rejected: {exc}\n{version!r}") from None
    before, after_surface = surfaces
    changes = compare(before, after_surface)
    by_rule: dict[str, set[str]] = {}
    for c in changes:
        by_rule.setdefault(c.rule.id, set()).add(c.path)

    def shown(message: str, field: str, paths: FieldPaths) -> str:
        return paths(message, field) or f"{message}.{field}"

    before_paths, after_paths = FieldPaths(before), FieldPaths(after_surface)
    for message, field in removed:
        path = shown(message, field, before_paths)
        assert path in by_rule.get("field-removed", set()), (path, changes, schema)
    for message, field, _ in changed:
        if (message, field) in removed:
            continue
        old = before.messages[message].fields[field].default
        new = after_surface.messages[message].fields[field].default
        if old != new:
            assert shown(message, field, after_paths) in by_rule.get("default-changed", set()), (old, new, changes)
    # nothing else than removals and default changes was edited
    # nothing else was edited (a message that lost its last user gets a class of its own)
    assert {c.rule.id for c in changes} <= {"field-removed", "default-changed", "class-added"}, changes
