"""The schema stage: descriptors -> messages, fields, defaults, comments."""

from __future__ import annotations

import math

import pytest

from generator.model import default_text
from generator.schema import shortest_float32_text


def test_schema_reads_types_defaults_and_comments(schema):
    root = schema.messages["demo.Root"]
    assert root.doc == "The root.\nSecond line.\n\nSecond paragraph."
    ratio = root.field("ratio")
    assert ratio.type == "float" and ratio.default == pytest.approx(0.8) and default_text(schema, ratio) == "0.8"
    assert ratio.doc == "trailing comment" and ratio.line == 8
    assert root.field("kind").default == 1
    assert root.field("names").repeated and root.field("child").type_name == "demo.Child"
    assert schema.enums["demo.Kind"].values[1].name == "B"


def test_shortest_float32_text():
    assert shortest_float32_text(0.800000011920929) == "0.8"
    assert shortest_float32_text(1e-8) == "1e-08"
    assert shortest_float32_text(math.inf) == "inf"
