"""The synthetic schemas of the scaling benchmark are valid proto2 of the size asked for."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_schema import count_fields, count_messages, make_chain, make_schema, make_wide  # noqa: E402


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


def _compile(tmp_path: Path, text: str) -> list[Any]:
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    (tmp_path / "synth.proto").write_text(text, encoding="utf-8")
    out = tmp_path / "set.bin"
    assert protoc.main(["protoc", f"-I{tmp_path}", f"--descriptor_set_out={out}", "synth.proto"]) == 0
    return list(descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file[0].message_type)


def test_chain_each_message_holds_the_next(tmp_path: Path) -> None:
    messages = _compile(tmp_path, make_chain(30))
    assert len(messages) == count_messages(make_chain(30)) == 30
    for current, following in zip(messages, messages[1:]):
        [link] = [f for f in current.field if f.type_name]
        assert link.type_name == f".bench.chain.{following.name}" and link.label == link.LABEL_OPTIONAL
    assert not any(f.type_name for f in messages[-1].field)


@pytest.mark.parametrize("fields", [1, 300, 20000])
def test_wide_is_one_message_of_the_fields_asked_for(tmp_path: Path, fields: int) -> None:
    [message] = _compile(tmp_path, make_wide(fields))  # 20,000: numbers skip protobuf's 19000-19999
    assert len(message.field) == count_fields(make_wide(fields)) == fields
    assert len({f.name for f in message.field}) == fields


def test_wide_20000_loads_in_the_protobuf_runtime(tmp_path: Path) -> None:
    """upb limits one message's storage to 64 KiB: the wide shape's types stay under it."""
    from google.protobuf import descriptor_pb2, descriptor_pool

    [message] = _compile(tmp_path, make_wide(20000))
    file = descriptor_pb2.FileDescriptorProto(name="wide.proto", package="bench.wide", message_type=[message])
    descriptor_pool.DescriptorPool().Add(file)


def test_long_names_schema_compiles_with_real_world_lengths(tmp_path: Path) -> None:
    """--long-names: the 'large' benchmark's schema, its messages named as long
    as large API sets name theirs (issue 19: 30-60 characters)."""
    text = make_schema(240, long_names=True)
    assert text == make_schema(240, long_names=True)
    messages = _compile(tmp_path, text)
    assert sum(1 + len(m.nested_type) for m in messages) == 240
    names = [m.name for m in messages]
    assert len(set(names)) == len(names) and min(map(len, names)) >= 30
    assert "package example.cloud.infrastructure.management.v1beta1;" in text
