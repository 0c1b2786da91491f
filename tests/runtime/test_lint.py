"""The linter (generator/shipped/lint.py) as the generated packages carry it:
the rules of the annotations on the standalone package, the annotated golden
case, the command line, and random strategies (never raises, never changes
the strategy, same answer every time)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet_strategy import DistributedStrategy, _rules
from fleet_strategy import __main__ as cli
from fleet_strategy.lint import Finding, Rule, lint, main
from tests.support import ROOT, golden_tree, import_generated

RULES = _rules.RULES["paddle.fleet.DistributedStrategy"]


def codes(strategy: DistributedStrategy, world_size: int | None = None) -> list[str]:
    return [f.code for f in strategy.lint(world_size=world_size)]


def test_a_fresh_strategy_is_clean():
    assert DistributedStrategy().lint() == [] and DistributedStrategy().lint(world_size=8) == []


def test_a_config_without_its_switch():
    strategy = DistributedStrategy()
    strategy.amp_configs = {"init_loss_scaling": 1024.0}
    (finding,) = strategy.lint()
    assert finding == Finding(
        "amp-configs-without-amp", ("amp_configs", "amp"), "`amp_configs` is set but has no effect unless `amp` is on."
    )
    strategy.amp = True
    assert strategy.lint() == []


def test_a_config_read_elsewhere_says_where():
    strategy = DistributedStrategy()
    strategy.pipeline_configs = {"accumulate_steps": 4}
    assert codes(strategy) == ["pipeline-configs-without-pipeline"]
    strategy.hybrid_configs = {"pp_degree": 2}  # dygraph pipeline parallelism reads it
    assert codes(strategy) == []
    strategy.hybrid_configs = {"pp_degree": 1}
    strategy.sharding = True
    strategy.sharding_configs = {"pp_degree": 2}  # the static sharding optimizer with its own pipeline
    assert codes(strategy) == []
    strategy.sharding = False
    assert codes(strategy) == ["pipeline-configs-without-pipeline"]


def test_conflicting_switches_name_the_one_kept():
    strategy = DistributedStrategy()
    strategy.fp16_allreduce = True
    strategy.amp = True
    (finding,) = strategy.lint()
    assert finding.code == "fp16-allreduce-with-amp" and finding.fields == ("fp16_allreduce", "amp")
    assert "`amp` is kept and `fp16_allreduce` is turned off" in finding.message


def test_degrees_against_the_world_size():
    strategy = DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": 2, "mp_degree": 2, "pp_degree": 2}
    assert codes(strategy) == []  # no world size given: nothing to check against
    assert codes(strategy, 8) == []
    (finding,) = strategy.lint(world_size=4)
    assert finding.code == "hybrid-degrees-world-size" and "(found 8 and 4)" in finding.message
    assert finding.fields[0] == "hybrid_configs.dp_degree"
    strategy.hybrid_configs = {"dp_degree": -1}  # inferred from the world size: not checked
    assert codes(strategy, 4) == []
    strategy.hybrid_configs = {"dp_degree": 2, "ep_degree": 2}  # expert parallelism: another topology
    assert codes(strategy, 4) == []


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "4"])
def test_a_world_size_is_a_positive_int(bad):
    with pytest.raises(ValueError, match="world_size"):
        DistributedStrategy().lint(world_size=bad)


def test_reading_a_nested_default_creates_nothing():
    strategy = DistributedStrategy()
    strategy.lint(world_size=1)
    assert not strategy.strategy.HasField("hybrid_configs") and strategy.strategy.ByteSize() == 0


def test_findings_as_json():
    finding = Finding("c", ("a", "b.c"), "m.")
    assert json.loads(json.dumps(finding.as_dict())) == {"code": "c", "fields": ["a", "b.c"], "message": "m.", "line": None}
    assert Finding("c", ("a",), "m.", 3).as_dict()["line"] == 3


def test_every_rule_is_documented_on_every_field_it_involves():
    for rule in RULES:
        for name in rule.fields:
            prop = getattr(DistributedStrategy, name.split(".")[0])
            assert f"``{rule.code}``" in " ".join(prop.__doc__.split()), (rule.code, name)


# -------------------------------------------------------------- random strategies

SWITCHES = sorted(f.name for f in DistributedStrategy().strategy.DESCRIPTOR.fields if f.type == f.TYPE_BOOL)
CONFIGS = {
    "amp_configs": {"init_loss_scaling": st.floats(1, 1e6)},
    "recompute_configs": {"checkpoints": st.lists(st.text("abc", min_size=1), max_size=2)},
    "lamb_configs": {"lamb_weight_decay": st.floats(0, 1)},
    "pipeline_configs": {"accumulate_steps": st.integers(1, 8)},
    "tensor_parallel_configs": {"tensor_parallel_degree": st.integers(1, 8)},
    "sharding_configs": {"pp_degree": st.integers(-1, 4)},
    "hybrid_configs": {key: st.integers(-2, 8) for key in ("dp_degree", "mp_degree", "pp_degree", "sharding_degree", "sep_degree", "ep_degree")},
}


@st.composite
def strategies(draw: st.DrawFn) -> DistributedStrategy:
    strategy = DistributedStrategy()
    for name in draw(st.lists(st.sampled_from(SWITCHES), unique=True)):
        setattr(strategy.strategy, name, draw(st.booleans()))
    for name in draw(st.lists(st.sampled_from(sorted(CONFIGS)), unique=True)):
        keys = draw(st.lists(st.sampled_from(sorted(CONFIGS[name])), unique=True))
        setattr(strategy, name, {key: draw(CONFIGS[name][key]) for key in keys})
    return strategy


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategy=strategies(), world_size=st.none() | st.integers(1, 64))
def test_lint_never_raises_never_changes_and_always_answers_the_same(strategy, world_size):
    before = strategy.strategy.SerializeToString(deterministic=True)
    present = [f.name for f, _ in strategy.strategy.ListFields()]
    first = strategy.lint(world_size=world_size)
    assert strategy.lint(world_size=world_size) == first
    assert strategy.strategy.SerializeToString(deterministic=True) == before
    assert [f.name for f, _ in strategy.strategy.ListFields()] == present
    assert all(isinstance(f, Finding) and f.message.endswith(".") for f in first)
    assert [f.code for f in first] == [r.code for r in RULES if r.code in {f.code for f in first}]  # the rules' order


def test_a_relation_with_an_input_not_given_is_skipped():
    rule = Rule("x", "relation", ("amp",), "s", relation=(("number", 2), ">", ("input", "world_size")))
    assert lint(DistributedStrategy().strategy, [rule]) == []
    assert [f.message for f in lint(DistributedStrategy().strategy, [rule], world_size=3)] == ["s (found 2 and 3)."]


# ------------------------------------------------------------------ command line


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """What ``python -m fleet_strategy ARGV`` does, in this process."""
    code = main(argv, cli.CLASSES, prog="python -m fleet_strategy")
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line(tmp_path, capsys):
    clean, noisy = tmp_path / "clean.prototxt", tmp_path / "noisy.prototxt"
    DistributedStrategy().save_to_prototxt(str(clean))
    strategy = DistributedStrategy()
    strategy.lamb_configs = {"lamb_weight_decay": 0.1}
    strategy.hybrid_configs = {"dp_degree": 2}
    strategy.save_to_prototxt(str(noisy))
    assert run(["lint", str(clean)], capsys)[0] == 0
    code, out, _ = run(["lint", str(noisy)], capsys)
    assert code == 1 and out == f"{noisy}:1: lamb-configs-without-lamb: `lamb_configs` is set but has no effect unless `lamb` is on.\n"
    code, out, _ = run(["lint", str(noisy), "--world-size", "4", "--format", "json"], capsys)
    document = json.loads(out)
    assert code == 1 and document["version"] == 1 and document["world_size"] == 4 and document["file"] == str(noisy)
    assert [f["code"] for f in document["findings"]] == ["lamb-configs-without-lamb", "hybrid-degrees-world-size"]
    assert set(document["findings"][0]) == {"code", "fields", "message", "line"}


@pytest.mark.parametrize("content", [None, "amp: maybe\n", "no_such_field: 1\n", b"\xff\xfe"])
def test_a_bad_file_exits_2(tmp_path, capsys, content):
    path = tmp_path / "bad.prototxt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out, err = run(["lint", str(path)], capsys)
    assert code == 2 and out == "" and f"cannot read {path}" in err


def test_a_folder_or_bad_arguments_exit_2(tmp_path, capsys):
    assert run(["lint", str(tmp_path)], capsys)[0] == 2
    assert run(["lint", str(tmp_path / "x"), "--world-size", "0"], capsys)[0] == 2
    assert run(["lint"], capsys)[0] == 2
    assert run(["nope"], capsys)[0] == 2


def test_python_dash_m(tmp_path):
    import subprocess
    import sys

    import fleet_strategy

    path = tmp_path / "s.prototxt"
    path.write_text("amp_configs { init_loss_scaling: 8 }\n")
    # the package this test imports (the checkout's generated/, or an installed wheel)
    env = {**os.environ, "PYTHONPATH": str(Path(fleet_strategy.__file__).parent.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "fleet_strategy", "lint", str(path)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 1 and "amp-configs-without-amp" in done.stdout


# ------------------------------------------------------------ the annotated golden case


def test_the_annotated_golden_case_lints_by_its_rules(tmp_path):
    out = golden_tree(ROOT / "tests" / "goldens" / "cases" / "annotated" / "expected", tmp_path / "annotated")
    module = import_generated(out, "golden_annotated")
    shop = module.Shop()
    assert shop.lint() == [] and shop.lint(world_size=200) == []  # 4 workers x 50 items
    shop.checkout_configs = {"max_items": 10}
    shop.open = False
    assert [f.code for f in shop.lint()] == ["checkout-without-open"]
    shop.open = True
    shop.currency = "JPY"
    shop.discount = 0.5
    shop.workers = 1
    assert [f.code for f in shop.lint()] == ["discount-outside-eur-usd"]
    shop.workers = 2
    assert shop.lint() == []
    shop.config.legacy_limit = 3
    assert [f.code for f in shop.lint(world_size=21)] == ["legacy-limit-with-max-items", "workers-per-rank"]
    shop.checkout_configs = {"timeout_s": 0.0}  # the relation's `when` no longer holds
    assert [f.code for f in shop.lint(world_size=21)] == ["legacy-limit-with-max-items"]
    assert os.path.isfile(out / "golden_annotated" / "__main__.py")
