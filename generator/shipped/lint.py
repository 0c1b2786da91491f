# The linter of the packages fleet-strategy-codegen generates: a module of the
# tool itself (generator/shipped/lint.py), which `generate` copies verbatim
# into each package whose annotations declare rules, as lint.py.
"""Rules between fields, checked against a message without changing it.

The package's ``_rules`` module holds the rules as literal data (from the
annotations' ``rules:``); ``lint`` evaluates them: no text of a rule is ever
run. Three kinds:

* ``effective_when``: a field is set but does nothing unless a condition holds;
* ``conflicts_with``: two fields are on, and only one of them takes effect;
* ``relation``: values must relate (e.g. a product of degrees equals the world size).

A field is *set* when it holds something other than its default: a message
field present with a key set, a repeated field with an item, a scalar other
than its default. Reading never creates a sub-message (presence is checked
first), so linting never changes the message.

``main`` is ``python -m <package> lint FILE [--world-size N] [--format json]``.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from google.protobuf.message import Message

from ._runtime_specs import descriptor_of, has_field, list_fields

# Conditions and operands are nested tuples of literals:
#   ("cmp", path, op, value) | ("any", (c, ...)) | ("all", (c, ...)) | ("not", c)
#   ("field", path) | ("number", n) | ("input", "world_size") | ("product", (o, ...))
# where a path is a tuple of field names through singular message fields.
Path = tuple[str, ...]

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "in": lambda value, values: value in values,
}
JSON_VERSION = 1  # the version of the --format json document (see main)


class Rule(NamedTuple):
    """One rule, as the package's ``_rules`` module states it."""

    code: str  # stable: what tools match findings on
    kind: str  # effective_when | conflicts_with | relation
    fields: tuple[str, ...]  # the fields involved, as users name them
    sentence: str  # the finding's text
    subject: Path = ()  # effective_when, conflicts_with: the field the rule is about
    condition: Any = None  # effective_when: when the subject takes effect
    other: Path = ()  # conflicts_with: the field it conflicts with
    relation: Any = None  # (left, op, right)
    when: Any = None  # the rule applies only while this holds


class Finding(NamedTuple):
    """A rule the message breaks: its code, the fields involved, one sentence."""

    code: str
    fields: tuple[str, ...]
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "fields": list(self.fields), "message": self.message}


def _walk(message: Message, path: Path) -> tuple[Message | None, Any]:
    """The message holding the path's last field (None where a sub-message on
    the way is absent) and that field's descriptor."""
    holder: Message | None = message
    descriptor: Any = descriptor_of(message)
    for name in path[:-1]:
        field = descriptor.fields_by_name[name]
        if holder is not None:
            holder = getattr(holder, name) if has_field(holder, name) else None
        descriptor = field.message_type
    return holder, descriptor.fields_by_name[path[-1]]


def _is_repeated(field: Any) -> bool:
    repeated = getattr(field, "is_repeated", None)  # protobuf >= 6
    return bool(repeated) if repeated is not None else field.label == field.LABEL_REPEATED


def value(message: Message, path: Path) -> Any:
    """A single field's value; its default where a sub-message on the way is absent."""
    holder, field = _walk(message, path)
    return field.default_value if holder is None else getattr(holder, path[-1])


def is_set(message: Message, path: Path) -> bool:
    """The field holds something other than its default."""
    holder, field = _walk(message, path)
    if holder is None:
        return False
    if _is_repeated(field):
        return len(getattr(holder, path[-1])) > 0
    if field.message_type is not None:
        return has_field(holder, path[-1]) and bool(list_fields(getattr(holder, path[-1])))
    return bool(getattr(holder, path[-1]) != field.default_value)


def holds(message: Message, condition: Any) -> bool:
    kind = condition[0]
    if kind == "cmp":
        return _OPS[condition[2]](value(message, condition[1]), condition[3])
    if kind == "not":
        return not holds(message, condition[1])
    if kind == "any":
        return any(holds(message, item) for item in condition[1])
    return all(holds(message, item) for item in condition[1])


def _operand(message: Message, operand: Any, inputs: Mapping[str, Any]) -> Any:
    kind = operand[0]
    if kind == "field":
        return value(message, operand[1])
    if kind == "number":
        return operand[1]
    if kind == "input":
        return inputs.get(operand[1])
    result = 1
    for item in operand[1]:
        factor = _operand(message, item, inputs)
        if factor is None:
            return None
        result *= factor
    return result


