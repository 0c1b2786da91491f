"""The every_comment case: each comment protoc records reaches the generated
package, for every kind of element, and every message has a wrapper class."""

from __future__ import annotations

import importlib
import re

import pytest
from google.protobuf import descriptor_pb2 as d

from generator.inputs.compile import compile_protos
from generator.pipeline import build
from tests.goldens.regen import CASES, case_options
from tests.support import golden_tree, import_generated

CASE = CASES / "every_comment"

# descriptor.proto's field numbers: (scope, number) -> (kind of the element, its scope)
_STEPS = {
    ("file", d.FileDescriptorProto.MESSAGE_TYPE_FIELD_NUMBER): "message",
    ("file", d.FileDescriptorProto.ENUM_TYPE_FIELD_NUMBER): "enum",
    ("file", d.FileDescriptorProto.EXTENSION_FIELD_NUMBER): "extension",
    ("file", d.FileDescriptorProto.SERVICE_FIELD_NUMBER): "service",
    ("message", d.DescriptorProto.FIELD_FIELD_NUMBER): "field",
    ("message", d.DescriptorProto.NESTED_TYPE_FIELD_NUMBER): "message",
    ("message", d.DescriptorProto.ENUM_TYPE_FIELD_NUMBER): "enum",
    ("message", d.DescriptorProto.EXTENSION_FIELD_NUMBER): "extension",
    ("message", d.DescriptorProto.ONEOF_DECL_FIELD_NUMBER): "oneof",
    ("enum", d.EnumDescriptorProto.VALUE_FIELD_NUMBER): "enum value",
    ("service", d.ServiceDescriptorProto.METHOD_FIELD_NUMBER): "method",
}
KINDS = sorted(set(_STEPS.values()))


def element_kind(path: list[int]) -> str | None:
    """The kind of element a SourceCodeInfo path names (None: a part of one,
    or a statement that is no element: syntax, package, an extend block)."""
    scope = "file"
    if not path or len(path) % 2:
        return None
    for number in path[::2]:
        kind = _STEPS.get((scope, number))
        if kind is None:
            return None
        scope = kind
    return scope


def recorded_comments() -> list[tuple[str, str]]:
    """(kind, text) of every leading and trailing comment protoc records for the case's files."""
    compiled = compile_protos([CASE / "input"])
    fds = d.FileDescriptorSet()
    fds.ParseFromString(compiled.descriptor_set)
    found = []
    for fp in fds.file:
        if fp.name not in compiled.names:
            continue
        for loc in fp.source_code_info.location:
            kind = element_kind(list(loc.path))
            for text in (loc.leading_comments, loc.trailing_comments):
                if kind is not None and text.strip():
                    found.append((kind, text))
    return found


def _words(text: str) -> str:
    """Text with each run of whitespace (line breaks, indentation, ``//`` spacing) as one space."""
    return " ".join(text.split())


def coverage(files: dict[str, str]) -> dict[str, tuple[int, int, list[str]]]:
    """Kind -> (comments found in the generated files, comments recorded, the texts missing)."""
    generated = _words("\n".join(files.values()))
    result: dict[str, tuple[int, int, list[str]]] = {kind: (0, 0, []) for kind in KINDS}
    for kind, text in recorded_comments():
        found, total, missing = result[kind]
        if _words(text) in generated:
            found += 1
        else:
            missing = [*missing, text.strip()]
        result[kind] = (found, total + 1, missing)
    return result


def test_element_kind_reads_descriptor_paths():
    assert element_kind([4, 0]) == "message" and element_kind([4, 0, 3, 1, 2, 0]) == "field"
    assert element_kind([4, 2, 3, 0, 4, 0, 2, 1]) == "enum value" and element_kind([4, 0, 8, 0]) == "oneof"
    assert element_kind([6, 0, 2, 1]) == "method" and element_kind([7, 0]) == "extension"
    assert element_kind([4, 0, 2, 0, 1]) is None and element_kind([12]) is None and element_kind([7]) is None


def test_every_recorded_comment_reaches_the_generated_package():
    """Per kind of element: every comment's text is in the generated files
    (docstrings, stubs, reference page), whatever the line breaks."""
    result = coverage(build(case_options(CASE, CASE / "expected")).files)
    assert all(total >= 2 for _, total, _ in result.values()), result  # the case has comments of every kind
    assert {kind: missing for kind, (_, _, missing) in result.items() if missing} == {}
    assert {kind: found / total for kind, (found, total, _) in result.items()} == dict.fromkeys(KINDS, 1.0)


def test_coverage_counts_what_is_missing():
    """The measure itself: a package without the stubs misses the comments only they carry
    (enum values are documented in the enum classes too)."""
    files = build(case_options(CASE, CASE / "expected")).files
    result = coverage({path: text for path, text in files.items() if not path.endswith(".pyi")})
    for kind in ("extension", "oneof", "service", "method"):
        found, total, missing = result[kind]
        assert found < total and len(missing) == total - found, (kind, result[kind])
    found, total, missing = result["enum value"]
    assert found == total and not missing, result["enum value"]


def test_enum_value_docs_of_the_annotations_are_rendered():
    stub = build(case_options(CASE, CASE / "expected")).files["golden_every_comment/catalog_pb2.pyi"]
    said = '"""Sold out; documented in the annotations, not in the schema."""'
    assert re.search(r"\n    STOCK_GONE: _ClassVar\[_builtins\.int\]\n    " + re.escape(said), stub)
    assert re.search(r"\nSTOCK_GONE: _builtins\.int\n" + re.escape(said), stub)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    out = golden_tree(CASE / "expected", tmp_path_factory.mktemp("every_comment"))
    return import_generated(out, "golden_every_comment")


def test_every_message_has_a_wrapper_class(package):
    """Every message is used by another one (Node only by itself), nested ones
    share a short name, and ShelfDict is the name of Shelf's dict view: each
    still has a class, under a name of its own."""
    names = {"Shelf", "Catalog", "Left", "Left_Item", "Right", "Right_Item", "ShelfDict_", "Node"}
    assert set(package.__all__) - {"ConfigError", "UnknownConfigKeyError", "default_strict", "set_default_strict"} == names
    messages = {name: type(getattr(package, name)().message).DESCRIPTOR.full_name for name in names}
    assert package.Left_Item is package.Left.Item and package.Right_Item is package.Right.Item  # nested, flat alias kept
    assert messages["Left_Item"] == "golden.notes.Left.Item" and messages["Right_Item"] == "golden.notes.Right.Item"
    assert messages["ShelfDict_"] == "golden.notes.ShelfDict" and len(set(messages.values())) == len(names)
    types = importlib.import_module("golden_every_comment.types")
    assert types.ShelfInput.__name__ == "ShelfInput"  # a compact Record's package has no dict views
    assert not hasattr(types, "ShelfDict")


def test_recursive_messages_work_through_their_classes(package):
    node = package.Node()
    node.children = [{"children": [{}, {"children": []}]}]
    assert len(node.children) == 1 and len(node.children[0].children) == 2
    shelf = package.Shelf()
    shelf.shelves = [{"title": "inner", "shelves": [{"title": "innermost"}]}]
    shelf.catalog = {"top": {"title": "top"}}
    assert shelf.shelves[0].shelves[0].title == "innermost" and shelf.catalog.top.title == "top"
    item = package.Left_Item()
    item.size = "SIZE_LARGE"
    assert item.size == 1

