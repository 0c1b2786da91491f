"""The change rules of the API change report: each rule's id, category and
meaning (``Rule``), and the checks that find its changes between two API
surfaces (``compare``), one method per kind of item (classes, properties,
messages, fields, enums, rules between fields).

A new rule: a member of ``Rule`` (docs/schema-owners.md lists the same
table), its check in the method of the item it is about, and a case in
tests/stages/api_changes/<rule>/."""

from __future__ import annotations

import enum
from typing import Iterable, Literal

import msgspec

from ..annotations.aliases import is_due
from ..schema.proto_facts import INT_BOUNDS
from .comparisons import (
    Numbers,
    accepts_all,
    constraint_within,
    label_consequence,
    policy_rank,
    policy_text,
    raised_error,
    same_default,
    show_value,
    type_kind,
    type_kind_text,
    wire_of,
)
from .paths import FieldPaths
from .surface import (
    ClassFacts,
    EnumFacts,
    FieldFacts,
    MessageFacts,
    PropertyFacts,
    RuleFacts,
    Surface,
)

# breaking: code or data that worked before fails or means something else;
# behaviour: visible, but every value that was valid stays valid;
# addition: something new. The report lists them in this order.
Category = Literal["breaking", "behaviour", "addition"]
CATEGORIES: tuple[Category, ...] = ("breaking", "behaviour", "addition")


