"""Configs as documents (issue 31): ``to_dict``/``from_dict`` on any schema's
classes and Paddle's, ``load``/``save`` of YAML, JSON and text format, errors
that list every problem with its key path, line and column, and hostile files
answered within bounds (the hangs that could happen run in a subprocess with
a timeout)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from fleet_strategy import DistributedStrategy, runtime
from fleet_strategy.runtime import ConfigError, ConfigFileNotFoundError, ConfigProblem
from support import ROOT, golden_tree, import_generated

CASES = ROOT / "tests" / "goldens" / "cases"


@pytest.fixture(scope="module")
def features(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The proto3 golden case (enums, nested messages, maps, a oneof, bytes, optional)."""
    out = golden_tree(CASES / "proto3_features" / "expected", tmp_path_factory.mktemp("p3"))
    import_generated(out, "golden_proto3_features")
    return importlib.import_module("golden_proto3_features.features")


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = golden_tree(CASES / "well_known_types" / "expected", tmp_path_factory.mktemp("wkt"))
    import_generated(out, "golden_well_known_types")
    return importlib.import_module("golden_well_known_types.event")


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The annotated golden case: choices, bounds, a renamed and a hidden field."""
    out = golden_tree(CASES / "annotated" / "expected", tmp_path_factory.mktemp("annotated"))
    import_generated(out, "golden_annotated")
    return importlib.import_module("golden_annotated.shop")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = golden_tree(CASES / "shop" / "expected", tmp_path_factory.mktemp("shop"))
    import_generated(out, "golden_shop")
    return importlib.import_module("golden_shop.shop")


def hybrid() -> DistributedStrategy:
    strategy = DistributedStrategy()
    strategy.amp = True
    strategy.amp_configs = {"init_loss_scaling": 1024.0, "custom_white_list": ["matmul", "relu"]}
    strategy.hybrid_configs = {
        "dp_degree": 2,
        "sharding_degree": 4,
        "sharding_configs": {"split_param": True},
    }
    strategy.recompute = True
    strategy.recompute_configs = {"checkpoints": ["x", "y"]}
    return strategy


def problems(error: pytest.ExceptionInfo[Any]) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in error.value.problems]


# -- documents ----------------------------------------------------------------


def test_to_dict_holds_what_is_set_by_proto_name_in_field_order():
    document = hybrid().to_dict()
    assert document == {
        "amp": True,
        "recompute": True,
        "recompute_configs": {"checkpoints": ["x", "y"]},
        "amp_configs": {"init_loss_scaling": 1024.0, "custom_white_list": ["matmul", "relu"]},
        "hybrid_configs": {"dp_degree": 2, "sharding_degree": 4, "sharding_configs": {"split_param": True}},
    }
    assert json.loads(json.dumps(document)) == document  # JSON-compatible
    assert DistributedStrategy().to_dict() == {}


def test_from_dict_round_trips_exactly_and_only_adds_to_a_new_instance():
    original = hybrid()
    loaded = DistributedStrategy.from_dict(original.to_dict())
    assert isinstance(loaded, DistributedStrategy)
    assert loaded.strategy == original.strategy and loaded.to_dict() == original.to_dict()
    # presence is kept: a field set to its default is written and read back as set
    strategy = DistributedStrategy()
    strategy.amp = False
    assert strategy.to_dict() == {"amp": False}
    assert DistributedStrategy.from_dict({"amp": False}).strategy.HasField("amp")
    # plain attributes are not part of a document; a new instance keeps its own
    assert loaded.hybrid_parallel_order == DistributedStrategy().hybrid_parallel_order


def test_keys_are_proto_field_names_not_renamed_properties():
    strategy = DistributedStrategy.from_dict({"fuse_grad_size_in_TFLOPS": 2.5})
    assert strategy._fuse_grad_size_in_TFLOPS == 2.5
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.from_dict({"_fuse_grad_size_in_TFLOPS": 2.5})
    assert error.value.problems[0].suggestion == "fuse_grad_size_in_TFLOPS"


def test_every_problem_is_reported_at_once_with_its_path_and_nothing_applies():
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.from_dict(
            {
                "amp": 1,
                "ampp": True,
                "hybrid_configs": {"dp_degre": 2, "sharding_degree": "4", "sharding_configs": {"split_param": None}},
                "recompute_configs": {"checkpoints": "x"},
                "fuse_grad_size_in_MB": 2**31,
            }
        )
    assert isinstance(error.value, ValueError) and error.value.file is None
    assert problems(error) == [
        ("wrong_type", "amp"),
        ("unknown_key", "ampp"),
        ("unknown_key", "hybrid_configs.dp_degre"),
        ("wrong_type", "hybrid_configs.sharding_degree"),
        ("wrong_type", "hybrid_configs.sharding_configs.split_param"),
        ("wrong_type", "recompute_configs.checkpoints"),
        ("out_of_range", "fuse_grad_size_in_MB"),
    ]
    by_path = {p.path: p for p in error.value.problems}
    assert by_path["ampp"].suggestion == "amp" and "did you mean 'amp'?" in by_path["ampp"].message
    assert by_path["hybrid_configs.dp_degre"].suggestion == "dp_degree"
    assert by_path["amp"].message == "expected a boolean (true or false), got integer 1"
    assert "got null" in by_path["hybrid_configs.sharding_configs.split_param"].message
    assert "[-2147483648, 2147483647]" in by_path["fuse_grad_size_in_MB"].message
    text = str(error.value)
    assert text.splitlines()[0] == "7 problems:" and "hybrid_configs.dp_degre: unknown key" in text
    assert ConfigProblem("unknown_key", "x", "m").as_dict()["suggestion"] is None


def test_documents_are_strict_whatever_the_default_mode():
    assert not runtime.default_strict()
    with pytest.raises(ConfigError):
        DistributedStrategy.from_dict({"amp": "yes"})  # a compatible-mode setter would warn and go on
    strategy = DistributedStrategy.from_dict({"amp": True})
    assert strategy.strict is False  # the instance itself is in the default mode
    runtime.set_default_strict(True)
    try:
        assert DistributedStrategy.from_dict({}).strict is True
    finally:
        runtime.set_default_strict(False)


def test_the_annotations_choices_and_bounds_apply(annotated):
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.from_dict({"nccl_comm_num": 0, "last_comm_group_size_MB": -1})
    assert problems(error) == [("out_of_range", "nccl_comm_num"), ("out_of_range", "last_comm_group_size_MB")]
    assert "0 is out of range: should be greater than 0" in str(error.value)
    with pytest.raises(ValueError) as error:
        annotated.Shop.from_dict(
            {"currency": "EUR ", "workers": 0, "discount": -0.5, "checkout": {"max_items": 0}, "legacy_limit": 3}
        )
    assert problems(error) == [  # in the document's order
        ("not_a_choice", "currency"),
        ("out_of_range", "workers"),
        ("out_of_range", "discount"),
        ("out_of_range", "checkout.max_items"),
    ]
    assert error.value.problems[0].suggestion == "EUR"
    # the field without a property and the renamed one (checkout_configs) by their proto names
    shop = annotated.Shop.from_dict({"currency": "JPY", "checkout": {"max_items": 3}, "legacy_limit": 3})
    assert shop.checkout_configs["max_items"] == 3 and shop.to_dict()["legacy_limit"] == 3


@pytest.mark.parametrize(
    "data",
    [[], "amp: true", None, 3, {"amp": True, 1: 2}],
)
def test_the_root_must_be_an_object_of_string_keys(data):
    with pytest.raises(ConfigError):
        DistributedStrategy.from_dict(data)


def test_any_schema_scalars_maps_oneofs_bytes_and_enums(features):
    Canvas = features.Canvas
    document = {
        "title": "t",
        "points": [{"x": 1}, {}],
        "counts": {"a": 1},
        "anchors": {"o": {"y": 2}},
        "colour": "RED",
        "opacity": 0.0,
        "layer": "FRONT",
        "origin": {},
        "tags": ["a"],
        "thumbnail": "AAEC",
    }
    canvas = Canvas.from_dict(document)
    assert canvas.thumbnail == b"\x00\x01\x02" and canvas.opacity == 0.0
    assert canvas.to_dict() == document  # presence: the optional 0.0 and the empty origin stay
    assert Canvas.from_dict({"points": [{"x": 2.0}]}).to_dict() == {"points": [{"x": 2}]}  # JSON Schema's integer
    with pytest.raises(ValueError) as error:
        Canvas.from_dict(
            {
                "colour": "RED",
                "image": "x",
                "layer": 1,
                "thumbnail": "###",
                "counts": {"a": 2**40},
                "points": [{"x": 1.5}, {"y": True}],
                "opacity": float("nan"),
                "title": "ok",
            }
        )
    assert problems(error) == [
        ("oneof", "image"),
        ("wrong_type", "layer"),
        ("wrong_type", "thumbnail"),
        ("out_of_range", "counts.a"),
        ("wrong_type", "points[0].x"),
        ("wrong_type", "points[1].y"),
        ("out_of_range", "opacity"),
    ]
    with pytest.raises(ValueError) as error:
        Canvas.from_dict({"layer": "FRONTT"})
    assert error.value.problems[0].code == "not_a_choice" and error.value.problems[0].suggestion == "FRONT"


def test_64_bit_integers_take_digit_strings_and_floats_the_shortest_text(shop):
    customer = shop.Customer.from_dict({"points": "9223372036854775807"})
    assert customer.points == 2**63 - 1 and customer.to_dict() == {"points": 2**63 - 1}
    with pytest.raises(ValueError) as error:
        shop.Customer.from_dict({"points": "9223372036854775808"})
    assert error.value.problems[0].code == "out_of_range"
    with pytest.raises(ValueError):
        shop.Customer.from_dict({"points": " 12"})  # only plain digits
    item = shop.Order_Item.from_dict({"quantity": 3, "unit_price": {"currency": "EUR", "amount": "150"}})
    assert item.to_dict() == {"quantity": 3, "unit_price": {"currency": "EUR", "amount": 150}}
    with pytest.raises(ValueError):
        shop.Order_Item.from_dict({"quantity": "3"})  # a 32-bit integer takes no string


def test_float32_fields_write_the_shortest_decimal():
    strategy = DistributedStrategy()
    strategy.last_comm_group_size_MB = 0.1  # a 32-bit float field
    assert strategy.to_dict() == {"last_comm_group_size_MB": 0.1}
    assert DistributedStrategy.from_dict(strategy.to_dict()).strategy == strategy.strategy
    with pytest.raises(ConfigError):
        DistributedStrategy.from_dict({"last_comm_group_size_MB": 1e39})


def test_well_known_types_use_protobufs_json_mapping(events):
    document = {
        "at": "2024-01-01T00:00:00Z",
        "details": {"a": [1.0, None, "x"]},
        "waits": ["1.500s"],
        "count": 5,
        "json": None,
        "items": [1.0, 2.0],
    }
    event = events.Event.from_dict(document)
    assert event.to_dict() == document
    with pytest.raises(ValueError) as error:
        events.Event.from_dict({"at": "yesterday", "count": None})
    assert problems(error) == [("wrong_type", "at"), ("wrong_type", "count")]


def test_field_names_reserved_for_the_members():
    from generator.schema.naming import WRAPPER_MEMBERS

    assert {"from_dict", "to_dict", "load", "save"} <= WRAPPER_MEMBERS


# -- files ----------------------------------------------------------------------

HYBRID_YAML = """\
# hybrid parallel with sharding
amp: true
hybrid_configs:
  dp_degree: 2
  sharding_degree: 4
  sharding_configs:
    split_param: true
