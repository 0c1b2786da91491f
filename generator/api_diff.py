"""Compare two API surfaces (generator.api_surface): every difference,
classified by a named rule (generator.api_rules), with what it means for
users' code and data."""

from __future__ import annotations

from typing import Any

from .api_rules import (
    CATEGORIES,
    POLICY_RANK,
    RULES,
    Change,
    Numbers,
    accepts_all,
    constraint_within,
    label_consequence,
    policy_text,
    raised_error,
    rule_text,
    same_default,
    show_value,
    type_kind,
    type_kind_text,
    wire_of,
)
from .api_surface import FieldPaths, json_name_of, label
from .schema.proto_facts import INT_BOUNDS


class _Diff:
    """One comparison: collects changes; each method handles one kind of item."""

    def __init__(self, before: dict[str, Any], after: dict[str, Any]) -> None:
        self.before, self.after = before, after
        self.changes: list[Change] = []
        self.before_paths, self.after_paths = FieldPaths(before), FieldPaths(after)

    def add(self, rule: str, path: str, old: Any, new: Any, consequence: str) -> None:
        assert rule in RULES, rule
        self.changes.append(
            Change(
                rule=rule,
                path=path,
                old=None if old is None else show_value(old),
                new=None if new is None else show_value(new),
                consequence=consequence,
            )
        )

    # -- paths and wording --------------------------------------------------

    def old_path(self, message: str, name: str) -> str:
        """Where users met the field before (the message's own name if no property reaches it)."""
        return self.before_paths(message, name) or f"{message}.{name}"

    def new_path(self, message: str, name: str) -> str:
        return self.after_paths(message, name) or f"{message}.{name}"

    def owner(self, path: str) -> str:
        head = path.split(".", 1)[0].split("[", 1)[0]
        return (
            head
            if head in self.before["classes"] or head in self.after["classes"]
            else "message"
        )

    # -- classes and properties ---------------------------------------------

    def classes(self) -> None:
        b, a = self.before["classes"], self.after["classes"]
        by_message = {v["message"]: k for k, v in a.items()}
        renamed = set()
        for name in sorted(b.keys() - a.keys()):
            new = by_message.get(b[name]["message"])
            if new is not None and new not in b:
                renamed.add(new)
                self.add(
                    "class-renamed",
                    name,
                    name,
                    new,
                    f"imports of {name} fail (ImportError); the class is now {new}",
                )
                self.properties(
                    name,
                    b[name]["properties"],
                    a[new]["properties"],
                    b[name]["message"],
                )
            else:
                self.add(
                    "class-removed",
                    name,
                    name,
                    None,
                    f"imports of {name} fail (ImportError); {b[name]['message']} has no wrapper class any more",
                )
        for name in sorted(a.keys() - b.keys() - renamed):
            self.add(
                "class-added",
                name,
                None,
                name,
                f"new class {name} wraps {a[name]['message']}",
            )
        for name in sorted(a.keys() & b.keys()):
            self.properties(
                name, b[name]["properties"], a[name]["properties"], a[name]["message"]
            )

    def properties(
        self, cls: str, b: dict[str, Any], a: dict[str, Any], message: str
    ) -> None:
        b_msg = self.before["messages"].get(message, {}).get("fields", {})
        a_msg = self.after["messages"].get(message, {}).get("fields", {})
        a_by_field = {v["field"]: k for k, v in a.items() if "field" in v}
        b_by_field = {v["field"]: k for k, v in b.items() if "field" in v}
        for name in sorted(b.keys() - a.keys()):
            field = b[name].get("field")
            if field is not None and field in a_by_field:
                new = a_by_field[field]
                self.add(
                    "property-renamed",
                    f"{cls}.{name}",
                    name,
                    new,
                    f"code using {cls}.{name} fails (TypeError from the attribute lock); use {cls}.{new}",
                )
            elif field is None or field in a_msg:
                why = (
                    ""
                    if field is None
                    else f"; the field {field} stays in the message, without a property"
                )
                self.add(
                    "property-removed",
                    f"{cls}.{name}",
                    name,
                    None,
                    f"reading or setting {cls}.{name} fails (TypeError from the attribute lock){why}",
                )
            # else: the field itself went away or was renamed; the field rules say so
        for name in sorted(a.keys() - b.keys()):
            field = a[name].get("field")
            if field is not None and field in b_by_field:
                continue  # renamed, reported above
            if field is None or field in b_msg:
                self.add(
                    "property-added",
                    f"{cls}.{name}",
                    None,
                    name,
                    f"new property {cls}.{name} ({a[name]['getter_type']})",
                )
        for name in sorted(a.keys() & b.keys()):
            old, new = b[name], a[name]
            field = new.get("field")
            if field != old.get("field"):
                continue  # another field now: the field rules say what changed
            path = f"{cls}.{name}"
            if old.get("setter_type") and not new.get("setter_type"):
                self.add(
                    "property-type-changed",
                    path,
                    "read-write",
                    "read-only",
                    f"assigning {path} now fails (AttributeError): the property is read-only",
                )
            elif self.property_types_changed(old, new, message, field):
                was = f"{old['getter_type']} / sets {old.get('setter_type')}"
                now = f"{new['getter_type']} / sets {new.get('setter_type')}"
                self.add(
                    "property-type-changed",
                    path,
                    was,
                    now,
                    f"code written for the old types of {path} may be rejected or read the wrong shape",
                )
            if old.get("hooks") != new.get("hooks"):
                self.add(
                    "hook-changed",
                    path,
                    old.get("hooks") or "no hooks",
                    new.get("hooks") or "no hooks",
                    f"{path} is now read/written through other hand-written code: check its behaviour",
                )

    def property_types_changed(
        self, old: dict[str, Any], new: dict[str, Any], message: str, field: str | None
    ) -> bool:
        if (old["getter_type"], old.get("setter_type")) == (
            new["getter_type"],
            new.get("setter_type"),
        ):
            return False
        if field is None:
            return True
        b = self.before["messages"].get(message, {}).get("fields", {}).get(field, {})
        a = self.after["messages"].get(message, {}).get("fields", {}).get(field, {})
        # a change of the field's own type is reported by the field rules
        return label(b) == label(a) and all(
            b.get(k) == a.get(k) for k in ("type", "in_type", "out_type")
        )

    # -- messages and fields ------------------------------------------------

    def messages(self) -> None:
        b, a = self.before["messages"], self.after["messages"]
        for name in sorted(b.keys() - a.keys()):
            self.add(
                "message-removed",
                name,
                name,
                None,
                f"the TypedDicts {' / '.join(b[name].get('typed_dicts', []))} and the protobuf class of {name} are gone",
            )
        for name in sorted(a.keys() - b.keys()):
            self.add(
                "message-added",
                name,
                None,
                name,
                f"new message {name} (TypedDicts {' / '.join(a[name].get('typed_dicts', []))})",
            )
        for name in sorted(a.keys() & b.keys()):
            self.message(name, b[name], a[name])

    def message(self, name: str, b: dict[str, Any], a: dict[str, Any]) -> None:
        bf, af = b.get("fields", {}), a.get("fields", {})
        a_by_number = {v["number"]: k for k, v in af.items()}
        handled: set[str] = set()
        b_reserved = Numbers(b.get("reserved_numbers", []))
        a_reserved = Numbers(a.get("reserved_numbers", []))
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
                    self.add(
                        "field-renamed",
                        path,
                        field,
                        other,
                        f"code naming {field} must use {other}{moved}; binary data still reads (same number "
                        f"{old['number']}), but prototxt and JSON naming {field} no longer load",
                    )
                    self.compare_field(name, other, old, new, renamed=True)
                    continue
                self.removed(name, field, old, path, a_reserved, reused=True)
                self.add(
                    "field-number-reused",
                    new_path,
                    f"{field} ({old['type']})",
                    f"{other} ({new['type']})",
                    f"binary data written with {field} = {old['number']} is read as {other}: "
                    f"wrong values or parse errors",
                )
                continue
            self.removed(name, field, old, path, a_reserved)
        for field in sorted(af.keys() - bf.keys() - handled):
            new = af[field]
            path = self.new_path(name, field)
            if self.reused(path, field, new["number"], b, b_reserved):
                pass
            elif label(new) == "required":
                self.add(
                    "required-field-added",
                    path,
                    None,
                    f"required {new['type']} {field} = {new['number']}",
                    f"messages written before have no {field}: parsing them fails (required field missing)",
                )
            else:
                self.add(
                    "field-added",
                    path,
                    None,
                    f"{new['type']} {field} = {new['number']}",
                    f"new {'key' if '[' in path else 'field'} {path}, default {show_value(new.get('default', new.get('out_type')))}",
                )
        for field in sorted(af.keys() & bf.keys()):
            self.compare_field(name, field, bf[field], af[field])
        self.unreserved(
            name,
            b,
            a,
            b_reserved - a_reserved - Numbers.of(a_by_number),
            af.keys(),
            "field",
        )
        if a.get("deprecated") and not b.get("deprecated"):
            self.add(
                "deprecated-added",
                name,
                None,
                "deprecated",
                f"{name} is deprecated: plan to stop using it",
            )

    def reused(
        self,
        path: str,
        name: str,
        number: int,
        before: dict[str, Any],
        reserved: Numbers,
    ) -> bool:
        """``name = number`` is new: report it if ``before`` reserved either."""
        if number not in reserved and name not in before.get("reserved_names", []):
            return False
        what = f"number {number}" if number in reserved else f"name {name!r}"
        self.add(
            "reserved-reused",
            path,
            "reserved",
            f"{name} = {number}",
            f"{what} was reserved so old data and readers would not misread it; {name} now uses it",
        )
        return True

    def unreserved(
        self,
        owner: str,
        b: dict[str, Any],
        a: dict[str, Any],
        numbers: Numbers,
        used: Any,
        what: str,
    ) -> None:
        """Reservations of ``b`` that ``a`` dropped (``numbers``: freed and unused)."""
        names = sorted(
            set(b.get("reserved_names", []))
            - set(a.get("reserved_names", []))
            - set(used)
        )
        if numbers or names:
            shown = ", ".join(
                [numbers.text()] * bool(numbers) + [repr(n) for n in names]
            )
            self.add(
                "reserved-removed",
                owner,
                shown,
                None,
                f"{shown} no longer reserved in {owner}: a later {what} could reuse them and misread old data",
            )

    def removed(
        self,
        message: str,
        field: str,
        old: dict[str, Any],
        path: str,
        reserved: Numbers,
        reused: bool = False,
    ) -> None:
        if "[" in path:
            how = f"dicts naming {field!r} raise UnknownConfigKeyError"
        elif path.split(".", 1)[0] in self.before["classes"]:
            how = f"reading or setting {path} fails (TypeError from the attribute lock)"
        else:
            how = f"the {field} attribute and TypedDict key are gone"
        note = (
            ""
            if reused or old["number"] in reserved
            else f"; number {old['number']} is not reserved"
        )
        self.add(
            "field-removed",
            path,
            f"{old['type']} {field} = {old['number']}",
            None,
            f"{how}; saved prototxt setting it no longer loads{note}",
        )

    def compare_field(
        self,
        message: str,
        name: str,
        old: dict[str, Any],
        new: dict[str, Any],
        renamed: bool = False,
    ) -> None:
        """A field in both surfaces: what changed on the wire, then in meaning."""
        path = self.new_path(message, name)
        if old["number"] != new["number"]:
            self.add(
                "field-number-changed",
                path,
                old["number"],
                new["number"],
                f"binary data written before stores {name} under {old['number']}: it is no longer read as {name}",
            )
        if label(old) != label(new):
            self.add(
                "label-changed",
                path,
                label(old),
                label(new),
                label_consequence(label(old), label(new)),
            )
        elif old["type"] != new["type"]:
            self.type_change(path, old, new)
        elif (old.get("in_type"), old.get("out_type")) != (
            new.get("in_type"),
            new.get("out_type"),
        ):
            self.add(
                "type-changed",
                path,
                old.get("out_type"),
                new.get("out_type"),
                f"{path} now reads as {new.get('out_type')} and accepts {new.get('in_type')}",
            )
        if old.get("oneof") != new.get("oneof"):
            self.add(
                "oneof-changed",
                path,
                old.get("oneof"),
                new.get("oneof"),
                "setting it now clears other fields (or no longer does), and old binary data may set both",
            )
        if label(old) == label(new) != "repeated":
            self.toggled(
                not old.get("implicit"),
                not new.get("implicit"),
                path,
                ("no presence", "has presence"),
                (
                    "presence-added",
                    f"HasField('{name}') now works; an explicit zero is kept and written out",
                ),
                (
                    "presence-removed",
                    f"HasField('{name}') now raises ValueError; an unset {path} and a zero one look the same",
                ),
            )
        self.field_meaning(path, name, old, new, renamed)

    def field_meaning(
        self,
        path: str,
        name: str,
        old: dict[str, Any],
        new: dict[str, Any],
        renamed: bool,
    ) -> None:
        """What a field's value means: its JSON name, default, validation, deprecation."""
        subject = f"every {self.owner(path)} that does not set it"
        old_json, new_json = json_name_of(name, old), json_name_of(name, new)
        if old_json != new_json and not renamed:
            self.add(
                "json-name-changed",
                path,
                old_json,
                new_json,
                f"JSON written before names it {old_json!r}: it no longer loads into {name}",
            )
        if (
            not same_default(old.get("default"), new.get("default"))
            and old.get("default") is not None
            and new.get("default") is not None
            and type_kind(old["type"])
            == type_kind(new["type"])  # else type-changed says it
        ):
            self.add(
                "default-changed",
                path,
                old["default"],
                new["default"],
                f"{subject} now gets {new['default']} instead of {old['default']}",
            )
        self.validation(path, old, new)
        if new.get("deprecated") and not old.get("deprecated"):
            self.add(
                "deprecated-added",
                path,
                None,
                "deprecated",
                f"{path} is deprecated: plan to stop using it",
            )

    def toggled(
        self,
        was: Any,
        now: Any,
        path: str,
        shown: tuple[str, str],
        gained: tuple[str, str],
        lost: tuple[str, str],
    ) -> None:
        """A yes/no fact flipped: ``gained`` (rule, consequence) when it became true, else ``lost``."""
        if bool(was) != bool(now):
            rule, consequence = gained if now else lost
            self.add(rule, path, shown[bool(was)], shown[bool(now)], consequence)

    def type_change(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        ot, nt = old["type"], new["type"]
        wire_changed = wire_of(ot) != wire_of(nt)
        if accepts_all(ot, nt):
            if not accepts_all(nt, ot):
                self.add(
                    "type-widened",
                    path,
                    ot,
                    nt,
                    f"{path} accepts every value it accepted, and more",
                )
            if wire_changed:
                self.add(
                    "wire-type-changed",
                    path,
                    f"{ot} ({wire_of(ot)})",
                    f"{nt} ({wire_of(nt)})",
                    "binary data written before is misread or rejected (wire type differs)",
                )
        else:
            wire = (
                "; binary data written before is misread (wire type differs)"
                if wire_changed
                else ""
            )
            if type_kind(ot) == type_kind(nt):  # same kind, smaller range or precision
                self.add(
                    "type-changed",
                    path,
                    ot,
                    nt,
                    f"values that fit {ot} but not {nt} are now rejected{wire}",
                )
            else:
                self.add(
                    "type-changed",
                    path,
                    ot,
                    nt,
                    f"{type_kind_text(ot)} values set before are rejected now{wire}",
                )

    def validation(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        """What strict and compatible mode accept."""
        self.constraint(path, old, new)
        self.choices(path, old, new)
        self.modes(path, old, new)

    def constraint(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        oc, nc = old.get("constraint"), new.get("constraint")
        oe, ne = old.get("enforce"), new.get("enforce")
        if (oc, oe) != (nc, ne):
            shown_old = f"{oc} ({oe})" if oc else None
            shown_new = f"{nc} ({ne})" if nc else None
            integer = new["type"] in INT_BOUNDS
            wider = constraint_within(oc, nc, integer) and (
                ne == oe or ne == "strict" or nc is None
            )
            if wider and oe == ne and constraint_within(nc, oc, integer):
                pass  # the same values, spelled differently ("> 0" and ">= 1" on an integer)
            elif wider:
                self.add(
                    "constraint-loosened",
                    path,
                    shown_old,
                    shown_new,
                    f"{path} accepts values it rejected before",
                )
            else:
                if oc == nc:
                    modes = "in compatible mode too, not only in strict mode"
                else:
                    modes = "in both modes" if ne == "always" else "in strict mode"
                allowed = f" that {oc} allowed" if oc and oc != nc else ""
                self.add(
                    "constraint-tightened",
                    path,
                    shown_old,
                    shown_new,
                    f"values outside {nc}{allowed} are now rejected {modes} (ValueError)",
                )

    def choices(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        ochoices, nchoices = old.get("choices"), new.get("choices")
        if ochoices != nchoices:
            if nchoices is None or (
                ochoices is not None and set(ochoices) <= set(nchoices)
            ):
                self.add(
                    "choices-loosened",
                    path,
                    ochoices,
                    nchoices,
                    f"{path} accepts strings it rejected before",
                )
            else:
                lost = sorted(set(ochoices) - set(nchoices)) if ochoices else None
                what = (
                    f"{', '.join(map(repr, lost))} and other strings"
                    if lost
                    else "strings outside the list"
                )
                self.add(
                    "choices-tightened",
                    path,
                    ochoices,
                    nchoices,
                    f"{what} are now rejected in strict mode (ValueError)",
                )

    def modes(self, path: str, old: dict[str, Any], new: dict[str, Any]) -> None:
        """NaN and infinity, the compat policy, and how a list is assigned."""
        if old["type"] == new["type"]:
            self.toggled(
                old.get("finite"),
                new.get("finite"),
                path,
                ("NaN/inf allowed", "finite only"),
                (
                    "nonfinite-rejected",
                    f"strict mode now rejects NaN and infinity for {path} (ValueError)",
                ),
                (
                    "nonfinite-allowed",
                    f"strict mode now accepts NaN and infinity for {path}",
                ),
            )
        op, np_ = old.get("policy"), new.get("policy")
        if op != np_ and old["type"] == new["type"]:
            orank, nrank = POLICY_RANK.get(
                (op or "passthrough").split()[0], 1
            ), POLICY_RANK.get((np_ or "passthrough").split()[0], 1)
            if nrank < orank:
                self.add(
                    "policy-loosened",
                    path,
                    op,
                    np_,
                    f"a wrong type for {path} now logs a warning and keeps the old value (compatible mode)",
                )
            else:
                self.add(
                    "policy-tightened",
                    path,
                    op,
                    np_,
                    f"a wrong type for {path} now raises {raised_error(np_)} in compatible mode (was: {policy_text(op)})",
                )
        if bool(old.get("append")) != bool(new.get("append")):
            was, now = (
                ("append", "replace") if old.get("append") else ("replace", "append")
            )
            self.add(
                "repeated-mode-changed",
                path,
                was,
                now,
                f"assigning a list to {path} now {'appends to' if now == 'append' else 'replaces'} the stored list",
            )

    # -- enums --------------------------------------------------------------

    def rules(self) -> None:
        b, a = self.before.get("rules", {}), self.after.get("rules", {})
        for code in sorted(b.keys() - a.keys()):
            self.add(
                "rule-removed",
                f"rule {code}",
                rule_text(b[code]),
                None,
                f"lint() no longer reports {code}",
            )
        for code in sorted(a.keys() - b.keys()):
            self.add(
                "rule-added",
                f"rule {code}",
                None,
                rule_text(a[code]),
                f"lint() reports {code} where it holds",
            )
        for code in sorted(a.keys() & b.keys()):
            if a[code] != b[code]:
                self.add(
                    "rule-changed",
                    f"rule {code}",
                    rule_text(b[code]),
                    rule_text(a[code]),
                    f"lint() reports {code} in other cases (its condition, fields or winner changed)",
                )

    def enums(self) -> None:
        b, a = self.before["enums"], self.after["enums"]
        for name in sorted(b.keys() - a.keys()):
            self.add(
                "enum-removed",
                name,
                name,
                None,
                f"the Literal {b[name]['literal']} and the enum {name} are gone",
            )
        for name in sorted(a.keys() - b.keys()):
            self.add(
                "enum-added",
                name,
                None,
                name,
                f"new enum {name} (Literal {a[name]['literal']})",
            )
        for name in sorted(a.keys() & b.keys()):
            self.enum(name, b[name], a[name])

    def enum(self, name: str, b: dict[str, Any], a: dict[str, Any]) -> None:
        """An enum in both surfaces: its values by name and number, reservations, deprecations."""
        bv, av = b["values"], a["values"]
        by_number: dict[int, list[str]] = {}
        for value, number in av.items():
            by_number.setdefault(number, []).append(value)
        renamed: set[str] = set()
        for value in sorted(bv.keys() - av.keys()):
            path = f"{name}.{value}"
            others = [v for v in by_number.get(bv[value], []) if v not in bv]
            if others:
                renamed.add(others[0])
                self.add(
                    "enum-value-renamed",
                    path,
                    value,
                    others[0],
                    f"code and prototxt naming {value} fail; binary data still reads (number {bv[value]})",
                )
            else:
                self.add(
                    "enum-value-removed",
                    path,
                    f"{value} = {bv[value]}",
                    None,
                    f"code and prototxt naming {value} fail; data holding {bv[value]} reads as unknown",
                )
        b_reserved = Numbers(b.get("reserved_numbers", []))
        for value in sorted(av.keys() - bv.keys() - renamed):
            if not self.reused(f"{name}.{value}", value, av[value], b, b_reserved):
                self.add(
                    "enum-value-added",
                    f"{name}.{value}",
                    None,
                    f"{value} = {av[value]}",
                    f"new value {value} of {name}",
                )
        freed = (
            b_reserved
            - Numbers(a.get("reserved_numbers", []))
            - Numbers.of(av.values())
        )
        self.unreserved(name, b, a, freed, av.keys(), "value")
        for value in sorted(av.keys() & bv.keys()):
            if av[value] != bv[value]:
                self.add(
                    "enum-value-number-changed",
                    f"{name}.{value}",
                    bv[value],
                    av[value],
                    f"binary data written with {value} ({bv[value]}) now reads as another value",
                )
        for value in sorted(
            set(a.get("deprecated", [])) - set(b.get("deprecated", [])) - renamed
        ):
            if value in bv:
                self.add(
                    "deprecated-added",
                    f"{name}.{value}",
                    None,
                    "deprecated",
                    f"{name}.{value} is deprecated: plan to stop using it",
                )


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every difference between two API surfaces, classified by RULES."""
    diff = _Diff(before, after)
    diff.classes()
    diff.messages()
    diff.enums()
    diff.rules()
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(diff.changes, key=lambda c: (order[c.category], c.path, c.rule))
