"""Rules between fields (the annotations' ``rules:``), part of stage 3 (load)
and stage 4 (model).

A rule is data, never code: a condition is a tree of comparisons between a
field and a literal (``any``/``all``/``not`` over them), a relation compares
numeric operands (fields, numbers, a product of them, the ``@world_size``
the linter is given). Three kinds:

* ``effective_when``: ``field`` does nothing unless the condition holds;
* ``conflicts_with``: ``field`` and another cannot both be on; ``wins`` is the
  one the reference implementation keeps;
* ``relation``: ``{left, op, right}`` must hold (optionally only ``when`` a
  condition holds).

``load_rules`` validates them against the schema (every problem with its
line, names checked with a did-you-mean); ``rule_models`` resolves them for the
templates: user-facing names, enum names as numbers, and the runtime tuples
the generated package's linter (``generator/shipped/lint.py``) evaluates.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, TypedDict

import msgspec

from ..errors import closest
from ..schema.proto_facts import NUMERIC_TYPES
from ..schema.schema import Field, Message, Schema
from .keys import (
    RULE_KEYS,
    AllOf,
    AnyOf,
    Compare,
    CompareValue,
    Condition,
    Not,
    Operand,
    Product,
    RuleNote,
    Scalar,
)

CODE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
# condition key -> runtime operator
COMPARISONS = {
    "equals": "==",
    "not_equals": "!=",
    "greater_than": ">",
    "at_least": ">=",
    "less_than": "<",
    "at_most": "<=",
    "in": "in",
}
RELATION_OPS = ("==", "!=", ">", ">=", "<", "<=")
INPUTS = ("@world_size",)  # what the linter may be given besides the message
KINDS = ("effective_when", "conflicts_with", "relation")


# what rules read of the checker (checker.Node, checker.Checker), as protocols: the
# model's records import this module, and the checker's imports stay off their path
class _Node(Protocol):  # a YAML value with its line
    value: Any  # whatever the YAML holds: each reader checks it (isinstance) where it reads it
    line: int


# The checker's methods take the annotations' own node class, which this module
# cannot name: Any stands for it here.
class _Checker(Protocol):
    def error(self, message: str, node: Any, hint: str | None = None) -> None: ...

    def unknown(self, what: str, name: str, node: Any, valid: Any) -> None: ...

    def mapping(
        self, node: Any, where: str, allowed: dict[str, Any]
    ) -> dict[str, Any]: ...


# ------------------------------------------------------------- validation


class _Common(TypedDict):
    """What every kind of rule states (RuleNote's other attributes)."""

    code: str
    message: str
    kind: str
    when: Condition | None
    line: int
    doc: str | None


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


class _Reader:
    def __init__(
        self, c: _Checker, schema: Schema, message: Message, where: str
    ) -> None:
        self.c, self.schema, self.message, self.where = c, schema, message, where

    def path(self, text: object, node: _Node) -> tuple[tuple[str, ...], Field] | None:
        """A dotted field path of the rule's message (through singular message fields)."""
        if not isinstance(text, str) or not text:
            self.c.error(
                f"{self.where}: expected a field path (e.g. 'a' or 'a_configs.key'), got {text!r}",
                node,
            )
            return None
        message, parts = self.message, text.split(".")
        for index, part in enumerate(parts):
            f = message.field(part)
            if f is None:
                self.c.unknown(
                    f"field of {message.full_name} ({self.where})",
                    part,
                    node,
                    [x.name for x in message.fields],
                )
                return None
            if index == len(parts) - 1:
                return tuple(parts), f
            if (
                f.type != "message"
                or f.repeated
                or f.is_map
                or f.type_name not in self.schema.messages
            ):
                self.c.error(
                    f"{self.where}: {'.'.join(parts[: index + 1])} is not a message field, so {text!r} goes nowhere",
                    node,
                )
                return None
            message = self.schema.messages[f.type_name]
        return None  # no parts: refused above

    def condition(self, node: _Node) -> Condition | None:
        """``PATH`` (a bool field is on), ``{field: PATH, <comparison>: VALUE}``,
        ``{any: [...]}``, ``{all: [...]}`` or ``{not: CONDITION}``."""
        if isinstance(node.value, str):
            found = self.path(node.value, node)
            if found is None:
                return None
            if found[1].type != "bool" or found[1].repeated:
                self.c.error(
                    f"{self.where}: {node.value!r} is not a bool field; write {{field: {node.value}, <comparison>: VALUE}}",
                    node,
                )
                return None
            return Compare(found[0], "==", True)
        if not isinstance(node.value, dict):
            self.c.error(
                f"{self.where}: a condition is a bool field's name or a mapping, got {'null' if node.value is None else type(node.value).__name__}",
                node,
            )
            return None
        keys = node.value
        for group, cls in (("any", AnyOf), ("all", AllOf)):
            if group in keys:
                if (
                    len(keys) != 1
                    or not isinstance(keys[group].value, list)
                    or len(keys[group].value) < 2
                ):
                    self.c.error(
                        f"{self.where}.{group}: expected a list of two or more conditions, alone in its mapping",
                        keys[group],
                    )
                    return None
                items = [self.condition(item) for item in keys[group].value]
                return cls(tuple(items)) if all(items) else None  # type: ignore[arg-type]
        if "not" in keys:
            if len(keys) != 1:
                self.c.error(
                    f"{self.where}.not: 'not' stands alone in its mapping", keys["not"]
                )
                return None
            item = self.condition(keys["not"])
            return Not(item) if item else None
        allowed = {"field": str, **dict.fromkeys(COMPARISONS)}
        parsed = self.c.mapping(node, f"{self.where} condition", allowed)
        ops = [k for k in parsed if k in COMPARISONS]
        if "field" not in parsed or len(ops) != 1:
            if len(parsed) == len(keys):
                self.c.error(
                    f"{self.where}: a condition is {{field: PATH, <one of {', '.join(COMPARISONS)}>: VALUE}}, any, all or not",
                    node,
                )
            return None
        found = self.path(parsed["field"].value, parsed["field"])
        if found is None:
            return None
        value = self.literal(found, ops[0], parsed[ops[0]])
        return None if value is None else Compare(found[0], COMPARISONS[ops[0]], value)

    def literal(
        self, found: tuple[tuple[str, ...], Field], op: str, node: _Node
    ) -> CompareValue | None:
        """The value a field is compared with, checked against the field's type."""
        path, f = found
        name = ".".join(path)
        if f.repeated or f.is_map or f.type in ("message", "bytes"):
            self.c.error(
                f"{self.where}: {name} is a {'repeated' if f.repeated else f.type} field; conditions compare single values",
                node,
            )
            return None
        if op == "in":
            if not isinstance(node.value, list) or not node.value:
                self.c.error(
                    f"{self.where}: 'in' takes a non-empty list of values", node
                )
                return None
            values = [self.scalar(f, name, item, node) for item in node.value]
            scalars = tuple(v for v in values if v is not None)
            return scalars if len(scalars) == len(values) else None
        if op not in ("equals", "not_equals") and f.type not in NUMERIC_TYPES:
            self.c.error(
                f"{self.where}: {op} compares numbers; {name} is {_a(f.type)} field",
                node,
            )
            return None
        return self.scalar(f, name, node, node)

    def scalar(self, f: Field, name: str, item: object, node: _Node) -> Scalar | None:
        value = getattr(item, "value", item)
        if f.type == "bool":
            ok = isinstance(value, bool)
        elif f.type in NUMERIC_TYPES:
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        elif f.type == "enum":
            names = [v.name for v in self.schema.enums[f.type_name or ""].values]
            if isinstance(value, str) and value not in names:
                self.c.unknown(
                    f"value of {f.type_name} ({self.where})", value, node, names
                )
                return None
            ok = isinstance(value, str)
        else:
            ok = isinstance(value, str)
        if not ok or not isinstance(value, (bool, int, float, str)):
            expected = {
                "bool": "true or false",
                "enum": "an enum value's name",
                "string": "a string",
            }.get(f.type, "a number")
            self.c.error(
                f"{self.where}: {name} is {_a(f.type)} field; expected {expected}, got {value!r}",
                node,
            )
            return None
        return value

    def operand(self, node: _Node) -> Operand | None:
        """A numeric field path, a number, an input (``@world_size``) or ``{product: [...]}``."""
        value = node.value
        if isinstance(value, bool) or value is None:
            self.c.error(
                f"{self.where}: an operand is a numeric field, a number, {', '.join(INPUTS)} or {{product: [...]}}",
                node,
            )
            return None
        if isinstance(value, (int, float)):
            return value
        if isinstance(value, str) and value.startswith("@"):
            if value not in INPUTS:
                self.c.unknown(
                    f"linter input ({self.where})", value, node, list(INPUTS)
                )
                return None
            return value
        if isinstance(value, dict):
            if (
                list(value) != ["product"]
                or not isinstance(value["product"].value, list)
                or len(value["product"].value) < 2
            ):
                self.c.error(
                    f"{self.where}: expected {{product: [two or more operands]}}", node
                )
                return None
            items = [self.operand(item) for item in value["product"].value]
            return Product(tuple(items)) if all(i is not None for i in items) else None  # type: ignore[arg-type]
        found = self.path(value, node)
        if found is None:
            return None
        if found[1].type not in NUMERIC_TYPES or found[1].repeated:
            self.c.error(f"{self.where}: {value} is not a single numeric field", node)
            return None
        return found[0]


def load_rules(
    c: _Checker, node: _Node | None, schema: Schema, wrapped: set[str]
) -> tuple[RuleNote, ...]:
    """``rules:``: message full name -> rule code -> rule. ``wrapped``: the
    messages a class wraps (only those are linted)."""
    if node is None:
        return ()
    if not isinstance(node.value, dict):
        c.error(
            f"rules: expected a mapping of message names to their rules, got {'null' if node.value is None else type(node.value).__name__}",
            node,
        )
        return ()
    rules: list[RuleNote] = []
    codes: dict[str, int] = {}
    for full, rules_node in node.value.items():
        message = schema.messages.get(full)
        if message is None:
            c.unknown("message (rules)", full, rules_node, list(schema.messages))
            continue
        if full not in wrapped:
            c.error(
                f"rules.{full}: no class wraps {full} (classes:), so nothing would lint it",
                rules_node,
            )
            continue
        if not isinstance(rules_node.value, dict):
            c.error(
                f"rules.{full}: expected a mapping of rule codes to rules, got {'null' if rules_node.value is None else type(rules_node.value).__name__}",
                rules_node,
            )
            continue
        for code, rule_node in rules_node.value.items():
            where = f"rules.{full}.{code}"
            if not CODE.fullmatch(code):
                c.error(
                    f"{where}: a rule code is lower-case words joined by '-' (e.g. 'amp-configs-unused')",
                    rule_node,
                )
                continue
            if code in codes:
                c.error(
                    f"{where}: rule code {code!r} is used twice",
                    rule_node,
                    f"first on line {codes[code]}",
                )
                continue
            codes[code] = rule_node.line
            rule = _rule(c, schema, message, code, rule_node, where)
            if rule is not None:
                rules.append(rule)
    return tuple(rules)


def _rule(
    c: _Checker, schema: Schema, message: Message, code: str, node: _Node, where: str
) -> RuleNote | None:
    keys = c.mapping(node, where, RULE_KEYS)
    if len(keys) != len(node.value if isinstance(node.value, dict) else ()):
        return None  # an unknown key or a wrong type: already reported
    kinds = [k for k in KINDS if k in keys]
    if len(kinds) != 1:
        c.error(
            f"{where}: a rule has exactly one of {', '.join(KINDS)}"
            + (f" (it has {', '.join(kinds)})" if kinds else ""),
            node,
        )
        return None
    kind = kinds[0]
    read = _Reader(c, schema, message, where)
    when = read.condition(keys["when"]) if "when" in keys else None
    if "when" in keys and when is None:
        return None
    common: _Common = {
        "code": code,
        "message": message.full_name,
        "kind": kind,
        "when": when,
        "line": node.line,
        "doc": keys["doc"].value if "doc" in keys else None,
    }
    if kind == "relation":
        return _relation(c, read, keys, where, common)
    if "field" not in keys:
        c.error(f"{where}: 'field' is required (the field the rule is about)", node)
        return None
    subject = read.path(keys["field"].value, keys["field"])
    if subject is None:
        return None
    if kind == "effective_when":
        return _effective_when(c, read, keys, where, common, subject[0])
    return _conflicts_with(c, read, keys, node, where, common, subject[0])


def _relation(
    c: _Checker,
    read: _Reader,
    keys: dict[str, _Node],
    where: str,
    common: _Common,
) -> RuleNote | None:
    for key in ("field", "wins"):
        if key in keys:
            c.error(
                f"{where}: '{key}' does not go with relation (its operands name the fields)",
                keys[key],
            )
            return None
    parts = c.mapping(
        keys["relation"],
        f"{where}.relation",
        {"left": None, "op": str, "right": None},
    )
    missing = [k for k in ("left", "op", "right") if k not in parts]
    if missing:
        c.error(
            f"{where}.relation: {', '.join(repr(k) for k in missing)} required",
            keys["relation"],
        )
        return None
    if parts["op"].value not in RELATION_OPS:
        c.error(
            f"{where}.relation.op must be one of {' '.join(RELATION_OPS)}",
            parts["op"],
        )
        return None
    left, right = read.operand(parts["left"]), read.operand(parts["right"])
    if left is None or right is None:
        return None
    return RuleNote(relation=(left, parts["op"].value, right), **common)


def _effective_when(
    c: _Checker,
    read: _Reader,
    keys: dict[str, _Node],
    where: str,
    common: _Common,
    subject: tuple[str, ...],
) -> RuleNote | None:
    if "wins" in keys:
        c.error(f"{where}: 'wins' goes with conflicts_with", keys["wins"])
        return None
    condition = read.condition(keys["effective_when"])
    if condition is None:
        return None
    if subject in _paths(condition):
        c.error(
            f"{where}: {'.'.join(subject)} cannot depend on itself",
            keys["effective_when"],
        )
        return None
    return RuleNote(field=subject, condition=condition, **common)


def _conflicts_with(
    c: _Checker,
    read: _Reader,
    keys: dict[str, _Node],
    node: _Node,
    where: str,
    common: _Common,
    subject: tuple[str, ...],
) -> RuleNote | None:
    other = read.path(keys["conflicts_with"].value, keys["conflicts_with"])
    if other is None:
        return None
    if other[0] == subject:
        c.error(
            f"{where}: a field does not conflict with itself", keys["conflicts_with"]
        )
        return None
    names = [".".join(subject), ".".join(other[0])]
    if "wins" not in keys:
        c.error(
            f"{where}: 'wins' is required: which of {' and '.join(names)} is kept", node
        )
        return None
    if keys["wins"].value not in names:
        guess = closest(keys["wins"].value, names)
        c.error(
            f"{where}.wins: {keys['wins'].value!r} is neither {' nor '.join(names)}",
            keys["wins"],
            f"did you mean {guess!r}?" if guess else None,
        )
        return None
    wins = subject if keys["wins"].value == names[0] else other[0]
    return RuleNote(field=subject, other=other[0], wins=wins, **common)


def _paths(condition: Condition) -> set[tuple[str, ...]]:
    if isinstance(condition, Compare):
        return {condition.path}
    if isinstance(condition, Not):
        return _paths(condition.item)
    return set().union(*(_paths(item) for item in condition.items))


def _operand_paths(operand: Operand) -> list[tuple[str, ...]]:
    if isinstance(operand, tuple):
        return [operand]
    if isinstance(operand, Product):
        return [p for item in operand.items for p in _operand_paths(item)]
    return []


# ------------------------------------------------------------------ model


class ConditionModel(msgspec.Struct, frozen=True, kw_only=True):
    """A condition as the docs word it (templates/_rules_text.j2): ``kind``
    any | all | not | compare; a comparison of a bool field with ``==`` is a
    switch (``name`` is on/off)."""

    kind: str
    items: tuple[ConditionModel, ...] = ()
    name: str = ""  # compare: the field as users name it (property, dotted keys)
    op: str = ""
    value_text: str = ""  # the literal as the docs show it
    switch: bool = False
    on: bool = True


class OperandModel(msgspec.Struct, frozen=True, kw_only=True):
    kind: str  # field | number | input | product
    text: str = ""  # field: its name; number: its literal; input: world_size
    items: tuple[OperandModel, ...] = ()


class RuleModel(msgspec.Struct, frozen=True, kw_only=True):
    """One rule, resolved for the templates: the facts the docs and the
    linter's sentence are worded from, and the runtime data (``runtime``, a
    tuple of literals the shipped linter evaluates)."""

    code: str
    message: str
    kind: str
    names: tuple[str, ...]  # the fields involved, as users name them
    field: str = ""  # effective_when / conflicts_with: the field it is about
    other: str = ""  # conflicts_with
    wins: str = ""
    condition: ConditionModel | None = None
    relation: tuple[OperandModel, str, OperandModel] | None = None
    when: ConditionModel | None = None
    doc: str | None = None
    # subject, condition, other, relation, when (generator/shipped/lint.py Rule):
    # nested tuples of literals, whose shape the shipped linter reads
    runtime: tuple[object, ...] = ()

    def touches(self, name: str) -> bool:
        """The rule involves the property ``name`` (or one of its keys)."""
        return any(n == name or n.startswith(name + ".") for n in self.names)


class _Names:
    """User-facing names (a field's property name, then its keys) and enum numbers."""

    def __init__(self, schema: Schema, properties: dict[str, str]) -> None:
        self.schema, self.properties = schema, properties

    def name(self, message: Message, path: tuple[str, ...]) -> str:
        return ".".join((self.properties.get(path[0], path[0]), *path[1:]))

    def field(self, message: Message, path: tuple[str, ...]) -> Field:
        """The field a validated path ends at."""
        f = message.field(path[0])
        for part in path[1:]:
            assert f is not None and f.type_name is not None
            f = self.schema.messages[f.type_name].field(part)
        assert f is not None
        return f

    def number(self, message: Message, path: tuple[str, ...], value: object) -> object:
        f = self.field(message, path)
        if f.type == "enum" and isinstance(value, str):
            return next(
                v.number
                for v in self.schema.enums[f.type_name or ""].values
                if v.name == value
            )
        return value


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(_text(v) for v in value)
    return str(value) if not isinstance(value, str) else value


def _condition(
    names: _Names, message: Message, condition: Condition
) -> tuple[ConditionModel, tuple[object, ...]]:
    """The docs' model of a condition and its runtime tuple."""
    if isinstance(condition, Compare):
        value = condition.value
        runtime_value = (
            tuple(names.number(message, condition.path, v) for v in value)
            if isinstance(value, tuple)
            else names.number(message, condition.path, value)
        )
        switch = condition.op == "==" and isinstance(value, bool)
        model = ConditionModel(
            kind="compare",
            name=names.name(message, condition.path),
            op=condition.op,
            value_text=_text(value),
            switch=switch,
            on=bool(value) if switch else True,
        )
        return model, ("cmp", condition.path, condition.op, runtime_value)
    if isinstance(condition, Not):
        inner, runtime = _condition(names, message, condition.item)
        return ConditionModel(kind="not", items=(inner,)), ("not", runtime)
    pairs = [_condition(names, message, item) for item in condition.items]
    kind = "any" if isinstance(condition, AnyOf) else "all"
    return ConditionModel(kind=kind, items=tuple(p[0] for p in pairs)), (
        kind,
        tuple(p[1] for p in pairs),
    )


def _operand(
    names: _Names, message: Message, operand: Operand
) -> tuple[OperandModel, object]:
    if isinstance(operand, Product):
        pairs = [_operand(names, message, item) for item in operand.items]
        return OperandModel(kind="product", items=tuple(p[0] for p in pairs)), (
            "product",
            tuple(p[1] for p in pairs),
        )
    if isinstance(operand, tuple):
        return OperandModel(kind="field", text=names.name(message, operand)), (
            "field",
            operand,
        )
    if isinstance(operand, str):
        return OperandModel(kind="input", text=operand[1:]), ("input", operand[1:])
    return OperandModel(kind="number", text=_text(operand)), ("number", operand)


def rule_models(
    schema: Schema, rules: tuple[RuleNote, ...], properties: dict[str, dict[str, str]]
) -> tuple[RuleModel, ...]:
    """``properties``: message full name -> proto field name -> property name."""
    out = []
    for rule in rules:
        message = schema.messages[rule.message]
        names = _Names(schema, properties.get(rule.message, {}))
        when, when_runtime = (
            _condition(names, message, rule.when) if rule.when else (None, None)
        )
        involved: list[tuple[str, ...]] = []
        condition = relation = None
        condition_runtime = relation_runtime = None
        if rule.kind == "effective_when":
            assert rule.condition is not None
            condition, condition_runtime = _condition(names, message, rule.condition)
            involved = [rule.field, *sorted(_paths(rule.condition))]
        elif rule.kind == "conflicts_with":
            involved = [rule.field, rule.other]
        else:
            assert rule.relation is not None
            left, op, right = rule.relation
            (lm, lr), (rm, rr) = _operand(names, message, left), _operand(
                names, message, right
            )
            relation, relation_runtime = (lm, op, rm), (lr, op, rr)
            involved = _operand_paths(left) + _operand_paths(right)
        if rule.when:
            involved += [p for p in sorted(_paths(rule.when)) if p not in involved]
        shown = tuple(dict.fromkeys(names.name(message, p) for p in involved))
        out.append(
            RuleModel(
                code=rule.code,
                message=rule.message,
                kind=rule.kind,
                names=shown,
                field=names.name(message, rule.field) if rule.field else "",
                other=names.name(message, rule.other) if rule.other else "",
                wins=names.name(message, rule.wins) if rule.wins else "",
                condition=condition,
                relation=relation,
                when=when,
                doc=rule.doc,
                runtime=(
                    rule.field,
                    condition_runtime,
                    rule.other,
                    relation_runtime,
                    when_runtime,
                ),
            )
        )
    return tuple(out)