"""


@pytest.mark.parametrize("suffix", [".yaml", ".yml", ".json", ".prototxt", ".txtpb", ".PBTXT"])
def test_save_and_load_round_trip_by_extension(tmp_path, suffix):
    path = tmp_path / f"strategy{suffix}"
    hybrid().save(path)
    loaded = DistributedStrategy.load(path)
    assert loaded.strategy == hybrid().strategy
    text = path.read_text(encoding="utf-8")
    if suffix == ".json":
        assert json.loads(text) == hybrid().to_dict() and text.endswith("\n")
    elif suffix in (".yaml", ".yml"):
        import yaml

        assert yaml.safe_load(text) == hybrid().to_dict()
        assert text.index("amp:") < text.index("hybrid_configs:")  # field order, not sorted
    else:
        assert text == str(hybrid().strategy)


def test_the_format_argument_overrides_the_extension(tmp_path):
    path = tmp_path / "strategy.conf"
    path.write_text(HYBRID_YAML)
    assert DistributedStrategy.load(path, format="yaml").hybrid_configs["sharding_degree"] == 4
    hybrid().save(tmp_path / "out.conf", format="json")
    assert json.loads((tmp_path / "out.conf").read_text())["amp"] is True
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    assert error.value.problems[0].code == "format" and ".yaml" in str(error.value)
    with pytest.raises(ConfigError):
        DistributedStrategy.load(path, format="toml")


def test_yaml_errors_name_file_line_column_and_key_path(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            amp: true
            hybrid_configs:
              dp_degree: 2
              sharding_degree: four
              sharding_configs:
                split_parm: true
              dp_degree: 3
            recompute: 1
            """
        )
    )
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    assert error.value.file == str(path)
    assert [(p.code, p.path, p.line, p.column) for p in error.value.problems] == [
        ("wrong_type", "hybrid_configs.sharding_degree", 4, 3),
        ("unknown_key", "hybrid_configs.sharding_configs.split_parm", 6, 5),
        ("duplicate_key", "hybrid_configs.dp_degree", 7, 3),
        ("wrong_type", "recompute", 8, 1),
    ]
    lines = str(error.value).splitlines()
    assert lines[0] == f"{path}: 4 problems:"
    assert lines[2] == (
        f"{path}:6:5: hybrid_configs.sharding_configs.split_parm: unknown key 'split_parm' in "
        "paddle.fleet.DygraphShardingConfig; did you mean 'split_param'?"
    )
    assert "first at line 3" in lines[3]


