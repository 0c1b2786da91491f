"""API change report: what an edit of the inputs changes for the users of the
generated package.

Both sides are *API surfaces*: plain JSON-able dicts extracted, by
``api_surface``, from the same PackageModel the templates render (property
names, kinds and types, TypedDict keys and types, validation specs, enum
values) plus the schema's wire facts (field numbers, labels, wire types, JSON
names, ``reserved``, ``deprecated``). ``compare`` classifies every difference
by a named rule (``RULES``) into one of three categories:

* ``breaking``: code or data that worked before fails or means something else
  (a property, key, message or enum value removed or renamed, a type that
  rejects old values, a changed default, tightened validation, and the wire
  rules of buf's WIRE/WIRE_JSON categories);
* ``behaviour``: visible, but every value that was valid stays valid
  (validation loosened, a type widened, ``deprecated`` added, other hooks);
* ``addition``: new classes, properties, keys, messages, enums, enum values.

Where the "before" side comes from: every ``generate`` records the surface it
emitted in the manifest (``"api"``), so ``check`` and ``generate`` compare with
exactly what is in the output folder, with or without git; ``check --against
REF`` rebuilds the surface from the inputs as they are at a git ref
(``inputs_at_ref`` copies them out with ``git show``; the caller runs the
stages on the copy). A hand edit of the manifest's record is itself drift.

Where users meet each change (its *path*: ``Class.prop['key']``) is worked
out from a surface when a change is reported (``FieldPaths``), not stored per
field: a field nested n messages deep has a path of length n, so storing them
made the record grow with the square of a chain of nested messages.

Breaking changes can be accepted in the annotations file (``accepted_changes``:
rule, path, reason), so the acknowledgement is reviewed with the edit.
"""

from __future__ import annotations

import ast
import bisect
import heapq
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from google.protobuf import descriptor_pb2 as d

from .annotations import AcceptedChange, Annotations, closest
from .errors import GeneratorError, Problem
from .model import INT_BOUNDS, PackageModel, default_text
from .schema import Field, Schema

SURFACE_VERSION = 2
# Records this generator compares: version 1 also stored every field's path,
# which is now derived from the surface, so its "path" keys are ignored.
READABLE_VERSIONS = (1, 2)
CATEGORIES = ("breaking", "behaviour", "addition")

# rule -> (category, what it means); the README lists the same table.
RULES: dict[str, tuple[str, str]] = {
    "class-removed": ("breaking", "a wrapper class is gone"),
    "class-renamed": ("breaking", "a wrapper class has a new name"),
    "property-removed": ("breaking", "a property is gone (its field may remain, without a property)"),
    "property-renamed": ("breaking", "a property has a new name (same field)"),
    "property-type-changed": ("breaking", "a property's getter or setter type changed, or it became read-only"),
    "message-removed": ("breaking", "a message (its TypedDicts and protobuf class) is gone"),
    "enum-removed": ("breaking", "an enum (its Literal) is gone"),
    "enum-value-removed": ("breaking", "an enum value is gone"),
    "enum-value-renamed": ("breaking", "an enum number has a new name"),
    "enum-value-number-changed": ("breaking", "an enum value has a new number (wire)"),
    "field-removed": ("breaking", "a field (property or config key) is gone"),
    "field-renamed": ("breaking", "a field number has a new name (WIRE_JSON, text format)"),
    "field-number-changed": ("breaking", "a field has a new number (WIRE)"),
    "field-number-reused": ("breaking", "a removed field's number now belongs to a field of another type (WIRE)"),
    "reserved-reused": ("breaking", "a field or enum value uses a number or name that was reserved (WIRE)"),
    "reserved-removed": ("breaking", "a message or enum no longer reserves a number or name (WIRE)"),
    "type-changed": ("breaking", "a field's type changed so that old values are rejected"),
    "wire-type-changed": ("breaking", "a field's wire encoding changed (WIRE)"),
    "label-changed": ("breaking", "optional/required/repeated changed (WIRE)"),
    "required-field-added": ("breaking", "a new proto2 required field: old data fails to parse"),
    "oneof-changed": ("breaking", "a field moved into, out of or between oneofs (WIRE)"),
    "presence-removed": ("breaking", "a field lost presence: HasField fails, unset and zero look the same"),
    "json-name-changed": ("breaking", "a field's JSON name changed (WIRE_JSON)"),
    "default-changed": ("breaking", "a field's default changed"),
    "constraint-tightened": ("breaking", "a constraint was added or now rejects values it accepted"),
    "choices-tightened": ("breaking", "allowed string choices were added or narrowed"),
    "nonfinite-rejected": ("breaking", "strict mode now rejects NaN and infinity"),
    "policy-tightened": ("breaking", "compatible mode now raises (or raises another error) where it warned"),
    "repeated-mode-changed": ("breaking", "assigning a list now appends instead of replacing, or back"),
    "type-widened": ("behaviour", "a field's type accepts more values; every old value stays valid"),
    "presence-added": ("behaviour", "a field gained presence (HasField works)"),
    "constraint-loosened": ("behaviour", "a constraint was removed or accepts more values"),
    "choices-loosened": ("behaviour", "allowed string choices were removed or widened"),
    "nonfinite-allowed": ("behaviour", "strict mode now accepts NaN and infinity"),
    "policy-loosened": ("behaviour", "compatible mode now warns where it raised"),
    "deprecated-added": ("behaviour", "a field, message or enum value is marked deprecated"),
    "hook-changed": ("behaviour", "a property is read or written through another hook"),
    "class-added": ("addition", "a new wrapper class"),
    "property-added": ("addition", "a new property"),
    "message-added": ("addition", "a new message (TypedDicts, protobuf class)"),
    "field-added": ("addition", "a new field (property or config key)"),
    "enum-added": ("addition", "a new enum"),
    "enum-value-added": ("addition", "a new enum value"),
    "rule-added": ("addition", "a new rule between fields: lint() may report it"),
    "rule-removed": ("behaviour", "a rule between fields is gone: lint() no longer reports its code"),
    "rule-changed": ("behaviour", "a rule's condition, fields or winner changed: lint() reports it in other cases"),
}

