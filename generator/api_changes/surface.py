"""The API surface of a generation: what users see of the model, plus the
schema's wire facts, as typed records (msgspec Structs) built from the
schema stage's facts and the model's records. The manifest keeps it as JSON
(``surface_json``); a stored one is read back with ``decode_surface``, which
rejects a damaged record with a ``SurfaceError``."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ..model.records import (
    FieldModel,
    PackageModel,
    PolicyModel,
    PropertyKind,
    PropertyModel,
    TypedDictKey,
)
from ..schema.proto_facts import finite_only, json_name, plain_number
from ..schema.schema import Field, Label, Schema

SURFACE_VERSION = 2
# Records this generator compares: version 1 also stored every field's path,
# which is now derived from the surface (generator.api_changes.paths), so
# its "path" keys are ignored.
READABLE_VERSIONS = (1, 2)

Enforce = Literal[
    "always", "strict"
]  # where a constraint holds: both modes, or strict only
Range = tuple[int, int]  # reserved numbers, both ends included
# A stored record is read as untrusted data (a pull request may have edited
# the manifest): the strings the report takes apart are checked by pattern.
_SCALAR = "double|float|int32|int64|uint32|uint64|sint32|sint64|fixed32|fixed64|sfixed32|sfixed64|bool|string|bytes"
_NAMED = r"(message|enum) \.?[A-Za-z_][A-Za-z0-9_.]*"
FieldType = Annotated[
    str,
    msgspec.Meta(
        pattern=f"^({_SCALAR}|{_NAMED}|map<({_SCALAR}), ({_SCALAR}|{_NAMED})>)$"
    ),
]
Constraint = Annotated[
    str,
    msgspec.Meta(pattern=r"^(>=|<=|!=|>|<) [-+]?(\d+(\.\d*)?([eE][-+]?\d+)?|inf|nan)$"),
]


# Every record leaves out the values a field usually has (its defaults), to keep
# the manifest small; the order of the attributes is the order of the JSON keys.
class FieldFacts(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    """One field: its wire facts, then what the model made of it."""

    number: int
    label: Label = "optional"
    type: (
        FieldType  # "int32", "enum pkg.Kind", "message pkg.Inner", "map<string, int32>"
    )
    json_name: str | None = None  # a declared one that is not protoc's own
    oneof: str | None = None
    implicit: bool = False  # proto3 implicit presence: unset and zero look the same
    deprecated: bool = False
    default: str | None = None  # as the docs show it; None for messages and lists
    in_type: str
    out_type: str
    policy: str | None = None  # compatible mode's answer: "warn", "raise ValueError"
    constraint: Constraint | None = None  # "> 0"
    enforce: Enforce | None = None  # set with constraint
    choices: tuple[str, ...] | None = None
    finite: bool = False  # strict mode rejects NaN and infinity
    append: bool = False  # assigning a list appends to the stored one
    path: str | None = None  # version 1 stored each field's path; ignored
    # annotations: old names still accepted (renamed_from), each "old" or "old until V";
    # deprecated: "since S" or "since S until V"
    renamed_from: tuple[str, ...] = ()
    deprecation: str | None = None

    def json_name_or_derived(self, name: str) -> str:
        """The field's JSON name (``name``: the field's)."""
        return self.json_name or json_name(name)

    @property
    def message_type(self) -> str | None:
        """The message a singular message field holds."""
        kind, _, name = self.type.partition(" ")
        return name if kind == "message" and self.label != "repeated" else None


class MessageFacts(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    typed_dicts: tuple[str, ...]  # its output and input TypedDicts
    reserved_numbers: tuple[Range, ...] = ()
    reserved_names: tuple[str, ...] = ()
    deprecated: bool = False
    fields: dict[str, FieldFacts]


class EnumFacts(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    literal: str  # the Literal alias of its value names
    values: dict[str, int]
    deprecated: tuple[str, ...] = ()  # deprecated values
    reserved_numbers: tuple[Range, ...] = ()
    reserved_names: tuple[str, ...] = ()


class PropertyFacts(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    field: str | None = None  # None: a property only hooks compute
    kind: PropertyKind
    getter_type: str
    setter_type: str | None = None  # None: read-only
    hooks: str | None = None  # "getter=h setter=h after_set=h", the ones it has


class ClassFacts(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    message: str
    properties: dict[str, PropertyFacts]


class RuleFacts(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A rule between fields (annotations' ``rules:``) that lint() reports."""

    message: str
    kind: str
    fields: tuple[str, ...]
    winner: str | None  # stored even when None
    data: str  # the runtime's data, as its repr


class Surface(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
):
    version: int
    classes: dict[str, ClassFacts]
    messages: dict[str, MessageFacts]
    enums: dict[str, EnumFacts]
    # a record without the key: no rules (so older records compare as they are)
    rules: dict[str, RuleFacts] = msgspec.field(default_factory=dict)
    schema_version: str | None = None  # annotations' version: what removed_in is due


class SurfaceError(ValueError):
    """A stored API surface that cannot be read: its message says where and
    what was expected (msgspec's ``at $.messages[...]``)."""


def decode_surface(data: bytes | str | object) -> Surface:
    """A stored surface: JSON text, or the object ``json.loads`` gave for it
    (the manifest's ``"api"``). A damaged record or one in a format this
    generator does not read raises SurfaceError."""
    try:
        if isinstance(data, (bytes, bytearray, memoryview, str)):
            surface = msgspec.json.decode(data, type=Surface)
        else:
            surface = msgspec.convert(data, Surface)
    # (msgspec before 0.19 raises UnicodeDecodeError for bytes that are not UTF-8)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise SurfaceError(f"the API record is damaged: {exc}") from None
    except RecursionError:  # nested deeper than any record is
        raise SurfaceError("the API record is damaged: nested too deeply") from None
    if surface.version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise SurfaceError(
            f"the API record has format version {surface.version}; "
            f"this generator reads versions {readable}"
        )
    return surface


