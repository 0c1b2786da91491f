"""How the facts of two API surfaces compare, for the change rules
(generator.api_changes.rules): number ranges, scalar types and their wire
encodings, constraints, compatible-mode policies, defaults however spelt."""

from __future__ import annotations

import ast
import bisect
from typing import Iterable, Literal, Sequence

from ..schema.proto_facts import FLOAT_TYPES, INT_BOUNDS, WIRE_TYPES

# What compatible mode does with a value of the wrong type (annotations'
# compat_policies action; tests/stages/test_api_changes.py ties the two).
CompatAction = Literal["warn", "passthrough", "raise"]
# Strictness of a compatible-mode policy: warn keeps the old value, the others raise.
POLICY_RANK: dict[CompatAction, int] = {"warn": 0, "passthrough": 1, "raise": 1}


def policy_rank(policy: str | None) -> int:
    """How strict a surface's policy text ("raise ValueError") is; none: passthrough."""
    action = (policy or "passthrough").split()[0]
    return next((rank for name, rank in POLICY_RANK.items() if name == action), 1)


def same_default(old: object, new: object) -> bool:
    """Equal defaults, however spelt: a record written by another generator
    version may spell 50.0 as protoc does (5e+01)."""
    if old == new:
        return True
    try:
        return bool(ast.literal_eval(str(old)) == ast.literal_eval(str(new)))
    except (ValueError, SyntaxError):
        return False


def show_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


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
