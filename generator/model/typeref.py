"""Stage 4's type vocabulary: a field's type as a structure, rendered per audience.

A field's type is built once (``TypeRef``: kind, item/key/value, proto type,
the protobuf class or TypedDict it names). What each audience sees is a type
expression (``Type``) made from it: the dict view's key (``out_type``), what a
setter accepts (``in_type``), the pb2 stub's attribute and constructor keyword
(``stub_get``, ``stub_init``). A ``Spelling`` writes a type expression as one
module spells it (code, stub or docs) and records every name it used, so each
generated module imports exactly what it uses (``Imports``). Nothing re-parses
a spelled type: the docs' type is the signature's expression, spelled for docs.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Literal

import msgspec
from msgspec import field

from ..schema import naming
from ..schema.proto_facts import INT_BOUNDS, PY_SCALAR

# Where each name generated code uses comes from, and the private alias a
# stub (and a class body whose members shadow a builtin) binds it to: a field
# or message may be named int, property or Mapping. Stated here only.
BUILTINS_ALIAS = "_builtins"
STUB_ALIASES = {
    ("collections.abc", "Iterable"): "_Iterable",
    ("collections.abc", "Mapping"): "_Mapping",
    ("typing", "ClassVar"): "_ClassVar",
    ("typing", "Literal"): "_Literal",
    ("typing_extensions", "deprecated"): "_deprecated",
}
# protobuf modules a type names through: bound under these aliases everywhere
MODULE_ALIASES = {
    "google.protobuf.internal.containers": "_containers",
    "google.protobuf.descriptor": "_descriptor",
    "google.protobuf.message": "_message",
    "google.protobuf.internal.enum_type_wrapper": "_enum_type_wrapper",
    "google.protobuf.internal.extension_dict": "_extension_dict",
}
TYPING_NAMES = {
    "Mapping": "collections.abc",
    "Iterable": "collections.abc",
    "Sequence": "collections.abc",
    "Callable": "collections.abc",
    "Iterator": "collections.abc",
    "MutableMapping": "collections.abc",
    "Any": "typing",
    "Literal": "typing",
    "ClassVar": "typing",
    "TypedDict": "typing",
    "Union": "typing",
    "Optional": "typing",
    "Generic": "typing",
    "TypeVar": "typing",
}
_ALIAS_MODULES = {alias: module for module, alias in MODULE_ALIASES.items()}
# protobuf's containers, as an annotations file may name them (bare)
CONTAINER_NAMES = (
    "RepeatedCompositeFieldContainer",
    "RepeatedScalarFieldContainer",
    "MessageMap",
    "ScalarMap",
)


# Where a name a type expression uses comes from (Sym.origin).
SymOrigin = Literal["builtin", "typing", "module", "pb2", "types", "verbatim"]


class Sym(msgspec.Struct, frozen=True, order=True):
    """A name a type expression uses and where it comes from: ``origin`` is
    builtin, typing (``module``: typing or collections.abc), module (an
    attribute of an aliased protobuf module), pb2 (``module``: the pb2
    import's alias, ``name`` the class's path in it), types (the package's
    types module) or verbatim (printed as written, imports nothing)."""

    origin: SymOrigin
    module: str
    name: str


class Type(msgspec.Struct, frozen=True):
    """A type expression: ``sym`` subscripted by ``args``; a union when
    ``sym`` is None. ``detail`` is for the docs only: the proto type it holds
    (``int32``; ``enum X``; ``map string``; a well-known type's full name)."""

    sym: Sym | None
    args: tuple[Type, ...] = ()
    detail: str = ""


def builtin(name: str, detail: str = "") -> Type:
    return Type(Sym("builtin", "", name), detail=detail)


def typing_name(name: str, *args: Type) -> Type:
    return Type(Sym("typing", TYPING_NAMES[name], name), args)


def module_attr(module: str, name: str, *args: Type) -> Type:
    return Type(Sym("module", module, name), args)


def container(name: str, *args: Type) -> Type:
    return module_attr("google.protobuf.internal.containers", name, *args)


def union(*items: Type) -> Type:
    return Type(None, items)


NONE = Type(Sym("verbatim", "", "None"))
ELLIPSIS = Type(Sym("verbatim", "", "..."))


def sequence_of(item: Type) -> Type:
    """What a setter accepts for a repeated field: ``list[X] | tuple[X, ...]``."""
    return union(
        Type(Sym("builtin", "", "list"), (item,)),
        Type(Sym("builtin", "", "tuple"), (item, ELLIPSIS)),
    )


class TypeRef(msgspec.Struct, frozen=True, kw_only=True):
    """One field's type, built once (``model._Builder.field``).

    ``kind``: scalar, enum, message, list (``item``) or map (``key``, ``item``
    the value). A message or enum names its protobuf class (``pb2``); a
    message of a generated file its TypedDicts, an enum its ``Literal``."""

    kind: str
    proto: str  # the proto type: int32, string, ..., enum, message
    full_name: str = ""  # a message's or enum's
    local: str = ""  # its name in its file (the docs')
    pb2: Sym | None = None
    typed_dicts: tuple[str, str] | None = (
        None  # (XDict, XInput); None: a well-known type (no TypedDict)
    )
    literal: str | None = None  # an enum's XName
    item: TypeRef | None = None
    key: TypeRef | None = None

    @property
    def is_message(self) -> bool:
        return self.kind == "message"


def _doc_detail(ref: TypeRef) -> str:
    if ref.kind == "enum":
        return f"enum {ref.local}"
    if ref.kind == "message" and ref.typed_dicts is None:
        return ref.full_name
    return ref.proto


def scalar(ref: TypeRef) -> Type:
    return builtin(
        "int" if ref.kind == "enum" else PY_SCALAR[ref.proto], _doc_detail(ref)
    )


def _pb2(ref: TypeRef) -> Type:
    assert ref.pb2 is not None
    return Type(ref.pb2, detail=_doc_detail(ref))


def _types(name: str) -> Type:
    return Type(Sym("types", "", name))


def _map(key: Type, value: Type, ref: TypeRef, origin: Type) -> Type:
    assert ref.key is not None
    return Type(origin.sym, (key, value), detail=f"map {ref.key.proto}")


def out_type(ref: TypeRef) -> Type:
    """A key of the dict view: repeated fields as lists, local messages in
    lists as their ``XDict``, a singular message as its protobuf message."""
    if ref.kind == "map":
        assert ref.key is not None and ref.item is not None
        value = _pb2(ref.item) if ref.item.is_message else scalar(ref.item)
        return _map(scalar(ref.key), value, ref, builtin("dict"))
    if ref.kind == "list":
        assert ref.item is not None
        item = ref.item
        element = (
            _types(item.typed_dicts[0])
            if item.is_message and item.typed_dicts
            else (_pb2(item) if item.is_message else scalar(item))
        )
        return Type(Sym("builtin", "", "list"), (element,))
    return _pb2(ref) if ref.is_message else scalar(ref)


# What the runtime takes for the well-known types holding JSON-like values,
# besides the message and a dict (_runtime_configs._fill_json): a Value any
# JSON-like value, a ListValue a list (a Struct's dict is the Mapping already)
_JSON_LIKE = {
    "google.protobuf.Value": (
        typing_name("Sequence", typing_name("Any")),
        builtin("bool"),
        builtin("int"),
        builtin("float"),
        builtin("str"),
        NONE,
    ),
    "google.protobuf.ListValue": (typing_name("Sequence", typing_name("Any")),),
}


def _in_item(ref: TypeRef, config_dict: bool, wrapper: Type | None = None) -> Type:
    if wrapper is not None and ref.is_message:  # the class wrapping the message too
        return union(wrapper, *_in_item(ref, config_dict).args)
    if ref.is_message and ref.typed_dicts is None:
        return union(
            _pb2(ref),
            typing_name("Mapping", builtin("str"), typing_name("Any")),
            *_JSON_LIKE.get(ref.full_name or "", ()),
        )
    if ref.is_message:
        assert ref.typed_dicts is not None
        dicts = (
            (_types(ref.typed_dicts[1]), _types(ref.typed_dicts[0]))
            if config_dict
            else (_types(ref.typed_dicts[1]),)
        )
        return union(*dicts, _pb2(ref))
    if ref.kind == "enum":
        assert ref.literal is not None
        return union(builtin("int"), _types(ref.literal))
    return scalar(ref)


def in_type(
    ref: TypeRef, config_dict: bool = False, wrapper: Type | None = None
) -> Type:
    """What a setter accepts for the field: lists or tuples for repeated
    fields, a dict of its keys or the message for a message, an enum's names
    or numbers. ``config_dict``: a message also as its ``XDict`` (what the
    dict view returns, assigned back)."""
    if ref.kind == "map":
        assert ref.key is not None and ref.item is not None
        return Type(
            Sym("typing", "collections.abc", "Mapping"),
            (scalar(ref.key), _in_item(ref.item, config_dict, wrapper)),
        )
    if ref.kind == "list":
        assert ref.item is not None
        return sequence_of(_in_item(ref.item, config_dict, wrapper))
    return _in_item(ref, config_dict, wrapper)


def _stub_item(ref: TypeRef) -> Type:
    return (
        _pb2(ref)
        if ref.is_message
        else builtin("int" if ref.kind == "enum" else PY_SCALAR[ref.proto])
    )


def stub_get(ref: TypeRef) -> Type:
    """The pb2 stub's attribute: protobuf's own containers."""
    if ref.kind == "map":
        assert ref.key is not None and ref.item is not None
        name = "MessageMap" if ref.item.is_message else "ScalarMap"
        return container(name, _stub_item(ref.key), _stub_item(ref.item))
    if ref.kind == "list":
        assert ref.item is not None
        name = (
            "RepeatedCompositeFieldContainer"
            if ref.item.is_message
            else "RepeatedScalarFieldContainer"
        )
        return container(name, _stub_item(ref.item))
    return _stub_item(ref)


def stub_init(ref: TypeRef) -> Type:
    """The pb2 stub's constructor keyword."""
    if ref.kind == "map":
        assert ref.key is not None and ref.item is not None
        return union(
            typing_name("Mapping", _stub_item(ref.key), _stub_item(ref.item)), NONE
        )
    if ref.kind == "list":
        assert ref.item is not None
        return union(typing_name("Iterable", _stub_item(ref.item)), NONE)
    return union(_stub_item(ref), NONE)


# ------------------------------------------------------------------ spelling


class Import(msgspec.Struct, frozen=True):
    """One imported name: ``from module import name as alias`` (``name``
    None: ``import module as alias``). ``module`` "." + x is x inside the
    generated package; a pb2 import is named by its alias (``pb2``)."""

    module: str
    name: str | None = None
    alias: str | None = None
    pb2: str | None = None


class Spelling(msgspec.Struct):
    """How one module writes type expressions: ``style`` code (a generated
    module), stub (a pb2 stub: builtins and typing names under private
    aliases) or doc (what the docs show: protobuf's containers as list and
    dict, classes without their module, the proto type beside a scalar).
    Every name spelled is recorded in ``imports``."""

    style: str
    # the names the class body being written binds: a builtin, typing name
    # or alias among them is spelled through a free alias
    shadowed: frozenset[str] = frozenset()
    here: str | None = (
        None  # stub: the pb2 alias of the module stubbed (its classes bare)
    )
    in_types: bool = False  # the package's types module itself: its names are its own
    imports: set[Import] = field(default_factory=set)

    def __call__(self, t: Type) -> str:
        return self.doc(t) if self.style == "doc" else self.code(t)

    def code(self, t: Type) -> str:
        if t.sym is None:
            return " | ".join(self.code(a) for a in t.args)
        head = self.name(t.sym)
        return f"{head}[{', '.join(self.code(a) for a in t.args)}]" if t.args else head

    def name(self, sym: Sym) -> str:
        """``sym`` as this module writes it (recording its import)."""
        if sym.origin == "builtin":
            if self.style == "stub" or sym.name in self.shadowed:
                alias = self.free(BUILTINS_ALIAS)
                self.imports.add(Import("builtins", alias=alias))
                return f"{alias}.{sym.name}"
            return sym.name
        if sym.origin == "typing":
            bound = None
            if self.style == "stub" or sym.name in self.shadowed:
                bound = self.free(
                    STUB_ALIASES.get((sym.module, sym.name), f"_{sym.name}")
                )
            self.imports.add(Import(sym.module, sym.name, bound))
            return bound or sym.name
        if sym.origin == "module":
            alias = self.free(MODULE_ALIASES[sym.module])
            package, _, module = sym.module.rpartition(".")
            self.imports.add(Import(package, module, alias))
            return f"{alias}.{sym.name}"
        if sym.origin == "pb2":
            if sym.module == self.here:
                return sym.name
            self.imports.add(Import("", pb2=sym.module))
            return f"{sym.module}.{sym.name}"
        if sym.origin == "types" and not self.in_types:
            self.imports.add(Import(".types", sym.name))
        return sym.name

    def free(self, alias: str) -> str:
        """``alias``, with a trailing underscore while a member of the class
        body being written is named so (a field may be named ``_message``)."""
        while alias in self.shadowed:
            alias += "_"
        return alias

    def doc(self, t: Type) -> str:
        if t.sym is None:
            return " | ".join(self.doc(a) for a in t.args)
        sym, args = t.sym, [self.doc(a) for a in t.args]
        if t.detail.startswith("map "):
            return f"map<{t.detail[4:]}, {args[1]}>"
        if sym.origin == "module" and sym.name.startswith("Repeated"):
            return f"list[{args[0]}]"
        if sym.origin == "module" and sym.name.endswith("Map"):
            return f"dict[{', '.join(args)}]"
        head = sym.name.rsplit(".", 1)[-1] if sym.origin == "module" else sym.name
        if args:
            return f"{head}[{', '.join(args)}]"
        return _doc_name(head, t.detail)


def _doc_name(head: str, detail: str) -> str:
    """A name as the docs show it: an enum by its name, a well-known type by
    its full name, a number beside the proto type that bounds it."""
    if detail.startswith("enum "):
        return f"{detail[5:]} (enum)"
    if "." in detail:  # a well-known type's full name
        return detail
    if detail == "float":
        return f"{head} (float32)"
    if detail in INT_BOUNDS:
        return f"{head} ({detail})"
    return head


# ------------------------------------------------ type text of the annotations


def parse_annotation(text: str, names: Mapping[str, Sym]) -> Type:
    """A type expression of the annotations (grammar-checked when they were
    read) as a ``Type``: each name resolved through ``names`` (the package's
    types and pb2 modules), protobuf's containers, the typing and
    collections.abc names (``TYPING_NAMES``), the protobuf module aliases or
    the builtins; any other name is kept as written."""
    return _from_ast(ast.parse(text, mode="eval").body, names)


def _from_ast(node: ast.expr, names: Mapping[str, Sym]) -> Type:
    if isinstance(node, ast.BinOp):
        left, right = _from_ast(node.left, names), _from_ast(node.right, names)
        return union(
            *(left.args if left.sym is None else (left,)),
            *(right.args if right.sym is None else (right,)),
        )
    if isinstance(node, ast.Subscript):
        head = _from_ast(node.value, names)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return Type(head.sym, tuple(_from_ast(item, names) for item in items))
    dotted = ast.unparse(node)
    if isinstance(node, ast.Constant) and node.value is None:
        return NONE
    first, _, rest = dotted.partition(".")
    if first in names and (not rest or names[first].origin == "pb2"):
        sym = names[first]
        return Type(
            Sym(
                sym.origin,
                sym.module,
                f"{sym.name}.{rest}" if rest and sym.name else rest or sym.name,
            )
        )
    if first in _ALIAS_MODULES and rest:
        return Type(Sym("module", _ALIAS_MODULES[first], rest))
    if not rest and first in CONTAINER_NAMES:
        return Type(Sym("module", "google.protobuf.internal.containers", first))
    if not rest and first in TYPING_NAMES:
        return Type(Sym("typing", TYPING_NAMES[first], first))
    if not rest and first in naming.BUILTIN_NAMES:
        return builtin(first)
    return Type(Sym("verbatim", "", dotted))


# --------------------------------------------------------------- import blocks


class Statement(msgspec.Struct, frozen=True):
    """An import statement of a generated module as printed: ``comment``
    (without ``#``) on the line above it (statements sharing a comment: above
    the first of them), ``noqa`` after it."""

    module: str
    names: tuple[
        tuple[str, str | None], ...
    ] = ()  # (name, alias); () for ``import module``
    alias: str | None = None  # ``import module as alias``
    comment: str | None = None
    noqa: str | None = None
    exploded: bool = False  # one name a line (a magic trailing comma)


def _natural(text: str) -> tuple[object, ...]:
    return tuple(
        int(part) if part.isdigit() else part
        for part in re.split(r"(\d+)", text.lower())
    )


def _member_key(name: str) -> tuple[object, ...]:
    """isort's order of imported names (ruff's default ``order-by-type``):
    constants, then classes, then the rest; each case-insensitively."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return (kind, _natural(name), name)


def _section(module: str, first_party: str) -> int:
    top = module.split(".")[0]
    if top == "__future__":
        return 0
    if top in sys.stdlib_module_names:
        return 1
    return 3 if top == first_party else 2


def import_block(statements: Iterable[Statement], first_party: str) -> str:
    """The statements as isort (ruff's I001 defaults) lays them out: future,
    standard library, third-party and first-party sections, one blank line
    between them; ``import x`` before ``from x import``, modules and names in
    isort's order. Names from one module share a statement unless aliased."""
    merged: dict[
        tuple[str, str | None, str | None, str | None], list[tuple[str, str | None]]
    ] = {}
    singles: list[Statement] = []
    for s in statements:
        if not s.names or s.comment or s.noqa or s.exploded:
            singles.append(
                msgspec.structs.replace(
                    s, names=tuple(sorted(s.names, key=lambda n: _member_key(n[0])))
                )
            )
            continue
        for name, alias in s.names:
            if alias is None:
                merged.setdefault((s.module, None, None, None), []).append((name, None))
            else:
                singles.append(Statement(s.module, ((name, alias),)))
    combined = singles + [
        Statement(module, tuple(sorted(set(names), key=lambda n: _member_key(n[0]))))
        for (module, *_), names in merged.items()
    ]
    unique = {(s.module, s.names, s.alias): s for s in combined}
    sections: dict[int, list[Statement]] = {}
    for s in unique.values():
        sections.setdefault(_section(s.module, first_party), []).append(s)
    blocks = []
    said: set[str] = set()
    for number in sorted(sections):
        ordered = sorted(
            sections[number],
            key=lambda s: (
                bool(s.names),
                _natural(s.module),
                s.module,
                _member_key(s.names[0][0]) if s.names else (),
                s.names[0][1] or "" if s.names else "",
            ),
        )
        # a comment inside a section follows a blank line (as isort leaves it)
        blocks.append(
            "\n".join(
                ("\n" if i and text.startswith("#") else "") + text
                for i, s in enumerate(ordered)
                for text in [_statement_text(s, said)]
            )
        )
    return "\n\n".join(blocks)


def _statement_text(s: Statement, said: set[str]) -> str:
    above = f"# {s.comment}\n" if s.comment and s.comment not in said else ""
    if s.comment:
        said.add(s.comment)
    after = f"  # noqa: {s.noqa}" if s.noqa else ""
    if not s.names:
        return f"{above}import {s.module}{f' as {s.alias}' if s.alias else ''}{after}"
    names = [f"{n} as {a}" if a else n for n, a in s.names]
    if s.exploded:
        return (
            f"{above}from {s.module} import (\n"
            + "".join(f"    {n},\n" for n in names)
            + f"){after}"
        )
    return f"{above}from {s.module} import {', '.join(names)}{after}"


def statements(
    imports: Iterable[Import], package: str, pb2_records: Mapping[str, tuple[str, str]]
) -> list[Statement]:
    """Recorded imports as statements of a module of ``package``;
    ``pb2_records``: pb2 alias -> (package it comes from, module name)."""
    out = []
    for imp in imports:
        if imp.pb2 is not None:
            source, module = pb2_records[imp.pb2]
            out.append(
                Statement(source, ((module, imp.pb2 if imp.pb2 != module else None),))
            )
            continue
        module = f"{package}{imp.module}" if imp.module.startswith(".") else imp.module
        out.append(
            Statement(module, ((imp.name, imp.alias),))
            if imp.name
            else Statement(module, alias=imp.alias)
        )
    return out
