"""Compare two API surfaces (generator.api_surface): every difference,
classified by a named rule (``RULES``) into breaking, behaviour or addition,
with what it means for users' code and data."""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .api_surface import FieldPaths, json_name_of, label
from .proto_facts import FLOAT_TYPES, INT_BOUNDS, WIRE_TYPES

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

# Strictness of a compatible-mode policy: warn keeps the old value, the others raise.
_POLICY_RANK = {"warn": 0, "passthrough": 1, "raise": 1}


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




def _same_default(old: object, new: object) -> bool:
    """Equal defaults, however spelt: a record written by another generator
    version may spell 50.0 as protoc does (5e+01)."""
    if old == new:
        return True
    try:
        return bool(ast.literal_eval(str(old)) == ast.literal_eval(str(new)))
    except (ValueError, SyntaxError):
        return False




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
        return label(b) == label(a) and all(b.get(k) == a.get(k) for k in ("type", "in_type", "out_type"))

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
                if (old["type"], label(old)) == (new["type"], label(new)):
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
            elif label(new) == "required":
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
        if label(old) != label(new):
            self.add("label-changed", path, label(old), label(new), _label_consequence(label(old), label(new)))
        elif old["type"] != new["type"]:
            self.type_change(path, old, new)
        elif (old.get("in_type"), old.get("out_type")) != (new.get("in_type"), new.get("out_type")):
            self.add("type-changed", path, old.get("out_type"), new.get("out_type"),
                     f"{path} now reads as {new.get('out_type')} and accepts {new.get('in_type')}")
        if old.get("oneof") != new.get("oneof"):
            self.add("oneof-changed", path, old.get("oneof"), new.get("oneof"),
                     "setting it now clears other fields (or no longer does), and old binary data may set both")
        if label(old) == label(new) != "repeated":
            self.toggled(
                not old.get("implicit"), not new.get("implicit"), path, ("no presence", "has presence"),
                ("presence-added", f"HasField('{name}') now works; an explicit zero is kept and written out"),
                ("presence-removed", f"HasField('{name}') now raises ValueError; an unset {path} and a zero one look the same"),
            )
        old_json, new_json = json_name_of(name, old), json_name_of(name, new)
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
    if base in FLOAT_TYPES:
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
    return WIRE_TYPES["map" if base.startswith("map<") else base]


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
