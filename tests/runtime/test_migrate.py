"""``python -m PKG migrate`` (generator/shipped/_runtime_migrate.py) as the
standalone package carries it: Paddle's real renames (``sharding_configs``'s
``fuse_broadcast_MB`` and ``sharding_group_size``, renamed in 2.1) and
hand-made ones (a list of messages, a map to messages, a message at the top),
in YAML, JSON and text format; everything but the old names stays as it was;
the command line's exit codes, all-or-nothing writes, links and hostile
files; and agreement with the runtime's own renaming of dicts
(``current_keys``) on random documents."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet_strategy import DistributedStrategy, _runtime_aliases, _runtime_migrate
from fleet_strategy import distributed_strategy_pb2 as pb
from fleet_strategy.runtime import (
    MigrateError,
    MigrationChange,
    Renamed,
    migrate_main,
    migrate_text,
)

ROOT_MESSAGE = pb.DistributedStrategy.DESCRIPTOR
CLASSES = {"DistributedStrategy": DistributedStrategy}


def migrate(
    text: str, form: str, root: Any = ROOT_MESSAGE
) -> tuple[str, list[MigrationChange]]:
    return migrate_text(text, form, root)


def olds(changes: list[MigrationChange]) -> list[tuple[int, int, str, str]]:
    return [(c.line, c.column, c.old, c.new) for c in changes]


@pytest.fixture
def hand_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Old names beside Paddle's: one in a list of messages (RecomputeConfig's
    refined_ops_patterns), one at the top, one of a map's value message
    (the Shelf message below)."""
    table = _runtime_aliases.RENAMED
    monkeypatch.setitem(
        table,
        "paddle.fleet.RefinedOpsPattern",
        {"ops": Renamed("paddle.fleet.RefinedOpsPattern", "ops", "main_ops", "1.0")},
    )
    monkeypatch.setitem(
        table,
        "paddle.fleet.DistributedStrategy",
        {
            "recompute_settings": Renamed(
                "paddle.fleet.DistributedStrategy",
                "recompute_settings",
                "recompute_configs",
                "1.0",
            )
        },
    )
    monkeypatch.setitem(
        table, "t.Item", {"qty": Renamed("t.Item", "qty", "count", "0.9")}
    )


