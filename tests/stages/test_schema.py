"""The schema stage: descriptors -> messages, fields, defaults, comments."""

from __future__ import annotations

import math

import pytest

from generator.errors import GeneratorError
from generator.schema.schema import default_text
from generator.schema.schema import load_schema, shortest_float32_text


def test_schema_reads_types_defaults_and_comments(schema):
    root = schema.messages["demo.Root"]
    assert root.doc == "The root.\nSecond line.\n\nSecond paragraph."
    ratio = root.field("ratio")
    assert ratio.type == "float" and ratio.default == pytest.approx(0.8) and default_text(schema, ratio) == "0.8"
    assert ratio.doc == "trailing comment" and ratio.line == 8
    assert root.field("kind").default == 1
    assert root.field("names").repeated and root.field("child").type_name == "demo.Child"
    assert schema.enums["demo.Kind"].values[1].name == "B"


def test_schema_keeps_the_comments_of_every_kind_of_element(tmp_path):
    """Enum values, oneofs, extensions (file level and nested), services and
    methods keep their comments; a leading and a trailing comment both stay."""
    from generator.inputs.compile import compile_protos

    (tmp_path / "kinds.proto").write_text(
        'syntax = "proto2";\npackage k;\n'
        "enum E {\n  // Zero.\n  E0 = 0;  // Nothing.\n}\n"
        "message M {\n  extensions 10 to 20;\n  // Pick one.\n  oneof pick {\n    int32 a = 1;\n  }\n"
        "  extend M {\n    optional int32 inner = 11;  // Inside.\n  }\n}\n"
        "extend M {\n  // Outside.\n  optional int32 outer = 10;\n}\n"
        "// Serves.\nservice S {\n  rpc Get(M) returns (stream M);  // Gets.\n}\n"
    )
    compiled = compile_protos([tmp_path / "kinds.proto"])
    schema = load_schema(compiled.descriptor_set, list(compiled.names))
    assert schema.enums["k.E"].values[0].doc == "Zero.\n\nNothing."
    m = schema.messages["k.M"]
    assert m.oneofs == ("pick",) and m.oneof_docs == ("Pick one.",)
    assert [(x.name, x.doc, x.line) for x in m.extensions] == [("inner", "Inside.", 14)]
    assert [(x.name, x.doc, x.line) for x in schema.file_extensions["kinds.proto"]] == [("outer", "Outside.", 19)]
    [service] = schema.services["kinds.proto"]
    assert (service.name, service.doc, service.line) == ("S", "Serves.", 22)
    [method] = service.methods
    assert (method.name, method.input_type, method.output_type, method.doc) == ("Get", "k.M", "k.M", "Gets.")
    assert method.server_streaming and not method.client_streaming


def test_shortest_float32_text():
    assert shortest_float32_text(0.800000011920929) == "0.8"
    assert shortest_float32_text(1e-8) == "1e-08"
    assert shortest_float32_text(math.inf) == "inf"


def _descriptor_set(tmp_path, name: str, source: bytes) -> bytes:
    """protoc's own descriptor set, as the protoc plugin receives it (no check of the text on the way)."""
    from grpc_tools import protoc

    (tmp_path / name).write_bytes(source)
    out = tmp_path / "set.bin"
    assert protoc.main(["protoc", f"-I{tmp_path}", "--include_source_info", f"--descriptor_set_out={out}", name]) == 0
    return out.read_bytes()


@pytest.mark.parametrize(
    ("source", "words"),
    [
        (b"// Caf\xe9.\nmessage Root { optional int32 x = 1; }\n", "latin.proto:4: the comment of the element on this line is not UTF-8 text"),
        (b'message Root { optional string x = 1 [default = "caf\xe9"]; }\n', "latin.proto:3: the default of demo.Root.x is not UTF-8 text"),
    ],
    ids=["comment", "default"],
)
def test_text_that_is_not_utf8_is_refused_with_its_line(tmp_path, source, words):
    """protobuf hands such strings back as bytes: they used to crash the schema stage (TypeError)."""
    data = _descriptor_set(tmp_path, "latin.proto", b'syntax = "proto2";\npackage demo;\n' + source)
    with pytest.raises(GeneratorError) as info:
        load_schema(data, ["latin.proto"])
    assert str(info.value) == f"{words} (save the .proto file as UTF-8)"


def test_a_group_is_a_message_field_documented_by_its_comment(tmp_path):
    """protoc gives a proto2 group's comment to its message (the one statement
    declares both): the field is documented by it too."""
    data = _descriptor_set(tmp_path, "groups.proto", (
        b'syntax = "proto2";\npackage demo;\nmessage Root {\n'
        b"  // The settings.\n  optional group Settings = 1 { optional int32 x = 2; }\n"
        b"  // The items.\n  repeated group Item = 3 { optional int32 y = 4; }\n"
        b"  optional Settings again = 5;  // a plain message field of the group's type\n"
        b"  optional Settings plain = 6;\n}\n"
    ))
    root = load_schema(data, ["groups.proto"]).messages["demo.Root"]
    settings, item, again, plain = root.fields
    assert (settings.name, settings.type, settings.type_name, settings.doc) == ("settings", "message", "demo.Root.Settings", "The settings.")
    assert (item.repeated, item.doc) == (True, "The items.")
    assert (again.doc, plain.doc) == ("a plain message field of the group's type", "")  # only the group statement shares its comment


def test_descriptor_bytes_are_parsed_once_by_the_schema_stage():
    """Issue 29: later stages read the schema stage's facts; none parses the
    descriptors again (the plugin parses protoc's request, which holds them)."""
    import re

    from tests.support import ROOT

    parsers = re.compile(r"\b(?:FromString|ParseFromString)\(")
    found = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "generator").rglob("*.py")
        if "shipped" not in path.parts and parsers.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["generator/plugin.py", "generator/schema/schema.py"], found