# Wire encodings (protobuf's wire types; varint and zigzag varint told apart).
_WIRE = {
    **dict.fromkeys(("int32", "int64", "uint32", "uint64", "bool", "enum"), "varint"),
    **dict.fromkeys(("sint32", "sint64"), "zigzag varint"),
    **dict.fromkeys(("fixed32", "sfixed32", "float"), "32-bit"),
    **dict.fromkeys(("fixed64", "sfixed64", "double"), "64-bit"),
    **dict.fromkeys(("string", "bytes", "message", "map"), "length-delimited"),
}
# Strictness of a compatible-mode policy: warn keeps the old value, the others raise.
_POLICY_RANK = {"warn": 0, "passthrough": 1, "raise": 1}


# ------------------------------------------------------------------ surface


def api_surface(schema: Schema, model: PackageModel) -> dict[str, Any]:
    """What users see of ``model`` (and the wire facts of ``schema``), as a
    JSON-able dict with a stable order: the manifest keeps it."""
    wire = _descriptor_facts(schema)
    typed = {td.full_name: {k.key: k for k in td.keys} for td in model.typed_dicts}
    tds = {td.full_name: td for td in model.typed_dicts}
    records = {(f.message, f.name): f for f in model.fields}
    policies = dict(model.overrides.policies)
    messages: dict[str, Any] = {}
    for full in sorted(schema.messages):
        message = schema.messages[full]
        if message.is_map_entry:
            continue
        facts = wire.get(full, {})
        fields: dict[str, Any] = {}
        for f in message.fields:
            spec, key = records[full, f.name], typed[full][f.name]
            policy = policies[spec.policy] if spec.policy else None
            fact = _field_wire(f, facts.get("fields", {}).get(f.name, {}))
            fact.update(
                {
                    "default": None if f.type == "message" or f.repeated else default_text(schema, f),
                    "in_type": key.in_type,
                    "out_type": key.out_type,
                    "policy": (policy.action + (f" {policy.error}" if policy.error else "")) if policy else None,
                    "constraint": f"{spec.constraint[0]} {_number(spec.constraint[1])}" if spec.constraint else None,
                    "enforce": ("always" if spec.constraint_always else "strict") if spec.constraint else None,
                    "choices": list(spec.choices) if spec.choices else None,
                    "finite": f.type in ("float", "double") and not spec.allow_nonfinite,
                    "append": spec.append,
                }
            )
            fields[f.name] = {k: v for k, v in fact.items() if v not in (None, False, [])}
        entry = {
            "typed_dicts": [tds[full].out_name, tds[full].in_name],
            "reserved_numbers": facts.get("reserved_numbers", []),
            "reserved_names": facts.get("reserved_names", []),
            "deprecated": facts.get("deprecated", False),
            "fields": fields,
        }
        messages[full] = {k: v for k, v in entry.items() if v not in (False, [])}
    enums = {
        e.full_name: {
            "literal": e.literal_name,
            "values": {name: number for name, number, _ in e.values},
            **{k: v for k, v in wire.get(e.full_name, {}).items() if v},  # deprecated values, reserved
        }
        for e in sorted(model.enums, key=lambda e: e.full_name)
    }
    classes = {
        c.name: {
            "message": c.message_full_name,
            "properties": {
                p.name: {
                    k: v
                    for k, v in {
                        "field": p.field_name,
                        "kind": p.kind,
                        "getter_type": p.getter_type,
                        "setter_type": p.setter_type,
                        "hooks": " ".join(
                            f"{role}={hook}"
                            for role, hook in (("getter", p.getter_hook), ("setter", p.setter_hook), ("after_set", p.after_set_hook))
                            if hook
                        ) or None,
                    }.items()
                    if v is not None
                }
                for p in sorted(c.properties, key=lambda p: p.name)
            },
        }
        for c in sorted(model.classes, key=lambda c: c.name)
    }
    surface = {"version": SURFACE_VERSION, "classes": classes, "messages": messages, "enums": enums}
    if model.rules:  # a record without the key: no rules (so older records compare as they are)
        surface["rules"] = {
            r.code: {"message": r.message, "kind": r.kind, "fields": list(r.names), "winner": r.wins or None,
                     "data": repr(r.runtime)}
            for r in sorted(model.rules, key=lambda r: r.code)
        }
    return surface


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _type_text(f: Field) -> str:
    if f.is_map:
        return f"map<{_type_text(f.map_key)}, {_type_text(f.map_value)}>"  # type: ignore[arg-type]
    return f"{f.type} {f.type_name}" if f.type_name else f.type


def _field_wire(f: Field, facts: dict[str, Any]) -> dict[str, Any]:
    """Wire facts; the usual values (optional, protoc's JSON name, presence of
    a singular field) are left out to keep the manifest's record small."""
    json_name = facts.get("json_name")
    return {
        "number": f.number,
        "label": None if f.label == "optional" else f.label,
        "type": _type_text(f),
        "json_name": None if json_name == _default_json_name(f.name) else json_name,
        "oneof": f.oneof,
        "implicit": not f.repeated and not f.has_presence,  # proto3: no presence
        "deprecated": facts.get("deprecated", False),
    }


def _same_default(old: object, new: object) -> bool:
    """Equal defaults, however spelt: a record written by another generator
    version may spell 50.0 as protoc does (5e+01)."""
    if old == new:
        return True
    try:
        return bool(ast.literal_eval(str(old)) == ast.literal_eval(str(new)))
    except (ValueError, SyntaxError):
        return False


def _default_json_name(name: str) -> str:
    """protoc's JSON name of a field: lowerCamelCase, as protobuf's ToJsonName."""
    out, upper = [], False
    for ch in name:
        if ch == "_":
            upper = True
        else:
            out.append(ch.upper() if upper else ch)
            upper = False
    return "".join(out)


def _label(fact: dict[str, Any]) -> str:
    return str(fact.get("label", "optional"))


def _json_name(name: str, fact: dict[str, Any]) -> str:
    return str(fact.get("json_name") or _default_json_name(name))