def shelf_descriptor() -> Any:
    """``t.Shelf`` with a map to messages ``items`` and a nested message list."""
    proto = descriptor_pb2.FileDescriptorProto(
        name="t_shelf.proto", package="t", syntax="proto3"
    )
    item = proto.message_type.add(name="Item")
    item.field.add(name="count", number=1, type=5, label=1)
    item.field.add(name="name", number=2, type=9, label=1)
    shelf = proto.message_type.add(name="Shelf")
    entry = shelf.nested_type.add(name="ItemsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=9, label=1)
    entry.field.add(name="value", number=2, type=11, label=1, type_name=".t.Item")
    shelf.field.add(
        name="items", number=1, type=11, label=3, type_name=".t.Shelf.ItemsEntry"
    )
    shelf.field.add(name="extra", number=2, type=11, label=3, type_name=".t.Item")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return pool.FindMessageTypeByName("t.Shelf")


# -- YAML -----------------------------------------------------------------------

OLD_YAML = """\
# written for Paddle 2.0
sharding: true
sharding_configs:        # static sharding
  fuse_broadcast_MB: 32    # MB: the broadcast fusion threshold
  hybrid_dp: true

  'sharding_group_size': 8
amp_configs: {fuse_broadcast_MB: 1}   # not ShardingConfig: a user's own key, left alone
fuse_broadcast_MB: 2
"""


def test_yaml_renames_only_the_old_names_and_keeps_the_rest() -> None:
    text, changes = migrate(OLD_YAML, "yaml")
    assert text == OLD_YAML.replace(
        "  fuse_broadcast_MB: 32", "  segment_broadcast_MB: 32"
    ).replace("'sharding_group_size'", "'sharding_degree'")
    assert olds(changes) == [
        (4, 3, "fuse_broadcast_MB", "segment_broadcast_MB"),
        (7, 3, "sharding_group_size", "sharding_degree"),
    ]
    assert [c.path for c in changes] == [
        "sharding_configs.segment_broadcast_MB",
        "sharding_configs.sharding_degree",
    ]
    assert {c.since for c in changes} == {"2.1.0"}


def test_yaml_flow_style_crlf_bom_and_documents() -> None:
    source = '\ufeffsharding_configs: {"fuse_broadcast_MB": 1, sharding_group_size: 2}\r\n---\r\nsharding_configs:\r\n  fuse_broadcast_MB: 3\r\n'
    text, changes = migrate(source, "yaml")
    assert text == source.replace("fuse_broadcast_MB", "segment_broadcast_MB").replace(
        "sharding_group_size", "sharding_degree"
    )
    assert olds(changes) == [
        (1, 20, "fuse_broadcast_MB", "segment_broadcast_MB"),  # the BOM is no column
        (1, 44, "sharding_group_size", "sharding_degree"),
        (4, 3, "fuse_broadcast_MB", "segment_broadcast_MB"),
    ]


def test_yaml_anchor_and_alias_renamed_once_where_written() -> None:
    source = "sharding_configs: &s\n  fuse_broadcast_MB: 4\nrecompute_configs: *s\n"
    text, changes = migrate(source, "yaml")
    assert (
        text == source.replace("fuse_broadcast_MB", "segment_broadcast_MB")
        and len(changes) == 1
    )


def test_yaml_tags_are_data_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"sharding_configs: !!python/object/apply:os.system ['touch {marker}']\nx: !custom {{fuse_broadcast_MB: 1}}\n"
    try:
        migrate(source, "yaml")
    except MigrateError:
        pass  # refused is as good as kept as data
    assert not marker.exists()


def test_old_and_new_name_together_is_an_error_with_the_line() -> None:
    source = "sharding_configs:\n  segment_broadcast_MB: 1\n  fuse_broadcast_MB: 2\n"
    with pytest.raises(MigrateError) as caught:
        migrate(source, "yaml")
    assert (caught.value.line, caught.value.column) == (3, 3)
    assert "segment_broadcast_MB" in str(caught.value) and "fuse_broadcast_MB" in str(
        caught.value
    )
    with pytest.raises(MigrateError, match="given twice"):
        migrate(
            '{"sharding_configs": {"fuse_broadcast_MB": 1, "segment_broadcast_MB": 2}}',
            "json",
        )


@pytest.mark.parametrize(
    ("form", "source", "where"),
    [
        ("yaml", "a: [\n", (2, 1)),
        ("yaml", "a: 1\na: 2\n", (2, 1)),  # duplicate keys: ruamel.yaml refuses them
        ("json", '{\n  "a": }', (2, 8)),
        (
            "prototxt",
            "sharding: true\nsharding_configs { fuse_broadcast_MB: }\n",
            (2, 39),
        ),
        (
            "prototxt",
            "execution_strategy { num_threads: 4 }\n",
            (1, 1),
        ),  # removed in Paddle 3.0
        (
            "prototxt",
            "sharding_configs {\n  fuse_broadcast_MB: 1\n  nope: 2\n}\n",
            (3, 3),
        ),
    ],
)
def test_a_file_that_does_not_parse_is_located(
    form: str, source: str, where: tuple[int, int]
) -> None:
    with pytest.raises(MigrateError) as caught:
        migrate(source, form)
    assert (caught.value.line, caught.value.column) == where, caught.value


def test_yaml_key_written_in_an_odd_form_is_refused_not_mangled() -> None:
    with pytest.raises(MigrateError, match="plain or quoted"):
        migrate('sharding_configs:\n  "fuse_broadcast\\x5fMB": 1\n', "yaml")


def test_without_ruamel_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("ruamel", "ruamel.yaml", "ruamel.yaml.error"):  # as if never installed
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(MigrateError, match="'migrate' extra"):
        migrate("a: 1\n", "yaml")


# -- JSON -----------------------------------------------------------------------


def test_json_keeps_spacing_and_renames_escaped_keys_whole() -> None:
    source = '{\n    "sharding_configs" : {"fuse\\u005fbroadcast_MB":16.5 ,\n "sharding_group_size": 4},\n  "amp_configs": {"sharding_group_size": 1}\n}\n'
    text, changes = migrate(source, "json")
    assert text == source.replace(
        '"fuse\\u005fbroadcast_MB"', '"segment_broadcast_MB"'
    ).replace('{\n "sharding_group_size"', '{\n "sharding_degree"').replace(
        ',\n "sharding_group_size"', ',\n "sharding_degree"'
    )
    assert json.loads(text)["amp_configs"] == {"sharding_group_size": 1}
    assert olds(changes) == [
        (2, 27, "fuse_broadcast_MB", "segment_broadcast_MB"),
        (3, 2, "sharding_group_size", "sharding_degree"),
    ]


# -- text format ----------------------------------------------------------------


def test_prototxt_keeps_comments_and_both_bracket_styles() -> None:
    source = "# saved by Paddle 2.0\nsharding: true\nsharding_configs <\n  fuse_broadcast_MB: 16.0  # keep\n  sharding_group_size: 4;\n>\n"
    text, changes = migrate(source, "prototxt")
    assert text == source.replace("fuse_broadcast_MB", "segment_broadcast_MB").replace(
        "sharding_group_size", "sharding_degree"
    )
    assert olds(changes) == [
        (4, 3, "fuse_broadcast_MB", "segment_broadcast_MB"),
        (5, 3, "sharding_group_size", "sharding_degree"),
    ]
    loaded = pb.DistributedStrategy()
    from google.protobuf import text_format

    text_format.Parse(text, loaded)
    assert (
        loaded.sharding_configs.segment_broadcast_MB == 16.0
        and loaded.sharding_configs.sharding_degree == 4
    )


# -- hand-made tables: lists of messages, maps to messages, the top level ------


@pytest.mark.usefixtures("hand_made")
def test_lists_of_messages_and_the_top_level_in_every_format() -> None:
    yaml_text = "recompute_settings:\n  refined_ops_patterns:\n  - ops: [matmul]\n  - {num: 1, ops: [add]}\n"
    assert migrate(yaml_text, "yaml")[0] == yaml_text.replace(
        "recompute_settings", "recompute_configs"
    ).replace("ops:", "main_ops:")
    json_text = '{"recompute_settings": {"refined_ops_patterns": [{"ops": ["m"]}, {"num": 1, "ops": []}], "ops": 1}}'
    migrated = json.loads(migrate(json_text, "json")[0])
    assert migrated == {
        "recompute_configs": {
            "refined_ops_patterns": [{"main_ops": ["m"]}, {"num": 1, "main_ops": []}],
            "ops": 1,
        }
    }
    text = 'recompute_configs {\n  refined_ops_patterns: [{ ops: "m" }, < ops: "n" >]\n  refined_ops_patterns { ops: ["a", "b"] }\n}\n'
    assert migrate(text, "prototxt")[0] == text.replace("ops:", "main_ops:").replace(
        "refined_main_ops", "refined_ops"
    )


@pytest.mark.usefixtures("hand_made")
def test_maps_to_messages_in_every_format() -> None:
    shelf = shelf_descriptor()
    yaml_text = "items:\n  qty: {qty: 1}   # a map key that is an old name stays\n  b: {name: x}\nextra: [{qty: 3}]\n"
    assert (
        migrate(yaml_text, "yaml", shelf)[0]
        == "items:\n  qty: {count: 1}   # a map key that is an old name stays\n  b: {name: x}\nextra: [{count: 3}]\n"
    )
    json_text = '{"items": {"qty": {"qty": 1}}, "extra": [{"qty": 2}]}'
    assert json.loads(migrate(json_text, "json", shelf)[0]) == {
        "items": {"qty": {"count": 1}},
        "extra": [{"count": 2}],
    }
    text = 'items { key: "qty" value { qty: 1 } }\nextra { qty: 2 }\n'
    assert migrate(text, "prototxt", shelf)[0] == text.replace("qty: ", "count: ")
    message = message_factory.GetMessageClass(shelf)()
    from google.protobuf import text_format

    text_format.Parse(migrate(text, "prototxt", shelf)[0], message)
    assert message.items["qty"].count == 1


# -- agreement with the runtime's renaming of dicts -------------------------------

KEYS = ["sharding_configs", "fuse_broadcast_MB", "sharding_group_size", "hybrid_dp", "stage", "amp_configs",
        "recompute_configs", "refined_ops_patterns", "main_ops", "x"]  # fmt: skip
scalars = st.one_of(st.integers(-5, 5), st.booleans(), st.text("ab", max_size=3))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    ),
    max_leaves=12,
)


