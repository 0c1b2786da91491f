"""The rules of the API change report (generator.api_changes), each with its
category, and the facts they decide by: how numbers, types, constraints and
compat policies compare."""

from __future__ import annotations

import ast
import bisect
from typing import Any, Iterable, Sequence

import msgspec

from .schema.proto_facts import FLOAT_TYPES, INT_BOUNDS, WIRE_TYPES

CATEGORIES = ("breaking", "behaviour", "addition")

# rule -> (category, what it means); the README lists the same table.
RULES: dict[str, tuple[str, str]] = {
    "class-removed": ("breaking", "a wrapper class is gone"),
    "class-renamed": ("breaking", "a wrapper class has a new name"),
    "property-removed": (
        "breaking",
        "a property is gone (its field may remain, without a property)",
    ),
    "property-renamed": ("breaking", "a property has a new name (same field)"),
    "property-type-changed": (
        "breaking",
        "a property's getter or setter type changed, or it became read-only",
    ),
    "message-removed": (
        "breaking",
        "a message (its TypedDicts and protobuf class) is gone",
    ),
    "enum-removed": ("breaking", "an enum (its Literal) is gone"),
    "enum-value-removed": ("breaking", "an enum value is gone"),
    "enum-value-renamed": ("breaking", "an enum number has a new name"),
    "enum-value-number-changed": ("breaking", "an enum value has a new number (wire)"),
    "field-removed": ("breaking", "a field (property or config key) is gone"),
    "field-renamed": (
        "breaking",
        "a field number has a new name (WIRE_JSON, text format)",
    ),
    "field-number-changed": ("breaking", "a field has a new number (WIRE)"),
    "field-number-reused": (
        "breaking",
        "a removed field's number now belongs to a field of another type (WIRE)",
    ),
    "reserved-reused": (
        "breaking",
        "a field or enum value uses a number or name that was reserved (WIRE)",
    ),
    "reserved-removed": (
        "breaking",
        "a message or enum no longer reserves a number or name (WIRE)",
    ),
    "type-changed": (
        "breaking",
        "a field's type changed so that old values are rejected",
    ),
    "wire-type-changed": ("breaking", "a field's wire encoding changed (WIRE)"),
    "label-changed": ("breaking", "optional/required/repeated changed (WIRE)"),
    "required-field-added": (
        "breaking",
        "a new proto2 required field: old data fails to parse",
    ),
    "oneof-changed": (
        "breaking",
        "a field moved into, out of or between oneofs (WIRE)",
    ),
    "presence-removed": (
        "breaking",
        "a field lost presence: HasField fails, unset and zero look the same",
    ),
    "json-name-changed": ("breaking", "a field's JSON name changed (WIRE_JSON)"),
    "default-changed": ("breaking", "a field's default changed"),
    "constraint-tightened": (
        "breaking",
        "a constraint was added or now rejects values it accepted",
    ),
    "choices-tightened": ("breaking", "allowed string choices were added or narrowed"),
    "nonfinite-rejected": ("breaking", "strict mode now rejects NaN and infinity"),
    "policy-tightened": (
        "breaking",
        "compatible mode now raises (or raises another error) where it warned",
    ),
    "repeated-mode-changed": (
        "breaking",
        "assigning a list now appends instead of replacing, or back",
    ),
    "type-widened": (
        "behaviour",
        "a field's type accepts more values; every old value stays valid",
    ),
    "presence-added": ("behaviour", "a field gained presence (HasField works)"),
    "constraint-loosened": (
        "behaviour",
        "a constraint was removed or accepts more values",
    ),
    "choices-loosened": ("behaviour", "allowed string choices were removed or widened"),
    "nonfinite-allowed": ("behaviour", "strict mode now accepts NaN and infinity"),
    "policy-loosened": ("behaviour", "compatible mode now warns where it raised"),
    "deprecated-added": (
        "behaviour",
        "a field, message or enum value is marked deprecated",
    ),
    "hook-changed": ("behaviour", "a property is read or written through another hook"),
    "class-added": ("addition", "a new wrapper class"),
    "property-added": ("addition", "a new property"),
    "message-added": ("addition", "a new message (TypedDicts, protobuf class)"),
    "field-added": ("addition", "a new field (property or config key)"),
    "enum-added": ("addition", "a new enum"),
    "enum-value-added": ("addition", "a new enum value"),
    "rule-added": ("addition", "a new rule between fields: lint() may report it"),
    "rule-removed": (
        "behaviour",
        "a rule between fields is gone: lint() no longer reports its code",
    ),
    "rule-changed": (
        "behaviour",
        "a rule's condition, fields or winner changed: lint() reports it in other cases",
    ),
}

