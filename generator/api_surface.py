"""The API surface of a generation (for the API change report,
generator.api_changes): what users see of the model, plus the schema's wire
facts, as a JSON-able dict the manifest keeps; and where users meet each
field of it (``FieldPaths``), worked out from a surface when a change is
reported rather than stored per field."""

from __future__ import annotations

import heapq
from typing import Any

from google.protobuf import descriptor_pb2 as d

from .model.records import PackageModel
from .schema.proto_facts import finite_only, json_name, plain_number
from .schema.schema import Field, Schema, default_text

SURFACE_VERSION = 2
# Records this generator compares: version 1 also stored every field's path,
# which is now derived from the surface, so its "path" keys are ignored.
READABLE_VERSIONS = (1, 2)

# ------------------------------------------------------------------ surface


def api_surface(schema: Schema, model: PackageModel) -> dict[str, Any]:
    """What users see of ``model`` (and the wire facts of ``schema``), as a
    JSON-able dict with a stable order: the manifest keeps it."""
    wire = _descriptor_facts(schema)
    surface = {
        "version": SURFACE_VERSION,
        "classes": _classes(model),
        "messages": _messages(schema, model, wire),
        "enums": _enums(model, wire),
    }
    if (
        model.rules
    ):  # a record without the key: no rules (so older records compare as they are)
        surface["rules"] = {
            r.code: {
                "message": r.message,
                "kind": r.kind,
                "fields": list(r.names),
                "winner": r.wins or None,
                "data": repr(r.runtime),
            }
            for r in sorted(model.rules, key=lambda r: r.code)
        }
    return surface


def _messages(
    schema: Schema, model: PackageModel, wire: dict[str, Any]
) -> dict[str, Any]:
    tds = {td.full_name: td for td in model.typed_dicts}
    records = {(f.message, f.name): f for f in model.fields}
    policies = dict(model.overrides.policies)
    messages: dict[str, Any] = {}
    for full in sorted(schema.messages):
        message = schema.messages[full]
        if message.is_map_entry:
            continue
        facts = wire.get(full, {})
        keys = {k.key: k for k in tds[full].keys}
        fields: dict[str, Any] = {}
        for f in message.fields:
            spec = records[full, f.name]
            fact = _field_wire(f, facts.get("fields", {}).get(f.name, {}))
            fact.update(
                _field_meaning(
                    schema, f, spec, keys[f.name], policies.get(spec.policy or "")
                )
            )
            fields[f.name] = {
                k: v for k, v in fact.items() if v not in (None, False, [])
            }
        entry = {
            "typed_dicts": [tds[full].out_name, tds[full].in_name],
            "reserved_numbers": facts.get("reserved_numbers", []),
            "reserved_names": facts.get("reserved_names", []),
            "deprecated": facts.get("deprecated", False),
            "fields": fields,
        }
        messages[full] = {k: v for k, v in entry.items() if v not in (False, [])}
    return messages


def _field_meaning(
    schema: Schema, f: Field, spec: Any, key: Any, policy: Any
) -> dict[str, Any]:
    """A field's default, types and validation, as the model decided them."""
    constrained = spec.constraint is not None
    return {
        "default": (
            None if f.type == "message" or f.repeated else default_text(schema, f)
        ),
        "in_type": key.in_type,
        "out_type": key.out_type,
        "policy": (
            (policy.action + (f" {policy.error}" if policy.error else ""))
            if policy
            else None
        ),
        "constraint": (
            f"{spec.constraint[0]} {plain_number(spec.constraint[1])}"
            if constrained
            else None
        ),
        "enforce": (
            ("always" if spec.constraint_always else "strict") if constrained else None
        ),
        "choices": list(spec.choices) if spec.choices else None,
        "finite": finite_only(f.type, spec.allow_nonfinite),
        "append": spec.append,
    }


def _enums(model: PackageModel, wire: dict[str, Any]) -> dict[str, Any]:
    return {
        e.full_name: {
            "literal": e.literal_name,
            "values": {name: number for name, number, _ in e.values},
            **{
                k: v for k, v in wire.get(e.full_name, {}).items() if v
            },  # deprecated values, reserved
        }
        for e in sorted(model.enums, key=lambda e: e.full_name)
    }


def _classes(model: PackageModel) -> dict[str, Any]:
    return {
        c.name: {
            "message": c.message_full_name,
            "properties": {
                p.name: _property(p) for p in sorted(c.properties, key=lambda p: p.name)
            },
        }
        for c in sorted(model.classes, key=lambda c: c.name)
    }