def _descriptor_facts(schema: Schema) -> dict[str, Any]:
    """Facts the schema stage does not keep: reserved, json_name, deprecated."""
    out: dict[str, Any] = {}
    for raw in schema.file_protos:
        fp = d.FileDescriptorProto.FromString(raw)
        if fp.name not in schema.local_files:
            continue
        prefix = f"{fp.package}." if fp.package else ""

        def enum(e: d.EnumDescriptorProto, full: str) -> None:
            out[full] = {
                "deprecated": sorted(v.name for v in e.value if v.options.deprecated),
                "reserved_numbers": [[r.start, r.end] for r in e.reserved_range],  # enums: end inclusive
                "reserved_names": sorted(e.reserved_name),
            }

        def message(m: d.DescriptorProto, full: str) -> None:
            for n in m.nested_type:
                message(n, f"{full}.{n.name}")
            for e in m.enum_type:
                enum(e, f"{full}.{e.name}")
            out[full] = {
                "reserved_numbers": [[r.start, r.end - 1] for r in m.reserved_range],
                "reserved_names": sorted(m.reserved_name),
                "deprecated": m.options.deprecated,
                "fields": {
                    f.name: {"json_name": f.json_name or None, "deprecated": f.options.deprecated} for f in m.field
                },
            }

        for e in fp.enum_type:
            enum(e, prefix + e.name)
        for m in fp.message_type:
            message(m, prefix + m.name)
    return out


class _Route:
    """A way to reach a message: its parent's route and one more segment
    (``Class.prop`` at the top, then ``['key']`` or ``.attr``). Routes share
    their parents, so the routes of every message take linear space; the text
    is joined only for a path that is reported (or to order two routes of the
    same length that do not hang off parents of one length)."""

    __slots__ = ("parent", "segment", "length", "rank")

    def __init__(self, parent: _Route | None, segment: str) -> None:
        self.parent, self.segment = parent, segment
        self.length: int = len(segment) + (parent.length if parent else 0)
        self.rank = -1  # the order its message was reached in (set when walked)

    def text(self) -> str:
        parts: list[str] = []
        route: _Route | None = self
        while route is not None:
            parts.append(route.segment)
            route = route.parent
        return "".join(reversed(parts))

    def __lt__(self, other: _Route) -> bool:
        """Shorter first, then in text order, as the paths' (length, text)."""
        if self.length != other.length:
            return self.length < other.length
        a, b = self.parent, other.parent
        if a is not None and b is not None and a.length == b.length:
            # both parents were walked, in (length, text) order, so rank is text order
            return (a.rank, self.segment) < (b.rank, other.segment)
        return self.text() < other.text()


def _message_type(fact: dict[str, Any]) -> str | None:
    """The message a singular message field holds (its record's "type")."""
    kind, _, name = str(fact.get("type", "")).partition(" ")
    return name if kind == "message" and _label(fact) != "repeated" else None


class FieldPaths:
    """(message, field) -> the shortest way users reach it in one API surface:
    ``Class.prop``, ``Class.prop['key']``, ``Class.prop['key']['nested']``,
    ``Class.prop.attr``; among paths of one length, the first in text order.

    Messages are walked from every property outward, shortest route first
    (each message once, at its shortest route), on the first path asked for:
    the work is linear in the surface however deep messages nest or however
    often one is reused."""

    def __init__(self, surface: dict[str, Any]) -> None:
        self.surface = surface
        self._roots: dict[tuple[str, str], str] | None = None  # the property paths of the classes' fields
        self._walked: dict[str, tuple[_Route, bool]] = {}  # message -> (route, dict view)

    def __call__(self, message: str, field: str) -> str | None:
        if self._roots is None:
            self._roots = self._walk()
        best = self._roots.get((message, field))
        walked = self._walked.get(message)
        if walked is not None:
            route, dict_view = walked
            segment = f"[{field!r}]" if dict_view else f".{field}"
            if best is None or route.length + len(segment) <= len(best):  # else the property's is shorter
                path = route.text() + segment
                if best is None or (len(path), path) < (len(best), best):
                    best = path
        return best

    def _walk(self) -> dict[tuple[str, str], str]:
        messages = self.surface["messages"]
        roots: dict[tuple[str, str], str] = {}
        frontier: list[tuple[_Route, str, bool]] = []  # (route, message, dict view), shortest route first
        for cls_name, cls in self.surface["classes"].items():
            fields = messages.get(cls["message"], {}).get("fields", {})
            for prop_name, prop in cls["properties"].items():
                field = prop.get("field")
                if field is None or field not in fields:
                    continue
                path, key = f"{cls_name}.{prop_name}", (cls["message"], field)
                if key not in roots or (len(path), path) < (len(roots[key]), roots[key]):
                    roots[key] = path
                target = _message_type(fields[field])
                if prop.get("kind") in ("config", "message") and target:
                    heapq.heappush(frontier, (_Route(None, path), target, prop.get("kind") == "config"))
        while frontier:
            route, name, dict_view = heapq.heappop(frontier)
            if name in self._walked or name not in messages:  # an imported (well-known) type: not this API's
                continue
            route.rank = len(self._walked)
            self._walked[name] = (route, dict_view)
            for field, fact in messages[name].get("fields", {}).items():
                target = _message_type(fact)
                if target and target not in self._walked:
                    segment = f"[{field!r}]" if dict_view else f".{field}"
                    heapq.heappush(frontier, (_Route(route, segment), target, dict_view))
        return roots


# ------------------------------------------------------------------ compare


@dataclass(frozen=True, kw_only=True)
class Change:
    rule: str
    path: str  # where users meet it; with the rule, what accepted_changes names
    old: str | None
    new: str | None
    consequence: str
    accepted: str | None = None  # the reason given in accepted_changes

    @property
    def category(self) -> str:
        return RULES[self.rule][0]


@dataclass(frozen=True, kw_only=True)
class Report:
    against: str  # what the "before" side is, for the heading
    changes: tuple[Change, ...]
    unmatched: tuple[AcceptedChange, ...] = ()  # acceptances that match no change
    annotations: str | None = None  # the file holding accepted_changes

    def count(self, category: str) -> int:
        return sum(1 for c in self.changes if c.category == category)

    @property
    def unaccepted_breaking(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.category == "breaking" and c.accepted is None)


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