# Strictness of a compatible-mode policy: warn keeps the old value, the others raise.
POLICY_RANK = {"warn": 0, "passthrough": 1, "raise": 1}


class Change(msgspec.Struct, frozen=True, kw_only=True):
    rule: str
    path: str  # where users meet it; with the rule, what accepted_changes names
    old: str | None
    new: str | None
    consequence: str
    accepted: str | None = None  # the reason given in accepted_changes

    @property
    def category(self) -> str:
        return RULES[self.rule][0]


def same_default(old: object, new: object) -> bool:
    """Equal defaults, however spelt: a record written by another generator
    version may spell 50.0 as protoc does (5e+01)."""
    if old == new:
        return True
    try:
        return bool(ast.literal_eval(str(old)) == ast.literal_eval(str(new)))
    except (ValueError, SyntaxError):
        return False


def show_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def rule_text(rule: dict[str, Any]) -> str:
    return f"{rule['kind']} of {', '.join(rule['fields'])}" + (
        f", {rule['winner']} kept" if rule.get("winner") else ""
    )


class Numbers:
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
    def of(cls, numbers: Iterable[int]) -> Numbers:
        return cls((n, n) for n in numbers)

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        at = bisect.bisect_right(self._lows, number) - 1
        return at >= 0 and number <= self.ranges[at][1]

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def __sub__(self, other: Numbers) -> Numbers:
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
        return Numbers(out)

    def text(self) -> str:
        """``numbers 9, 12-14`` (``number 9`` for one)."""
        count = sum(high - low + 1 for low, high in self.ranges)
        parts = [
            f"{low}" if low == high else f"{low}-{high}" for low, high in self.ranges
        ]
        return "number" + ("s " if count > 1 else " ") + ", ".join(parts)


def label_consequence(old: str, new: str) -> str:
    if new == "repeated":
        return "the value is now a list: code setting a single value is rejected"
    if old == "repeated":
        return "the value is no longer a list: code setting a list is rejected"
    if new == "required":
        return "messages without it now fail to serialize and parse (required)"
    return (
        "it is no longer required: readers that require it reject messages without it"
    )


def type_kind(type_text: str) -> str:
    base = type_text.split()[0]
    if base in INT_BOUNDS:
        return "int"
    if base in FLOAT_TYPES:
        return "float"
    return type_text  # bool, string, bytes, enum X, message X, map<...>


def type_kind_text(type_text: str) -> str:
    kind = type_kind(type_text)
    return {"int": "integer", "float": "float"}.get(kind, type_text)


def accepts_all(old: str, new: str) -> bool:
    """Every value ``old`` accepted is accepted by ``new`` (scalars only)."""
    if type_kind(old) != type_kind(new):
        return False
    if type_kind(old) == "int":
        (ol, oh), (nl, nh) = INT_BOUNDS[old], INT_BOUNDS[new]
        return nl <= ol and oh <= nh
    if type_kind(old) == "float":
        return new == "double" or old == new
    return old == new


def wire_of(type_text: str) -> str:
    base = type_text.split()[0]
    return WIRE_TYPES["map" if base.startswith("map<") else base]


def raised_error(policy: str | None) -> str:
    if policy is None or policy == "passthrough":
        return "protobuf's TypeError"
    parts = policy.split()
    return parts[1] if len(parts) > 1 else "an error"


def policy_text(policy: str | None) -> str:
    if policy is None or policy == "passthrough":
        return "protobuf's TypeError"
    return "a warning" if policy == "warn" else raised_error(policy)


def interval(
    constraint: str | None, integer: bool
) -> tuple[float, bool, float, bool, float | None]:
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


def constraint_within(old: str | None, new: str | None, integer: bool) -> bool:
    """Every value ``old`` accepts is accepted by ``new``."""
    ol, olo, oh, oho, ox = interval(old, integer)
    nl, nlo, nh, nho, nx = interval(new, integer)
    low_ok = nl < ol or (nl == ol and (not nlo or olo))
    high_ok = oh < nh or (oh == nh and (not nho or oho))
    if nx is not None and nx != ox:
        inside = (ol < nx or (ol == nx and not olo)) and (
            nx < oh or (nx == oh and not oho)
        )
        if inside:
            return False
    return low_ok and high_ok