def _oracle(data: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _runtime_aliases.current_keys(ROOT_MESSAGE, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(KEYS), documents, max_size=4),
    st.sampled_from([None, 1, 4]),
    st.booleans(),
)
def test_migrated_documents_read_as_the_runtime_renames_them(
    data: dict[str, Any], indent: int | None, block: bool
) -> None:
    """JSON and YAML: what migrate writes reads back as ``current_keys``
    (load's renaming) reads the original; a mapping giving a setting twice is
    an error in both."""
    try:
        expected = _oracle(data)
    except ValueError:
        with pytest.raises(MigrateError):
            migrate(json.dumps(data, indent=indent), "json")
        return
    for form, text in (
        ("json", json.dumps(data, indent=indent)),
        ("yaml", yaml.safe_dump(data, default_flow_style=not block)),
    ):
        migrated, changes = migrate(text, form)
        assert (
            json.loads(migrated) if form == "json" else yaml.safe_load(migrated)
        ) == expected
        assert migrate(migrated, form)[1] == []  # nothing left to rename
        assert (migrated == text) is (not changes)


# -- the command line -------------------------------------------------------------


def run_cli(*args: str) -> int:
    return migrate_main(list(args), CLASSES, prog="python -m fleet_strategy")


def test_check_exits_1_on_old_names_and_0_on_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = tmp_path / "old.yaml", tmp_path / "new.json"
    old.write_text(OLD_YAML)
    new.write_text('{"sharding_configs": {"segment_broadcast_MB": 1}}')
    assert run_cli("--check", str(old), str(new)) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"{old}:4:3: uses the old name 'fuse_broadcast_MB' -> 'segment_broadcast_MB' (sharding_configs.segment_broadcast_MB, renamed in 2.1.0)",
        f"{old}:7:3: uses the old name 'sharding_group_size' -> 'sharding_degree' (sharding_configs.sharding_degree, renamed in 2.1.0)",
    ]
    assert "2 old name(s) in 1 file(s)" in out.err
    assert old.read_text() == OLD_YAML  # --check changes nothing
    assert run_cli("--check", str(new)) == 0


