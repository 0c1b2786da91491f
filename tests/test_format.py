"""Statement-wise formatting (with its cache) is exactly whole-file black."""

from __future__ import annotations

import json
import os
import shutil
import threading

import black
import pytest

from generator.black_workers import MANY_PIECES, BlackWorkers, format_piece, mode
from generator.cli import main
from generator.errors import GeneratorError
from generator.format import format_files, split_class, split_statements
from generator.pipeline import Options, build
from generator.render import RenderedFile
from tests.support import ROOT

GENERATED = sorted(
    p
    for folder in (ROOT / "generated", ROOT / "tests" / "cases")
    for p in folder.rglob("*.py*")
    if p.suffix in (".py", ".pyi") and p.name != "hooks.py" and "__pycache__" not in p.parts
)


@pytest.mark.parametrize("path", GENERATED, ids=[p.relative_to(ROOT).as_posix() for p in GENERATED])
def test_black_leaves_generated_files_unchanged(path):
    text = path.read_text()
    assert black.format_str(text, mode=mode("stub" if path.suffix == ".pyi" else "python")) == text


def test_statement_wise_equals_whole_file(tmp_path, monkeypatch):
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    source = (
        # blank lines between simple statements are the template's job (as black wants them);
        # around defs and classes the formatter puts them
        "# header\n'''Doc.'''\n\nimport os\n\nX = 1\nY = [1,\n 2]\n"
        "class A:\n    '''A.'''\n    z = 1\n" + "".join(f"    def m{i}(self):\n        return {i}\n" for i in range(60))
        + "def f( a ):\n  return a\n# trailing\n"
    )
    formatted = format_files([RenderedFile("m.py", source, "python")]).texts["m.py"]
    assert formatted == black.format_str(source, mode=mode("python"))
    header, pieces = split_statements(source)
    assert header == "# header\n" and len(pieces) == 6
    assert split_class(pieces[4][2]) is not None  # the long class is split by member