def surface_json(surface: Surface) -> dict[str, object]:
    """The surface as the JSON-able dict the manifest keeps (stable key order)."""
    # through JSON text, not to_builtins: that keeps tuples, which JSON reads back as lists
    data: dict[str, object] = msgspec.json.decode(msgspec.json.encode(surface))
    return data


def empty_surface() -> Surface:
    """The surface of nothing (the inputs did not exist at the ref)."""
    return Surface(version=SURFACE_VERSION, classes={}, messages={}, enums={})


# ------------------------------------------------------------------ building


def api_surface(schema: Schema, model: PackageModel) -> Surface:
    """What users see of ``model`` (and the wire facts of ``schema``), in a
    stable order: the manifest keeps it."""
    return Surface(
        version=SURFACE_VERSION,
        classes={
            c.name: ClassFacts(
                message=c.message_full_name,
                properties={
                    p.name: _property(p)
                    for p in sorted(c.properties, key=lambda p: p.name)
                },
            )
            for c in sorted(model.classes, key=lambda c: c.name)
        },
        messages=_messages(schema, model),
        enums=_enums(schema, model),
        rules={
            r.code: RuleFacts(
                message=r.message,
                kind=r.kind,
                fields=r.names,
                winner=r.wins or None,
                data=repr(r.runtime),
            )
            for r in sorted(model.rules, key=lambda r: r.code)
        },
        schema_version=model.reference.version,
    )


def _messages(schema: Schema, model: PackageModel) -> dict[str, MessageFacts]:
    tds = {td.full_name: td for td in model.typed_dicts}
    records = {(f.message, f.name): f for f in model.fields}
    policies = dict(model.overrides.policies)
    renamed: dict[tuple[str, str], list[str]] = {}
    for r in model.overrides.renamed:
        until = f" until {r.removed_in}" if r.removed_in else ""
        renamed.setdefault((r.message, r.new), []).append(r.old + until)
    deprecations = {
        (d.message, d.field): f"since {d.since}"
        + (f" until {d.removed_in}" if d.removed_in else "")
        for d in model.overrides.deprecated
    }
    messages: dict[str, MessageFacts] = {}
    for full in sorted(schema.messages):
        message = schema.messages[full]
        if message.is_map_entry:
            continue
        keys = {k.key: k for k in tds[full].keys}
        fields = {}
        for f in message.fields:
            record = records[full, f.name]
            policy = policies.get(record.policy or "")
            fields[f.name] = msgspec.structs.replace(
                _field(f, record, keys[f.name], policy),
                renamed_from=tuple(sorted(renamed.get((full, f.name), ()))),
                deprecation=deprecations.get((full, f.name)),
            )
        messages[full] = MessageFacts(
            typed_dicts=(tds[full].out_name, tds[full].in_name),
            # `or ()`: an empty tuple msgspec 0.18 omits as the default is the singleton ()
            reserved_numbers=message.reserved_numbers or (),
            reserved_names=tuple(sorted(message.reserved_names)),
            deprecated=message.deprecated,
            fields=fields,
        )
    return messages


def _field(
    f: Field, record: FieldModel, key: TypedDictKey, policy: PolicyModel | None
) -> FieldFacts:
    """A field's wire facts, then its default, types and validation as the model decided them."""
    constraint = record.constraint
    return FieldFacts(
        number=f.number,
        label=f.label,
        type=_type_text(f),
        json_name=f.json_name,
        oneof=f.oneof,
        implicit=not f.repeated and not f.has_presence,
        deprecated=f.deprecated,
        default=None if f.type == "message" or f.repeated else record.default_text,
        in_type=key.in_type,
        out_type=key.out_type,
        policy=(
            policy.action + (f" {policy.error}" if policy.error else "")
            if policy
            else None
        ),
        constraint=(
            f"{constraint[0]} {plain_number(constraint[1])}" if constraint else None
        ),
        enforce=(
            ("always" if record.constraint_always else "strict") if constraint else None
        ),
        choices=record.choices or None,
        finite=finite_only(f.type, record.allow_nonfinite),
        append=record.append,
    )


def _type_text(f: Field) -> str:
    if f.map_key is not None and f.map_value is not None:
        return f"map<{_type_text(f.map_key)}, {_type_text(f.map_value)}>"
    return f"{f.type} {f.type_name}" if f.type_name else f.type


def _enums(schema: Schema, model: PackageModel) -> dict[str, EnumFacts]:
    enums = {}
    for e in sorted(model.enums, key=lambda e: e.full_name):
        declared = schema.enums.get(e.full_name)
        enums[e.full_name] = EnumFacts(
            literal=e.literal_name,
            values={name: number for name, number, _ in e.values},
            # the schema keeps no reservations or deprecations of an imported enum
            deprecated=(
                tuple(sorted(v.name for v in declared.values if v.deprecated))
                if declared
                else ()
            ),
            reserved_numbers=(declared.reserved_numbers or ()) if declared else (),
            reserved_names=tuple(sorted(declared.reserved_names)) if declared else (),
        )
    return enums


def _property(p: PropertyModel) -> PropertyFacts:
    roles = (
        ("getter", p.getter_hook),
        ("setter", p.setter_hook),
        ("after_set", p.after_set_hook),
    )
    return PropertyFacts(
        field=p.field_name,
        kind=p.kind,
        getter_type=p.getter_type,
        setter_type=p.setter_type,
        hooks=" ".join(f"{role}={hook}" for role, hook in roles if hook) or None,
    )
