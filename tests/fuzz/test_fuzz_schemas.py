"""Issue 6: random valid schemas, hostile text and hostile names through the whole generator.

1. Hypothesis builds small random proto2/proto3 schemas as .proto *text*
   (nested messages, every scalar type, declared defaults including the
   extremes, enums with aliases, repeated, maps, oneofs, proto3 ``optional``,
   a second file importing the first, maybe from a folder (imported by
   path, -I) and maybe with the first's type names in its own package,
   comments holding anything; proto2 messages with extension ranges and
   ``extend`` blocks at file level and inside messages; in
   ``test_well_known_types`` fields of well-known types, singular, repeated,
   in oneofs and as map values). Each one is
   generated, imported and checked: every field is reachable through its
   property (or its protobuf message), getters return the declared/zero
   defaults (float32-rounded), valid values round-trip through the setters
   (compatible and strict mode; sub-messages given as dicts or as message
   instances, empty ones often: presence is asserted through HasField,
   WhichOneof, lengths and map keys; well-known types given as dicts/lists or
   standard instances and read back as equal standard instances), every
   extension is exposed as protoc's module exposes it (module or class
   attribute and ``<NAME>_FIELD_NUMBER``, nothing else) and its values
   survive the wire and text formats, the message survives a text-format and
   a wire round trip, and generating again gives byte-identical files.
2. ``hostile/``: comments and annotation docs full of quotes,
   backslashes, template syntax and non-ASCII land in docstrings and in the
   Markdown reference as data.
3. Field names that are keywords, dunders, private names or members of the
   wrapper class follow the renaming rule (trailing underscore); clashes the
   rule cannot solve are errors naming the field.

Profiles: ``fuzz-default`` (100 examples per test, 66 for two files, 50 for
well-known types, the same
ones on every run) unless ``HYPOTHESIS_PROFILE=long`` (1,000 examples per test,
freshly random each run).
They are applied per test, so the global hypothesis ``default`` is untouched.
"""

from __future__ import annotations

import ast
import difflib
import enum
import functools
import importlib
import keyword
import math
import os
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import any_pb2, duration_pb2, empty_pb2, struct_pb2, timestamp_pb2, wrappers_pb2
from google.protobuf import descriptor as pb_descriptor
from google.protobuf import text_format
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from generator.render import templates as gen_render
from generator.model.doctext import visible
from generator.errors import GeneratorError
from generator.options import Options
from generator.pipeline import build
from tests.support import ROOT, generate, import_generated, unique_package

FIXTURES = Path(__file__).resolve().parent / "hostile"

