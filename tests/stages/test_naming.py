"""Python names for proto names: keywords, builtins and generated members get a trailing ``_``."""

from __future__ import annotations

import pytest

from generator.schema import naming


@pytest.mark.parametrize(
    ("name", "expected"),
    [("class", "class_"), ("None", "None_"), ("__init__", "__init___"), ("__x", "__x___"), ("property", "property_"),
     ("strategy", "strategy_"), ("type", "type"), ("amp", "amp")],
)
def test_naming_rule(name, expected):
    assert naming.python_member_name(name, {"strategy"}) == expected