def check(message: Message, rule: Rule, inputs: Mapping[str, Any]) -> Finding | None:
    """The finding ``rule`` gives on ``message``, or None."""
    if rule.when is not None and not holds(message, rule.when):
        return None
    if rule.kind == "effective_when":
        broken = is_set(message, rule.subject) and not holds(message, rule.condition)
    elif rule.kind == "conflicts_with":
        broken = is_set(message, rule.subject) and is_set(message, rule.other)
    else:
        left, op, right = rule.relation
        found, wanted = _operand(message, left, inputs), _operand(message, right, inputs)
        if found is None or wanted is None:  # an input not given: nothing to check against
            return None
        if not _OPS[op](found, wanted):
            return Finding(
                rule.code, rule.fields, f"{rule.sentence} (found {found!r} and {wanted!r})."
            )
        return None
    return Finding(rule.code, rule.fields, rule.sentence + ".") if broken else None


def lint(message: Message, rules: Sequence[Rule], world_size: int | None = None) -> list[Finding]:
    """Every finding of ``rules`` on ``message``, in the rules' order. The
    message is only read. ``world_size``: the number of ranks the job runs on,
    for rules that relate values to it (skipped without it)."""
    if world_size is not None and (
        type(world_size) is not int or world_size < 1
    ):  # a bool is not a size
        raise ValueError(f"world_size must be a positive int, got {world_size!r}")
    inputs = {"world_size": world_size}
    return [finding for rule in rules if (finding := check(message, rule, inputs)) is not None]


# ------------------------------------------------------------ command line


def _parser(prog: str, classes: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Check a strategy file against the rules between its fields."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    lint_command = commands.add_parser(
        "lint", help="report settings that have no effect, conflict or do not fit together"
    )
    lint_command.add_argument(
        "file", help="a text-format (prototxt) file, as save_to_prototxt writes it"
    )
    lint_command.add_argument(
        "--world-size", type=int, default=None, help="the number of ranks the job runs on"
    )
    lint_command.add_argument("--format", choices=("text", "json"), default="text")
    lint_command.add_argument(
        "--class",
        dest="class_name",
        choices=list(classes),
        default=classes[0],
        help="the class the file holds",
    )
    return parser


def _load(cls: Callable[[], Any], attribute: str, path: str) -> Any:
    """A new instance of ``cls`` holding the text-format file ``path``."""
    from google.protobuf import text_format

    if not stat.S_ISREG(
        os.stat(path).st_mode
    ):  # a folder, a FIFO, a device: refused before opening
        raise ValueError("not a regular file")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    instance = cls()
    try:
        text_format.Merge(text, getattr(instance, attribute))
    except text_format.ParseError as exc:
        raise ValueError(str(exc)) from None
    return instance


def main(
    argv: Sequence[str] | None, classes: Mapping[str, tuple[Callable[[], Any], str]], prog: str
) -> int:
    """``lint FILE``: exit 0 when clean, 1 with findings, 2 for a bad file or
    bad arguments. ``classes``: name -> (the generated class, the attribute
    holding its message), the first the default.

    ``--format json`` prints one object: ``{"version": 1, "file": FILE,
    "world_size": N or null, "findings": [{"code": str, "fields": [str],
    "message": str}]}``; text prints ``FILE: CODE: MESSAGE`` per finding."""
    parser = _parser(prog, list(classes))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse's own exit: 2 for bad arguments, 0 for --help
        return int(exc.code or 0)
    if args.world_size is not None and args.world_size < 1:
        print(f"{prog} lint: --world-size must be at least 1", file=sys.stderr)
        return 2
    try:
        strategy = _load(*classes[args.class_name], args.file)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"{prog} lint: cannot read {args.file}: {reason}", file=sys.stderr)
        return 2
    findings = strategy.lint(world_size=args.world_size)
    if args.format == "json":
        document = {
            "version": JSON_VERSION,
            "file": args.file,
            "world_size": args.world_size,
            "findings": [f.as_dict() for f in findings],
        }
        print(json.dumps(document, indent=2, sort_keys=True))
    else:
        for f in findings:
            print(f"{args.file}: {f.code}: {f.message}")
        if not findings:
            print(f"{args.file}: no findings")
    return 1 if findings else 0