class _Diff:
    """One comparison: collects changes; each method handles one kind of item."""

    def __init__(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        self.before, self.after = before, after
        self.changes: list[Change] = []
        self.before_paths, self.after_paths = FieldPaths(before), FieldPaths(after)

    def add(self, rule: str, path: str, old: Any, new: Any, consequence: str) -> None:
        assert rule in RULES, rule
        self.changes.append(
            Change(rule=rule, path=path, old=None if old is None else _show(old), new=None if new is None else _show(new),
                   consequence=consequence)
        )

    # -- paths and wording --------------------------------------------------

    def old_path(self, message: str, name: str) -> str:
        """Where users met the field before (the message's own name if no property reaches it)."""
        return self.before_paths(message, name) or f"{message}.{name}"

    def new_path(self, message: str, name: str) -> str:
        return self.after_paths(message, name) or f"{message}.{name}"

    def owner(self, path: str) -> str:
        head = path.split(".", 1)[0].split("[", 1)[0]
        return head if head in self.before["classes"] or head in self.after["classes"] else "message"

    # -- classes and properties ---------------------------------------------

    def classes(self) -> None:
        b, a = self.before["classes"], self.after["classes"]
        by_message = {v["message"]: k for k, v in a.items()}
        renamed = set()
        for name in sorted(b.keys() - a.keys()):
            new = by_message.get(b[name]["message"])
            if new is not None and new not in b:
                renamed.add(new)
                self.add("class-renamed", name, name, new,
                         f"imports of {name} fail (ImportError); the class is now {new}")
                self.properties(name, b[name]["properties"], a[new]["properties"], b[name]["message"])
            else:
                self.add("class-removed", name, name, None,
                         f"imports of {name} fail (ImportError); {b[name]['message']} has no wrapper class any more")
        for name in sorted(a.keys() - b.keys() - renamed):
            self.add("class-added", name, None, name, f"new class {name} wraps {a[name]['message']}")
        for name in sorted(a.keys() & b.keys()):
            self.properties(name, b[name]["properties"], a[name]["properties"], a[name]["message"])

    def properties(self, cls: str, b: dict[str, Any], a: dict[str, Any], message: str) -> None:
        b_msg = self.before["messages"].get(message, {}).get("fields", {})
        a_msg = self.after["messages"].get(message, {}).get("fields", {})
        a_by_field = {v["field"]: k for k, v in a.items() if "field" in v}
        b_by_field = {v["field"]: k for k, v in b.items() if "field" in v}
        for name in sorted(b.keys() - a.keys()):
            field = b[name].get("field")
            if field is not None and field in a_by_field:
                new = a_by_field[field]
                self.add("property-renamed", f"{cls}.{name}", name, new,
                         f"code using {cls}.{name} fails (TypeError from the attribute lock); use {cls}.{new}")
            elif field is None or field in a_msg:
                why = "" if field is None else f"; the field {field} stays in the message, without a property"
                self.add("property-removed", f"{cls}.{name}", name, None,
                         f"reading or setting {cls}.{name} fails (TypeError from the attribute lock){why}")
            # else: the field itself went away or was renamed; the field rules say so
        for name in sorted(a.keys() - b.keys()):
            field = a[name].get("field")
            if field is not None and field in b_by_field:
                continue  # renamed, reported above
            if field is None or field in b_msg:
                self.add("property-added", f"{cls}.{name}", None, name,
                         f"new property {cls}.{name} ({a[name]['getter_type']})")
        for name in sorted(a.keys() & b.keys()):
            old, new = b[name], a[name]
            field = new.get("field")
            if field != old.get("field"):
                continue  # another field now: the field rules say what changed
            path = f"{cls}.{name}"
            if old.get("setter_type") and not new.get("setter_type"):
                self.add("property-type-changed", path, "read-write", "read-only",
                         f"assigning {path} now fails (AttributeError): the property is read-only")
            elif self.property_types_changed(old, new, message, field):
                was = f"{old['getter_type']} / sets {old.get('setter_type')}"
                now = f"{new['getter_type']} / sets {new.get('setter_type')}"
                self.add("property-type-changed", path, was, now,
                         f"code written for the old types of {path} may be rejected or read the wrong shape")
            if old.get("hooks") != new.get("hooks"):
                self.add("hook-changed", path, old.get("hooks") or "no hooks", new.get("hooks") or "no hooks",
                         f"{path} is now read/written through other hand-written code: check its behaviour")

    def property_types_changed(self, old: dict[str, Any], new: dict[str, Any], message: str, field: str | None) -> bool:
        if (old["getter_type"], old.get("setter_type")) == (new["getter_type"], new.get("setter_type")):
            return False
        if field is None:
            return True
        b = self.before["messages"].get(message, {}).get("fields", {}).get(field, {})
        a = self.after["messages"].get(message, {}).get("fields", {}).get(field, {})
        # a change of the field's own type is reported by the field rules
        return _label(b) == _label(a) and all(b.get(k) == a.get(k) for k in ("type", "in_type", "out_type"))

    # -- messages and fields ------------------------------------------------

    def messages(self) -> None:
        b, a = self.before["messages"], self.after["messages"]
        for name in sorted(b.keys() - a.keys()):
            self.add("message-removed", name, name, None,
                     f"the TypedDicts {' / '.join(b[name].get('typed_dicts', []))} and the protobuf class of {name} are gone")
        for name in sorted(a.keys() - b.keys()):
            self.add("message-added", name, None, name,
                     f"new message {name} (TypedDicts {' / '.join(a[name].get('typed_dicts', []))})")
        for name in sorted(a.keys() & b.keys()):
            self.message(name, b[name], a[name])

    def message(self, name: str, b: dict[str, Any], a: dict[str, Any]) -> None:
        bf, af = b.get("fields", {}), a.get("fields", {})
        a_by_number = {v["number"]: k for k, v in af.items()}
        handled: set[str] = set()
        b_reserved = _Numbers(b.get("reserved_numbers", []))
        a_reserved = _Numbers(a.get("reserved_numbers", []))
        for field in sorted(bf.keys() - af.keys()):
            old = bf[field]
            other = a_by_number.get(old["number"])
            path = self.old_path(name, field)
            if other is not None and other not in bf:
                handled.add(other)
                new = af[other]
                new_path = self.new_path(name, other)
                if (old["type"], _label(old)) == (new["type"], _label(new)):
                    moved = "" if new_path != path else " (the property keeps its name)"
                    self.add("field-renamed", path, field, other,
                             f"code naming {field} must use {other}{moved}; binary data still reads (same number "
                             f"{old['number']}), but prototxt and JSON naming {field} no longer load")
                    self.compare_field(name, other, old, new, renamed=True)
                    continue
                self.removed(name, field, old, path, a_reserved, reused=True)
                self.add("field-number-reused", new_path, f"{field} ({old['type']})", f"{other} ({new['type']})",
                         f"binary data written with {field} = {old['number']} is read as {other}: "
                         f"wrong values or parse errors")
                continue
            self.removed(name, field, old, path, a_reserved)
        for field in sorted(af.keys() - bf.keys() - handled):
            new = af[field]
            path = self.new_path(name, field)
            if self.reused(path, field, new["number"], b, b_reserved):
                pass
            elif _label(new) == "required":
                self.add("required-field-added", path, None, f"required {new['type']} {field} = {new['number']}",
                         f"messages written before have no {field}: parsing them fails (required field missing)")
            else:
                self.add("field-added", path, None, f"{new['type']} {field} = {new['number']}",
                         f"new {'key' if '[' in path else 'field'} {path}, default {_show(new.get('default', new.get('out_type')))}")
        for field in sorted(af.keys() & bf.keys()):
            self.compare_field(name, field, bf[field], af[field])
        self.unreserved(name, b, a, b_reserved - a_reserved - _Numbers.of(a_by_number), af.keys(), "field")
        if a.get("deprecated") and not b.get("deprecated"):
            self.add("deprecated-added", name, None, "deprecated", f"{name} is deprecated: plan to stop using it")

    def reused(self, path: str, name: str, number: int, before: dict[str, Any], reserved: _Numbers) -> bool:
        """``name = number`` is new: report it if ``before`` reserved either."""
        if number not in reserved and name not in before.get("reserved_names", []):
            return False
        what = f"number {number}" if number in reserved else f"name {name!r}"
        self.add("reserved-reused", path, "reserved", f"{name} = {number}",
                 f"{what} was reserved so old data and readers would not misread it; {name} now uses it")
        return True

    def unreserved(
        self, owner: str, b: dict[str, Any], a: dict[str, Any], numbers: _Numbers, used: Any, what: str
    ) -> None:
        """Reservations of ``b`` that ``a`` dropped (``numbers``: freed and unused)."""
        names = sorted(set(b.get("reserved_names", [])) - set(a.get("reserved_names", [])) - set(used))
        if numbers or names:
            shown = ", ".join([numbers.text()] * bool(numbers) + [repr(n) for n in names])
            self.add("reserved-removed", owner, shown, None,
                     f"{shown} no longer reserved in {owner}: a later {what} could reuse them and misread old data")

    def removed(self, message: str, field: str, old: dict[str, Any], path: str, reserved: _Numbers, reused: bool = False) -> None:
        if "[" in path:
            how = f"dicts naming {field!r} raise UnknownConfigKeyError"
        elif path.split(".", 1)[0] in self.before["classes"]:
            how = f"reading or setting {path} fails (TypeError from the attribute lock)"
        else:
            how = f"the {field} attribute and TypedDict key are gone"
        note = "" if reused or old["number"] in reserved else f"; number {old['number']} is not reserved"
        self.add("field-removed", path, f"{old['type']} {field} = {old['number']}", None,
                 f"{how}; saved prototxt setting it no longer loads{note}")

    def compare_field(
        self, message: str, name: str, old: dict[str, Any], new: dict[str, Any], renamed: bool = False
    ) -> None:
        path = self.new_path(message, name)
        subject = f"every {self.owner(path)} that does not set it"
        if old["number"] != new["number"]:
            self.add("field-number-changed", path, old["number"], new["number"],
                     f"binary data written before stores {name} under {old['number']}: it is no longer read as {name}")
        if _label(old) != _label(new):
            self.add("label-changed", path, _label(old), _label(new), _label_consequence(_label(old), _label(new)))
        elif old["type"] != new["type"]:
            self.type_change(path, old, new)
        elif (old.get("in_type"), old.get("out_type")) != (new.get("in_type"), new.get("out_type")):
            self.add("type-changed", path, old.get("out_type"), new.get("out_type"),
                     f"{path} now reads as {new.get('out_type')} and accepts {new.get('in_type')}")
        if old.get("oneof") != new.get("oneof"):
            self.add("oneof-changed", path, old.get("oneof"), new.get("oneof"),
                     "setting it now clears other fields (or no longer does), and old binary data may set both")
        if _label(old) == _label(new) != "repeated":
            self.toggled(
                not old.get("implicit"), not new.get("implicit"), path, ("no presence", "has presence"),
                ("presence-added", f"HasField('{name}') now works; an explicit zero is kept and written out"),
                ("presence-removed", f"HasField('{name}') now raises ValueError; an unset {path} and a zero one look the same"),
            )
        old_json, new_json = _json_name(name, old), _json_name(name, new)
        if old_json != new_json and not renamed:
            self.add("json-name-changed", path, old_json, new_json,
                     f"JSON written before names it {old_json!r}: it no longer loads into {name}")
        if (
            not _same_default(old.get("default"), new.get("default"))
            and old.get("default") is not None
            and new.get("default") is not None
            and _kind(old["type"]) == _kind(new["type"])  # else type-changed says it
        ):
            self.add("default-changed", path, old["default"], new["default"],
                     f"{subject} now gets {new['default']} instead of {old['default']}")
        self.validation(path, old, new)
        if new.get("deprecated") and not old.get("deprecated"):
            self.add("deprecated-added", path, None, "deprecated", f"{path} is deprecated: plan to stop using it")

    def toggled(
        self, was: Any, now: Any, path: str, shown: tuple[str, str], gained: tuple[str, str], lost: tuple[str, str]
    ) -> None:
        """A yes/no fact flipped: ``gained`` (rule, consequence) when it became true, else ``lost``."""
        if bool(was) != bool(now):
            rule, consequence = gained if now else lost
            self.add(rule, path, shown[bool(was)], shown[bool(now)], consequence)

    def type_change(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        ot, nt = old["type"], new["type"]
        wire_changed = _wire(ot) != _wire(nt)
        if _accepts_all(ot, nt):
            if not _accepts_all(nt, ot):
                self.add("type-widened", path, ot, nt, f"{path} accepts every value it accepted, and more")
            if wire_changed:
                self.add("wire-type-changed", path, f"{ot} ({_wire(ot)})", f"{nt} ({_wire(nt)})",
                         "binary data written before is misread or rejected (wire type differs)")
        else:
            wire = "; binary data written before is misread (wire type differs)" if wire_changed else ""
            if _kind(ot) == _kind(nt):  # same kind, smaller range or precision
                self.add("type-changed", path, ot, nt, f"values that fit {ot} but not {nt} are now rejected{wire}")
            else:
                self.add("type-changed", path, ot, nt, f"{_kind_text(ot)} values set before are rejected now{wire}")

    def validation(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        oc, nc = old.get("constraint"), new.get("constraint")
        oe, ne = old.get("enforce"), new.get("enforce")
        if (oc, oe) != (nc, ne):
            shown_old = f"{oc} ({oe})" if oc else None
            shown_new = f"{nc} ({ne})" if nc else None
            integer = new["type"] in INT_BOUNDS
            wider = _constraint_within(oc, nc, integer) and (ne == oe or ne == "strict" or nc is None)
            if wider and oe == ne and _constraint_within(nc, oc, integer):
                pass  # the same values, spelled differently ("> 0" and ">= 1" on an integer)
            elif wider:
                self.add("constraint-loosened", path, shown_old, shown_new, f"{path} accepts values it rejected before")
            else:
                if oc == nc:
                    modes = "in compatible mode too, not only in strict mode"
                else:
                    modes = "in both modes" if ne == "always" else "in strict mode"
                allowed = f" that {oc} allowed" if oc and oc != nc else ""
                self.add("constraint-tightened", path, shown_old, shown_new,
                         f"values outside {nc}{allowed} are now rejected {modes} (ValueError)")
        ochoices, nchoices = old.get("choices"), new.get("choices")
        if ochoices != nchoices:
            if nchoices is None or (ochoices is not None and set(ochoices) <= set(nchoices)):
                self.add("choices-loosened", path, ochoices, nchoices, f"{path} accepts strings it rejected before")
            else:
                lost = sorted(set(ochoices) - set(nchoices)) if ochoices else None
                what = f"{', '.join(map(repr, lost))} and other strings" if lost else "strings outside the list"
                self.add("choices-tightened", path, ochoices, nchoices,
                         f"{what} are now rejected in strict mode (ValueError)")
        if old["type"] == new["type"]:
            self.toggled(
                old.get("finite"), new.get("finite"), path, ("NaN/inf allowed", "finite only"),
                ("nonfinite-rejected", f"strict mode now rejects NaN and infinity for {path} (ValueError)"),
                ("nonfinite-allowed", f"strict mode now accepts NaN and infinity for {path}"),
            )
        op, np_ = old.get("policy"), new.get("policy")
        if op != np_ and old["type"] == new["type"]:
            orank, nrank = _POLICY_RANK.get((op or "passthrough").split()[0], 1), _POLICY_RANK.get((np_ or "passthrough").split()[0], 1)
            if nrank < orank:
                self.add("policy-loosened", path, op, np_,
                         f"a wrong type for {path} now logs a warning and keeps the old value (compatible mode)")
            else:
                self.add("policy-tightened", path, op, np_,
                         f"a wrong type for {path} now raises {_raised(np_)} in compatible mode (was: {_policy_text(op)})")
        if bool(old.get("append")) != bool(new.get("append")):
            was, now = ("append", "replace") if old.get("append") else ("replace", "append")
            self.add("repeated-mode-changed", path, was, now,
                     f"assigning a list to {path} now {'appends to' if now == 'append' else 'replaces'} the stored list")

    # -- enums --------------------------------------------------------------

    def rules(self) -> None:
        b, a = self.before.get("rules", {}), self.after.get("rules", {})
        for code in sorted(b.keys() - a.keys()):
            self.add("rule-removed", f"rule {code}", _rule_text(b[code]), None, f"lint() no longer reports {code}")
        for code in sorted(a.keys() - b.keys()):
            self.add("rule-added", f"rule {code}", None, _rule_text(a[code]), f"lint() reports {code} where it holds")
        for code in sorted(a.keys() & b.keys()):
            if a[code] != b[code]:
                self.add("rule-changed", f"rule {code}", _rule_text(b[code]), _rule_text(a[code]),
                         f"lint() reports {code} in other cases (its condition, fields or winner changed)")

    def enums(self) -> None:
        b, a = self.before["enums"], self.after["enums"]
        for name in sorted(b.keys() - a.keys()):
            self.add("enum-removed", name, name, None, f"the Literal {b[name]['literal']} and the enum {name} are gone")
        for name in sorted(a.keys() - b.keys()):
            self.add("enum-added", name, None, name, f"new enum {name} (Literal {a[name]['literal']})")
        for name in sorted(a.keys() & b.keys()):
            bv, av = b[name]["values"], a[name]["values"]
            by_number: dict[int, list[str]] = {}
            for value, number in av.items():
                by_number.setdefault(number, []).append(value)
            renamed: set[str] = set()
            for value in sorted(bv.keys() - av.keys()):
                path = f"{name}.{value}"
                others = [v for v in by_number.get(bv[value], []) if v not in bv]
                if others:
                    renamed.add(others[0])
                    self.add("enum-value-renamed", path, value, others[0],
                             f"code and prototxt naming {value} fail; binary data still reads (number {bv[value]})")
                else:
                    self.add("enum-value-removed", path, f"{value} = {bv[value]}", None,
                             f"code and prototxt naming {value} fail; data holding {bv[value]} reads as unknown")
            b_reserved = _Numbers(b[name].get("reserved_numbers", []))
            for value in sorted(av.keys() - bv.keys() - renamed):
                if not self.reused(f"{name}.{value}", value, av[value], b[name], b_reserved):
                    self.add("enum-value-added", f"{name}.{value}", None, f"{value} = {av[value]}",
                             f"new value {value} of {name}")
            freed = b_reserved - _Numbers(a[name].get("reserved_numbers", [])) - _Numbers.of(av.values())
            self.unreserved(name, b[name], a[name], freed, av.keys(), "value")
            for value in sorted(av.keys() & bv.keys()):
                if av[value] != bv[value]:
                    self.add("enum-value-number-changed", f"{name}.{value}", bv[value], av[value],
                             f"binary data written with {value} ({bv[value]}) now reads as another value")
            for value in sorted(set(a[name].get("deprecated", [])) - set(b[name].get("deprecated", [])) - renamed):
                if value in bv:
                    self.add("deprecated-added", f"{name}.{value}", None, "deprecated",
                             f"{name}.{value} is deprecated: plan to stop using it")


def _rule_text(rule: dict[str, Any]) -> str:
    return f"{rule['kind']} of {', '.join(rule['fields'])}" + (f", {rule['winner']} kept" if rule.get("winner") else "")


class _Numbers:
    """Field or enum numbers as sorted, disjoint, inclusive ranges: a reserved
    range can reach "max" (536,870,911 for fields), too many numbers to list
    one by one for every message compared."""

    def __init__(self, ranges: Iterable[Sequence[int]] = ()) -> None:
        merged: list[tuple[int, int]] = []
        for low, high in sorted((int(r[0]), int(r[1])) for r in ranges):
            if merged and low <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(merged[-1][1], high))
            else:
                merged.append((low, high))
        self.ranges = merged
        self._lows = [low for low, _ in merged]

    @classmethod
    def of(cls, numbers: Iterable[int]) -> _Numbers:
        return cls((n, n) for n in numbers)

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        at = bisect.bisect_right(self._lows, number) - 1
        return at >= 0 and number <= self.ranges[at][1]

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def __sub__(self, other: _Numbers) -> _Numbers:
        out: list[tuple[int, int]] = []
        cuts, first = other.ranges, 0
        for low, high in self.ranges:
            while first < len(cuts) and cuts[first][1] < low:
                first += 1
            start, at = low, first
            while at < len(cuts) and cuts[at][0] <= high:
                if cuts[at][0] > start:
                    out.append((start, cuts[at][0] - 1))
                start = max(start, cuts[at][1] + 1)
                at += 1
            if start <= high:
                out.append((start, high))
        return _Numbers(out)

    def text(self) -> str:
        """``numbers 9, 12-14`` (``number 9`` for one)."""
        count = sum(high - low + 1 for low, high in self.ranges)
        parts = [f"{low}" if low == high else f"{low}-{high}" for low, high in self.ranges]
        return "number" + ("s " if count > 1 else " ") + ", ".join(parts)


def _label_consequence(old: str, new: str) -> str:
    if new == "repeated":
        return "the value is now a list: code setting a single value is rejected"
    if old == "repeated":
        return "the value is no longer a list: code setting a list is rejected"
    if new == "required":
        return "messages without it now fail to serialize and parse (required)"
    return "it is no longer required: readers that require it reject messages without it"


def _kind(type_text: str) -> str:
    base = type_text.split()[0]
    if base in INT_BOUNDS:
        return "int"
    if base in ("float", "double"):
        return "float"
    return type_text  # bool, string, bytes, enum X, message X, map<...>


def _kind_text(type_text: str) -> str:
    kind = _kind(type_text)
    return {"int": "integer", "float": "float"}.get(kind, type_text)


def _accepts_all(old: str, new: str) -> bool:
    """Every value ``old`` accepted is accepted by ``new`` (scalars only)."""
    if _kind(old) != _kind(new):
        return False
    if _kind(old) == "int":
        (ol, oh), (nl, nh) = INT_BOUNDS[old], INT_BOUNDS[new]
        return nl <= ol and oh <= nh
    if _kind(old) == "float":
        return new == "double" or old == new
    return old == new


def _wire(type_text: str) -> str:
    base = type_text.split()[0]
    return _WIRE["map" if base.startswith("map<") else base]


def _raised(policy: str | None) -> str:
    if policy is None or policy == "passthrough":
        return "protobuf's TypeError"
    parts = policy.split()
    return parts[1] if len(parts) > 1 else "an error"


def _policy_text(policy: str | None) -> str:
    if policy is None or policy == "passthrough":
        return "protobuf's TypeError"
    return "a warning" if policy == "warn" else _raised(policy)


def _interval(constraint: str | None, integer: bool) -> tuple[float, bool, float, bool, float | None]:
    """(low, low_open, high, high_open, excluded) of the values a constraint accepts."""
    inf = float("inf")
    if constraint is None:
        return (-inf, False, inf, False, None)
    op, text = constraint.split()
    bound = float(text)
    if integer and op in (">", "<") and bound.is_integer():
        op, bound = (">=", bound + 1) if op == ">" else ("<=", bound - 1)
    if op == ">":
        return (bound, True, inf, False, None)
    if op == ">=":
        return (bound, False, inf, False, None)
    if op == "<":
        return (-inf, False, bound, True, None)
    if op == "<=":
        return (-inf, False, bound, False, None)
    return (-inf, False, inf, False, bound)  # !=


def _constraint_within(old: str | None, new: str | None, integer: bool) -> bool:
    """Every value ``old`` accepts is accepted by ``new``."""
    ol, olo, oh, oho, ox = _interval(old, integer)
    nl, nlo, nh, nho, nx = _interval(new, integer)
    low_ok = nl < ol or (nl == ol and (not nlo or olo))
    high_ok = oh < nh or (oh == nh and (not nho or oho))
    if nx is not None and nx != ox:
        inside = (ol < nx or (ol == nx and not olo)) and (nx < oh or (nx == oh and not oho))
        if inside:
            return False
    return low_ok and high_ok


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every difference between two API surfaces, classified by RULES."""
    diff = _Diff(before, after)
    diff.classes()
    diff.messages()
    diff.enums()
    diff.rules()
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(diff.changes, key=lambda c: (order[c.category], c.path, c.rule))


# ------------------------------------------------------------ acceptance


def check_accepted(notes: Annotations) -> None:
    """Every accepted_changes entry names a breaking rule (bad input otherwise)."""
    problems = []
    breaking = [r for r, (category, _) in RULES.items() if category == "breaking"]
    for item in notes.accepted_changes:
        if item.rule not in RULES:
            guess = closest(item.rule, breaking)
            hint = f"did you mean {guess!r}?" if guess else "see the rules in README.md"
            problems.append(Problem(f"accepted_changes: unknown rule {item.rule!r}", notes.path, item.line, hint))
        elif RULES[item.rule][0] != "breaking":
            problems.append(Problem(f"accepted_changes: {item.rule!r} is not a breaking rule; only breaking "
                                    "changes need accepting", notes.path, item.line))
    if problems:
        raise GeneratorError(problems)


def make_report(before: dict[str, Any], after: dict[str, Any], notes: Annotations, against: str) -> Report:
    """Compare, and mark the changes accepted in ``notes``."""
    if before.get("version") not in READABLE_VERSIONS or after.get("version") not in READABLE_VERSIONS:
        raise GeneratorError(Problem(f"cannot compare API records of different formats ({against})"))
    accepted = {(a.rule, a.path): a for a in notes.accepted_changes}
    used: set[tuple[str, str]] = set()
    changes = []
    for change in compare(before, after):
        hit = accepted.get((change.rule, change.path))
        if hit is not None:
            used.add((change.rule, change.path))
            change = Change(**{**change.__dict__, "accepted": hit.reason})
        changes.append(change)
    unmatched = tuple(a for key, a in accepted.items() if key not in used)
    return Report(against=against, changes=tuple(changes), unmatched=unmatched, annotations=notes.path)


# ------------------------------------------------------------------ output


def summary_line(report: Report) -> str:
    if not report.changes:
        return f"API changes for users (against {report.against}): none"
    counts = ", ".join(f"{report.count(c)} {c if c != 'addition' or report.count(c) == 1 else 'additions'}" for c in CATEGORIES)
    return f"API changes for users (against {report.against}): {counts}"


def render_text(report: Report) -> str:
    lines = [summary_line(report)]
    width = max((len(c.rule) for c in report.changes), default=0)
    for category in CATEGORIES:
        for c in (c for c in report.changes if c.category == category):
            arrow = f"{c.old or '(none)'} -> {c.new or '(none)'}"
            tag = f"{category:<9}" if c.accepted is None else "accepted "
            lines.append(f"  {tag} {c.rule:<{width}}  {c.path}: {arrow}")
            lines.append(f"  {'':<9} {'':<{width}}  {c.consequence}")
            if c.accepted is not None:
                lines.append(f"  {'':<9} {'':<{width}}  accepted: {c.accepted}")
    return "\n".join(lines) + "\n"


def unmatched_warnings(report: Report) -> list[str]:
    return [
        str(Problem(f"accepted_changes: {a.rule} {a.path!r} matches no change (remove it once the change is "
                    "in the compared generation)", report.annotations, a.line)).join(("warning: ", ""))
        for a in report.unmatched
    ]


def render_json(report: Report | None, drift: dict[str, list[str]] | None = None, against: str = "") -> str:
    """The report for bots; ``report`` None: there is no API record to compare with."""
    if report is None:
        data: dict[str, Any] = {"against": against, "available": False, "changes": None}
        if drift is not None:
            data["drift"] = drift
        return json.dumps(data, indent=1) + "\n"
    data = {
        "against": report.against,
        "available": True,
        "counts": {c: report.count(c) for c in CATEGORIES},
        "unaccepted_breaking": len(report.unaccepted_breaking),
        "changes": [
            {"rule": c.rule, "category": c.category, "path": c.path, "old": c.old, "new": c.new,
             "consequence": c.consequence, "accepted": c.accepted}
            for c in report.changes
        ],
        "unmatched_acceptances": [{"rule": a.rule, "path": a.path, "line": a.line} for a in report.unmatched],
    }
    if drift is not None:
        data["drift"] = drift
    return json.dumps(data, indent=1) + "\n"


# ------------------------------------------------------------------ git ref


def _git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except OSError as exc:
        raise GeneratorError(Problem(f"cannot run git: {exc.strerror}")) from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GeneratorError(Problem(f"git {' '.join(args[:2])}: {message[-1] if message else 'failed'}", str(root)))
    return done.stdout


@dataclass(frozen=True, kw_only=True)
class RefInputs:
    protos: tuple[Path, ...]  # inside the copy; empty when no input existed at the ref
    annotations: Path | None
    out: Path
    missing: tuple[str, ...] = ()  # inputs (repository paths) that did not exist at the ref
    # protoc's -I folders for the copy: one inside the repository is its copy at
    # the ref, one outside it is used as it is on disk
    proto_paths: tuple[Path, ...] = ()


def inputs_at_ref(
    ref: str,
    protos: tuple[Path, ...],
    annotations: Path | None,
    package_dir: Path,
    dest: Path,
    proto_paths: tuple[Path, ...] = (),
) -> RefInputs:
    """Copy the inputs as they are at git ``ref`` under ``dest`` (same relative
    layout): every .proto under the protos' common folder and under each -I
    folder inside the repository (imports), the annotations file and the
    hand-written modules of the package (hooks)."""
    import os

    from .output import is_generated

    anchor = Path(os.path.commonpath([str(p.resolve()) for p in (*protos, package_dir)]))
    while not anchor.is_dir():
        anchor = anchor.parent
    try:
        top = Path(_git(anchor, "rev-parse", "--show-toplevel").decode().strip())
    except GeneratorError as exc:
        raise GeneratorError(Problem(f"--against reads the inputs with git, but {exc.problems[0].message}", str(anchor))) from None
    try:
        _git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except GeneratorError:
        raise GeneratorError(Problem(f"--against {ref}: no such commit in this repository", str(top),
                                     hint="fetch it first, e.g. git fetch origin main")) from None

    def inside(path: Path) -> str | None:
        try:
            return path.resolve().relative_to(top.resolve()).as_posix()
        except ValueError:
            return None

    def rel(path: Path) -> str:
        found = inside(path)
        if found is None:
            raise GeneratorError(Problem("--against reads inputs with git: this input is outside the repository",
                                         str(path)))
        return found

    def listed(path: str) -> list[str]:
        return [x for x in _git(top, "ls-tree", "-r", "--name-only", ref, "--", path).decode().splitlines() if x]

    def copy(name: str) -> Path:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_git(top, "show", f"{ref}:{name}"))
        return target

    proto_folders = [p if p.is_dir() else p.parent for p in protos]
    root = Path(os.path.commonpath([str(p.resolve()) for p in proto_folders]))
    include_copies = []
    for folder in proto_paths:
        where = inside(folder)
        include_copies.append(folder if where is None else dest / where)
        if where is not None:
            (dest / where).mkdir(parents=True, exist_ok=True)
    for top_folder in {rel(root), *(inside(f) for f in proto_paths)} - {None}:
        for name in listed(str(top_folder)):
            if name.endswith(".proto") and not (dest / name).exists():
                copy(name)
    wanted, missing = [], []
    for p in protos:
        names = [n for n in listed(rel(p)) if n.endswith(".proto")]
        wanted += [dest / n for n in names]
        if not names:
            missing.append(rel(p))
    notes_copy = None
    if annotations is not None and listed(rel(annotations)):
        notes_copy = copy(rel(annotations))
    elif annotations is not None:
        missing.append(rel(annotations))
    for name in listed(rel(package_dir)):
        if name.endswith(".py") and "/" not in name[len(rel(package_dir)) + 1 :]:
            if is_generated(copy(name)):
                (dest / name).unlink()
    out_rel = rel(package_dir.parent)
    return RefInputs(
        protos=tuple(sorted(set(wanted))), annotations=notes_copy, out=dest / out_rel, missing=tuple(missing),
        proto_paths=tuple(include_copies),
    )


def empty_surface() -> dict[str, Any]:
    """The surface of nothing (the inputs did not exist at the ref)."""
    return {"version": SURFACE_VERSION, "classes": {}, "messages": {}, "enums": {}}