def _property(p: Any) -> dict[str, Any]:
    roles = (
        ("getter", p.getter_hook),
        ("setter", p.setter_hook),
        ("after_set", p.after_set_hook),
    )
    record = {
        "field": p.field_name,
        "kind": p.kind,
        "getter_type": p.getter_type,
        "setter_type": p.setter_type,
        "hooks": " ".join(f"{role}={hook}" for role, hook in roles if hook) or None,
    }
    return {k: v for k, v in record.items() if v is not None}


def _type_text(f: Field) -> str:
    if f.is_map:
        return f"map<{_type_text(f.map_key)}, {_type_text(f.map_value)}>"  # type: ignore[arg-type]
    return f"{f.type} {f.type_name}" if f.type_name else f.type


def _field_wire(f: Field, facts: dict[str, Any]) -> dict[str, Any]:
    """Wire facts; the usual values (optional, protoc's JSON name, presence of
    a singular field) are left out to keep the manifest's record small."""
    declared = facts.get("json_name")
    return {
        "number": f.number,
        "label": None if f.label == "optional" else f.label,
        "type": _type_text(f),
        "json_name": None if declared == json_name(f.name) else declared,
        "oneof": f.oneof,
        "implicit": not f.repeated and not f.has_presence,  # proto3: no presence
        "deprecated": facts.get("deprecated", False),
    }


def label(fact: dict[str, Any]) -> str:
    return str(fact.get("label", "optional"))


def json_name_of(name: str, fact: dict[str, Any]) -> str:
    return str(fact.get("json_name") or json_name(name))


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
                "reserved_numbers": [
                    [r.start, r.end] for r in e.reserved_range
                ],  # enums: end inclusive
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
                    f.name: {
                        "json_name": f.json_name or None,
                        "deprecated": f.options.deprecated,
                    }
                    for f in m.field
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
    return name if kind == "message" and label(fact) != "repeated" else None


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
        self._roots: dict[tuple[str, str], str] | None = (
            None  # the property paths of the classes' fields
        )
        self._walked: dict[str, tuple[_Route, bool]] = (
            {}
        )  # message -> (route, dict view)

    def __call__(self, message: str, field: str) -> str | None:
        if self._roots is None:
            self._roots = self._walk()
        best = self._roots.get((message, field))
        walked = self._walked.get(message)
        if walked is not None:
            route, dict_view = walked
            segment = f"[{field!r}]" if dict_view else f".{field}"
            if best is None or route.length + len(segment) <= len(
                best
            ):  # else the property's is shorter
                path = route.text() + segment
                if best is None or (len(path), path) < (len(best), best):
                    best = path
        return best

    def _walk(self) -> dict[tuple[str, str], str]:
        messages = self.surface["messages"]
        roots: dict[tuple[str, str], str] = {}
        frontier: list[tuple[_Route, str, bool]] = (
            []
        )  # (route, message, dict view), shortest route first
        for cls_name, cls in self.surface["classes"].items():
            fields = messages.get(cls["message"], {}).get("fields", {})
            for prop_name, prop in cls["properties"].items():
                field = prop.get("field")
                if field is None or field not in fields:
                    continue
                path, key = f"{cls_name}.{prop_name}", (cls["message"], field)
                if key not in roots or (len(path), path) < (
                    len(roots[key]),
                    roots[key],
                ):
                    roots[key] = path
                target = _message_type(fields[field])
                if prop.get("kind") in ("config", "message") and target:
                    heapq.heappush(
                        frontier,
                        (_Route(None, path), target, prop.get("kind") == "config"),
                    )
        while frontier:
            route, name, dict_view = heapq.heappop(frontier)
            if (
                name in self._walked or name not in messages
            ):  # an imported (well-known) type: not this API's
                continue
            route.rank = len(self._walked)
            self._walked[name] = (route, dict_view)
            for field, fact in messages[name].get("fields", {}).items():
                target = _message_type(fact)
                if target and target not in self._walked:
                    segment = f"[{field!r}]" if dict_view else f".{field}"
                    heapq.heappush(
                        frontier, (_Route(route, segment), target, dict_view)
                    )
        return roots


def empty_surface() -> dict[str, Any]:
    """The surface of nothing (the inputs did not exist at the ref)."""
    return {"version": SURFACE_VERSION, "classes": {}, "messages": {}, "enums": {}}
