"""The synthetic schemas of the scaling benchmark are valid proto2 of the size asked for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_schema import count_fields, count_messages, make_schema  # noqa: E402


@pytest.mark.parametrize("messages", [1, 2, 45, 450])
def test_schema_compiles_with_the_requested_size(tmp_path: Path, messages: int) -> None:
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    text = make_schema(messages)
    (tmp_path / "synth.proto").write_text(text, encoding="utf-8")
    out = tmp_path / "set.bin"
    assert protoc.main(["protoc", f"-I{tmp_path}", f"--descriptor_set_out={out}", "synth.proto"]) == 0
    files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    compiled = sum(1 + len(m.nested_type) for m in files[0].message_type)
    assert compiled == count_messages(text) == messages
    assert count_fields(text) >= 5 * messages
    assert any(f.HasField("default_value") for m in files[0].message_type for f in m.field)


def test_schema_is_deterministic() -> None:
    assert make_schema(45) == make_schema(45)