def test_migrate_rewrites_atomically_keeping_the_mode_and_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "strategy.prototxt"
    old.write_text("sharding_configs {\n  fuse_broadcast_MB: 8.0\n}\n")
    old.chmod(0o640)
    assert run_cli(str(old)) == 0
    assert old.read_text() == "sharding_configs {\n  segment_broadcast_MB: 8.0\n}\n"
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and os.listdir(tmp_path) == [
        "strategy.prototxt"
    ]
    assert (
        f"{old}:2:3: renamed 'fuse_broadcast_MB' -> 'segment_broadcast_MB'"
        in capsys.readouterr().out
    )
    assert run_cli(str(old)) == 0 and run_cli("--check", str(old)) == 0


def test_one_bad_file_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.json"
    good.write_text(OLD_YAML)
    bad.write_text('{"sharding_configs": [}')
    assert run_cli(str(good), str(bad)) == 2
    err = capsys.readouterr().err
    assert f"{bad}:1:23: not valid JSON" in err and "nothing was changed" in err
    assert good.read_text() == OLD_YAML


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.symlink_to(p.with_name("target.yaml")), "symbolic link"),
        (lambda p: p.mkdir(), "not a regular file"),
        (lambda p: os.mkfifo(p), "not a regular file"),
        (lambda p: p.write_bytes(b"a: \xff\n"), "not UTF-8"),
        (lambda p: None, "cannot read"),
    ],
    ids=["link", "folder", "fifo", "latin-1", "missing"],
)
def test_files_that_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, message: str
) -> None:
    (tmp_path / "target.yaml").write_text(OLD_YAML)
    path = tmp_path / "config.yaml"
    make(path)
    assert run_cli(str(path)) == 2
    assert message in capsys.readouterr().err
    assert (
        tmp_path / "target.yaml"
    ).read_text() == OLD_YAML  # a link's target is never written


