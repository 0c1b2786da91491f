"""Test tiers: ``pytest --tier quick -n 2`` (the README's test command,
about 3 minutes on 2 cores) and ``pytest --tier full -n 2`` (what .ci/run adds
after it, about 6 minutes). ``-n 2`` (pytest-xdist) runs them on both cores.

Every test belongs to exactly one tier, so the two runs together are the
whole suite, and plain ``pytest`` (``--tier all``) still runs everything:

- quick: the stages, the goldens, the runtime, the generated package, typing,
  the tool and a short fuzz (``FUZZ_EXAMPLES_QUICK`` examples per property,
  derandomized like the full fuzz), and the Paddle integration smoke on one
  interpreter (Python 3.13);
- full: what is marked ``full`` below (the long fuzz, real schema sets, the
  wheel and pre-commit installs, Paddle on its oldest Python, the lint rules' evidence), each with the
  reason it is not quick.

Deselected tests are reported by pytest as deselected, never as passed or
skipped: the other tier runs them.
"""

from __future__ import annotations

import os

import pytest

# node-id prefixes that only the full tier runs, and why
FULL_ONLY: dict[str, str] = {
    "tests/tool/test_real_schemas.py": "generates two real schema sets (googleapis, ONNX from PyPI)",
    "tests/tool/test_tool.py::test_built_wheel_works_in_a_new_venv_outside_the_repo": "builds and installs a wheel",
    "tests/tool/test_tool.py::test_runtime_package_is_its_own_distribution": "builds and installs a wheel",
    "tests/tool/test_tool.py::test_pre_commit_hook_in_a_scratch_repository": "pre-commit installs the tool",
    "tests/package/test_runtime_dependency.py::test_the_runtime_distribution_builds_installs_and_runs_a_package": "builds "
    "the runtime distribution's sdist and wheel and installs it",
    "tests/package/test_runtime_dependency.py::test_mypy_strict_types_a_dependency_package_through_the_distribution": "one "
    "mypy run (the quick tier runs the package against the staged distribution)",
    "tests/typing/test_typing.py::test_pyright_catches_every_negative_case": "one pyright run per negative case",
    "tests/typing/test_typing.py::test_golden_packages_pass_mypy_strict": "mypy on every golden case (the "
    "quick tier type-checks the project's package and the goldens' behaviour tests)",
    "tests/package/test_doc_layout.py::test_fast_wrap_lays_out_prose_as_textwrap_fill": "80,000 random texts",
    "tests/integration/test_rules.py": "five fleet runs per lint rule (the evidence for each rule)",
    "tests/integration/test_paddle_patch.py::test_fleet_gives_paddles_results_with_the_patched_tree": "fleet runs "
    "on the patched tree (the quick tier applies the patch and probes the patched module)",
}
# Paddle on its oldest Python runs in the full tier, and so do the static
# meta-optimizer cases beyond the default and AMP: the quick tier's smoke is
# Python 3.13, every other case, both builds
FULL_ONLY_PARAMS = ("[py3.9", "static_recompute]", "static_gradient_merge]", "static_lars]", "static_localsgd]",
                    "static_auto]")
# the fuzz modules run in both tiers: short in quick, the whole profile in full
FUZZ_PREFIX = "tests/fuzz/"
FUZZ_EXAMPLES_QUICK = 12


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier", choices=("quick", "full", "all"), default="all",
        help="quick: the README's test command (a few minutes); full: the rest (.ci/run runs it after quick); "
        "all (default): every test",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "full: runs in the full tier only (tests/conftest.py says why)")
    if config.getoption("--tier") == "quick":
        # read by the fuzz modules when they are imported (after this hook)
        os.environ["FLEET_FUZZ_EXAMPLES"] = str(FUZZ_EXAMPLES_QUICK)


def _full_only(nodeid: str) -> bool:
    return any(nodeid.startswith(prefix) for prefix in FULL_ONLY) or (
        nodeid.startswith("tests/integration/") and any(p in nodeid for p in FULL_ONLY_PARAMS)
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tier = config.getoption("--tier")
    for item in items:
        if _full_only(item.nodeid):
            item.add_marker(pytest.mark.full)
    if tier == "all":
        return
    keep, drop = [], []
    for item in items:
        in_full = item.get_closest_marker("full") is not None or item.nodeid.startswith(FUZZ_PREFIX)
        in_quick = item.get_closest_marker("full") is None
        (keep if (in_quick if tier == "quick" else in_full) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