def test_cache_is_keyed_by_statement(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
    first = format_files([RenderedFile("m.py", "# v1\nX = {'a':1}\n", "python")]).texts["m.py"]
    entries = list(tmp_path.rglob("*"))
    second = format_files([RenderedFile("m.py", "# v2, another header\nX = {'a':1}\n", "python")]).texts["m.py"]
    assert first == "# v1\nX = {\"a\": 1}\n" and second.endswith('X = {"a": 1}\n')
    assert list(tmp_path.rglob("*")) == entries  # the header is not part of any key


# -- reusing black's outputs from the previous output (what a fresh clone has)

CASE = ROOT / "tests" / "cases" / "proto2_defaults"


def _options(out, proto_dir):  # as tests/regen_goldens.py builds this case (no annotations)
    return Options(protos=(proto_dir,), annotations=None, out=out, package="golden_proto2_defaults")


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A copy of a golden case's inputs and committed output, no cache folder,
    black's requests counted."""
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    shutil.copytree(CASE / "input", tmp_path / "input")
    shutil.copytree(CASE / "expected", tmp_path / "out", ignore=shutil.ignore_patterns(".*", "__pycache__"))
    requests: list[tuple[str, str, int]] = []
    real = BlackWorkers.submit

    def counting(self, batch):
        requests.extend(batch)
        return real(self, batch)

    monkeypatch.setattr(BlackWorkers, "submit", counting)
    return tmp_path, requests


def _edit(proto_dir):
    proto = next(proto_dir.glob("*.proto"))
    text = proto.read_text()
    first = text.index("message ") + text[text.index("message "):].index("{") + 1
    proto.write_text(text[:first] + "\n  optional int32 added_by_test = 777;" + text[first:])


def _from_scratch(tmp_path, proto_dir):
    out = tmp_path / "scratch"
    return build(_options(out, proto_dir)).files


def test_an_edit_formats_only_what_changed_and_equals_a_full_run(clone):
    tmp_path, requests = clone
    _edit(tmp_path / "input")
    reused = build(_options(tmp_path / "out", tmp_path / "input"), reuse_output=True).files
    sent = len(requests)
    assert 0 < sent <= 12, [r[0][:60] for r in requests]  # the edited message's pieces, not the ~100 others
    requests.clear()
    assert reused == _from_scratch(tmp_path, tmp_path / "input")
    assert len(requests) > 5 * sent  # from scratch: every piece


def test_unchanged_inputs_reuse_everything(clone):
    tmp_path, requests = clone
    files = build(_options(tmp_path / "out", tmp_path / "input"), reuse_output=True).files
    assert requests == []
    assert files == _from_scratch(tmp_path, tmp_path / "input")


def test_a_hand_edited_file_is_not_a_source(clone):
    tmp_path, requests = clone
    pyi = tmp_path / "out" / "golden_proto2_defaults" / "defaults_pb2.pyi"
    pyi.write_text(pyi.read_text().replace("-> None: ...", "-> None:   ...", 1))
    _edit(tmp_path / "input")
    reused = build(_options(tmp_path / "out", tmp_path / "input"), reuse_output=True).files
    assert reused == _from_scratch(tmp_path, tmp_path / "input")
    assert "-> None:   ..." not in reused["golden_proto2_defaults/defaults_pb2.pyi"]


def _damage_records(manifest, damage):
    data = json.loads(manifest.read_text())
    for record in data["black"].values():
        fields = [entry.split() for entry in record["pieces"]]
        if damage == "shift":  # every piece one line off
            record["pieces"] = [" ".join([*f[:2], str(int(f[2]) + 1), *f[3:]]) for f in fields]
        elif damage == "forged":  # each key pointing at the next piece's text
            record["pieces"] = [" ".join([fields[(i + 1) % len(fields)][0], *f[1:]]) for i, f in enumerate(fields)]
        elif damage == "garbage":
            record["pieces"] = ["not a record", 7, None]
        elif damage == "wrong type":
            record["pieces"] = 5
        record["file"] = "0" * 32 + " " + record["file"].split()[1]  # and no whole-file reuse
    if damage == "missing":
        data["black"] = "nope"
    manifest.write_text(json.dumps(data))


@pytest.mark.parametrize("damage", ["shift", "garbage", "wrong type", "missing"])
def test_a_damaged_manifest_record_costs_time_never_correctness(clone, damage):
    tmp_path, requests = clone
    _damage_records(tmp_path / "out" / "golden_proto2_defaults.manifest.json", damage)
    _edit(tmp_path / "input")
    assert build(_options(tmp_path / "out", tmp_path / "input"), reuse_output=True).files == _from_scratch(
        tmp_path, tmp_path / "input"
    )


def test_a_forged_record_may_mislead_generate_but_never_check_full(clone, capsys, monkeypatch):
    """Records are not signed: one rewritten by hand to point a key at another
    piece is taken (its text is a black output, just not this one's), and the
    manifest then vouches for the result. check --full trusts nothing in the
    output folder, so CI (which uses it) still sees the drift."""
    tmp_path, requests = clone
    _damage_records(tmp_path / "out" / "golden_proto2_defaults.manifest.json", "forged")
    _edit(tmp_path / "input")
    monkeypatch.chdir(tmp_path)
    flags = ["--proto", "input", "--out", "out", "--package", "golden_proto2_defaults", "--no-annotations"]
    assert main(["generate", *flags]) == 0
    assert main(["check", "--full", *flags]) == 1
    assert main(["generate", "--full", *flags]) == 0 and main(["check", "--full", *flags]) == 0


def test_check_full_never_reuses_the_tree_it_checks(clone, capsys, monkeypatch):
    """check --full formats everything; a plain check (which regenerates when the
    user cache does not know this output) reuses the tree's verified pieces."""
    tmp_path, requests = clone
    _edit(tmp_path / "input")
    monkeypatch.chdir(tmp_path)
    command = ["check", "--proto", "input", "--out", "out", "--package", "golden_proto2_defaults", "--no-annotations"]
    assert main([*command, "--full"]) == 1
    pieces = len(requests)
    requests.clear()
    build(_options(tmp_path / "scratch", tmp_path / "input"))
    assert pieces == len(requests)  # as many as from scratch
    requests.clear()
    assert main(command) == 1
    assert len(requests) < pieces


# -- black in worker processes


def test_workers_format_as_black_does_and_survive_a_dead_worker():
    requests = [("X = {'a':1}\n", "python", 0), ("def f( a ):\n  return a\n", "python", 4), ("class A:\n  x:int\n", "stub", 0)]
    expected = [format_piece(*r) for r in requests]
    with BlackWorkers.start() as workers:
        assert workers.workers, "fork is available on this machine"
        assert workers.format(requests) == expected
        workers.workers[0].process.kill()
        workers.workers[0].process.join()
        assert workers.format(requests) == expected  # done in-process instead
    many = [(f"X{i} = {{'k':{i}}}\n", "python", 0) for i in range(MANY_PIECES)]
    with BlackWorkers.start() as workers:
        assert workers.format(many) == [(f'X{i} = {{"k": {i}}}\n', None) for i in range(MANY_PIECES)]
        assert len(workers.workers) == (os.cpu_count() or 1)


def test_generated_code_that_does_not_parse_is_an_internal_error_naming_the_file():
    with pytest.raises(GeneratorError) as caught:
        format_files([RenderedFile("pkg/m.py", "X = (\n", "python")])
    assert "pkg/m.py" in str(caught.value.problems[0])


def test_pipelined_submissions_larger_than_the_pipes_do_not_deadlock():
    # black explodes this list one long string per line, a cheap reformat
    # whose answer is as large as its source (~20 kB, a third of the window)
    piece = ("X = [" + ", ".join(repr("a" * 200 + str(i)) for i in range(100)) + "]\n", "python", 0)
    expected = format_piece(*piece)
    answers: list[list[str]] = []

    def exchange() -> None:
        with BlackWorkers.start() as workers:
            waits = [workers.submit([piece]) for _ in range(50)]  # ~1 MB each way, 16x a pipe's buffer
            answers.extend(wait() for wait in waits)

    # a deadlock must fail the test, not hang the suite
    thread = threading.Thread(target=exchange, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the pipes to the black workers deadlocked"
    assert answers == [[expected]] * 50
