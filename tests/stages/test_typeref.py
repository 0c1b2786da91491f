"""typeref: one type structure, spelled per audience, each spelling recording its imports."""

from __future__ import annotations

import ast

from generator.model import typeref
from generator.model.typeref import Import, Spelling, Statement, Sym, Type, TypeRef
from tests.support import ROOT

PB2 = {"distributed_strategy_pb2": Sym("pb2", "distributed_strategy_pb2", "")}


def test_a_field_type_is_spelled_per_audience_and_records_its_imports() -> None:
    ref = TypeRef(kind="list", proto="message", item=TypeRef(
        kind="message", proto="message", full_name="p.Table", local="Table", pb2=Sym("pb2", "p_pb2", "Table"),
        typed_dicts=("TableDict", "TableInput"),
    ))
    code, stub, doc = Spelling("code"), Spelling("stub", here="p_pb2"), Spelling("doc")
    assert code(typeref.out_type(ref)) == "list[TableDict]"
    assert code(typeref.in_type(ref)) == "list[TableInput | p_pb2.Table] | tuple[TableInput | p_pb2.Table, ...]"
    assert code.imports == {Import(".types", "TableDict"), Import(".types", "TableInput"), Import("", pb2="p_pb2")}
    assert stub(typeref.stub_get(ref)) == "_containers.RepeatedCompositeFieldContainer[Table]"
    assert stub(typeref.stub_init(ref)) == "_Iterable[Table] | None"
    assert stub.imports == {Import("google.protobuf.internal", "containers", "_containers"),
                            Import("collections.abc", "Iterable", "_Iterable")}
    assert doc(typeref.stub_get(ref)) == "list[Table]" and not doc.imports


def test_a_class_body_spells_the_builtins_its_members_shadow() -> None:
    ref = TypeRef(kind="map", proto="map", key=TypeRef(kind="scalar", proto="string"), item=TypeRef(kind="scalar", proto="int32"))
    body = Spelling("code", shadowed=frozenset({"int", "dict"}))
    assert body(typeref.out_type(ref)) == "_builtins.dict[str, _builtins.int]"
    assert body.imports == {Import("builtins", alias="_builtins")}
    assert Spelling("doc")(typeref.out_type(ref)) == "map<string, int (int32)>"


def test_annotation_types_resolve_their_names_once() -> None:
    bare = typeref.parse_annotation("RepeatedCompositeFieldContainer[distributed_strategy_pb2.TableParameter]", PB2)
    aliased = typeref.parse_annotation("_containers.RepeatedCompositeFieldContainer[distributed_strategy_pb2.TableParameter]", PB2)
    assert bare == aliased
    spell = Spelling("code")
    assert spell(bare) == "_containers.RepeatedCompositeFieldContainer[distributed_strategy_pb2.TableParameter]"
    assert Spelling("doc")(bare) == "list[TableParameter]"
    mapping = typeref.parse_annotation("Mapping[str, Any] | None", PB2)
    assert spell(mapping) == "Mapping[str, Any] | None"
    assert {i for i in spell.imports if i.module in ("typing", "collections.abc")} == {
        Import("collections.abc", "Mapping"), Import("typing", "Any")}
    unknown = typeref.parse_annotation("acme.Thing", PB2)
    assert unknown == Type(Sym("verbatim", "", "acme.Thing"))


def test_import_blocks_are_laid_out_as_isort_does() -> None:
    block = typeref.import_block([
        Statement("pkg", (("runtime", "_runtime"),)),
        Statement("pkg", (("_specs", "_specs"),), comment="registers the specs", noqa="F401"),
        Statement("pkg", (("hooks", None),)),
        Statement("pkg", (("thing_pb2", None),)),
        Statement("google.protobuf", (("message", "_message"),)),
        Statement("typing", (("cast", None),)),
        Statement("typing", (("TYPE_CHECKING", None),)),
        Statement("__future__", (("annotations", None),)),
        Statement("builtins", alias="_builtins"),
    ], "pkg")
    assert block == (
        "from __future__ import annotations\n\n"
        "import builtins as _builtins\nfrom typing import TYPE_CHECKING, cast\n\n"
        "from google.protobuf import message as _message\n\n"
        "# registers the specs\nfrom pkg import _specs as _specs  # noqa: F401\n"
        "from pkg import hooks, thing_pb2\nfrom pkg import runtime as _runtime"
    )


def test_a_docs_type_is_its_signatures_type() -> None:
    """build_strategy's getter returns the protobuf message (an annotation
    override): its docs say so (they said BuildStrategyDict)."""
    source = (ROOT / "generated" / "fleet_strategy" / "distributed_strategy.py").read_text()
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "DistributedStrategy")
    getter = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "build_strategy" and n.returns)
    assert ast.unparse(getter.returns) == "distributed_strategy_pb2.BuildStrategy"  # type: ignore[arg-type]
    assert "Type:\n    ``BuildStrategy``" in (ast.get_docstring(getter) or "")


def test_json_like_well_known_types_take_every_json_like_value() -> None:
    """A Value field's setter type names every JSON-like value the runtime
    sets it from (_runtime_configs._fill_value), a ListValue's a sequence
    (its extend()); both still take the message and a dict."""
    for name, extra in (
        ("Value", "Sequence[Any] | bool | int | float | str | None"),
        ("ListValue", "Sequence[Any]"),
        ("Struct", ""),  # a dict: the Mapping already
    ):
        full = f"google.protobuf.{name}"
        ref = TypeRef(kind="message", proto="message", full_name=full, local=full, pb2=Sym("pb2", "struct_pb2", name))
        code = Spelling("code")
        expected = f"struct_pb2.{name} | Mapping[str, Any]" + (f" | {extra}" if extra else "")
        assert code(typeref.in_type(ref)) == expected
        assert code(typeref.out_type(ref)) == f"struct_pb2.{name}"
