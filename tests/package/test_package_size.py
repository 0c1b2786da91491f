"""Issue 30's size budget, held by a test: the ``shop`` case's package,
generated with its runtime as a dependency, is at most three times the lines
of betterproto2's output for the same shop.proto (tests/benchmarks/package_size.py
counts both; the benchmark reports the same figures). A line budget, not a timing."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks import package_size


def test_the_shop_package_is_at_most_three_times_betterproto2s(tmp_path: Path) -> None:
    ours = package_size.ours(tmp_path / "ours")
    peer = package_size.betterproto2(tmp_path / "betterproto2")
    assert isinstance(peer, int), peer  # its plugin is in the dev extra (the README's test command installs it)
    assert peer > 0 and ours <= package_size.BUDGET * peer, f"{ours} lines against betterproto2's {peer}"


def test_a_compact_record_declares_each_field_in_one_statement(tmp_path: Path) -> None:
    """What the budget rests on: a field is its typed declaration and its
    docstring, summary, type and default on one line where they fit."""
    package_size.ours(tmp_path / "ours")
    source = (tmp_path / "ours" / package_size.PACKAGE / "shop.py").read_text(encoding="utf-8")
    assert (
        '    name: _runtime.Field[str, str] = _runtime.field(default=_runtime.UNSET)\n'
        '    """Full name, as printed on invoices. ``str``, default ``\'\'``."""\n'
    ) in source
    assert "def __init__" not in source and "@property" not in source