# On a 2-core machine each example costs a generation and black checking
# that the generated modules are as it would format them.
# The default profile is derandomized: the test suite (and CI) draws the same
# examples on every run, so a red run always means a change broke something.
# Exploration is the `long` profile's job: ten times the examples, a new
# random seed each run (HYPOTHESIS_PROFILE=long).
settings.register_profile(
    "fuzz-default",
    max_examples=100,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ = settings.get_profile("long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "fuzz-default")
# the quick test tier (tests/conftest.py) draws fewer of the same derandomized examples
if os.environ.get("FLEET_FUZZ_EXAMPLES"):
    FUZZ = settings(FUZZ, max_examples=int(os.environ["FLEET_FUZZ_EXAMPLES"]))

# ====================================================================== rules
# Written out again on purpose (not imported from generator.model/schema): the
# expected values of a test must not come from the code under test.

INT_RANGE = {
    "int32": (-(2**31), 2**31 - 1),
    "sint32": (-(2**31), 2**31 - 1),
    "sfixed32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "fixed32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "sint64": (-(2**63), 2**63 - 1),
    "sfixed64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1),
    "fixed64": (0, 2**64 - 1),
}
SCALARS = [*INT_RANGE, "float", "double", "bool", "string", "bytes"]
MAP_KEYS = [*INT_RANGE, "bool", "string"]
ZERO: dict[str, Any] = {**{t: 0 for t in INT_RANGE}, "float": 0.0, "double": 0.0, "bool": False, "string": "", "bytes": b""}
FLT_MAX = 3.4028234663852886e38
FLT_MIN = 1.1754943508222875e-38  # smallest normal float32
DBL_MIN = 2.2250738585072014e-308

# The documented renaming rule (generator/schema/naming.py, README): a keyword, a
# dunder or private ``__name``, a name the class body uses or a member every
# wrapper has gets a trailing underscore, repeated until it is free.
CLASS_BODY = {"property", "staticmethod", "classmethod", "super", "object", "self"}
WRAPPER = {"strict", "_strict", "__slots__", "__init__", "__setattr__", "__repr__", "__eq__",
           "_set", "_direct", "_renamed", "_message", "_binding", "_lock", "_mutex", "__getstate__", "__setstate__",
           "__copy__", "__deepcopy__"}

# Field names item 3 asks about, plus a few more that break naive codegen.
HOSTILE_NAMES = [
    "class", "def", "lambda", "None", "True", "type", "property", "__init__", "strategy", "message",
    "save_to_prototxt", "keys", "strict", "self", "import", "from", "__priv", "_strict", "object", "_set", "_message",
    "_lock", "_mutex",
]


# Well-known types a random schema may use (protobuf's standard classes: the
# generated package must take and give exactly these).
WKT: dict[str, tuple[str, Any]] = {
    "google.protobuf.Timestamp": ("google/protobuf/timestamp.proto", timestamp_pb2.Timestamp),
    "google.protobuf.Duration": ("google/protobuf/duration.proto", duration_pb2.Duration),
    "google.protobuf.Int64Value": ("google/protobuf/wrappers.proto", wrappers_pb2.Int64Value),
    "google.protobuf.StringValue": ("google/protobuf/wrappers.proto", wrappers_pb2.StringValue),
    "google.protobuf.DoubleValue": ("google/protobuf/wrappers.proto", wrappers_pb2.DoubleValue),
    "google.protobuf.BytesValue": ("google/protobuf/wrappers.proto", wrappers_pb2.BytesValue),
    "google.protobuf.Struct": ("google/protobuf/struct.proto", struct_pb2.Struct),
    "google.protobuf.Value": ("google/protobuf/struct.proto", struct_pb2.Value),
    "google.protobuf.ListValue": ("google/protobuf/struct.proto", struct_pb2.ListValue),
    "google.protobuf.Empty": ("google/protobuf/empty.proto", empty_pb2.Empty),
    "google.protobuf.Any": ("google/protobuf/any.proto", any_pb2.Any),
}


def expected_property(name: str, reserved: set[str] | frozenset[str] = frozenset({"message"})) -> str:
    while (
        keyword.iskeyword(name)
        or (name.startswith("__") and not name.endswith("___"))
        or name in CLASS_BODY
        or name in WRAPPER
        or name in reserved
    ):
        name += "_"
    return name


def float32(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def same(a: Any, b: Any) -> bool:
    """Equality that treats NaN as equal to NaN and tells -0.0 from 0.0; an
    enum member read (``a``) equals its number."""
    if isinstance(a, enum.IntEnum) and type(b) is int:
        return int(a) == b
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return struct.pack("<d", a) == struct.pack("<d", b)
    return type(a) is type(b) and a == b


def norm(text: str) -> str:
    """A text as the docs show it: hidden characters as their escapes
    (doctext.visible, issue 28.9), whitespace as single spaces (the text's
    outer whitespace, U+2028 and the like too, is dropped on reading, as
    schema._comment_text does; inside it, a line keeps what it holds)."""
    return " ".join(visible(text.strip()).split())


# ============================================================ schema model


@dataclass(repr=False)
class EnumDef:
    name: str
    full: str  # "fz.a.M0.E1"
    values: list[tuple[str, int]]
    alias: bool
    proto3: bool
    comment: list[str]

    def __repr__(self) -> str:
        return f"<enum {self.full}>"


@dataclass(repr=False)
class FieldDef:
    name: str
    number: int
    kind: str  # scalar | enum | message | wkt (a well-known type) | map
    type: str  # scalar type, or full name of the enum/message/well-known type (map: value type)
    label: str  # "optional" | "repeated" | "" (proto3 implicit or oneof member)
    oneof: str | None = None
    default_text: str | None = None  # as written in the .proto
    default: Any = None  # what a fresh message returns (singular scalar/enum)
    key_type: str | None = None  # map key
    value_kind: str | None = None  # map value: scalar | enum | message | wkt
    comment: list[str] = field(default_factory=list)
    trailing: str | None = None

    def __repr__(self) -> str:
        return f"<field {self.name}>"


@dataclass(repr=False)
class MessageDef:
    name: str
    full: str
    fields: list[FieldDef] = field(default_factory=list)
    nested: list[MessageDef] = field(default_factory=list)
    enums: list[EnumDef] = field(default_factory=list)
    oneofs: list[str] = field(default_factory=list)
    comment: list[str] = field(default_factory=list)
    extendable: bool = False  # declares ``extensions 1000 to 1999;`` (proto2)
    extensions: list[ExtDef] = field(default_factory=list)  # ``extend`` blocks in its body

    def __repr__(self) -> str:
        return f"<message {self.full}>"


@dataclass(repr=False)
class ExtDef:
    """A proto2 extension: ``extend <extendee> { <label> <type> <name> = <number>; }``."""
    name: str
    full: str  # scope (package or message) + name
    number: int
    extendee: str  # full name of the extended message
    kind: str  # scalar | enum | message
    type: str
    label: str  # optional | repeated

    def __repr__(self) -> str:
        return f"<extension {self.full}>"


@dataclass(repr=False)
class FileDef:
    name: str
    syntax: str
    package: str
    imports: list[str]
    messages: list[MessageDef]
    enums: list[EnumDef]
    comment: list[str]
    extensions: list[ExtDef] = field(default_factory=list)  # file-level ``extend`` blocks

    def __repr__(self) -> str:
        return f"<file {self.name}>"


@dataclass(repr=False)
class Schema:
    files: list[FileDef]
    messages: dict[str, MessageDef]  # full name -> message (all files, nested too)
    enums: dict[str, EnumDef]
    file_of: dict[str, FileDef]  # full name of a message -> its file

    def __repr__(self) -> str:  # failing examples print as the .proto text
        return "Schema(" + "".join(f"\n--- {d.name}\n{proto_text(d)}" for d in self.files) + ")"

    def flat(self, full: str) -> str:
        """The base of a type's Python names (README, "Module layout and equal
        names"): its name inside its package, dots as underscores; where two
        packages have a type of that name, the full name instead."""
        def local(name: str) -> str:
            package = next(d.package for d in self.files if name.startswith(d.package + "."))
            return name[len(package) + 1:].replace(".", "_")

        names = [local(x) for x in (*self.messages, *self.enums)]
        return full.replace(".", "_") if names.count(local(full)) > 1 else local(full)

    def wrapped(self) -> list[MessageDef]:
        """Messages that get a wrapper class without annotations: every one,
        nested and used ones too (issue 19; map entries are no MessageDef)."""
        return list(self.messages.values())


# ============================================================= strategies

# Comment text: anything a // comment can hold (no newline; no NUL, which
# protoc rejects in source), weighted towards what breaks code generators.
HOSTILE_SNIPPETS = [
    '"""', "'''", '"', "'", "\\", "\\\\", "{{ 7 * 191 }}", "{%- if true %}", "{% endif -%}", "{# gone #}",
    "{% raw %}", "${HOME}", "%(name)s", "{field}", "`code`", "|", "*/", "/*", "é", "中文", "😀", "\u202e",
    "\u2028", "\x85", "\t", "\x0c", "\x1b", "\x7f", "\ufeff", "#", "-->", "<!--", "# noqa", "\\n", "\\x00",
    "x" * 120, "word " * 30, "Ends with a dot. Then more", "r'''", 'b"""', "\\N{BULLET}",
]
comment_text = st.lists(
    st.one_of(
        st.sampled_from(HOSTILE_SNIPPETS),
        st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r\x00"), max_size=12),
    ),
    max_size=4,
).map("".join)
comment_lines = st.lists(comment_text, max_size=2)

plain_field_name = st.from_regex(r"[a-z][a-z0-9]{0,5}", fullmatch=True)
field_name = st.one_of(plain_field_name, plain_field_name, plain_field_name, st.sampled_from(HOSTILE_NAMES))


def quote_string(value: str, draw: Any) -> str:
    """A proto string literal for ``value``, mixing raw UTF-8 and escapes."""
    out = []
    for ch in value:
        code = ord(ch)
        style = draw(st.integers(0, 2))
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\{code:03o}" if style else f"\\x{code:02x}")
        elif code < 0x80:
            out.append(f"\\x{code:02x}" if style == 2 else ch)
        elif style == 0:
            out.append(ch)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def quote_bytes(value: bytes, draw: Any) -> str:
    out = []
    for byte in value:
        style = draw(st.integers(0, 2))
        if byte in (0x22, 0x5C):
            out.append("\\" + chr(byte))
        elif 0x20 <= byte < 0x7F and style == 0:
            out.append(chr(byte))
        else:
            out.append(f"\\{byte:03o}" if style == 1 else f"\\x{byte:02x}")
    return '"' + "".join(out) + '"'


@st.composite
def declared_default(draw: Any, ftype: str) -> tuple[str, Any]:
    """(literal for ``[default = ...]``, the value a fresh message returns)."""
    if ftype in INT_RANGE:
        low, high = INT_RANGE[ftype]
        value = draw(st.one_of(st.sampled_from([low, high, 0, -1 if low else 1]), st.integers(low, high)))
        if value >= 0 and draw(st.booleans()):
            text = hex(value)
        elif value < 0 and draw(st.booleans()):
            text = "-" + hex(-value)
        else:
            text = str(value)
        return text, value
    if ftype == "bool":
        value = draw(st.booleans())
        return ("true" if value else "false"), value
    if ftype in ("float", "double"):
        special = st.sampled_from(["inf", "-inf", "nan", "-nan", "0", "-0.0", "1e39", "-1e39", "1e-46", "0.1", "1e308",
                                   "3.4028234663852886e38", "1.1754943508222875e-38", "2.2250738585072014e-308"])
        # protobuf cannot load subnormal defaults (test_subnormal_default_is_an_error)
        if ftype == "float":
            drawn = st.floats(width=32).filter(lambda v: not 0 < abs(v) < FLT_MIN).map(repr)
        else:
            drawn = st.floats().filter(lambda v: not 0 < abs(v) < DBL_MIN).map(repr)
        text = draw(st.one_of(special, drawn))
        value = float(text)
        return text, (float32(value) if ftype == "float" else value)
    if ftype == "string":
        value = draw(st.one_of(
            st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
            st.sampled_from(['"""', "'''", "\\", 'tail\\', "{{ x }}", "{% if %}", "é中😀", "\x00"]),
        ))
        return quote_string(value, draw), value
    value = draw(st.binary(max_size=8))
    return quote_bytes(value, draw), value


class _Names:
    """Counters for type names, unique within a schema."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.messages = 0
        self.enums = 0

    def message(self) -> str:
        self.messages += 1
        return f"{self.prefix}{self.messages - 1}"

    def enum(self) -> str:
        self.enums += 1
        return f"{self.prefix}E{self.enums - 1}"


@st.composite
def enum_def(draw: Any, name: str, scope: str, proto3: bool) -> EnumDef:
    count = draw(st.integers(1, 3))
    numbers = draw(st.lists(st.integers(-(2**31), 2**31 - 1), min_size=count, max_size=count, unique=True))
    if proto3 or draw(st.booleans()):  # proto3, and enums used as map values, start at 0
        numbers = [0] + [n for n in numbers if n != 0][: count - 1]
    values = [(f"{name}_V{i}", n) for i, n in enumerate(numbers)]
    alias = draw(st.booleans())
    if alias:
        values.append((f"{name}_ALIAS", draw(st.sampled_from(numbers))))
    return EnumDef(name=name, full=f"{scope}.{name}", values=values, alias=alias, proto3=proto3, comment=draw(comment_lines))


@st.composite
def skeleton(draw: Any, names: _Names, scope: str, proto3: bool, depth: int) -> MessageDef:
    name = names.message()
    message = MessageDef(name=name, full=f"{scope}.{name}", comment=draw(comment_lines))
    if depth < 2:
        for _ in range(draw(st.integers(0, 1))):
            message.nested.append(draw(skeleton(names, message.full, proto3, depth + 1)))
    for _ in range(draw(st.integers(0, 1))):
        message.enums.append(draw(enum_def(names.enum(), message.full, proto3)))
    return message


def walk(messages: list[MessageDef]):
    for m in messages:
        yield m
        yield from walk(m.nested)


@st.composite
def value_type(draw: Any, proto3: bool, enums: list[EnumDef], messages: list[MessageDef], map_value: bool = False,
               wkt: bool = False) -> tuple[str, str]:
    """(kind, type) of a singular/repeated field or a map value."""
    usable_enums = [e for e in enums if (e.proto3 or not proto3) and (e.values[0][1] == 0 or not map_value)]
    # (proto3 cannot use closed enums; a map value enum must start at 0)
    choices = ["scalar"] * 4 + (["enum"] if usable_enums else []) + (["message"] if messages else []) + ["wkt"] * 8 * wkt
    kind = draw(st.sampled_from(choices))
    if kind == "scalar":
        return kind, draw(st.sampled_from(SCALARS))
    if kind == "wkt":
        return kind, draw(st.sampled_from(sorted(WKT)))
    if kind == "enum":
        return kind, draw(st.sampled_from(usable_enums)).full
    return kind, draw(st.sampled_from(messages)).full


@st.composite
def fill_fields(draw: Any, message: MessageDef, proto3: bool, enums: list[EnumDef], messages: list[MessageDef],
                enum_by_name: dict[str, EnumDef], wkt: bool = False) -> None:
    count = draw(st.integers(2 if wkt else 0, 4))
    # unique after renaming, and unique ignoring case and underscores (proto3
    # rejects fields whose JSON names collide)
    chosen = draw(st.lists(field_name, min_size=count, max_size=count,
                           unique_by=(expected_property, lambda n: n.lower().replace("_", ""))))
    # (1000-1999: the extension range of an extendable message)
    numbers = sorted(draw(st.lists(st.integers(1, 18999).filter(lambda n: not 1000 <= n <= 1999), min_size=count,
                                   max_size=count, unique=True)))
    oneof_members = draw(st.integers(0, min(3, count))) if count else 0
    oneof_start = count - oneof_members
    if oneof_members:
        message.oneofs.append("choice")  # never a field name: the regex allows 6 characters
    for i, (name, number) in enumerate(zip(chosen, numbers)):
        in_oneof = i >= oneof_start
        shape = "single" if in_oneof else draw(st.sampled_from(["single", "single", "repeated", "map"]))
        f = FieldDef(name=name, number=number, kind="scalar", type="", label="", comment=draw(comment_lines),
                     trailing=draw(st.none() | comment_text))
        if shape == "map":
            f.kind = "map"
            f.key_type = draw(st.sampled_from(MAP_KEYS))
            f.value_kind, f.type = draw(value_type(proto3, enums, messages, map_value=True, wkt=wkt))
            f.label = "repeated"
        else:
            f.kind, f.type = draw(value_type(proto3, enums, messages, wkt=wkt))
            if in_oneof:
                f.oneof = "choice"
            elif shape == "repeated":
                f.label = "repeated"
            elif not proto3 or draw(st.booleans()):
                f.label = "optional"
            if shape == "single" and f.kind in ("scalar", "enum"):
                enum = enum_by_name.get(f.type)
                if not proto3 and draw(st.booleans()):
                    if f.kind == "enum":
                        f.default_text = draw(st.sampled_from([n for n, _ in enum.values]))
                        f.default = dict(enum.values)[f.default_text]
                    else:
                        f.default_text, f.default = draw(declared_default(f.type))
                else:
                    f.default = enum.values[0][1] if f.kind == "enum" else ZERO[f.type]
        message.fields.append(f)


@st.composite
def schemas(draw: Any, syntaxes: tuple[str, ...], files: int = 1, wkt: bool = False, extensions: bool = False) -> Schema:
    """``wkt``: fields may have well-known types; ``extensions``: proto2 messages
    may declare extension ranges, and proto2 files extend them (at file level
    and inside messages)."""
    defs: list[FileDef] = []
    all_enums: list[EnumDef] = []
    all_messages: list[MessageDef] = []
    for index in range(files):
        syntax = draw(st.sampled_from(syntaxes))
        proto3 = syntax == "proto3"
        letter = "ab"[index]
        package = draw(st.sampled_from([f"fz.{letter}", f"fz_{letter}.deep.pkg"]))
        # the second file: maybe the first's type names (in its own package), maybe in a folder (imported by path, -I)
        names = _Names("M" if index == 0 or draw(st.booleans()) else "B")
        folder = draw(st.sampled_from(["", "sub/v1/"])) if index else ""
        top_enums = [draw(enum_def(names.enum(), package, proto3)) for _ in range(draw(st.integers(0, 2)))]
        messages = [draw(skeleton(names, package, proto3, 0)) for _ in range(draw(st.integers(1, 4 - files)))]
        defs.append(FileDef(name=f"{folder}fz_{letter}.proto", syntax=syntax, package=package,
                            imports=[d.name for d in defs], messages=messages, enums=top_enums,
                            comment=draw(comment_lines)))
        file_enums = top_enums + [e for m in walk(messages) for e in m.enums]
        all_enums += file_enums
        all_messages += list(walk(messages))
    enum_by_name = {e.full: e for e in all_enums}
    file_of = {}
    for d in defs:
        own = list(walk(d.messages))
        visible_messages = [m for m in all_messages if m in own or any(m in walk(o.messages) for o in defs[: defs.index(d)])]
        visible_enums = [e for e in all_enums if e.full.startswith(d.package + ".") or any(
            e.full.startswith(o.package + ".") for o in defs[: defs.index(d)])]
        for m in own:
            file_of[m.full] = d
            draw(fill_fields(m, d.syntax == "proto3", visible_enums, visible_messages, enum_by_name, wkt))
            m.extendable = extensions and d.syntax == "proto2" and draw(st.booleans())
    if extensions:
        count = 0
        for d in defs:
            own = list(walk(d.messages))
            visible = [m for m in all_messages if m in own or any(m in walk(o.messages) for o in defs[: defs.index(d)])]
            extendable = [m for m in visible if m.extendable]
            if d.syntax != "proto2" or not extendable:
                continue
            visible_enums = [e for e in all_enums if e.full.startswith(d.package + ".") or any(
                e.full.startswith(o.package + ".") for o in defs[: defs.index(d)])]
            for _ in range(draw(st.integers(0, 3))):
                scope = draw(st.sampled_from([None, *own]))
                kind, type_ = draw(value_type(False, visible_enums, visible))
                name = f"ext_{count}"
                ext = ExtDef(name=name, full=f"{scope.full if scope else d.package}.{name}", number=1000 + count,
                             extendee=draw(st.sampled_from(extendable)).full, kind=kind, type=type_,
                             label=draw(st.sampled_from(["optional", "repeated"])))
                count += 1
                (scope.extensions if scope else d.extensions).append(ext)
    return Schema(files=defs, messages={m.full: m for m in all_messages}, enums=enum_by_name, file_of=file_of)


# ============================================================== .proto text


def _comment(lines: list[str], indent: str) -> str:
    return "".join(f"{indent}//{line}\n" for line in lines)


def _type_ref(kind: str, type_: str) -> str:
    return type_ if kind == "scalar" else "." + type_


def _field_line(f: FieldDef, indent: str) -> str:
    if f.kind == "map":
        decl = f"map<{f.key_type}, {_type_ref(f.value_kind, f.type)}> {f.name} = {f.number}"
    else:
        label = f"{f.label} " if f.label else ""
        decl = f"{label}{_type_ref(f.kind, f.type)} {f.name} = {f.number}"
    if f.default_text is not None:
        decl += f" [default = {f.default_text}]"
    trailing = f" //{f.trailing}" if f.trailing is not None else ""
    return _comment(f.comment, indent) + f"{indent}{decl};{trailing}\n"


def _enum_text(e: EnumDef, indent: str) -> str:
    body = f"{indent}  option allow_alias = true;\n" if e.alias else ""
    body += "".join(f"{indent}  {name} = {number};\n" for name, number in e.values)
    return _comment(e.comment, indent) + f"{indent}enum {e.name} {{\n{body}{indent}}}\n"


def _message_text(m: MessageDef, indent: str = "") -> str:
    inner = indent + "  "
    body = "".join(_message_text(n, inner) for n in m.nested)
    body += "".join(_enum_text(e, inner) for e in m.enums)
    body += "".join(_field_line(f, inner) for f in m.fields if f.oneof is None)
    members = [f for f in m.fields if f.oneof is not None]
    if members:
        body += f"{inner}oneof choice {{\n" + "".join(_field_line(f, inner + "  ") for f in members) + f"{inner}}}\n"
    if m.extendable:
        body += f"{inner}extensions 1000 to 1999;\n"
    body += "".join(_extend_text(e, inner) for e in m.extensions)
    return _comment(m.comment, indent) + f"{indent}message {m.name} {{\n{body}{indent}}}\n"


def _extend_text(e: ExtDef, indent: str) -> str:
    return f"{indent}extend .{e.extendee} {{\n{indent}  {e.label} {_type_ref(e.kind, e.type)} {e.name} = {e.number};\n{indent}}}\n"


def proto_text(d: FileDef) -> str:
    used = {f.type for m in walk(d.messages) for f in m.fields if "wkt" in (f.kind, f.value_kind)}
    parts = [f'syntax = "{d.syntax}";\n', _comment(d.comment, ""), "\n", f"package {d.package};\n"]
    parts += [f'import "{name}";\n' for name in [*d.imports, *sorted({WKT[t][0] for t in used})]]
    parts += ["\n" + _enum_text(e, "") for e in d.enums]
    parts += ["\n" + _message_text(m) for m in d.messages]
    parts += ["\n" + _extend_text(e, "") for e in d.extensions]
    return "".join(parts)


# ======================================================= generation helpers


@pytest.fixture(scope="class")
def fast_pipeline(tmp_path_factory):
    """A generator cache of our own (not the user's: black's outputs for the
    pieces at risk are kept there), and one jinja Environment for all examples."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        mp.delenv("FLEET_CODEGEN_NO_CACHE", raising=False)
        if hasattr(gen_render, "environment"):  # a speed-up only: skipped if the stage changes shape
            mp.setattr(gen_render, "environment", functools.lru_cache(maxsize=None)(gen_render.environment))
        yield tmp_path_factory.mktemp("fuzz")


def generate_schema(work: Path, schema: Schema):
    """Write the .proto files, generate (twice: byte-identical), import."""
    package = unique_package("fz")
    folder = work / package
    folder.mkdir()
    for d in schema.files:
        (folder / d.name).parent.mkdir(parents=True, exist_ok=True)
        (folder / d.name).write_text(proto_text(d), encoding="utf-8")
    protos = [folder / d.name for d in schema.files]
    out = work / "out"
    try:
        _, result = generate(out, protos, None, package, proto_paths=(folder,))
    except GeneratorError as exc:
        texts = "\n".join(f"--- {d.name}\n{proto_text(d)}" for d in schema.files)
        raise AssertionError(f"generator rejected a valid schema: {exc}\n{texts}") from None
    again = build(Options(protos=tuple(protos), annotations=None, out=out, package=package, proto_paths=(folder,)))
    for relative, text in again.files.items():
        assert text == result.files.get(relative), f"generating twice gave a different {relative}:\n" + "".join(
            difflib.unified_diff(result.files.get(relative, "").splitlines(True), text.splitlines(True))
        )
    assert set(again.files) == set(result.files)
    for relative, text in result.files.items():
        assert (out / relative).read_text(encoding="utf-8") == text
    assert_black_conformant(result.files)
    return import_generated(out, package), package


# the same in every example, and held to black by tests/stages/test_format.py
_SCHEMA_INDEPENDENT = ("/_pool.py",)
# the runtime's modules, copied verbatim: .ci/run holds their source to black
_VERBATIM = "# A verbatim copy of fleet-strategy-codegen's runtime"


def assert_black_conformant(files: dict[str, str]) -> None:
    """black leaves every generated module as it is: the format stage wraps
    long lines as black would, and hands black whatever it cannot be sure of."""
    import black

    from generator.render.format import mode

    for relative, text in files.items():
        if relative.endswith(_SCHEMA_INDEPENDENT) or _VERBATIM in text[:400]:
            continue
        if relative.endswith((".py", ".pyi")):
            kind = "stub" if relative.endswith(".pyi") else "python"
            formatted = black.format_str(text, mode=mode(kind))
            assert formatted == text, f"black changes {relative}:\n" + "".join(
                difflib.unified_diff(text.splitlines(True), formatted.splitlines(True))
            )


_RELOCATED = iter(range(10**9))


def relocated(schema: Schema) -> Schema:
    """The same schema under proto paths and packages no other example uses.

    A package whose schema imports well-known types registers its files in
    protobuf's default pool (as protoc's modules do), where a file name or a
    type name can be defined once per process: each example gets its own."""
    import copy

    n = next(_RELOCATED)
    out = copy.deepcopy(schema)

    def move(name: str) -> str:
        return f"fz{n}{name[2:]}" if name.startswith(("fz.", "fz_")) else name

    def visit_message(m: MessageDef) -> None:
        m.full = move(m.full)
        for f in m.fields:
            f.type = move(f.type)
        for e in m.enums:
            e.full = move(e.full)
        for x in m.extensions:
            x.full, x.extendee, x.type = move(x.full), move(x.extendee), move(x.type)
        for nested in m.nested:
            visit_message(nested)

    for d in out.files:
        d.name, d.package = f"u{n}/{d.name}", move(d.package)
        d.imports = [f"u{n}/{name}" for name in d.imports]
        for e in d.enums:
            e.full = move(e.full)
        for x in d.extensions:
            x.full, x.extendee, x.type = move(x.full), move(x.extendee), move(x.type)
        for m in d.messages:
            visit_message(m)
    messages = [m for d in out.files for m in walk(d.messages)]
    enums = [e for d in out.files for e in d.enums] + [e for m in messages for e in m.enums]
    return Schema(files=out.files, messages={m.full: m for m in messages}, enums={e.full: e for e in enums},
                  file_of={m.full: d for d in out.files for m in walk(d.messages)})


def pb2_module(module: Any, d: FileDef) -> Any:
    return importlib.import_module(f"{module.__name__}.{d.name[:-6].replace('/', '.')}_pb2")


def pb2_class(module: Any, schema: Schema, full: str) -> Any:
    d = schema.file_of[full]
    pb2 = pb2_module(module, d)
    local = full[len(d.package) + 1:]
    node = pb2
    for part in local.split("."):
        node = getattr(node, part)
    return node


# ================================================================= checks


def default_of(f: FieldDef) -> Any:
    if f.kind == "map":
        return {}
    if f.label == "repeated":
        return []
    return f.default


@st.composite
def scalar_value(draw: Any, kind: str, type_: str, schema: Schema, strict: bool) -> tuple[Any, Any]:
    """(value to assign, value read back) for a valid value."""
    if kind == "wkt":
        return draw(wkt_value(type_))
    if kind == "enum":
        name, number = draw(st.sampled_from(schema.enums[type_].values))
        return (name if draw(st.booleans()) else number), number
    if type_ in INT_RANGE:
        value = draw(st.integers(*INT_RANGE[type_]))
        return value, value
    if type_ == "bool":
        value = draw(st.booleans())
        return value, value
    if type_ == "float":
        value = draw(st.floats(width=32, allow_nan=not strict, allow_infinity=not strict)
                     | st.floats(-FLT_MAX, FLT_MAX))
        return value, float32(value)
    if type_ == "double":
        value = draw(st.floats(allow_nan=not strict, allow_infinity=not strict))
        return value, value
    if type_ == "string":
        value = draw(st.text(max_size=6))
        return value, value
    value = draw(st.binary(max_size=6))
    return value, value


json_like = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=4,
)


@st.composite
def wkt_value(draw: Any, type_: str) -> tuple[Any, Any]:
    """(value to assign: a dict or a standard instance, the standard instance read back)."""
    cls = WKT[type_][1]
    expect = cls()
    if type_ == "google.protobuf.Struct":
        content = draw(st.dictionaries(st.text(max_size=3), json_like, max_size=3))
        expect.update(content)
    elif type_ == "google.protobuf.ListValue":
        content = draw(st.lists(json_like, max_size=3))
        expect.extend(content)
    elif type_ == "google.protobuf.Value":  # any JSON-like value (a dict is a JSON object)
        content = draw(json_like)
        holder = struct_pb2.ListValue()
        holder.append(content)  # protobuf's own conversion
        expect.CopyFrom(holder.values[0])
    else:
        if type_ == "google.protobuf.Timestamp":
            content = {"seconds": draw(st.integers(-62135596800, 253402300799)), "nanos": draw(st.integers(0, 999_999_999))}
        elif type_ == "google.protobuf.Duration":
            seconds, nanos = draw(st.integers(-315576000000, 315576000000)), draw(st.integers(0, 999_999_999))
            content = {"seconds": seconds, "nanos": -nanos if seconds < 0 else nanos}
        elif type_ == "google.protobuf.Int64Value":
            content = {"value": draw(st.integers(*INT_RANGE["int64"]))}
        elif type_ == "google.protobuf.StringValue":
            content = {"value": draw(st.text(max_size=4))}
        elif type_ == "google.protobuf.DoubleValue":
            content = {"value": draw(st.floats(allow_nan=False, allow_infinity=False))}
        elif type_ in ("google.protobuf.BytesValue",):
            content = {"value": draw(st.binary(max_size=4))}
        elif type_ == "google.protobuf.Any":
            content = {"type_url": draw(st.text(max_size=6)), "value": draw(st.binary(max_size=4))}
        else:  # Empty
            content = {}
        content = {k: v for k, v in content.items() if draw(st.booleans())}  # a key left out keeps its zero
        expect = cls(**content)
    if draw(st.booleans()):  # a standard instance (never the one read back)
        given = cls()
        given.CopyFrom(expect)
        return given, expect
    return content, expect


def _simple_fields(message: MessageDef) -> list[FieldDef]:
    """Fields a config dict can set in one go (scalar/enum/well-known type, repeated or not; one per oneof)."""
    out, oneof_seen = [], False
    for f in message.fields:
        if f.kind not in ("scalar", "enum", "wkt"):
            continue
        if f.oneof is not None:
            if oneof_seen:
                continue
            oneof_seen = True
        out.append(f)
    return out


@st.composite
def config_value(draw: Any, message: MessageDef, schema: Schema, strict: bool) -> tuple[dict, dict]:
    if draw(st.integers(0, 3)) == 0:
        return {}, {}  # an empty sub-message: presence must not be lost
    keys = draw(st.lists(st.sampled_from(_simple_fields(message)), unique_by=lambda f: f.name, max_size=3)) if _simple_fields(message) else []
    given_, expect = {}, {}
    for f in keys:
        if f.label == "repeated":
            pairs = draw(st.lists(scalar_value(f.kind, f.type, schema, strict), max_size=3))
            given_[f.name], expect[f.name] = [p[0] for p in pairs], [p[1] for p in pairs]
        else:
            given_[f.name], expect[f.name] = draw(scalar_value(f.kind, f.type, schema, strict))
    return given_, expect


@dataclass
class Instance:
    """Stands for an instance of the package's own protobuf class of ``type``
    holding ``fields`` (the read-back values): made once the package is imported."""
    type: str
    fields: dict


@st.composite
def maybe_instance(draw: Any, type_: str, given_: dict, expect: dict) -> Any:
    """The config dict as given, or (as often) a message instance with the same content."""
    return Instance(type_, expect) if draw(st.booleans()) else given_


def instantiate(value: Any, module: Any, schema: Schema) -> Any:
    if isinstance(value, Instance):
        return pb2_class(module, schema, value.type)(**value.fields)
    if isinstance(value, list):
        return [instantiate(v, module, schema) for v in value]
    if isinstance(value, dict):
        return {k: instantiate(v, module, schema) for k, v in value.items()}
    return value


@st.composite
def field_value(draw: Any, f: FieldDef, schema: Schema, strict: bool) -> tuple[Any, Any]:
    if f.kind == "map":
        keys = draw(st.lists(scalar_value("scalar", f.key_type, schema, strict).map(lambda p: p[0]),
                             unique=True, max_size=3))
        given_, expect = {}, {}
        for k in keys:
            if f.value_kind == "message":
                given_[k], expect[k] = draw(config_value(schema.messages[f.type], schema, strict))
                given_[k] = draw(maybe_instance(f.type, given_[k], expect[k]))
            else:
                given_[k], expect[k] = draw(scalar_value(f.value_kind, f.type, schema, strict))
        return given_, expect
    if f.kind == "message":
        if f.label == "repeated":
            pairs = draw(st.lists(config_value(schema.messages[f.type], schema, strict), max_size=2))
            return [draw(maybe_instance(f.type, *p)) for p in pairs], [p[1] for p in pairs]
        given_, expect = draw(config_value(schema.messages[f.type], schema, strict))
        return draw(maybe_instance(f.type, given_, expect)), expect
    if f.label == "repeated":
        pairs = draw(st.lists(scalar_value(f.kind, f.type, schema, strict), max_size=3))
        return [p[0] for p in pairs], [p[1] for p in pairs]
    return draw(scalar_value(f.kind, f.type, schema, strict))


def assert_message_matches(message: Any, expect: dict, where: str) -> None:
    for key, value in expect.items():  # (items are instances of the generated classes)
        got = getattr(message, expected_property(key))
        got = list(got) if isinstance(value, list) else got
        assert _same_value(got, value), f"{where}[{key!r}]: {got!r} != {value!r}"


def _same_value(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(same(a, b) for a, b in zip(got, want))
    return same(got, want)


def check_read(obj: Any, prop: str, f: FieldDef, schema: Schema, expect: Any, where: str) -> None:
    """The property returns ``expect`` (a plain value, or key->value for messages)."""
    got = getattr(obj, prop)
    if f.kind == "wkt":  # the standard class itself, not a dict view
        if f.label == "repeated":
            assert _same_value(list(got), expect), f"{where}: {got!r} != {expect!r}"
        else:
            want = WKT[f.type][1]() if expect is None else expect
            assert same(got, want), f"{where}: {got!r} != {want!r}"
    elif f.kind == "map":
        assert isinstance(got, Mapping) and set(got) == set(expect), f"{where}: {got!r} != {expect!r}"
        for k, v in expect.items():
            if f.value_kind == "message":
                assert_message_matches(got[k], v, f"{where}[{k!r}]")
            else:
                assert same(got[k], v), f"{where}[{k!r}]: {got[k]!r} != {v!r}"
    elif f.kind == "message" and f.label == "repeated":
        assert len(got) == len(expect), where
        for i, (item, want) in enumerate(zip(got, expect)):
            assert_message_matches(item, want, f"{where}[{i}]")
    elif f.kind == "message":
        # the instance of the field's class (a class of the same module), else
        # the dict view: every key of the message, the given ones as given
        target = schema.messages[f.type]
        view = isinstance(got, dict)
        if view:
            assert list(got) == [x.name for x in target.fields], where
        else:
            assert got.message.DESCRIPTOR.full_name == f.type, where
        for x in target.fields:
            want = expect.get(x.name, default_of(x)) if x.kind in ("scalar", "enum", "wkt") else None
            if x.kind == "wkt" and want is None:
                want = WKT[x.type][1]()
            if want is not None:
                value = got[x.name] if view else getattr(got, expected_property(x.name))
                value = list(value) if x.kind == "wkt" and x.label == "repeated" else value
                assert _same_value(value, want), f"{where}[{x.name!r}]: {value!r} != {want!r}"
    else:
        assert _same_value(got, expect), f"{where}: {got!r} != {expect!r}"
        if f.kind == "enum" and _enum_class_expected(schema, obj, f):
            # members of the schema's enum class, not bare numbers
            names = {f.type.rsplit(".", 1)[-1], schema.flat(f.type)}
            for item in got if f.label == "repeated" else [got]:
                assert isinstance(item, enum.IntEnum) and type(item).__name__ in names, (where, item)


def _enum_class_expected(schema: Schema, obj: Any, f: FieldDef) -> bool:
    """An enum field reads as members of its class where that class is in the
    module of the field's message (a value named like a Python keyword: no class)."""
    message = obj.message.DESCRIPTOR.full_name
    parent = f.type.rpartition(".")[0]
    home = schema.file_of.get(parent) or next(d for d in schema.files if any(e.full == f.type for e in d.enums))
    plain = all(n.isidentifier() and not keyword.iskeyword(n) for n, _ in schema.enums[f.type].values)
    return plain and home is schema.file_of[message]


_FLOAT_CPP_TYPES = (pb_descriptor.FieldDescriptor.CPPTYPE_FLOAT, pb_descriptor.FieldDescriptor.CPPTYPE_DOUBLE)


def _repeated(fd):
    # FieldDescriptor.is_repeated came in protobuf 6.31; the tool supports 5.29 (.ci/versions.sh)
    return fd.is_repeated if hasattr(fd, "is_repeated") else fd.label == fd.LABEL_REPEATED


def _canonical_nans(message: Any) -> Any:
    """A copy of `message` whose NaNs are all the quiet positive NaN.

    Text format writes every NaN as `nan`, dropping its sign and payload (a
    property of protobuf's text format, not of the generated code), so a round
    trip can only be asked to keep "a NaN"."""
    out = type(message)()
    out.CopyFrom(message)
    stack = [out]
    while stack:
        msg = stack.pop()
        for fd, value in msg.ListFields():
            if fd.message_type is not None:
                if fd.message_type.GetOptions().map_entry:
                    entries = value
                    if fd.message_type.fields_by_name["value"].message_type is not None:
                        stack.extend(entries.values())
                    elif fd.message_type.fields_by_name["value"].cpp_type in _FLOAT_CPP_TYPES:
                        for k in list(entries):
                            if math.isnan(entries[k]):
                                entries[k] = math.nan
                elif _repeated(fd):
                    stack.extend(value)
                else:
                    stack.append(value)
            elif fd.cpp_type in _FLOAT_CPP_TYPES:
                if _repeated(fd):
                    for i, v in enumerate(value):
                        if math.isnan(v):
                            value[i] = math.nan
                elif math.isnan(value):
                    setattr(msg, fd.name, math.nan)
    return out


def text_round_trip(message: Any) -> None:
    text = text_format.MessageToString(message)
    back = type(message)()
    text_format.Parse(text, back)
    expected = _canonical_nans(message)
    assert back.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True), text


def check_schema(module: Any, schema: Schema, data: Any) -> None:
    wrapped = schema.wrapped()
    assert sorted(module.__all__) == sorted(
        [schema.flat(m.full) for m in wrapped] + ["ConfigError", "UnknownConfigKeyError", "default_strict", "set_default_strict"]
    )
    # every message: a TypedDict with every field; its protobuf class with the defaults
    types = importlib.import_module(f"{module.__name__}.types")
    for m in schema.messages.values():
        # (a package of compact classes only has the input TypedDicts: no getter returns a dict)
        typed = getattr(types, schema.flat(m.full) + "Dict", None) or getattr(types, schema.flat(m.full) + "Input")
        assert list(typed.__annotations__) == [f.name for f in m.fields], m.full
        fresh = pb2_class(module, schema, m.full)()
        for f in m.fields:
            got = getattr(fresh, f.name)
            if f.kind in ("scalar", "enum") and f.label != "repeated":
                assert same(got, f.default), f"{m.full}.{f.name}: {got!r} != {f.default!r}"
        text_round_trip(fresh)

    for m in wrapped:
        cls = getattr(module, schema.flat(m.full))
        tree = ast.parse(Path(sys.modules[cls.__module__].__file__).read_text(encoding="utf-8"))
        source = norm("\n".join(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)))
        doc = norm("\n".join(m.comment))
        if "\n".join(m.comment).split():  # (a comment of whitespace only is none)
            assert doc in norm(cls.__doc__), (doc, cls.__doc__)
        strict = data.draw(st.booleans(), label="strict")
        obj = cls(strict=strict)
        assert obj.strict is strict
        props = {f.name: expected_property(f.name) for f in m.fields}
        for f in m.fields:
            prop = props[f.name]
            assert isinstance(getattr(cls, prop), property), f"{m.full}.{f.name}: no property {prop!r}"
            leading, trailing = "\n".join(f.comment), f.trailing or ""
            text = norm(leading if leading.split() else trailing)
            if (leading + trailing).split():  # (a comment of whitespace only is none)
                # a compact class documents a field under its declaration (the source), else its property
                if getattr(cls, "_fields", ()):  # its summary, then its type and default, then the rest
                    missing = [word for word in text.split() if word not in source]
                    assert not missing, (missing, text)
                else:
                    assert text in norm(getattr(cls, prop).__doc__), (text, getattr(cls, prop).__doc__)
            check_read(obj, prop, f, schema, default_of(f) if f.kind != "message" or f.label == "repeated" else {},
                       f"{m.name}.{prop} (default)")
        text_round_trip(obj.message)

        # assign valid values to some fields, in field order
        expected: dict[str, Any] = {}
        last_in_oneof = None
        for f in m.fields:
            if not data.draw(st.booleans(), label=f"set {f.name}"):
                continue
            value, expect = data.draw(field_value(f, schema, strict), label=f"{m.name}.{props[f.name]}")
            setattr(obj, props[f.name], instantiate(value, module, schema))
            _note_coverage(f, value)
            expected[f.name] = expect  # an empty dict too: it sets the field (presence is never lost)
            if f.oneof is not None:
                last_in_oneof = f
        for f in m.fields:
            if f.oneof is not None and f is not last_in_oneof:
                expected.pop(f.name, None)  # a later member of the oneof cleared it
        if last_in_oneof is not None:
            assert obj.message.WhichOneof("choice") == last_in_oneof.name
        for f in m.fields:
            prop = props[f.name]
            if f.name in expected:
                check_read(obj, prop, f, schema, expected[f.name], f"{m.name}.{prop}")
                if f.kind in ("message", "wkt") and f.label != "repeated":
                    assert obj.message.HasField(f.name), f"{m.name}.{prop}: presence lost"
            elif f.kind != "message" or f.label == "repeated":
                check_read(obj, prop, f, schema, default_of(f), f"{m.name}.{prop} (untouched)")
        text_round_trip(obj.message)
        wire_round_trip(obj.message)
    check_extensions(module, schema, data)


def _note_coverage(f: FieldDef, value: Any) -> None:
    """What an example exercised (``--hypothesis-show-statistics``)."""
    shape = "map" if f.kind == "map" else "oneof" if f.oneof else f.label or "plain"
    items = list(value.values()) if f.kind == "map" else value if isinstance(value, list) else [value]
    if "wkt" in (f.kind, f.value_kind):
        for item in items:
            event(f"set a well-known type ({shape}) as {'a dict/list' if isinstance(item, (dict, list)) else 'an instance'}")
    if "message" in (f.kind, f.value_kind):
        for item in items:
            if item == {}:
                event(f"set an empty message ({shape}) as {{}}")
            elif isinstance(item, Instance) and not item.fields:
                event(f"set an empty message ({shape}) as an instance")


def wire_round_trip(message: Any) -> None:
    back = type(message).FromString(message.SerializeToString())
    assert back.SerializeToString(deterministic=True) == message.SerializeToString(deterministic=True)


def check_extensions(module: Any, schema: Schema, data: Any) -> None:
    """Each extension is exposed as protoc's module exposes it: a module
    attribute and ``<NAME>_FIELD_NUMBER`` for one declared at file level, class
    attributes of the message whose body declares it otherwise; nothing else
    is; and a value set through it survives the wire and text formats."""
    for d in schema.files:
        pb2 = pb2_module(module, d)
        exposed = {n for n, v in vars(pb2).items() if isinstance(v, pb_descriptor.FieldDescriptor)}
        assert exposed == {e.name for e in d.extensions}, (d.name, exposed)
        numbers = {n: v for n, v in vars(pb2).items() if n.endswith("_FIELD_NUMBER")}
        assert numbers == {e.name.upper() + "_FIELD_NUMBER": e.number for e in d.extensions}, (d.name, numbers)
        holders = [(pb2, d.extensions)] + [(pb2_class(module, schema, m.full), m.extensions) for m in walk(d.messages)]
        for holder, extensions in holders:
            for e in extensions:
                desc = getattr(holder, e.name, None)
                assert isinstance(desc, pb_descriptor.FieldDescriptor) and desc.is_extension, f"{e.full}: not exposed"
                assert (desc.full_name, desc.number, desc.containing_type.full_name) == (e.full, e.number, e.extendee)
                assert getattr(holder, e.name.upper() + "_FIELD_NUMBER") == e.number, e.full
                target = pb2_class(module, schema, e.extendee)()
                if e.kind == "message":
                    contents = data.draw(st.lists(config_value(schema.messages[e.type], schema, True), min_size=1,
                                                  max_size=1 if e.label == "optional" else 2), label=e.full)
                    cls = pb2_class(module, schema, e.type)
                    for _, expect in contents:
                        item = target.Extensions[desc].add() if e.label == "repeated" else target.Extensions[desc]
                        item.SetInParent() if e.label == "optional" else None
                        item.CopyFrom(cls(**expect))
                else:
                    values = [p[1] for p in data.draw(st.lists(scalar_value(e.kind, e.type, schema, True), min_size=1,
                                                               max_size=1 if e.label == "optional" else 3), label=e.full)]
                    if e.label == "repeated":
                        target.Extensions[desc].extend(values)
                    else:
                        target.Extensions[desc] = values[0]
                event(f"extension ({'file level' if holder is pb2 else 'nested'}, {e.kind}, {e.label})")
                back = type(target).FromString(target.SerializeToString())
                if e.label == "optional":
                    assert back.HasExtension(desc), f"{e.full}: lost on the wire"
                else:
                    assert len(back.Extensions[desc]) == len(target.Extensions[desc]) > 0, e.full
                assert back == target, e.full
                text_round_trip(target)


# ============================================================== the fuzzers


class TestRandomSchemas:
    @FUZZ
    @given(schema=schemas(("proto2",), extensions=True), data=st.data())
    def test_proto2(self, fast_pipeline, schema, data):
        module, _ = generate_schema(fast_pipeline, schema)
        check_schema(module, schema, data)

    @FUZZ
    @given(schema=schemas(("proto3",)), data=st.data())
    def test_proto3(self, fast_pipeline, schema, data):
        module, _ = generate_schema(fast_pipeline, schema)
        check_schema(module, schema, data)

    @settings(FUZZ, max_examples=FUZZ.max_examples * 2 // 3)  # twice the files, twice the time
    @given(schema=schemas(("proto2", "proto3"), files=2, extensions=True), data=st.data())
    def test_two_files_one_imports_the_other(self, fast_pipeline, schema, data):
        module, _ = generate_schema(fast_pipeline, schema)
        check_schema(module, schema, data)

    @settings(FUZZ, max_examples=FUZZ.max_examples // 2)
    @given(schema=schemas(("proto2", "proto3"), wkt=True, extensions=True), data=st.data())
    def test_well_known_types(self, fast_pipeline, schema, data):
        schema = relocated(schema)  # these packages live in protobuf's default pool
        module, _ = generate_schema(fast_pipeline, schema)
        check_schema(module, schema, data)


def test_output_does_not_depend_on_the_hash_seed(tmp_path):
    """In-process runs share one hash seed; set/dict order bugs show across processes."""
    trees = []
    for seed in ("1", "2"):
        # the same command in two project folders (the headers name --out, relative to its project)
        out = tmp_path / f"seed{seed}" / "out"
        out.parent.mkdir()
        env = {**os.environ, "PYTHONHASHSEED": seed, "FLEET_CODEGEN_NO_CACHE": "1"}
        subprocess.run(
            [sys.executable, "-m", "generator", "generate", "--no-annotations", "--package", "seeded", "--out", "out",
             "--proto", str(FIXTURES / "hostile.proto"), "--proto", str(FIXTURES / "names.proto")],
            cwd=out.parent, env={**env, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True,
        )
        trees.append({p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert trees[0].keys() == trees[1].keys()
    assert [k for k in trees[0] if trees[0][k] != trees[1][k]] == []


@pytest.mark.parametrize("declared", ["float f = 1 [default = 1e-40]", "double f = 1 [default = -5e-324]"])
def test_subnormal_default_is_an_error_not_a_package_that_cannot_import(tmp_path, declared):
    """protoc accepts it, protobuf's runtime refuses to load it: say so when generating."""
    proto = tmp_path / "sub.proto"
    proto.write_text(f'syntax = "proto2";\npackage sb;\nmessage M {{ optional {declared}; }}\n', encoding="utf-8")
    with pytest.raises(GeneratorError, match=r"sub.proto: .*Invalid default .* for field sb\.M\.f .*subnormal"):
        generate(tmp_path / "out", [proto], None, unique_package("sub"))


# ======================================================= 2. hostile text

LONG_TOKEN = "x" * 300

# What each property's docstring must hold (proto comment, or the annotations
# file's doc where it gives one), exactly as written in the fixtures.
HOSTILE_DOCS = {
    "triple": 'Triple quotes """ in the middle and at the end """',
    "jinja": "Jinja {{ 7 * 191 }} {% if true %}templated{% endif %} {# hidden #} {%- raw -%} {{- x -}}",
    "python": 'Python """; __import__("pathlib").Path("PWNED").touch(); """ #  \\x00 \\u00e9 %(name)s %s {field} {0} ${HOME}',
    "backslash": "Trailing backslash \\",
    "markdown": "Pipes | in | markdown | cells, `backticks`, <!-- html --> and *stars* and _under_",
    "kind": f"Non-ASCII é 中文 😀 \u202e(RTL override) \ufeff(BOM) and an unbreakable {LONG_TOKEN}",
    "inner": 'trailing comment with """ and ends with a backslash \\',
    "annotated": "Annotated \"\"\" and ''' and \\ and {{ 7 * 191 }} and {% raw %} and {# c #} and é中文 😀 | pipe and a trailing backslash \\",
    "list": "''' at the end '''",
}
HOSTILE_CLASS_DOC = (
    (
        "Class doc with \"\"\"triple\"\"\" quotes, '''singles''' and {{ 7 * 191 }} and {% if true %}templated{% endif %} "
        "{# hidden #} é 中文 😀 ending with a backslash \\"
    ),
    'Second paragraph: """; __import__("pathlib").Path("PWNED").touch(); """ and a quote at the end "',
)
INNER_KEY_DOCS = {
    "quote_end": 'Annotation doc that ends with a quote "',
    "backslash_end": "Ends with a backslash \\",
    "triple_end": 'Ends with a triple quote """',
}


def markdown(text: str) -> str:
    """How the reference page shows a one-line summary (pipes escaped)."""
    return norm(text).replace("|", "\\|")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    out = tmp_path_factory.mktemp("hostile")
    cwd = os.getcwd()
    os.chdir(out)  # a relative "PWNED" would land here
    try:
        package, result = generate(out, [FIXTURES / "hostile.proto"], FIXTURES / "hostile.annotations.yaml",
                                   unique_package("hostile"))
        module = import_generated(out, package)
    finally:
        os.chdir(cwd)
    return out, package, result, module


def test_hostile_comments_and_docs_land_verbatim_in_docstrings(hostile):
    out, package, _, module = hostile
    cls = module.Hostile
    for name, text in HOSTILE_DOCS.items():
        doc = getattr(cls, name).__doc__
        # reflowed into paragraphs, but every character is there, in order
        assert norm(text) in norm(doc), (name, doc)
        for word in visible(text).split():  # (hidden characters as their escapes)
            assert word in doc, (name, word)
    assert LONG_TOKEN in cls.kind.__doc__  # never broken
    for paragraph in HOSTILE_CLASS_DOC:
        assert norm(paragraph) in norm(cls.__doc__)
    assert '""" {{ x }} {% if %} \\' in cls.annotated.__doc__  # the example, verbatim
    assert repr('""" and \'\'\' and \\ and {{ x }}') in cls.triple.__doc__  # the declared default
    assert cls().triple == '""" and \'\'\' and \\ and {{ x }}'
    # the config key table shows the first sentence of each key's doc
    for key, text in INNER_KEY_DOCS.items():
        assert norm(text) in norm(cls.inner.__doc__), key
    assert norm(HOSTILE_CLASS_DOC[0]) in norm(module.__doc__)  # package docstring lists the class
    types = importlib.import_module(f"{package}.types")
    assert norm('Inner message """ {{ x }} {% for x in y %} \\ é') in norm(types.InnerInput.__doc__)  # each doc stated once, on the input type
    assert not (out / "PWNED").exists() and not (out / package / "PWNED").exists()


def test_hostile_example_runs_as_a_doctest(hostile):
    import doctest

    _, _, _, module = hostile
    test = doctest.DocTestParser().get_doctest(module.Hostile.annotated.__doc__, {}, "annotated", None, 0)
    assert len(test.examples) == 2
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0


def test_hostile_text_lands_verbatim_in_the_markdown_reference(hostile):
    out, package, result, _ = hostile
    page = (out / f"{package}.md").read_text(encoding="utf-8")
    assert page == result.files[f"{package}.md"]
    # one-line summaries: first sentence (there is no ". " in these), pipes escaped
    for name, text in HOSTILE_DOCS.items():
        assert markdown(text) in page, name
    assert markdown(HOSTILE_CLASS_DOC[0]) in page
    for key, text in INNER_KEY_DOCS.items():
        assert markdown(text) in page, key
    # nothing was templated: every template-looking snippet is still there
    for snippet in ("{{ 7 * 191 }}", "{% if true %}templated{% endif %}", "{# hidden #}", "{%- raw -%}", "{{- x -}}"):
        assert snippet in page


def test_hostile_text_is_data_in_every_generated_file(hostile):
    """The injected ``__import__(...)`` is never code: it only occurs inside string literals."""
    import ast

    _, _, result, _ = hostile
    for relative, text in result.files.items():
        if relative.endswith((".py", ".pyi")):
            tree = ast.parse(text)
            calls = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "__import__"]
            assert not calls, relative


# ============================================================== 3. names

NAMES_RULE = {  # proto field -> property, without annotations
    "class": "class_", "def": "def_", "lambda": "lambda_", "None": "None_", "type": "type",
    "property": "property_", "__init__": "__init___", "strategy": "strategy", "message": "message_",
    "save_to_prototxt": "save_to_prototxt", "keys": "keys", "strict": "strict_", "cfg": "cfg", "self": "self_",
    "__priv": "__priv___", "import": "import_", "from": "from_", "_strict": "_strict_", "__slots__": "__slots___",
    "object": "object_", "float": "float", "__": "___",
}
NAMES_VALUES = {  # a valid value for each field, and what reading it back gives
    "class": 1, "def": 2, "lambda": 3, "None": 4, "type": "five", "property": 6, "__init__": 7, "strategy": 8,
    "message": 9, "save_to_prototxt": "ten", "keys": "eleven", "strict": True, "self": [14, 14],
    "__priv": 15, "from": {"k": 17}, "_strict": 18, "__slots__": 19, "object": "True", "float": 21.5, "__": 22,
}


def _names_module(out: Path, annotations: Path | None = None):
    package, _ = generate(out, [FIXTURES / "names.proto"], annotations, unique_package("names"))
    return package, import_generated(out, package)


def test_field_names_follow_the_renaming_rule(tmp_path):
    package, module = _names_module(tmp_path)
    cls = module.Names
    props = {name: expected_property(name) for name in NAMES_RULE}
    assert props == NAMES_RULE  # the test's copy of the rule says what the README says
    for field_name, prop in NAMES_RULE.items():
        assert isinstance(cls.__dict__.get(prop), property), prop
    assert cls().strict is True  # a schema without a reference: strict by default
    obj = cls(strict=False)
    assert isinstance(obj.message, type(obj.message)) and obj.message.DESCRIPTOR.full_name == "nm.Names"
    assert obj.strict is False and obj.strict_ is False  # the switch, and the field
    obj.strict_ = True
    assert obj.strict is False and obj.message.strict is True
    assert (obj.lambda_, obj.type, obj.object_, obj.cfg.mode) == (-1, "t", 0, 1)  # declared defaults
    for field_name, value in NAMES_VALUES.items():
        prop = NAMES_RULE[field_name]
        setattr(obj, prop, value)
        expect = {"True": 1}.get(value, value) if isinstance(value, str) and field_name == "object" else value
        got = getattr(obj, prop)
        assert got == expect, (prop, got)
        raw = getattr(obj.message, field_name)
        assert (list(raw) if field_name == "self" else dict(raw) if field_name == "from" else raw) == expect
    obj.cfg = {"class": 1, "None": 2, "__init__": 3, "keys": "k", "type": 5, "__priv": 6, "lambda": [7], "mode": "class"}
    cfg_keys = ["class", "None", "__init__", "keys", "type", "__priv", "lambda", "mode", "items"]
    assert {k: getattr(obj.cfg, expected_property(k)) for k in cfg_keys} == {
        "class": 1, "None": 2, "__init__": 3, "keys": "k", "type": 5, "__priv": 6, "lambda": [7], "mode": 2, "items": 0}
    obj.import_ = [{"class": 1}, {"__init__": 2}]
    assert [c.class_ for c in obj.import_] == [1, 0]  # items: instances of the class, its property names
    with pytest.raises(TypeError, match="not an attribute"):
        setattr(obj, "class", 1)  # the proto spelling is not an attribute of the wrapper
    strict = cls(strict=True)
    strict.None_ = 5
    strict.__priv___ = 6
    with pytest.raises(TypeError):
        strict.class_ = "1"
    text_round_trip(obj.message)
    # TypedDicts keep the proto names as keys, mangling nothing
    types = importlib.import_module(f"{package}.types")
    def typed(name: str) -> Any:  # (a package of compact classes only has the input TypedDicts)
        return getattr(types, name + "Dict", None) or getattr(types, name + "Input")

    assert list(typed("Cfg").__annotations__) == cfg_keys
    assert list(typed("Names").__annotations__) == list(NAMES_RULE)
    # enum values that are keywords: still in the module, through getattr
    pb2 = importlib.import_module(f"{package}.names_pb2")
    assert (getattr(pb2, "None"), getattr(pb2, "True"), getattr(pb2, "class"), pb2.plain) == (0, 1, 2, 3)
    assert pb2.Mode.Value("class") == 2


def test_names_with_a_message_attribute_and_mixin_members(tmp_path):
    package = unique_package("names")
    # its hooks.py lies beside names.annotations.yaml
    package, _ = generate(tmp_path, [FIXTURES / "names.proto"], FIXTURES / "names.annotations.yaml", package)
    module = import_generated(tmp_path, package)
    cls = module.Names
    renamed = {"strategy": "strategy_", "message": "message", "save_to_prototxt": "save_to_prototxt_", "keys": "keys_"}
    for field_name, prop in renamed.items():
        assert isinstance(cls.__dict__.get(prop), property), prop
        assert expected_property(field_name, {"strategy", "save_to_prototxt", "keys", "__slots__"}) == prop
    obj = cls()
    obj.strategy_, obj.message, obj.save_to_prototxt_, obj.keys_ = 1, 2, "three", "four"
    assert obj.keys() == ["strategy", "message", "save_to_prototxt", "keys"]  # the mixin's method, intact
    obj.save_to_prototxt(str(tmp_path / "out.prototxt"))
    assert 'keys: "four"' in (tmp_path / "out.prototxt").read_text(encoding="utf-8")
    assert obj.strategy.message == 2


def test_fields_whose_json_names_collide_are_reported_before_generating(tmp_path):
    error = _clash(tmp_path, "optional int32 class = 1;\noptional int32 class_ = 2;")
    assert "clash.proto: the protobuf runtime rejects this schema" in str(error) and "json_name" in str(error)


@pytest.mark.parametrize(
    ("message", "cls"),
    [("object", "object_"), ("types", "types_"), ("Any", "Any_"), ("str", "str_"), ("msgs", "msgs_"),
     ("msgs_pb2", "msgs_pb2_"), ("TYPE_CHECKING", "TYPE_CHECKING_")],
)
def test_message_names_follow_the_renaming_rule_too(tmp_path, message, cls):
    proto = tmp_path / "msgs.proto"
    proto.write_text(f'syntax = "proto3";\npackage mn;\nmessage {message} {{ int32 x = 1; }}\n', encoding="utf-8")
    package, _ = generate(tmp_path / "out", [proto], None, unique_package("msgname"))
    module = import_generated(tmp_path / "out", package)
    importlib.import_module(f"{package}.types")  # a submodule named like the class must not replace it
    obj = getattr(module, cls)(strict=True)
    obj.x = 3
    assert obj.x == 3 and getattr(module, cls).__name__ == cls


@pytest.mark.parametrize(
    ("declaration", "type_name"),
    [("message None {}", "kw.None"), ("message class {}", "kw.class"), ("message Outer { message True {} }", "kw.Outer.True")],
)
def test_a_keyword_cannot_name_a_message_or_enum(tmp_path, declaration, type_name):
    proto = tmp_path / "kw.proto"
    proto.write_text(f'syntax = "proto3";\npackage kw;\n\n{declaration}\nenum False {{ Z = 0; }}\n', encoding="utf-8")
    with pytest.raises(GeneratorError) as info:
        generate(tmp_path / "out", [proto], None, unique_package("kw"))
    assert f"kw.proto:4: type {type_name}: a Python keyword cannot name a message or enum" in str(info.value)
    assert "kw.proto:5: type kw.False: a Python keyword cannot name a message or enum" in str(info.value)


def test_a_message_name_with_a_leading_underscore_needs_an_annotated_class_name(tmp_path):
    proto = tmp_path / "under.proto"
    proto.write_text('syntax = "proto3";\npackage un;\nmessage _pool { int32 x = 1; }\n', encoding="utf-8")
    with pytest.raises(GeneratorError, match="under.proto:3: message un._pool: a class name cannot start with an underscore"):
        generate(tmp_path / "out", [proto], None, unique_package("under"))


def test_proto_files_named_like_package_modules_get_other_module_names(tmp_path):
    protos = []
    for stem in ("types", "runtime", "x_pb2"):
        protos.append(tmp_path / f"{stem}.proto")
        protos[-1].write_text(f'syntax = "proto3";\npackage f{stem.strip("_")};\nmessage M{len(protos)} {{ int32 x = 1; }}\n',
                              encoding="utf-8")
    package, result = generate(tmp_path / "out", protos, None, unique_package("files"))
    assert {f"{package}/types_.py", f"{package}/runtime_.py", f"{package}/x_pb2_.py"} <= set(result.files)
    module = import_generated(tmp_path / "out", package)
    types = importlib.import_module(f"{package}.types")
    assert {"M1Input", "M2Input", "M3Input"} <= set(types.__all__)
    assert (module.M1().x, module.M2().x, module.M3().x) == (0, 0, 0)


def test_equal_file_names_in_two_folders_coexist_and_a_real_clash_is_an_error(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "common.proto").write_text(
            f'syntax = "proto3";\npackage {folder};\nmessage {folder.upper()} {{ int32 x = 1; }}\n', encoding="utf-8")
    package, result = generate(tmp_path / "out", [tmp_path / "a" / "common.proto", tmp_path / "b" / "common.proto"], None,
                               unique_package("same"))
    assert {f"{package}/a/common_pb2.py", f"{package}/b/common_pb2.py", f"{package}/a/__init__.py"} <= set(result.files)
    (tmp_path / "a" / "common-x.proto").write_text('syntax = "proto3";\npackage c;\n', encoding="utf-8")
    (tmp_path / "a" / "common_x.proto").write_text('syntax = "proto3";\npackage d;\n', encoding="utf-8")
    with pytest.raises(GeneratorError, match="a/common-x.proto and a/common_x.proto would both generate a/common_x.py"):
        generate(tmp_path / "out2", [tmp_path / "a", tmp_path / "b"], None, unique_package("same"))


@pytest.mark.parametrize("name", ["None", "Exception", "TYPE_CHECKING"])
def test_an_annotated_class_name_that_cannot_work_is_an_error(tmp_path, name):
    notes = f"classes:\n  {name}:\n    message: cl.Clash\n"
    error = _clash(tmp_path, "optional int32 a = 1;", notes)
    assert f"clash.annotations.yaml:2: class name {name!r} is a keyword, a builtin or a name the generated code uses" in str(error)


def _clash(tmp_path: Path, body: str, annotations: str | None = None) -> GeneratorError:
    proto = tmp_path / "clash.proto"
    proto.write_text(f'syntax = "proto2";\npackage cl;\nmessage Clash {{\n{body}\n}}\n', encoding="utf-8")
    notes = None
    if annotations is not None:
        notes = tmp_path / "clash.annotations.yaml"
        notes.write_text(annotations, encoding="utf-8")
    with pytest.raises(GeneratorError) as info:
        generate(tmp_path / "out", [proto], notes, unique_package("clash"))
    return info.value


@pytest.mark.parametrize(
    ("body", "path", "name"),
    [
        # (json_name: protobuf itself refuses two fields whose JSON names are both "class")
        ("optional int32 class = 1;\noptional int32 class_ = 2 [json_name = 'k'];", "cl.Clash.class_", "class_"),
        ("optional int32 class_ = 1 [json_name = 'k'];\noptional int32 class = 2;", "cl.Clash.class", "class_"),
        ("optional int32 message = 1;\noptional int32 message_ = 2 [json_name = 'm'];", "cl.Clash.message_", "message_"),
        ("optional int32 __init___ = 1 [json_name = 'i'];\noptional int32 __init__ = 2;", "cl.Clash.__init__", "__init___"),
    ],
    ids=["keyword-then-renamed", "renamed-then-keyword", "member", "dunder"],
)
def test_a_clash_the_rule_cannot_solve_is_an_error_naming_the_field(tmp_path, body, path, name):
    error = _clash(tmp_path, body)
    assert f"{path}: property name {name!r} is already used" in str(error)


def test_an_annotation_forcing_a_duplicate_property_is_an_error_with_file_and_line(tmp_path):
    notes = "messages:\n  cl.Clash:\n    fields:\n      b:\n        property: a_\n"
    error = _clash(tmp_path, "optional int32 a = 1;\noptional int32 a_ = 2 [json_name = 'x'];\noptional int32 b = 3;", notes)
    assert "clash.annotations.yaml:4: cl.Clash.b: property name 'a_' is already used by field 'a_'" in str(error)


@pytest.mark.parametrize("forced", ["class", "strict", "message", "__init__", "not an identifier"])
def test_an_annotation_forcing_an_unusable_property_name_is_an_error(tmp_path, forced):
    notes = f"messages:\n  cl.Clash:\n    fields:\n      a:\n        property: {forced!r}\n"
    error = _clash(tmp_path, "optional int32 a = 1;", notes)
    assert f"cl.Clash.a: property name {forced!r} is not usable" in str(error)