def test_json_errors_and_duplicate_keys_are_located(tmp_path):
    path = tmp_path / "run.json"
    path.write_text('{"amp": true,\n "hybrid_configs": {"dp_degree": 2,\n   "dp_degree": 5},\n "lamb": NaN,\n "lars": "x"}')
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    assert [(p.code, p.path, p.line) for p in error.value.problems] == [
        ("duplicate_key", "hybrid_configs.dp_degree", 3),
        ("wrong_type", "lamb", 4),
        ("wrong_type", "lars", 5),
    ]
    path.write_text('{"amp": true,\n "lars": }')
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    problem = error.value.problems[0]
    assert (problem.code, problem.line, problem.column) == ("syntax", 2, 10)


def test_text_format_problems_and_choices_are_checked(tmp_path, annotated):
    path = tmp_path / "run.prototxt"
    path.write_text("amp: true\nampp: true\n")
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    problem = error.value.problems[0]
    assert (problem.code, problem.line) == ("syntax", 2) and "ampp" in problem.message
    path.write_text('open: true\ncurrency: "GBP"\ncheckout {\n  methods: "card"\n  max_items: 0\n}\n')
    with pytest.raises(ValueError) as error:
        annotated.Shop.load(path)
    assert [(p.code, p.path, p.line, p.column) for p in error.value.problems] == [
        ("not_a_choice", "currency", 2, 1),
        ("out_of_range", "checkout.max_items", 5, 3),
    ]