class Rule(enum.Enum):
    """A change rule: its value is its id (what reports and accepted_changes
    name), with its category and what it means."""

    id: str
    category: Category
    meaning: str

    # fmt: off
    CLASS_REMOVED             = ("class-removed", "breaking", "a wrapper class is gone")
    CLASS_RENAMED             = ("class-renamed", "breaking", "a wrapper class has a new name")
    PROPERTY_REMOVED          = ("property-removed", "breaking", "a property is gone (its field may remain, without a property)")
    PROPERTY_RENAMED          = ("property-renamed", "breaking", "a property has a new name (same field)")
    PROPERTY_TYPE_CHANGED     = ("property-type-changed", "breaking", "a property's getter or setter type changed, or it became read-only")
    MESSAGE_REMOVED           = ("message-removed", "breaking", "a message (its TypedDicts and protobuf class) is gone")
    ENUM_REMOVED              = ("enum-removed", "breaking", "an enum (its Literal) is gone")
    ENUM_VALUE_REMOVED        = ("enum-value-removed", "breaking", "an enum value is gone")
    ENUM_VALUE_RENAMED        = ("enum-value-renamed", "breaking", "an enum number has a new name")
    ENUM_VALUE_NUMBER_CHANGED = ("enum-value-number-changed", "breaking", "an enum value has a new number (wire)")
    FIELD_REMOVED             = ("field-removed", "breaking", "a field (property or config key) is gone")
    FIELD_RENAMED             = ("field-renamed", "breaking", "a field number has a new name (WIRE_JSON, text format)")
    FIELD_NUMBER_CHANGED      = ("field-number-changed", "breaking", "a field has a new number (WIRE)")
    FIELD_NUMBER_REUSED       = ("field-number-reused", "breaking", "a removed field's number now belongs to a field of another type (WIRE)")
    RESERVED_REUSED           = ("reserved-reused", "breaking", "a field or enum value uses a number or name that was reserved (WIRE)")
    RESERVED_REMOVED          = ("reserved-removed", "breaking", "a message or enum no longer reserves a number or name (WIRE)")
    TYPE_CHANGED              = ("type-changed", "breaking", "a field's type changed so that old values are rejected")
    WIRE_TYPE_CHANGED         = ("wire-type-changed", "breaking", "a field's wire encoding changed (WIRE)")
    LABEL_CHANGED             = ("label-changed", "breaking", "optional/required/repeated changed (WIRE)")
    REQUIRED_FIELD_ADDED      = ("required-field-added", "breaking", "a new proto2 required field: old data fails to parse")
    ONEOF_CHANGED             = ("oneof-changed", "breaking", "a field moved into, out of or between oneofs (WIRE)")
    PRESENCE_REMOVED          = ("presence-removed", "breaking", "a field lost presence: HasField fails, unset and zero look the same")
    JSON_NAME_CHANGED         = ("json-name-changed", "breaking", "a field's JSON name changed (WIRE_JSON)")
    DEFAULT_CHANGED           = ("default-changed", "breaking", "a field's default changed")
    CONSTRAINT_TIGHTENED      = ("constraint-tightened", "breaking", "a constraint was added or now rejects values it accepted")
    CHOICES_TIGHTENED         = ("choices-tightened", "breaking", "allowed string choices were added or narrowed")
    NONFINITE_REJECTED        = ("nonfinite-rejected", "breaking", "strict mode now rejects NaN and infinity")
    POLICY_TIGHTENED          = ("policy-tightened", "breaking", "compatible mode now raises (or raises another error) where it warned")
    REPEATED_MODE_CHANGED     = ("repeated-mode-changed", "breaking", "assigning a list now appends instead of replacing, or back")
    TYPE_WIDENED              = ("type-widened", "behaviour", "a field's type accepts more values; every old value stays valid")
    PRESENCE_ADDED            = ("presence-added", "behaviour", "a field gained presence (HasField works)")
    CONSTRAINT_LOOSENED       = ("constraint-loosened", "behaviour", "a constraint was removed or accepts more values")
    CHOICES_LOOSENED          = ("choices-loosened", "behaviour", "allowed string choices were removed or widened")
    NONFINITE_ALLOWED         = ("nonfinite-allowed", "behaviour", "strict mode now accepts NaN and infinity")
    POLICY_LOOSENED           = ("policy-loosened", "behaviour", "compatible mode now warns where it raised")
    ALIAS_REMOVED             = ("alias-removed", "breaking", "an old name of a field (renamed_from) no longer works")
    DEPRECATION_DUE           = ("deprecation-due", "breaking", "the schema's version reached the removed_in of a deprecated field or an old name")
    RENAMED_WITH_ALIAS        = ("renamed-with-alias", "behaviour", "a field has a new name and the old one still works, with a warning (renamed_from)")
    DEPRECATED_ADDED          = ("deprecated-added", "behaviour", "a field, message or enum value is marked deprecated")
    HOOK_CHANGED              = ("hook-changed", "behaviour", "a property is read or written through another hook")
    CLASS_ADDED               = ("class-added", "addition", "a new wrapper class")
    PROPERTY_ADDED            = ("property-added", "addition", "a new property")
    MESSAGE_ADDED             = ("message-added", "addition", "a new message (TypedDicts, protobuf class)")
    FIELD_ADDED               = ("field-added", "addition", "a new field (property or config key)")
    ENUM_ADDED                = ("enum-added", "addition", "a new enum")
    ENUM_VALUE_ADDED          = ("enum-value-added", "addition", "a new enum value")
    RULE_ADDED                = ("rule-added", "addition", "a new rule between fields: lint() may report it")
    RULE_REMOVED              = ("rule-removed", "behaviour", "a rule between fields is gone: lint() no longer reports its code")
    RULE_CHANGED              = ("rule-changed", "behaviour", "a rule's condition, fields or winner changed: lint() reports it in other cases")
    # fmt: on

    def __new__(cls, rule_id: str, category: Category, meaning: str) -> Rule:
        member = object.__new__(cls)
        member._value_ = rule_id
        member.id, member.category, member.meaning = rule_id, category, meaning
        return member

    def __str__(self) -> str:
        return self.id  # what users read and write in accepted_changes


class Change(msgspec.Struct, frozen=True, kw_only=True):
    rule: Rule
    path: str  # where users meet it; with the rule, what accepted_changes names
    old: str | None
    new: str | None
    consequence: str
    accepted: str | None = None  # the reason given in accepted_changes

    @property
    def category(self) -> Category:
        return self.rule.category


def compare(before: Surface, after: Surface) -> list[Change]:
    """Every difference between two API surfaces, classified by a Rule."""
    diff = _Diff(before, after)
    diff.classes()
    diff.messages()
    diff.enums()
    diff.rules()
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(diff.changes, key=lambda c: (order[c.category], c.path, c.rule.id))


