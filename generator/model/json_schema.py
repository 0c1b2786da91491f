"""The JSON Schema (draft 2020-12) of each message: what a document of it
(``from_dict``, ``load``; the format of /work/wt/brief/CONTRACT-files.md,
docs/user-guide.md "Configs as files") may hold, built from the same
records as the code and the docs (the schema stage's facts, the model's
``FieldModel``: its doc, choices and bounds).

One file per message, ``<full.proto.Name>.schema.json``: a message's schema
describes its own fields and refers to each other message of the package by
that message's file (``"$ref": "shop.Price.schema.json"``, a URI relative to
its own ``$id``), so the files cost what the schema costs (a message holding
the next in a chain of thousands stays linear) and a recursive message
refers to itself (``"#"``). The package's ``python -m PKG schema`` bundles
one message with every message it reaches into a single document (2020-12
embedded resources: each under ``$defs`` with its own ``$id``).

Each file starts with a ``$comment`` holding the generated marker (JSON has
no comments), so the output stage knows it for the tool's own."""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from ..schema.proto_facts import FLOAT_TYPES, INT_BOUNDS, plain_number
from ..schema.schema import Field, Message, Schema, shortest_float32_text
from .doctext import is_hidden, visible
from .records import FieldModel, Header, JsonSchemaFile, RenamedModel, TypedDictModel

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SUFFIX = JsonSchemaFile.SUFFIX
# the largest finite float and double: a document's number beyond them is out of range
FLOAT_MAX = {"float": 3.4028234663852886e38, "double": 1.7976931348623157e308}
# standard base64 with padding (the JSON mapping of bytes)
# a pattern's guard: Python's $ also matches before a final line break, ECMA's does not
NO_LINE_BREAK = r"(?!.*\n)"
BASE64 = NO_LINE_BREAK.join(
    ("^", r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
)
# a 64-bit integer may be written as a string of digits (the JSON mapping); at most 20
DIGITS_MAX = 20
# runs of characters that may hold a hidden one (all but printable ASCII and layout)
_SUSPECT = re.compile(r"[^\t\n\x20-\x7e]+")
# a document may name the schema it is written against (for editors; loading ignores it)
SCHEMA_KEY = {
    "type": "string",
    "description": "The JSON Schema this document is written against, for editors; loading ignores it.",
}
_WIDE_INTS = frozenset(t for t in INT_BOUNDS if t.endswith("64"))

# protobuf's JSON mapping of the well-known types (json_format reads them)
_DURATION = NO_LINE_BREAK.join(("^", r"-?[0-9]+(?:\.[0-9]{1,9})?s$"))
_JSON_VALUE: dict[str, Any] = {
    "type": ["null", "boolean", "number", "string", "array", "object"]
}
WELL_KNOWN: dict[str, dict[str, Any]] = {
    "google.protobuf.Timestamp": {
        "type": "string",
        "format": "date-time",
        "description": 'A point in time, RFC 3339: "2024-05-01T12:00:00Z".',
    },
    "google.protobuf.Duration": {
        "type": "string",
        "pattern": _DURATION,
        "description": 'A span of time in seconds with an "s" suffix: "1.5s".',
    },
    "google.protobuf.FieldMask": {
        "type": "string",
        "description": 'Field paths separated by commas, in lowerCamelCase: "a.b,c".',
    },
    "google.protobuf.Empty": {"type": "object", "additionalProperties": False},
    "google.protobuf.Struct": {"type": "object"},
    "google.protobuf.ListValue": {"type": "array"},
    "google.protobuf.Value": {
        **_JSON_VALUE,
        "description": "Any JSON value.",
    },
    "google.protobuf.Any": {
        "type": "object",
        "required": ["@type"],
        "properties": {"@type": {"type": "string"}},
        "description": 'A message of any type, named by "@type".',
    },
    **{
        f"google.protobuf.{name}Value": {"$ref": f"#/$defs/{proto}"}
        for name, proto in (
            ("Double", "double"),
            ("Float", "float"),
            ("Int64", "int64"),
            ("UInt64", "uint64"),
            ("Int32", "int32"),
            ("UInt32", "uint32"),
            ("Bool", "bool"),
            ("String", "string"),
            ("Bytes", "bytes"),
        )
    },
}


def json_schemas(
    schema: Schema,
    fields: Mapping[tuple[str, str], FieldModel],
    typed_dicts: Iterable[TypedDictModel],
    header: Header,
    roots: tuple[str, ...] | None,
    renamed: Iterable[RenamedModel] = (),
) -> tuple[JsonSchemaFile, ...]:
    """Every message's schema (map entries aside): the ``roots`` first, in
    their order, then the others in full-name order. ``fields``: the
    model's record of each field, by (message, field name); ``typed_dicts``:
    the messages' TypedDicts, whose docs (laid out) the descriptions are;
    ``roots``: the messages the package is about (None: those no other
    message holds); ``renamed``: the fields' old names, which documents may
    still use (``deprecated``, never beside the new name)."""
    docs = {td.full_name: td for td in typed_dicts}
    old_names: dict[str, list[RenamedModel]] = {}
    for r in renamed:
        old_names.setdefault(r.message, []).append(r)
    messages = [m for m in schema.messages.values() if not m.is_map_entry]
    held = {
        type_name
        for m in messages
        for f in m.fields
        for type_name in [_held(schema, f)]
        if type_name and type_name != m.full_name
    }
    if roots is None:
        roots = tuple(sorted(m.full_name for m in messages if m.full_name not in held))
    comment = (
        f"@generated by fleet-strategy-codegen {header.generator_version}."
        f" DO NOT EDIT. Regenerate: {header.command}"
    )
    files = []
    order = {name: i for i, name in enumerate(roots)}
    for m in sorted(
        messages, key=lambda m: (order.get(m.full_name, len(order)), m.full_name)
    ):
        td = docs[m.full_name]
        key_docs = {k.key: k.doc for k in td.keys}
        document = _MessageSchema(
            schema, fields, m, key_docs, old_names.get(m.full_name, ())
        ).document(comment, td.doc)
        text = json_text(document)
        files.append(
            JsonSchemaFile(full_name=m.full_name, text=text, root=m.full_name in order)
        )
    return tuple(files)


def _held(schema: Schema, f: Field) -> str | None:
    """The local message a field holds (its map's value), if any."""
    value = f.map_value if f.map_value is not None else f
    if value.type == "message" and value.type_name in schema.messages:
        return value.type_name
    return None


def json_text(document: object) -> str:
    """``json.dumps(document, indent=2, ensure_ascii=False)`` and a line
    break, made fast (the C encoder writes it compact, msgspec lays it out
    with the same indentation, copying every token as it is), with every
    hidden character (doctext.is_hidden: controls, bidi and other format
    characters) written as a JSON escape: the value stays the same, the file
    shows no such character raw."""
    compact = json.dumps(document, ensure_ascii=False)
    text = msgspec.json.format(compact.encode("utf-8"), indent=2).decode("utf-8")
    return _SUSPECT.sub(_escaped_run, text) + "\n"


def _escaped_run(match: re.Match[str]) -> str:
    run = match.group()
    if run.isprintable():  # (most such runs: words of other scripts)
        return run
    return "".join(_json_escape(ch) if is_hidden(ch) else ch for ch in run)


def _json_escape(char: str) -> str:
    return json.dumps(char, ensure_ascii=True)[1:-1]


class _MessageSchema:
    """The schema of one message; collects the well-known types it uses."""

    def __init__(
        self,
        schema: Schema,
        fields: Mapping[tuple[str, str], FieldModel],
        message: Message,
        key_docs: Mapping[str, str],
        renamed: Iterable[RenamedModel] = (),
    ) -> None:
        self.schema, self.fields, self.message = schema, fields, message
        self.renamed = tuple(renamed)  # old names of its fields
        self.key_docs = key_docs  # as the TypedDict's keys hold them, laid out
        self.defs: dict[str, Any] = {}

    def document(self, comment: str, doc: str) -> dict[str, Any]:
        m = self.message
        out: dict[str, Any] = {
            "$comment": comment,  # first: the generated marker (output.files.MARKERS)
            "$schema": DIALECT,
            "$id": m.full_name + SUFFIX,
            "title": m.name,
        }
        if doc:
            out["description"] = visible(doc)  # as the docs show it
        if m.deprecated:
            out["deprecated"] = True
        out["type"] = "object"
        out["properties"] = {f.name: self.field(f) for f in m.fields}
        by_name = {f.name: f for f in m.fields}
        for r in self.renamed:  # an old name reads as the new one, with a warning
            until = f", works until {r.removed_in}" if r.removed_in else ""
            out["properties"][r.old] = {
                **self.field(by_name[r.new]),
                "description": f"Deprecated: use {r.new} (renamed in {r.since}{until}).",
                "deprecated": True,
            }
        out["properties"]["$schema"] = SCHEMA_KEY  # no field has a "$" in its name
        out["additionalProperties"] = False
        oneofs = self.oneofs()
        for r in self.renamed:  # never both names of one field
            oneofs[r.old] = {"not": {"required": [r.new]}}
        if oneofs:
            out["dependentSchemas"] = oneofs
        if self.defs:
            out["$defs"] = dict(sorted(self.defs.items()))
        return out

    def oneofs(self) -> dict[str, Any]:
        """At most one member of each oneof: a member present, every
        member's name present is its own (linear: the members are listed once,
        in ``$defs``)."""
        found: dict[str, Any] = {}
        for oneof in self.message.oneofs:
            members = [f.name for f in self.message.fields if f.oneof == oneof]
            if len(members) < 2:
                continue
            ref = f"oneof {oneof}"
            self.defs[ref] = {
                "description": f"The members of the oneof {oneof!r}: a document sets at most one.",
                "enum": members,
            }
            for name in members:
                found[name] = {
                    "propertyNames": {
                        "if": {"$ref": f"#/$defs/{ref}"},
                        "then": {"const": name},
                    }
                }
        return found

    def field(self, f: Field) -> dict[str, Any]:
        record = self.fields[self.message.full_name, f.name]
        if f.map_key is not None and f.map_value is not None:
            out: dict[str, Any] = {
                "type": "object",
                "propertyNames": self.map_key(f.map_key),
                "additionalProperties": self.value(f.map_value, record),
            }
        elif f.repeated:
            out = {"type": "array", "items": self.value(f, record)}
        else:
            out = self.value(f, record)
        doc = self.key_docs.get(f.name)
        if doc:
            out["description"] = visible(doc)
        default = self.default(f)
        if default is not None:
            out["default"] = default
        if f.deprecated:
            out["deprecated"] = True
        return out

    def value(self, f: Field, record: FieldModel) -> dict[str, Any]:
        """What one value of the field (an item, a map's value) may be."""
        if f.type == "message":
            return self.message_ref(f.type_name or "")
        if f.type == "enum":
            enum = self.schema.enums.get(f.type_name or "")
            names = [v.name for v in enum.values] if enum else []
            return {"enum": names} if enum else {"type": "string"}
        return scalar(f.type, record.constraint, record.choices)

    def message_ref(self, full_name: str) -> dict[str, Any]:
        if full_name == self.message.full_name:
            return {"$ref": "#"}
        if full_name in self.schema.messages:
            return {"$ref": full_name + SUFFIX}
        known = WELL_KNOWN.get(full_name)
        if (
            known is None
        ):  # a message of an imported file: its fields are not known here
            return {"type": "object", "description": f"A {full_name} message."}
        self.defs[full_name] = known
        wrapped = known.get("$ref", "").removeprefix("#/$defs/")
        if wrapped:
            self.defs[wrapped] = scalar(wrapped, None, None)
        return {"$ref": f"#/$defs/{full_name}"}

    def map_key(self, key: Field) -> dict[str, Any]:
        """A map's keys are strings: integers in decimal, bools as true/false."""
        if key.type == "bool":
            return {"enum": ["true", "false"]}
        if key.type in INT_BOUNDS:
            low, high = INT_BOUNDS[key.type]
            return {"pattern": int_string_pattern(low, high, None)}
        return {"type": "string"}

    def default(self, f: Field) -> object:
        """The default as a document writes it (None: not stated: messages,
        lists, maps, non-finite floats)."""
        if f.repeated or f.type == "message":
            return None
        value = f.default
        if f.type == "enum":
            enum = self.schema.enums.get(f.type_name or "")
            return (
                next((v.name for v in enum.values if v.number == value), None)
                if enum
                else None
            )
        if f.type in FLOAT_TYPES:
            number = float(value)  # type: ignore[arg-type]
            if number != number or number in (float("inf"), float("-inf")):
                return None
            return float(shortest_float32_text(number)) if f.type == "float" else number
        if f.type == "bytes":
            return base64.b64encode(bytes(value)).decode("ascii")  # type: ignore[call-overload]
        return value


def scalar(
    proto_type: str,
    constraint: tuple[str, float] | None,
    choices: tuple[str, ...] | None,
) -> dict[str, Any]:
    """A scalar value of ``proto_type``, with the annotations' bound and choices."""
    if proto_type == "bool":
        return {"type": "boolean"}
    if proto_type == "string":
        return (
            {"type": "string", "enum": list(choices)} if choices else {"type": "string"}
        )
    if proto_type == "bytes":
        return {"type": "string", "contentEncoding": "base64", "pattern": BASE64}
    if proto_type in FLOAT_TYPES:
        return _float(proto_type, constraint)
    return _integer(proto_type, constraint)


def _float(proto_type: str, constraint: tuple[str, float] | None) -> dict[str, Any]:
    most = FLOAT_MAX[proto_type]
    out: dict[str, Any] = {"type": "number", "minimum": -most, "maximum": most}
    if constraint:
        op, bound = constraint
        bound = plain_number(bound)
        keyword = {
            ">": "exclusiveMinimum",
            ">=": "minimum",
            "<": "exclusiveMaximum",
            "<=": "maximum",
        }.get(op)
        if keyword == "minimum":
            out["minimum"] = max(bound, -most)
        elif keyword == "maximum":
            out["maximum"] = min(bound, most)
        elif keyword:
            out[keyword] = bound
        else:
            out["not"] = {"const": bound}
    return out


def _integer(proto_type: str, constraint: tuple[str, float] | None) -> dict[str, Any]:
    """An integer within its type's range and the annotations' bound; a
    64-bit one also as a string of digits (the JSON mapping), the same range
    spelled as a pattern."""
    low, high = INT_BOUNDS[proto_type]
    excluded: int | None = None
    if constraint:
        op, bound = constraint
        floor, ceil = _floor(bound), -_floor(-bound)
        if op == ">":
            low = max(low, floor + 1)
        elif op == ">=":
            low = max(low, ceil)
        elif op == "<":
            high = min(high, ceil - 1)
        elif op == "<=":
            high = min(high, floor)
        elif float(bound).is_integer():  # !=: only an integer bound excludes a value
            excluded = int(bound)
    number: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if excluded is not None:
        number["not"] = {"const": excluded}
    if proto_type not in _WIDE_INTS:
        return number
    return {
        "anyOf": [
            number,
            {"type": "string", "pattern": int_string_pattern(low, high, excluded)},
        ]
    }


def _floor(value: float) -> int:
    return math.floor(value)


# ------------------------------------------------ integers as digit strings


def int_string_pattern(low: int, high: int, excluded: int | None) -> str:
    """A regex matching exactly the strings of ``^-?[0-9]{1,20}$`` (leading
    zeros allowed, ``-0`` is zero) whose value is in ``low..high`` and is
    not ``excluded``."""
    if low > high:
        return "(?!)"
    parts = []
    if high >= 0:  # the values 0..high, or max(low, 0)..high
        parts.append(_between(max(low, 0), high))
    if low <= 0:  # -0, and the negative values down to low
        negative = _between(max(-high, 1), -low) if low < 0 else None
        zero = "0+" if high >= 0 else None
        body = "|".join(p for p in (zero, negative) if p)
        if body:
            parts.append(f"-(?:{body})")
    not_excluded = ""
    if excluded is not None:
        sign = "-" if excluded < 0 else "-?" if excluded == 0 else ""
        not_excluded = f"(?!{sign}0*{abs(excluded) or ''}$)"
    digits = f"(?=-?[0-9]{{1,{DIGITS_MAX}}}$)"
    return f"^{NO_LINE_BREAK}{digits}{not_excluded}(?:{'|'.join(parts)})$"


def _between(low: int, high: int) -> str:
    """Digits (leading zeros allowed) of a value in ``low..high`` (both >= 0)."""
    if low > high:
        return "(?!)"
    top = _at_most(high)
    if low == 0:
        return f"0*{top}" if high else "0+"
    return f"0*(?!{_at_most(low - 1)}$){top}"


def _at_most(n: int) -> str:
    """Digits without leading zeros of a value in ``0..n`` (``n`` >= 0)."""
    if n == 0:
        return "0"
    digits = str(n)
    size = len(digits)
    options = ["0"]
    if size > 1:  # shorter numbers
        options.append("[1-9]" if size == 2 else f"[1-9][0-9]{{0,{size - 2}}}")
    for i, d in enumerate(digits):  # as long: the first smaller digit at i
        first = "1" if i == 0 else "0"
        if int(d) > int(first):
            rest = size - i - 1
            tail = f"[0-9]{{{rest}}}" if rest > 1 else "[0-9]" if rest else ""
            span = first if int(d) - 1 == int(first) else f"[{first}-{int(d) - 1}]"
            options.append(f"{digits[:i]}{span}{tail}")
    options.append(digits)
    return "(?:" + "|".join(options) + ")"