def test_format_from_the_option_and_unknown_extensions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "strategy.cfg"
    path.write_text("sharding_configs { sharding_group_size: 2 }\n")
    assert run_cli(str(path)) == 2 and "unknown format" in capsys.readouterr().err
    assert run_cli("--format", "prototxt", str(path)) == 0
    assert path.read_text() == "sharding_configs { sharding_degree: 2 }\n"
    assert run_cli("--format", "xml", str(path)) == 2  # argparse's own usage error


def test_too_large_a_file_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_runtime_migrate, "MAX_FILE_BYTES", 64)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"x": "y" * 100}))
    assert run_cli(str(path)) == 2 and "larger than 64 bytes" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", "[" * 100000 + "]" * 100000),
        ("deep.yaml", "[" * 100000 + "]" * 100000),
        ("deep.prototxt", "sharding_configs {" * 100000 + "}" * 100000),
        ("deeper.json", '{"sharding_configs": ' * 5000 + "1" + "}" * 5000),
        (
            "bomb.yaml",
            "a: &a [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
                for i in range(20)
            ),
        ),
    ],
    ids=lambda value: value if len(value) < 20 else "text",  # (a test's id lands in the environment)
)
def test_hostile_files_end_quickly(tmp_path: Path, name: str, text: str) -> None:
    """Deep nesting and alias bombs: exit 2 (or 0 for the bomb, walked once
    per node) within seconds, never a hang or a traceback."""
    path = tmp_path / name
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "fleet_strategy", "migrate", "--check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr[
        -2000:
    ]
    assert done.returncode == (0 if name == "bomb.yaml" else 2)


def test_python_dash_m_runs_migrate_and_lint(tmp_path: Path) -> None:
    path = tmp_path / "old.prototxt"
    path.write_text("sharding: true\nsharding_configs { fuse_broadcast_MB: 16.0 }\n")
    command = [sys.executable, "-m", "fleet_strategy"]
    done = subprocess.run(
        [*command, "migrate", "--check", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 1
        and f"{path}:2:20: uses the old name 'fuse_broadcast_MB'" in done.stdout
    )
    with pytest.warns(
        DeprecationWarning, match="fuse_broadcast_MB"
    ):  # before: loads, loudly
        DistributedStrategy().load_from_prototxt(str(path))
    assert (
        subprocess.run(
            [*command, "migrate", str(path)], capture_output=True, timeout=60
        ).returncode
        == 0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # after: loads without a word
        strategy = DistributedStrategy()
        strategy.load_from_prototxt(str(path))
    assert strategy.sharding_configs["segment_broadcast_MB"] == 16.0
    assert (
        subprocess.run(
            [*command, "lint", str(path)], capture_output=True, timeout=60
        ).returncode
        == 0
    )