def _fields(surface: Surface, message: str) -> dict[str, FieldFacts]:
    record = surface.messages.get(message)
    return record.fields if record is not None else {}


def _names(renamed_from: Iterable[str]) -> set[str]:
    """The old names of a field's ``renamed_from`` facts ("old" or "old until V")."""
    return {entry.partition(" ")[0] for entry in renamed_from}


def _untils(renamed_from: Iterable[str]) -> list[tuple[str, str]]:
    """(old name, removed_in) of the old names with a removal version."""
    return [
        (old, until)
        for old, _, until in (e.partition(" until ") for e in renamed_from)
        if until
    ]


def _rule_text(rule: RuleFacts) -> str:
    return f"{rule.kind} of {', '.join(rule.fields)}" + (
        f", {rule.winner} kept" if rule.winner else ""
    )


class _Diff:
    """One comparison: collects changes; each method checks one kind of item."""

    def __init__(self, before: Surface, after: Surface) -> None:
        self.before, self.after = before, after
        self.changes: list[Change] = []
        self.before_paths, self.after_paths = FieldPaths(before), FieldPaths(after)

    def add(
        self, rule: Rule, path: str, old: object, new: object, consequence: str
    ) -> None:
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
        known = head in self.before.classes or head in self.after.classes
        return head if known else "message"

    # -- classes and properties ---------------------------------------------

    def classes(self) -> None:
        b, a = self.before.classes, self.after.classes
        by_message = {v.message: k for k, v in a.items()}
        renamed = set()
        for name in sorted(b.keys() - a.keys()):
            new = by_message.get(b[name].message)
            if new is not None and new not in b:
                renamed.add(new)
                self.add(
                    Rule.CLASS_RENAMED,
                    name,
                    name,
                    new,
                    f"imports of {name} fail (ImportError); the class is now {new}",
                )
                self.properties(name, b[name], a[new], b[name].message)
            else:
                self.add(
                    Rule.CLASS_REMOVED,
                    name,
                    name,
                    None,
                    f"imports of {name} fail (ImportError); {b[name].message} has no wrapper class any more",
                )
        for name in sorted(a.keys() - b.keys() - renamed):
            self.add(
                Rule.CLASS_ADDED,
                name,
                None,
                name,
                f"new class {name} wraps {a[name].message}",
            )
        for name in sorted(a.keys() & b.keys()):
            self.properties(name, b[name], a[name], a[name].message)

    def properties(
        self, cls: str, before: ClassFacts, after: ClassFacts, message: str
    ) -> None:
        b, a = before.properties, after.properties
        b_msg, a_msg = _fields(self.before, message), _fields(self.after, message)
        a_by_field = {v.field: k for k, v in a.items() if v.field is not None}
        b_by_field = {v.field: k for k, v in b.items() if v.field is not None}
        for name in sorted(b.keys() - a.keys()):
            field = b[name].field
            if (
                field is not None
                and field in a_by_field
                and name in _names(a_msg[field].renamed_from if field in a_msg else ())
            ):
                new = a_by_field[field]
                self.add(
                    Rule.RENAMED_WITH_ALIAS,
                    f"{cls}.{name}",
                    name,
                    new,
                    f"code using {cls}.{name} still works, with a DeprecationWarning; use {cls}.{new}",
                )
            elif field is not None and field in a_by_field:
                new = a_by_field[field]
                self.add(
                    Rule.PROPERTY_RENAMED,
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
                    Rule.PROPERTY_REMOVED,
                    f"{cls}.{name}",
                    name,
                    None,
                    f"reading or setting {cls}.{name} fails (TypeError from the attribute lock){why}",
                )
            # else: the field itself went away or was renamed; the field rules say so
        for name in sorted(a.keys() - b.keys()):
            field = a[name].field
            if field is not None and field in b_by_field:
                continue  # renamed, reported above
            if field is None or field in b_msg:
                self.add(
                    Rule.PROPERTY_ADDED,
                    f"{cls}.{name}",
                    None,
                    name,
                    f"new property {cls}.{name} ({a[name].getter_type})",
                )
        for name in sorted(a.keys() & b.keys()):
            self.property(f"{cls}.{name}", b[name], a[name], message)

    def property(
        self, path: str, old: PropertyFacts, new: PropertyFacts, message: str
    ) -> None:
        """A property in both surfaces, of the same field (else the field rules say what changed)."""
        if new.field != old.field:
            return
        if old.setter_type and not new.setter_type:
            self.add(
                Rule.PROPERTY_TYPE_CHANGED,
                path,
                "read-write",
                "read-only",
                f"assigning {path} now fails (AttributeError): the property is read-only",
            )
        elif self.property_types_changed(old, new, message):
            self.add(
                Rule.PROPERTY_TYPE_CHANGED,
                path,
                f"{old.getter_type} / sets {old.setter_type}",
                f"{new.getter_type} / sets {new.setter_type}",
                f"code written for the old types of {path} may be rejected or read the wrong shape",
            )
        if old.hooks != new.hooks:
            self.add(
                Rule.HOOK_CHANGED,
                path,
                old.hooks or "no hooks",
                new.hooks or "no hooks",
                f"{path} is now read/written through other hand-written code: check its behaviour",
            )

    def property_types_changed(
        self, old: PropertyFacts, new: PropertyFacts, message: str
    ) -> bool:
        if (old.getter_type, old.setter_type) == (new.getter_type, new.setter_type):
            return False
        if new.field is None:
            return True
        b = _fields(self.before, message).get(new.field)
        a = _fields(self.after, message).get(new.field)
        if b is None or a is None:
            return b is None and a is None
        # a change of the field's own type is reported by the field rules
        return (b.label, b.type, b.in_type, b.out_type) == (
            a.label,
            a.type,
            a.in_type,
            a.out_type,
        )

    # -- messages and fields ------------------------------------------------

    def messages(self) -> None:
        b, a = self.before.messages, self.after.messages
        for name in sorted(b.keys() - a.keys()):
            self.add(
                Rule.MESSAGE_REMOVED,
                name,
                name,
                None,
                f"the TypedDicts {' / '.join(b[name].typed_dicts)} and the protobuf class of {name} are gone",
            )
        for name in sorted(a.keys() - b.keys()):
            self.add(
                Rule.MESSAGE_ADDED,
                name,
                None,
                name,
                f"new message {name} (TypedDicts {' / '.join(a[name].typed_dicts)})",
            )
        for name in sorted(a.keys() & b.keys()):
            self.message(name, b[name], a[name])

    def message(self, name: str, b: MessageFacts, a: MessageFacts) -> None:
        bf, af = b.fields, a.fields
        a_by_number = {v.number: k for k, v in af.items()}
        handled: set[str] = set()
        b_reserved, a_reserved = Numbers(b.reserved_numbers), Numbers(
            a.reserved_numbers
        )
        for field in sorted(bf.keys() - af.keys()):
            old = bf[field]
            other = a_by_number.get(old.number)
            path = self.old_path(name, field)
            if other is not None and other not in bf:
                handled.add(other)
                new = af[other]
                new_path = self.new_path(name, other)
                if (old.type, old.label) == (new.type, new.label) and field in _names(
                    new.renamed_from
                ):
                    self.add(
                        Rule.RENAMED_WITH_ALIAS,
                        path,
                        field,
                        other,
                        f"code, configs and prototxt naming {field} still work, with a DeprecationWarning "
                        f"(same number {old.number}); migrate them to {other} (the package's migrate "
                        f"command rewrites config files)",
                    )
                    self.compare_field(name, other, old, new, renamed=True)
                    continue
                if (old.type, old.label) == (new.type, new.label):
                    moved = "" if new_path != path else " (the property keeps its name)"
                    self.add(
                        Rule.FIELD_RENAMED,
                        path,
                        field,
                        other,
                        f"code naming {field} must use {other}{moved}; binary data still reads (same number "
                        f"{old.number}), but prototxt and JSON naming {field} no longer load",
                    )
                    self.compare_field(name, other, old, new, renamed=True)
                    continue
                self.removed(field, old, path, a_reserved, reused=True)
                self.add(
                    Rule.FIELD_NUMBER_REUSED,
                    new_path,
                    f"{field} ({old.type})",
                    f"{other} ({new.type})",
                    f"binary data written with {field} = {old.number} is read as {other}: "
                    f"wrong values or parse errors",
                )
                continue
            self.removed(field, old, path, a_reserved)
        for field in sorted(af.keys() - bf.keys() - handled):
            new = af[field]
            path = self.new_path(name, field)
            if self.reused(path, field, new.number, b, b_reserved):
                pass
            elif new.label == "required":
                self.add(
                    Rule.REQUIRED_FIELD_ADDED,
                    path,
                    None,
                    f"required {new.type} {field} = {new.number}",
                    f"messages written before have no {field}: parsing them fails (required field missing)",
                )
            else:
                shown = show_value(
                    new.default if new.default is not None else new.out_type
                )
                self.add(
                    Rule.FIELD_ADDED,
                    path,
                    None,
                    f"{new.type} {field} = {new.number}",
                    f"new {'key' if '[' in path else 'field'} {path}, default {shown}",
                )
        for field in sorted(af.keys() & bf.keys()):
            self.compare_field(name, field, bf[field], af[field])
        freed = b_reserved - a_reserved - Numbers.of(a_by_number)
        self.unreserved(name, b, a, freed, af.keys(), "field")
        if a.deprecated and not b.deprecated:
            self.add(
                Rule.DEPRECATED_ADDED,
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
        before: MessageFacts | EnumFacts,
        reserved: Numbers,
    ) -> bool:
        """``name = number`` is new: report it if ``before`` reserved either."""
        if number not in reserved and name not in before.reserved_names:
            return False
        what = f"number {number}" if number in reserved else f"name {name!r}"
        self.add(
            Rule.RESERVED_REUSED,
            path,
            "reserved",
            f"{name} = {number}",
            f"{what} was reserved so old data and readers would not misread it; {name} now uses it",
        )
        return True

    def unreserved(
        self,
        owner: str,
        b: MessageFacts | EnumFacts,
        a: MessageFacts | EnumFacts,
        numbers: Numbers,
        used: Iterable[str],
        what: str,
    ) -> None:
        """Reservations of ``b`` that ``a`` dropped (``numbers``: freed and unused)."""
        names = sorted(set(b.reserved_names) - set(a.reserved_names) - set(used))
        if numbers or names:
            shown = ", ".join(
                [numbers.text()] * bool(numbers) + [repr(n) for n in names]
            )
            self.add(
                Rule.RESERVED_REMOVED,
                owner,
                shown,
                None,
                f"{shown} no longer reserved in {owner}: a later {what} could reuse them and misread old data",
            )

    def removed(
        self,
        field: str,
        old: FieldFacts,
        path: str,
        reserved: Numbers,
        reused: bool = False,
    ) -> None:
        if "[" in path:
            how = f"dicts naming {field!r} raise UnknownConfigKeyError"
        elif path.split(".", 1)[0] in self.before.classes:
            how = f"reading or setting {path} fails (TypeError from the attribute lock)"
        else:
            how = f"the {field} attribute and TypedDict key are gone"
        note = (
            ""
            if reused or old.number in reserved
            else f"; number {old.number} is not reserved"
        )
        self.add(
            Rule.FIELD_REMOVED,
            path,
            f"{old.type} {field} = {old.number}",
            None,
            f"{how}; saved prototxt setting it no longer loads{note}",
        )

    def compare_field(
        self,
        message: str,
        name: str,
        old: FieldFacts,
        new: FieldFacts,
        renamed: bool = False,
    ) -> None:
        """A field in both surfaces: what changed on the wire, then in meaning."""
        path = self.new_path(message, name)
        if old.number != new.number:
            self.add(
                Rule.FIELD_NUMBER_CHANGED,
                path,
                old.number,
                new.number,
                f"binary data written before stores {name} under {old.number}: it is no longer read as {name}",
            )
        if old.label != new.label:
            self.add(
                Rule.LABEL_CHANGED,
                path,
                old.label,
                new.label,
                label_consequence(old.label, new.label),
            )
        elif old.type != new.type:
            self.type_change(path, old, new)
        elif (old.in_type, old.out_type) != (new.in_type, new.out_type):
            self.add(
                Rule.TYPE_CHANGED,
                path,
                old.out_type,
                new.out_type,
                f"{path} now reads as {new.out_type} and accepts {new.in_type}",
            )
        if old.oneof != new.oneof:
            self.add(
                Rule.ONEOF_CHANGED,
                path,
                old.oneof,
                new.oneof,
                "setting it now clears other fields (or no longer does), and old binary data may set both",
            )
        if old.label == new.label != "repeated":
            self.toggled(
                not old.implicit,
                not new.implicit,
                path,
                ("no presence", "has presence"),
                (
                    Rule.PRESENCE_ADDED,
                    f"HasField('{name}') now works; an explicit zero is kept and written out",
                ),
                (
                    Rule.PRESENCE_REMOVED,
                    f"HasField('{name}') now raises ValueError; an unset {path} and a zero one look the same",
                ),
            )
        self.field_meaning(path, name, old, new, renamed)

    def field_meaning(
        self, path: str, name: str, old: FieldFacts, new: FieldFacts, renamed: bool
    ) -> None:
        """What a field's value means: its JSON name, default, validation, deprecation."""
        subject = f"every {self.owner(path)} that does not set it"
        old_json, new_json = old.json_name_or_derived(name), new.json_name_or_derived(
            name
        )
        if old_json != new_json and not renamed:
            self.add(
                Rule.JSON_NAME_CHANGED,
                path,
                old_json,
                new_json,
                f"JSON written before names it {old_json!r}: it no longer loads into {name}",
            )
        if (
            old.default is not None
            and new.default is not None
            and not same_default(old.default, new.default)
            and type_kind(old.type) == type_kind(new.type)  # else type-changed says it
        ):
            self.add(
                Rule.DEFAULT_CHANGED,
                path,
                old.default,
                new.default,
                f"{subject} now gets {new.default} instead of {old.default}",
            )
        self.constraint(path, old, new)
        self.choices(path, old, new)
        self.modes(path, old, new)
        if new.deprecated and not old.deprecated:
            self.add(
                Rule.DEPRECATED_ADDED,
                path,
                None,
                "deprecated",
                f"{path} is deprecated: plan to stop using it",
            )
        self.history(path, name, old, new)

    def history(self, path: str, name: str, old: FieldFacts, new: FieldFacts) -> None:
        """What the annotations say of a field's past and future: its old
        names (renamed_from) and its deprecation, against the schema's version."""
        gone = _names(old.renamed_from) - _names(new.renamed_from)
        for alias in sorted(gone):
            self.add(
                Rule.ALIAS_REMOVED,
                path,
                alias,
                None,
                f"code, configs and prototxt naming {alias} now fail (an unknown name); use {name}",
            )
        if new.deprecation and not old.deprecation and not new.deprecated:
            self.add(
                Rule.DEPRECATED_ADDED,
                path,
                None,
                f"deprecated {new.deprecation}",
                f"{path} is deprecated: using it warns; plan to stop using it",
            )
        was, now = self.before.schema_version, self.after.schema_version
        for alias, until in _untils(new.renamed_from):
            if is_due(until, now) and not is_due(until, was):
                self.add(
                    Rule.DEPRECATION_DUE,
                    path,
                    f"{alias} (old name) until {until}",
                    f"version {now}",
                    f"the old name {alias} is due for removal: it still works, but users were told it goes away in {until}",
                )
        due = (new.deprecation or "").partition(" until ")[2] or None
        if due is not None and is_due(due, now) and not is_due(due, was):
            self.add(
                Rule.DEPRECATION_DUE,
                path,
                f"deprecated until {due}",
                f"version {now}",
                f"{path} is due for removal: it still works, but users were told it goes away in {due}",
            )

    def toggled(
        self,
        was: bool,
        now: bool,
        path: str,
        shown: tuple[str, str],
        gained: tuple[Rule, str],
        lost: tuple[Rule, str],
    ) -> None:
        """A yes/no fact flipped: ``gained`` (rule, consequence) when it became true, else ``lost``."""
        if was != now:
            rule, consequence = gained if now else lost
            self.add(rule, path, shown[was], shown[now], consequence)

    def type_change(self, path: str, old: FieldFacts, new: FieldFacts) -> None:
        ot, nt = old.type, new.type
        wire_changed = wire_of(ot) != wire_of(nt)
        if accepts_all(ot, nt):
            if not accepts_all(nt, ot):
                self.add(
                    Rule.TYPE_WIDENED,
                    path,
                    ot,
                    nt,
                    f"{path} accepts every value it accepted, and more",
                )
            if wire_changed:
                self.add(
                    Rule.WIRE_TYPE_CHANGED,
                    path,
                    f"{ot} ({wire_of(ot)})",
                    f"{nt} ({wire_of(nt)})",
                    "binary data written before is misread or rejected (wire type differs)",
                )
            return
        wire = (
            "; binary data written before is misread (wire type differs)"
            if wire_changed
            else ""
        )
        if type_kind(ot) == type_kind(nt):  # same kind, smaller range or precision
            consequence = f"values that fit {ot} but not {nt} are now rejected{wire}"
        else:
            consequence = (
                f"{type_kind_text(ot)} values set before are rejected now{wire}"
            )
        self.add(Rule.TYPE_CHANGED, path, ot, nt, consequence)

    def constraint(self, path: str, old: FieldFacts, new: FieldFacts) -> None:
        """What strict and compatible mode accept: the constraint."""
        oc, nc = old.constraint, new.constraint
        oe, ne = old.enforce, new.enforce
        if (oc, oe) == (nc, ne):
            return
        shown_old = f"{oc} ({oe})" if oc else None
        shown_new = f"{nc} ({ne})" if nc else None
        integer = new.type in INT_BOUNDS
        wider = constraint_within(oc, nc, integer) and (
            ne == oe or ne == "strict" or nc is None
        )
        if wider and oe == ne and constraint_within(nc, oc, integer):
            pass  # the same values, spelled differently ("> 0" and ">= 1" on an integer)
        elif wider:
            self.add(
                Rule.CONSTRAINT_LOOSENED,
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
                Rule.CONSTRAINT_TIGHTENED,
                path,
                shown_old,
                shown_new,
                f"values outside {nc}{allowed} are now rejected {modes} (ValueError)",
            )

    def choices(self, path: str, old: FieldFacts, new: FieldFacts) -> None:
        ochoices, nchoices = old.choices, new.choices
        if ochoices == nchoices:
            return
        if nchoices is None or (
            ochoices is not None and set(ochoices) <= set(nchoices)
        ):
            self.add(
                Rule.CHOICES_LOOSENED,
                path,
                ochoices,
                nchoices,
                f"{path} accepts strings it rejected before",
            )
            return
        lost = sorted(set(ochoices) - set(nchoices)) if ochoices else None
        what = (
            f"{', '.join(map(repr, lost))} and other strings"
            if lost
            else "strings outside the list"
        )
        self.add(
            Rule.CHOICES_TIGHTENED,
            path,
            ochoices,
            nchoices,
            f"{what} are now rejected in strict mode (ValueError)",
        )

    def modes(self, path: str, old: FieldFacts, new: FieldFacts) -> None:
        """NaN and infinity, the compat policy, and how a list is assigned."""
        if old.type == new.type:
            self.toggled(
                old.finite,
                new.finite,
                path,
                ("NaN/inf allowed", "finite only"),
                (
                    Rule.NONFINITE_REJECTED,
                    f"strict mode now rejects NaN and infinity for {path} (ValueError)",
                ),
                (
                    Rule.NONFINITE_ALLOWED,
                    f"strict mode now accepts NaN and infinity for {path}",
                ),
            )
        op, np_ = old.policy, new.policy
        if op != np_ and old.type == new.type:
            if policy_rank(np_) < policy_rank(op):
                self.add(
                    Rule.POLICY_LOOSENED,
                    path,
                    op,
                    np_,
                    f"a wrong type for {path} now logs a warning and keeps the old value (compatible mode)",
                )
            else:
                self.add(
                    Rule.POLICY_TIGHTENED,
                    path,
                    op,
                    np_,
                    f"a wrong type for {path} now raises {raised_error(np_)} in compatible mode (was: {policy_text(op)})",
                )
        if old.append != new.append:
            was, now = ("append", "replace") if old.append else ("replace", "append")
            self.add(
                Rule.REPEATED_MODE_CHANGED,
                path,
                was,
                now,
                f"assigning a list to {path} now {'appends to' if now == 'append' else 'replaces'} the stored list",
            )

    # -- rules between fields -------------------------------------------------

    def rules(self) -> None:
        b, a = self.before.rules, self.after.rules
        for code in sorted(b.keys() - a.keys()):
            self.add(
                Rule.RULE_REMOVED,
                f"rule {code}",
                _rule_text(b[code]),
                None,
                f"lint() no longer reports {code}",
            )
        for code in sorted(a.keys() - b.keys()):
            self.add(
                Rule.RULE_ADDED,
                f"rule {code}",
                None,
                _rule_text(a[code]),
                f"lint() reports {code} where it holds",
            )
        for code in sorted(a.keys() & b.keys()):
            if a[code] != b[code]:
                self.add(
                    Rule.RULE_CHANGED,
                    f"rule {code}",
                    _rule_text(b[code]),
                    _rule_text(a[code]),
                    f"lint() reports {code} in other cases (its condition, fields or winner changed)",
                )

    # -- enums --------------------------------------------------------------

    def enums(self) -> None:
        b, a = self.before.enums, self.after.enums
        for name in sorted(b.keys() - a.keys()):
            self.add(
                Rule.ENUM_REMOVED,
                name,
                name,
                None,
                f"the Literal {b[name].literal} and the enum {name} are gone",
            )
        for name in sorted(a.keys() - b.keys()):
            self.add(
                Rule.ENUM_ADDED,
                name,
                None,
                name,
                f"new enum {name} (Literal {a[name].literal})",
            )
        for name in sorted(a.keys() & b.keys()):
            self.enum(name, b[name], a[name])

    def enum(self, name: str, b: EnumFacts, a: EnumFacts) -> None:
        """An enum in both surfaces: its values by name and number, reservations, deprecations."""
        bv, av = b.values, a.values
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
                    Rule.ENUM_VALUE_RENAMED,
                    path,
                    value,
                    others[0],
                    f"code and prototxt naming {value} fail; binary data still reads (number {bv[value]})",
                )
            else:
                self.add(
                    Rule.ENUM_VALUE_REMOVED,
                    path,
                    f"{value} = {bv[value]}",
                    None,
                    f"code and prototxt naming {value} fail; data holding {bv[value]} reads as unknown",
                )
        b_reserved = Numbers(b.reserved_numbers)
        for value in sorted(av.keys() - bv.keys() - renamed):
            if not self.reused(f"{name}.{value}", value, av[value], b, b_reserved):
                self.add(
                    Rule.ENUM_VALUE_ADDED,
                    f"{name}.{value}",
                    None,
                    f"{value} = {av[value]}",
                    f"new value {value} of {name}",
                )
        freed = b_reserved - Numbers(a.reserved_numbers) - Numbers.of(av.values())
        self.unreserved(name, b, a, freed, av.keys(), "value")
        for value in sorted(av.keys() & bv.keys()):
            if av[value] != bv[value]:
                self.add(
                    Rule.ENUM_VALUE_NUMBER_CHANGED,
                    f"{name}.{value}",
                    bv[value],
                    av[value],
                    f"binary data written with {value} ({bv[value]}) now reads as another value",
                )
        for value in sorted(set(a.deprecated) - set(b.deprecated) - renamed):
            if value in bv:
                self.add(
                    Rule.DEPRECATED_ADDED,
                    f"{name}.{value}",
                    None,
                    "deprecated",
                    f"{name}.{value} is deprecated: plan to stop using it",
                )
