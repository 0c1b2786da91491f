"""The small schema the schema and annotations stage tests share."""

from __future__ import annotations

import pytest

from generator.inputs.compile import compile_protos
from generator.schema.schema import load_schema

SCHEMA = """\
syntax = "proto2";
package demo;
// The root.
// Second line.
//
// Second paragraph.
message Root {
  optional float ratio = 1 [default = 0.8];  // trailing comment
  optional Kind kind = 2 [default = B];
  repeated string names = 3;
  optional Child child = 4;
}
message Child { optional int32 x = 1; }
enum Kind { A = 0; B = 1; }
"""


@pytest.fixture
def schema(tmp_path):
    proto = tmp_path / "demo.proto"
    proto.write_text(SCHEMA)
    compiled = compile_protos([proto])
    return load_schema(compiled.descriptor_set, list(compiled.names))

