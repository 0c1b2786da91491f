"""Every rule of the annotations file, shown against real Paddle 3.3.1.

``rule_cases.py`` (run in a Paddle interpreter: one process, each rule in a child forked from it) reports
what Paddle did; here each rule's claim is checked on it, and the linters of
both builds are checked to report the rule on the same settings:

* no effect (``effective_when``): with the switch off, the program fleet
  builds, the applied meta-optimizers and the final strategy are identical
  with and without the setting; where the switch applies on a CPU trainer, the
  setting does change the program with the switch on;
* conflict: with both on, Paddle applies the winner's meta-optimizer and not
  the loser's, and its final strategy keeps the winner and turns the loser off;
* relation: ``fleet.init`` fails for degrees whose product is not the world
  size and succeeds for degrees whose product is.

A rule without a case here fails the test: a rule real Paddle does not
confirm is not shipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import rule_cases  # noqa: E402  (its tables: Paddle is imported only when it runs)
from forked import Server, unwrap  # noqa: E402
from overlay import build_overlay  # noqa: E402
from paddle_env import INTERPRETERS, ROOT  # noqa: E402

from fleet_strategy import DistributedStrategy, _rules  # noqa: E402

pytestmark = pytest.mark.skipif(not INTERPRETERS, reason="no Python with paddlepaddle==3.3.1: run tests/integration/setup_paddle.sh")
CASES = Path(__file__).with_name("rule_cases.py")
RULES = {rule.code: rule for rule in _rules.RULES["paddle.fleet.DistributedStrategy"]}


# The evidence is about Paddle, not the interpreter: on the newest Python that
# has Paddle (five fleet runs a rule; both Pythons would double the time for no
# new fact). The full test tier runs this.
@pytest.fixture(scope="module", params=INTERPRETERS[-1:], ids=[label for label, _, _ in INTERPRETERS[-1:]])
def paddle_python(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    _, python, installed = request.param
    overlay = tmp_path_factory.mktemp("overlay")
    build_overlay(installed, ROOT / "generated" / "paddle", overlay)
    return python, overlay


@pytest.fixture(scope="module")
def evidence(paddle_python: tuple[str, Path]) -> Iterator[Callable[[str], Any]]:
    """code -> what Paddle did; one process imports Paddle once, each rule in a
    child forked from it (a failure fails that rule's test alone)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)  # Paddle's own class, pristine
    server = Server(paddle_python[0], CASES, [], env, timeout=1200)
    answers: dict[str, dict[str, Any]] = {}

    def get(code: str) -> Any:
        if code not in answers:
            answers[code] = server.ask(code)
        return unwrap(answers[code], code)

    yield get
    server.close()


def test_every_rule_has_its_evidence_and_nothing_else():
    cases = {**dict.fromkeys(rule_cases.UNUSED, "effective_when"), **dict.fromkeys(rule_cases.CONFLICTS, "conflicts_with"),
             **dict.fromkeys(rule_cases.RELATIONS, "relation")}
    assert {code: rule.kind for code, rule in RULES.items()} == cases


@pytest.mark.parametrize("code", sorted(rule_cases.UNUSED))
def test_a_setting_without_its_switch_changes_nothing(evidence: Callable[[str], Any], code: str) -> None:
    switch, setting, _, applies = rule_cases.UNUSED[code]
    result = evidence(code)
    off, off_with = result["off"], result["off_with"]
    assert "error" not in off and off == off_with, code
    assert switch not in off["kept"]
    if applies:  # the setting is read once the switch is on: the comparison above could fail
        assert result["on"] != result["on_with"] and "error" not in result["on_with"], code
    (name, value), = setting.items()
    rule = RULES[code]
    assert rule.subject == (name,) and name in rule.fields and switch in rule.fields
    lonely, switched = DistributedStrategy(), DistributedStrategy()
    setattr(lonely, name, value)
    setattr(switched, name, value)
    setattr(switched, switch, True)
    assert code in [f.code for f in lonely.lint()] and code not in [f.code for f in switched.lint()]


@pytest.mark.parametrize("code", sorted(rule_cases.CONFLICTS))
def test_paddle_keeps_one_of_two_conflicting_switches(evidence: Callable[[str], Any], code: str) -> None:
    (first, second), _, winner = rule_cases.CONFLICTS[code]
    rule = RULES[code]
    assert f"`{winner}` is kept" in rule.sentence
    loser = second if winner == first else first
    result = evidence(code)
    alone = {name: set(result[name]["applied"]) - {"RawProgramOptimizer"} for name in (first, second)}
    both = result["both"]
    assert alone[first] and alone[second] and not alone[first] & alone[second]  # each applies alone
    assert alone[winner] <= set(both["applied"]) and not alone[loser] & set(both["applied"])
    assert winner in both["kept"] and loser not in both["kept"]
    assert {rule.subject[0], rule.other[0]} == {first, second}
    strategy = DistributedStrategy()
    setattr(strategy, first, True)
    assert code not in [f.code for f in strategy.lint()]
    setattr(strategy, second, True)
    assert code in [f.code for f in strategy.lint()]


@pytest.mark.parametrize("code", sorted(rule_cases.RELATIONS))
def test_fleet_init_refuses_degrees_that_do_not_multiply_to_the_world_size(evidence: Callable[[str], Any], code: str) -> None:
    breaking, keeping = rule_cases.RELATIONS[code]
    result = evidence(code)
    assert result["breaking"] == ["AssertionError"] * len(breaking) and result["keeping"] == ["ok"] * len(keeping)
    for configs, found in ((breaking, True), (keeping, False)):
        for config in configs:  # one rank, as rule_cases runs them
            strategy = DistributedStrategy()
            strategy.hybrid_configs = config
            assert (code in [f.code for f in strategy.lint(world_size=1)]) is found, config
            assert code not in [f.code for f in strategy.lint()]  # no world size: nothing to check against


def test_the_overlaid_paddle_class_lints_and_its_command_line_runs(paddle_python: tuple[str, Path], tmp_path: Path) -> None:
    python, overlay = paddle_python
    code = (
        "import paddle.distributed.fleet as fleet, json\n"
        "s = fleet.DistributedStrategy()\n"
        "s.lamb_configs = {'lamb_weight_decay': 0.1}\n"
        "s.hybrid_configs = {'dp_degree': 2}\n"
        "before = str(s.strategy)\n"
        "found = s.lint(world_size=4)\n"
        "assert str(s.strategy) == before\n"
        "s.save_to_prototxt('s.prototxt')\n"
        "print('RESULT', json.dumps([f.code for f in found]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(overlay)}
    done = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-3000:]
    assert json.loads(lines[0][len("RESULT ") :]) == ["lamb-configs-without-lamb", "hybrid-degrees-world-size"]
    command = [python, "-m", "paddle.distributed.fleet.base._fleet_strategy", "lint", "s.prototxt", "--world-size", "2", "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr[-3000:]
    assert [f["code"] for f in json.loads(done.stdout)["findings"]] == ["lamb-configs-without-lamb"]