def test_yaml_anchors_and_merge_keys_work_and_later_keys_win(tmp_path, features):
    path = tmp_path / "canvas.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            origin: &o {x: 1, y: 2}
            anchors:
              a: *o
              b:
                <<: *o
                y: 5
            """
        )
    )
    canvas = features.Canvas.load(path)
    assert canvas.to_dict()["anchors"] == {"a": {"x": 1, "y": 2}, "b": {"x": 1, "y": 5}}


def test_an_empty_yaml_file_is_an_empty_document(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("# nothing yet\n")
    assert DistributedStrategy.load(path).to_dict() == {}


def test_missing_files_folders_and_non_regular_files(tmp_path):
    with pytest.raises(ConfigFileNotFoundError) as error:
        DistributedStrategy.load(tmp_path / "none.yaml")
    assert isinstance(error.value, FileNotFoundError) and isinstance(error.value, ConfigError)
    folder = tmp_path / "dir.json"
    folder.mkdir()
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(folder)
    assert error.value.problems[0].code == "file"


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "s.yaml"
    path.write_text("amp: true\n")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        hybrid().save(path)
    assert path.read_text() == "amp: true\n" and os.listdir(tmp_path) == ["s.yaml"]


def test_without_pyyaml_yaml_files_name_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml raises ImportError
    path = tmp_path / "s.yaml"
    path.write_text("amp: true\n")
    for action in (lambda: DistributedStrategy.load(path), lambda: hybrid().save(path)):
        with pytest.raises(ConfigError) as error:
            action()
        assert error.value.problems[0].code == "format" and "[yaml] extra" in str(error.value)
    # JSON and text format need no YAML library
    hybrid().save(tmp_path / "s.json")
    assert DistributedStrategy.load(tmp_path / "s.json").amp is True


# -- hostile files ----------------------------------------------------------------

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{new}: &{new} [{', '.join([f'*{old}'] * 9)}]\n" for old, new in zip("abcdefgh", "bcdefghi")
)


def load_in_subprocess(path: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Load ``path`` in a child process, under a timeout and a memory cap."""
    script = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))  # 2 GiB
        from fleet_strategy import DistributedStrategy
        from fleet_strategy.runtime import ConfigError
        try:
            DistributedStrategy.load({str(path)!r})
        except ConfigError as error:
            print(error.problems[0].code)
            print(error)
            sys.exit(3)
        """
    )
    import fleet_strategy

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(fleet_strategy.__file__).parent.parent), *sys.path])}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.skipif(sys.platform == "win32", reason="resource limits")
@pytest.mark.parametrize(
    "name, content, code",
    [
        ("bomb.yaml", BOMB, "alias"),
        ("self.yaml", "a: &a [*a, *a]\n", "alias"),
        ("deep.json", "[" * 200_000 + "]" * 200_000, "too_deep"),
        ("deep.yaml", "a: " + "[" * 200_000 + "]" * 200_000, "too_deep"),
        ("dashes.yaml", "- " * 100_000 + "x\n", "too_deep"),
        ("wide.json", "[" + ",".join(["0"] * 300_000) + "]", "too_large"),
    ],
)
def test_hostile_files_fail_fast_and_clearly(tmp_path, name, content, code):
    path = tmp_path / name
    path.write_text(content)
    done = load_in_subprocess(path)
    assert done.returncode == 3, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == code, done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(runtime.MAX_DOCUMENT_BYTES + 1)
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    assert error.value.problems[0].code == "too_large"


@pytest.mark.parametrize(
    "name, content, code, line",
    [
        ("tag.yaml", "amp: !!python/object/apply:os.system ['echo hacked']\n", "tag", 1),
        ("tag2.yaml", "amp: true\nlars: !custom x\n", "tag", 2),
        ("binary.yaml", "amp: !!binary aGk=\n", "tag", 1),
        ("latin1.yaml", "amp: true\nlamb: \xe9t\xe9\n", "encoding", 2),
        ("latin1.json", '{"amp":\n "\xe9"}', "encoding", 2),
        ("two.yaml", "amp: true\n---\nlars: true\n", "syntax", 2),
        ("bad.yaml", "amp: [true\n", "syntax", 2),
        ("bigint.json", '{"fuse_grad_size_in_MB": 1' + "0" * 5000 + "}", "syntax", None),
        ("bigint.yaml", "fuse_grad_size_in_MB: 1" + "0" * 5000 + "\n", "syntax", 1),
    ],
)
def test_bad_files_are_located_errors(tmp_path, name, content, code, line):
    path = tmp_path / name
    path.write_bytes(content.encode("latin-1") if "latin1" in name else content.encode())
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    problem = error.value.problems[0]
    assert (problem.code, problem.line) == (code, line), str(error.value)
    assert not os.path.exists("hacked")


@pytest.mark.parametrize(
    "document, code",
    [
        ({"last_comm_group_size_MB": float("inf")}, "out_of_range"),
        ({"last_comm_group_size_MB": float("-inf")}, "out_of_range"),
        ({"last_comm_group_size_MB": 10**400}, "out_of_range"),
        ({"last_comm_group_size_MB": "NaN"}, "wrong_type"),
        ({"fuse_grad_size_in_MB": 2**64}, "out_of_range"),
        ({"fuse_grad_size_in_MB": 1e300}, "out_of_range"),
        ({"fuse_grad_size_in_MB": float("nan")}, "wrong_type"),
    ],
)
def test_non_finite_and_oversized_numbers(document, code):
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.from_dict(document)
    assert error.value.problems[0].code == code


def test_yaml_non_finite_floats_are_refused(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("last_comm_group_size_MB: .inf\nfuse_grad_size_in_MB: .nan\n")
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.load(path)
    assert [(p.code, p.line) for p in error.value.problems] == [("out_of_range", 1), ("wrong_type", 2)]


def test_a_dict_of_too_many_values_is_bounded(features):
    with pytest.raises(ConfigError) as error:
        DistributedStrategy.from_dict({"amp_configs": {"custom_white_list": ["x"] * 1_000_000}})
    assert problems(error) == [("too_large", "")]
    point: dict[str, Any] = {"x": 1}
    shared = {f"k{i}": point for i in range(300_000)}  # one object, many keys
    with pytest.raises(ValueError) as error:
        features.Canvas.from_dict({"anchors": shared})
    assert problems(error) == [("too_large", "")]


# -- lint from files ----------------------------------------------------------------


def lint_run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from fleet_strategy import __main__ as cli
    from fleet_strategy.lint import main

    code = main(argv, cli.CLASSES, prog="python -m fleet_strategy")
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("suffix", [".yaml", ".json", ".prototxt"])
def test_lint_reads_every_format_and_locates_findings(tmp_path, capsys, suffix):
    strategy = DistributedStrategy()
    strategy.amp = True
    strategy.lamb_configs = {"lamb_weight_decay": 0.1}
    strategy.hybrid_configs = {"dp_degree": 2}
    path = tmp_path / f"run{suffix}"
    strategy.save(path)
    code, out, _ = lint_run(["lint", str(path), "--world-size", "4", "--format", "json"], capsys)
    findings = json.loads(out)["findings"]
    assert code == 1 and [f["code"] for f in findings] == ["lamb-configs-without-lamb", "hybrid-degrees-world-size"]
    lines = path.read_text().splitlines()
    lamb_line = next(i for i, text in enumerate(lines, 1) if "lamb_configs" in text)
    hybrid_line = next(i for i, text in enumerate(lines, 1) if "dp_degree" in text)  # its first field
    lamb_line = next(i for i, text in enumerate(lines, 1) if "lamb_configs" in text)
    assert [f["line"] for f in findings] == [lamb_line, hybrid_line]
    code, out, _ = lint_run(["lint", str(path)], capsys)
    assert out.splitlines()[0].startswith(f"{path}:{lamb_line}: lamb-configs-without-lamb: ")


def test_lint_of_a_file_that_does_not_load_lists_its_problems(tmp_path, capsys):
    path = tmp_path / "run.yaml"
    path.write_text("amp: true\nlamb_configs:\n  lamb_weight_decay: heavy\nampp: 1\n")
    code, out, err = lint_run(["lint", str(path)], capsys)
    assert code == 2 and out == ""
    assert f"{path}:3:3: lamb_configs.lamb_weight_decay: expected a number" in err
    assert f"{path}:4:1: ampp: unknown key 'ampp'" in err and "did you mean 'amp'?" in err


def test_text_format_locations_follow_nesting_repeated_items_and_lists(features):
    from fleet_strategy.runtime import read_json  # noqa: F401  (the runtime's readers are public)
    from golden_proto3_features._runtime_documents import text_locations

    text = 'title: "t"\npoints { x: 1 }\npoints {\n  y: 2\n}\ntags: ["a", "b"]\ncounts { key: "k" value: 1 }\n'
    found = text_locations(text, features.Canvas().message.DESCRIPTOR)
    assert found[("title",)] == (1, 1)
    assert found[("points", 0)] == (2, 1) and found[("points", 0, "x")] == (2, 10)
    assert found[("points", 1)] == (3, 1) and found[("points", 1, "y")] == (4, 3)
    assert found[("tags", 0)] == (6, 8) and found[("tags", 1)] == (6, 13)
    assert found[("counts",)] == (7, 1) and ("counts", "k") not in found  # a map entry: at its map


def test_float32_values_next_to_the_largest_write_back_the_same():
    strategy = DistributedStrategy.from_dict({"last_comm_group_size_MB": 3.4025001647762064e38})
    written = strategy.to_dict()["last_comm_group_size_MB"]
    assert DistributedStrategy.from_dict({"last_comm_group_size_MB": written}).strategy == strategy.strategy
