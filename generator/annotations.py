"""Stage 3: load the annotations file (YAML) and validate it against the schema.

Every value is remembered with its line, so each problem names file:line and,
for a misspelt name, the closest valid one. All problems are collected and
reported together; nothing downstream runs on an invalid file.
"""

from __future__ import annotations

import ast
import difflib
import io
import keyword
import re
import string
import tokenize
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import naming
from .errors import GeneratorError, Problem
from .rules import RuleNote, load_rules
from .inputs import decode_utf8, read_input
from .schema import Message, Schema

try:  # libyaml is much faster; marks (line numbers) work the same
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python PyYAML build
    _Loader = yaml.SafeLoader

COMPAT_ACTIONS = ("warn", "raise", "passthrough")
CONSTRAINT_RE = re.compile(r"^\s*(>=|<=|>|<|!=)\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*$")


@dataclass(frozen=True, kw_only=True)
class CompatPolicy:
    """How the compatible mode answers a value of the wrong Python type."""

    name: str
    action: str  # warn | raise | passthrough
    error: str | None  # exception class name for action == raise
    message: str  # format string: {field} {property} {type} {received}


@dataclass(frozen=True, kw_only=True)
class FieldNote:
    doc: str | None = None
    example: str | None = None
    property: str | None = None  # rename of the property
    hidden: bool = False  # property: false
    compat: str | None = None  # name of a CompatPolicy
    compat_message: str | None = None  # this field's own wording of the policy message
    constraint: tuple[str, float] | None = None
    enforce_constraint: str = "strict"  # strict | always
    choices: tuple[str, ...] | None = None
    allow_nonfinite: bool = False
    repeated: str = "replace"  # replace | append
    view: str | None = None  # dict | message (for message-typed fields)
    getter: str | None = None  # hook function names
    setter: str | None = None
    after_set: str | None = None
    type: str | None = None  # property types, for fields whose getter/setter is a hook
    setter_type: str | None = None
    env: EnvNote | None = None  # the environment variable backing the field
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class ExtraProperty:
    name: str
    doc: str
    example: str | None
    getter: str
    setter: str | None
    type: str  # Python type expression of the getter, as seen by users
    setter_type: str | None
    line: int


@dataclass(frozen=True, kw_only=True)
class ClassNote:
    name: str
    message: str
    message_attribute: str = "message"
    mixin: str | None = None
    init_hook: str | None = None
    compat: str | None = None  # default policy of the class's scalar fields
    # "set": assigning {} to a config property sets it (presence is never lost);
    # "unset": an empty dict leaves it alone (as the reference implementation may do)
    empty_config: str = "set"
    doc: str | None = None
    example: str | None = None
    extra_properties: tuple[ExtraProperty, ...] = ()
    attributes: tuple[AttributeNote, ...] = ()  # plain instance attributes (not fields)
    aliases: tuple[AliasNote, ...] = ()  # one-line methods writing a field
    environment: EnvironmentNote | None = None  # how env-backed fields are read and exported
    recipes: tuple[RecipeNote, ...] = ()  # worked examples the reference page shows under the class
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class RecipeNote:
    """``classes.<Class>.recipes.<title>``: a workflow, told and shown (a doctest)."""

    title: str
    doc: str
    example: str
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class ExtraKeyNote:
    """``messages.<full name>.extra_keys.<key>``: a key a config setter takes
    besides the message's fields (its hook handles it); the input TypedDict
    declares it, the docs list it."""

    name: str
    type: str  # what the setter accepts, a type expression
    doc: str
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class EnumNote:
    doc: str | None = None
    values: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class AcceptedChange:
    """A breaking API change the reviewers accepted (see generator.api_changes)."""

    rule: str
    path: str
    reason: str
    line: int


@dataclass(frozen=True, kw_only=True)
class Annotations:
    path: str | None  # None: no annotations file given
    hooks_module: str | None
    classes: tuple[ClassNote, ...]
    messages: dict[str, dict[str, FieldNote]]  # message -> field -> note
    message_docs: dict[str, str]
    enums: dict[str, EnumNote]
    extra_keys: dict[str, tuple[ExtraKeyNote, ...]] = field(default_factory=dict)  # message -> keys besides its fields
    compat_policies: dict[str, CompatPolicy]
    targets: tuple[TargetNote, ...] = ()  # builds besides the standalone package
    accepted_changes: tuple[AcceptedChange, ...] = ()
    # the implementation compatible mode mirrors: named where the docs compare with it
    reference: str | None = None
    # how that implementation differs, by section of the class docs (REFERENCE_SECTIONS): said there once
    differences: tuple[tuple[str, str], ...] = ()
    # ...and in what some members do (reference.differences.members): listed in their classes' docs
    member_differences: tuple[MemberDifference, ...] = ()
    strict_env: str | None = None  # the environment variable turning strict mode on (default: from the package)
    rules: tuple[RuleNote, ...] = ()  # rules between fields (generator.rules)


@dataclass(frozen=True, kw_only=True)
class MemberDifference:
    """``reference.differences.members.<name>``: how the reference differs in
    what some members do (``of``: ``Class`` for the class as a whole, or
    ``Class.member``)."""

    name: str
    of: tuple[str, ...]
    text: str
    line: int


@dataclass(frozen=True, kw_only=True)
class ModuleMembersNote:
    """``module_members:`` of a target: what its class module defines besides
    the classes (names a project's own module had, which other code imports)."""

    source: str | None  # `from`: a hand-written module beside the hooks module, copied into this build only
    names: tuple[str, ...]  # imported from it into the class module
    attributes: tuple[AttributeNote, ...]  # module-level variables of the class module
    exports: tuple[str, ...] | None  # `all`: the class module's __all__ (None: its classes)
    module: str | None  # the class module (dotted, inside classes_package); None: the build's only one
    line: int


@dataclass(frozen=True, kw_only=True)
class TargetNote:
    """A second build of the same API, bound to another project's modules
    (``targets:`` in the annotations file)."""

    name: str
    package: str  # where the support modules go (_runtime, _specs, types, hooks)
    classes_package: str  # where the wrapper class modules go
    public_package: str  # where users import the classes from (the docs' examples do)
    pb2_package: str  # the existing package the *_pb2 modules are imported from
    logger: str  # module.attribute of the logger object compatible-mode warnings go to
    doc: str
    line: int
    module_members: ModuleMembersNote | None = None


# --------------------------------------------------------------------- YAML


class _Node:
    """A loaded YAML value with its line, for precise error messages."""

    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line


_YAML = "tag:yaml.org,2002:"
# the types the annotations are written in (JSON's): any other tag, explicit
# (!foo, !!python/name:...) or resolved (a date, a merge key), is refused
_SCALAR_TAGS = frozenset(_YAML + name for name in ("str", "int", "float", "bool", "null"))
_COLLECTION_TAGS = {yaml.MappingNode: _YAML + "map", yaml.SequenceNode: _YAML + "seq"}
MAX_DEPTH = 50  # nested mappings and lists; the deepest key of the format is 6 levels down
MAX_DIGITS = 4300  # an integer's digits, as Python's default limit on int(str) on every version
_PLAIN_YAML = "write plain YAML: strings, numbers, booleans, null, lists and mappings; quote a value to make it text"


def _convert(
    node: yaml.Node, problems: list[Problem], file: str, seen: set[int], used_at: int | None = None, depth: int = 0
) -> _Node:
    """The node as _Nodes. An alias is the same node object met again: it is
    refused, not expanded, so a few hundred bytes of nested aliases (a "billion
    laughs" file) cost no more than their own size. ``used_at``: the line of
    the key or list holding ``node``, where an alias is written."""
    line = node.start_mark.line + 1
    if id(node) in seen:
        problems.append(
            Problem(
                "YAML aliases (*name) are not supported in the annotations file; write the value out",
                file, used_at or line, hint=f"its anchor is on line {line}",
            )
        )
        return _Node(None, line)
    seen.add(id(node))
    if depth > MAX_DEPTH:  # refused before Python's recursion limit is near
        problems.append(_nested_too_deep(file, line))
        return _Node(None, line)
    expected = _COLLECTION_TAGS.get(type(node))
    if node.tag != expected if expected else node.tag not in _SCALAR_TAGS:
        shown = "!!" + node.tag.removeprefix(_YAML) if node.tag.startswith(_YAML) else node.tag
        problems.append(Problem(f"the YAML type {shown} is not supported in the annotations file", file, line, hint=_PLAIN_YAML))
        return _Node(None, line)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, _Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _YAML + "merge":
                problems.append(Problem(
                    "YAML merge keys (<<) are not supported in the annotations file; write the keys out",
                    file, key_node.start_mark.line + 1,
                ))
                continue
            key = _convert(key_node, problems, file, seen, line, depth + 1)
            if not isinstance(key.value, str):
                problems.append(Problem(f"keys must be strings, got {key.value!r}", file, key.line))
                continue
            if key.value in out:
                problems.append(
                    Problem(f"duplicate key {key.value!r}", file, key.line, hint=f"first given on line {out[key.value].line}")
                )
                continue
            out[key.value] = _convert(value_node, problems, file, seen, key.line, depth + 1)
            out[key.value].line = key.line
        return _Node(out, line)
    if isinstance(node, yaml.SequenceNode):
        return _Node([_convert(n, problems, file, seen, line, depth + 1) for n in node.value], line)
    return _Node(_scalar(node, problems, file, line), line)


def _nested_too_deep(file: str, line: int | None) -> Problem:
    return Problem(f"nested more than {MAX_DEPTH} levels deep", file, line, hint="the annotations never need that")


def _scalar(node: yaml.ScalarNode, problems: list[Problem], file: str, line: int) -> Any:
    """A scalar's value (str, int, float, bool or None); an unreadable one is a problem."""
    if node.tag == _YAML + "int" and len(node.value) > MAX_DIGITS:  # int() of it would be refused, or take minutes
        problems.append(Problem(f"an integer of {len(node.value)} digits is too long (at most {MAX_DIGITS})", file, line))
        return None
    try:
        return _SCALARS.construct_object(node, deep=True)
    except (ValueError, KeyError, yaml.YAMLError):  # an explicit tag on text it does not fit: !!bool maybe
        text = node.value if len(node.value) <= 40 else node.value[:40] + "..."
        problems.append(Problem(f"cannot read {text!r} as !!{node.tag.removeprefix(_YAML)}", file, line, hint=_PLAIN_YAML))
        return None


_SCALARS = yaml.constructor.SafeConstructor()  # resolves tagged scalars (bool, int, str...)


def _too_deep(text: str) -> int | None:
    """The line of the first collection nested deeper than MAX_DEPTH (the
    event stream is read without recursion)."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if depth > MAX_DEPTH:
                return int(event.start_mark.line) + 1
            depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _load_yaml(path: Path) -> _Node:
    text = decode_utf8(read_input(path, "annotations file"), path, "annotations file")
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: the line holding it
        at = text.count("\n", 0, max(text.find(chr(exc.character)), 0)) + 1
        raise GeneratorError(Problem(f"YAML syntax error: {exc.reason}", str(path), at)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        raise GeneratorError(Problem(f"YAML syntax error: {reason}", str(path), line)) from None
    except RecursionError:  # the pure-Python composer (no libyaml) recurses per level; libyaml stops at 1,000
        raise GeneratorError(_nested_too_deep(str(path), _too_deep(text))) from None
    problems: list[Problem] = []
    if root is None:
        return _Node({}, 1)
    converted = _convert(root, problems, str(path), set())
    if problems:
        raise GeneratorError(list(dict.fromkeys(problems)))  # several aliases on one line: one message
    return converted


# --------------------------------------------------------------- validation


def closest(name: str, choices: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> str | None:
    match = difflib.get_close_matches(name, sorted(choices), n=1, cutoff=0.6)
    return match[0] if match else None


class _Checker:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def error(self, message: str, node: _Node | None, hint: str | None = None) -> None:
        self.problems.append(Problem(message, self.file, node.line if node else None, hint))

    def unknown(self, what: str, name: str, node: _Node, valid: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> None:
        guess = closest(name, valid)
        hint = f"did you mean {guess!r}?" if guess else f"valid: {', '.join(sorted(valid)) or 'none'}"
        self.error(f"unknown {what} {name!r}", node, hint)

    def mapping(self, node: _Node, where: str, allowed: dict[str, Any]) -> dict[str, _Node]:
        if not isinstance(node.value, dict):
            self.error(f"{where}: expected a mapping, got {type(node.value).__name__}", node)
            return {}
        result: dict[str, _Node] = {}
        for key, child in node.value.items():
            if key not in allowed:
                self.unknown(f"key in {where}", key, child, list(allowed))
                continue
            expected = allowed[key]
            if expected is not None and not isinstance(child.value, expected):
                names = expected.__name__ if isinstance(expected, type) else " or ".join(t.__name__ for t in expected)
                self.error(f"{where}.{key}: expected {names}, got {type(child.value).__name__}", child)
                continue
            result[key] = child
        return result


_TOP_KEYS = {
    "hooks": str, "compat_policies": dict, "classes": dict, "messages": dict, "enums": dict, "targets": dict,
    "accepted_changes": list,
    "reference": (str, dict), "strict_env": str,
    "rules": None,  # generator.rules checks its shape
}
# `reference:` as a mapping: its name, and how it differs from the generated
# classes in what a section of each class's docs states once (the templates
# word the sections: "validation" for single-value options, "config_dicts" for
# assigning config dicts, "defaults" for the defaults the docs show,
# "environment" for options read from the environment), and in what some
# members do ("members": each {of: [Class.member, ...], text})
_REFERENCE_KEYS = {"name": str, "differences": dict}
REFERENCE_SECTIONS = ("validation", "config_dicts", "defaults", "environment")
_MEMBER_DIFFERENCE_KEYS = {"of": list, "text": str}
_TARGET_KEYS = {
    "doc": str, "package": str, "classes_package": str, "public_package": str, "pb2_package": str, "logger": str,
    "module_members": dict,
}
_MODULE_MEMBERS_KEYS = {"from": str, "names": list, "attributes": dict, "all": list, "module": str}
_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_ACCEPTED_KEYS = {"rule": str, "path": str, "reason": str}
_POLICY_KEYS = {"action": str, "error": str, "message": str}
_CLASS_KEYS = {
    "message": str,
    "message_attribute": str,
    "mixin": str,
    "init_hook": str,
    "compat": str,
    "empty_config": str,
    "doc": str,
    "example": str,
    "extra_properties": dict,
    "attributes": dict,
    "aliases": dict,
    "environment": dict,
    "recipes": dict,
}
_RECIPE_KEYS = {"doc": str, "example": str}
_EXTRA_KEY_KEYS = {"type": str, "doc": str}
_EXTRA_KEYS = {"doc": str, "example": str, "getter": str, "setter": str, "type": str, "setter_type": str}
_MESSAGE_KEYS = {"doc": str, "fields": dict, "extra_keys": dict}
_FIELD_KEYS = {
    "doc": str,
    "example": str,
    "property": (str, bool),
    "compat": str,
    "compat_message": str,
    "constraint": str,
    "enforce_constraint": str,
    "choices": list,
    "allow_nonfinite": bool,
    "repeated": str,
    "view": str,
    "getter": str,
    "setter": str,
    "after_set": str,
    "type": str,
    "setter_type": str,
    "env": (str, dict),
}
_ENUM_KEYS = {"doc": str, "values": dict}
_ERRORS = ("TypeError", "ValueError", "KeyError")


# ------------------------------------------------- text pasted as code
# Most annotation text reaches the generated modules as data (a literal
# through render.pyrepr, a docstring through render.docstring). A few values
# are pasted as code: names, type expressions, and the compatible-mode
# message, a format string the runtime fills. Each is checked against its
# grammar here, so no input text can add a call, a statement or a line.

# what the runtime passes when it formats a compatible-mode message (runtime.check_scalar)
POLICY_PLACEHOLDERS = ("field", "property", "type", "received")


def python_name(text: str) -> bool:
    """An identifier the parser reads as itself: no keyword, and in NFKC form
    (Python normalizes identifiers: ``ｓtrict`` would be ``strict``)."""
    return text.isidentifier() and not keyword.iskeyword(text) and unicodedata.normalize("NFKC", text) == text


def dotted_name(text: str) -> bool:
    return all(python_name(part) for part in text.split("."))


def type_expression_problem(text: str) -> str | None:
    """Why ``text`` is not a type expression (None: it is one): names, dotted
    names, subscripts, ``|``, ``None``, ``...`` and literals (in ``Literal[]``;
    a string elsewhere is a forward reference, itself a type expression), on
    one line; no call, operator, statement or comment."""
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        return f"it holds {bad!r}: a type expression is one line of printable characters"
    try:
        tree = ast.parse(text, mode="eval")
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, tokenize.TokenError) as exc:
        return f"it does not parse: {getattr(exc, 'msg', None) or exc}"
    if any(t.type == tokenize.COMMENT for t in tokens):
        return "it holds a comment"
    return _type_problem(tree.body, in_literal=False)


_SUBSCRIPTABLE = (ast.Name, ast.Attribute)
_NODE_WORDS = {
    ast.Call: "a call", ast.Lambda: "a lambda", ast.NamedExpr: "an assignment (:=)", ast.Slice: "a slice",
    ast.Starred: "a starred item", ast.Tuple: "a tuple (only inside [])", ast.List: "a list (only inside [], as in Callable[[int], str])",
}


def _type_problem(node: ast.expr, in_literal: bool) -> str | None:
    """The first node of ``node`` outside the type grammar, in words."""
    if isinstance(node, ast.Name):
        return None
    if isinstance(node, ast.Attribute):
        if not isinstance(node.value, _SUBSCRIPTABLE):
            return _type_problem(node.value, in_literal=False) or "only a (dotted) name has attributes"
        return _type_problem(node.value, in_literal=False)
    if isinstance(node, ast.Subscript):
        if not isinstance(node.value, _SUBSCRIPTABLE):
            return _type_problem(node.value, in_literal=False) or "only a (dotted) name can be subscripted"
        literal = (node.value.id if isinstance(node.value, ast.Name) else node.value.attr) == "Literal"
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for item in items:  # a list inside []: Callable[[int], str]
            for part in item.elts if isinstance(item, ast.List) and not literal else [item]:
                problem = _type_problem(part, literal)
                if problem:
                    return problem
        return _type_problem(node.value, in_literal=False)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) and not in_literal:
        return _type_problem(node.left, in_literal) or _type_problem(node.right, in_literal)
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or (value is Ellipsis and not in_literal):
            return None
        if in_literal and isinstance(value, (str, bytes, int)):  # bool is an int
            return None
        if isinstance(value, str):  # a forward reference
            problem = type_expression_problem(value)
            return f"in the forward reference {value!r}: {problem}" if problem else None
        return f"the constant {value!r} outside Literal[...]"
    if (
        in_literal and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int
    ):
        return None
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
        return "an operator other than | between types is not part of a type expression"
    return f"{_NODE_WORDS.get(type(node), type(node).__name__)} is not part of a type expression"


def format_problem(text: str, placeholders: tuple[str, ...] = POLICY_PLACEHOLDERS) -> str | None:
    """Why ``text`` is not a message ``str.format`` fills from ``placeholders``
    (None: it is one). Each placeholder is one of them, as is: no attribute or
    item (``{received.__class__}``), no position, no format spec."""
    named = ", ".join(f"{{{p}}}" for p in placeholders)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        return f"it is not a format string: {exc} (write a literal brace as {{{{ or }}}})"
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in placeholders:
            return f"{{{name}}} is not a placeholder the runtime fills (it fills {named}; a literal brace is {{{{ or }}}})"
        if spec:
            return f"{{{name}:{spec}}}: a format spec is not supported (the values are of several types)"
        if conversion not in (None, "r", "s", "a"):
            return f"{{{name}!{conversion}}}: unknown conversion (r, s or a)"
    return None


def _extra_keys(c: _Checker, node: _Node, full: str, message: Message) -> tuple[ExtraKeyNote, ...]:
    """``messages.<full>.extra_keys``: ``key: {type, doc}``, a key no field of the message has."""
    if not isinstance(node.value, dict):
        c.error(f"{full}.extra_keys: expected a mapping of keys, got {type(node.value).__name__}", node)
        return ()
    found = []
    for name, knode in node.value.items():
        where = f"{full}.extra_keys.{name}"
        if message.field(name) is not None:
            c.error(f"{where}: {name!r} is a field of {full}, not an extra key", knode)
            continue
        keys = c.mapping(knode, where, _EXTRA_KEY_KEYS)
        if any(k not in keys for k in _EXTRA_KEY_KEYS):
            c.error(f"{where}: 'type' and 'doc' are required", knode)
            continue
        found.append(ExtraKeyNote(name=name, type=_type_text(c, keys["type"], f"{where}.type") or "",
                                  doc=keys["doc"].value, line=knode.line))
    return tuple(found)


def _recipes(c: _Checker, node: _Node | None, where: str) -> tuple[RecipeNote, ...]:
    """``recipes``: ``title: {doc, example}``, each shown on the reference page."""
    if node is None:
        return ()
    if not isinstance(node.value, dict):
        c.error(f"{where}.recipes: expected a mapping of titles, got {type(node.value).__name__}", node)
        return ()
    found = []
    for title, rnode in node.value.items():
        keys = c.mapping(rnode, f"{where}.recipes.{title}", _RECIPE_KEYS)
        if any(k not in keys for k in _RECIPE_KEYS):
            c.error(f"{where}.recipes.{title}: 'doc' and 'example' are required", rnode)
            continue
        found.append(RecipeNote(title=str(title), doc=keys["doc"].value, example=keys["example"].value, line=rnode.line))
    return tuple(found)


def _type_text(c: _Checker, node: _Node | None, where: str) -> str | None:
    """A type expression's text, checked (see type_expression_problem)."""
    if node is None:
        return None
    problem = type_expression_problem(node.value)
    if problem:
        c.error(f"{where}: {node.value!r} is not a type expression: {problem}", node)
    return node.value  # type: ignore[no-any-return]


def _message_text(c: _Checker, node: _Node | None, where: str) -> str | None:
    """A compatible-mode message, checked (see format_problem)."""
    if node is None:
        return None
    problem = format_problem(node.value)
    if problem:
        c.error(f"{where}: {node.value!r} is not a message the runtime can fill: {problem}", node)
    return node.value  # type: ignore[no-any-return]
def _hooks_source(path: Path) -> str:
    """The hooks module's text: a regular file in UTF-8 (a build copies it as text)."""
    return decode_utf8(read_input(path, "hooks module"), path, "hooks module")


def hook_names_in(path: Path) -> frozenset[str]:
    """Top-level names the hooks module defines, read without importing it."""
    tree = ast.parse(_hooks_source(path), filename=str(path))
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return frozenset(names)


def load_annotations(path: Path | None, schema: Schema, package_dir: Path) -> Annotations:
    """Read and validate ``path`` (None: derive everything from the schema)."""
    if path is None:
        return _derived(schema)
    root = _load_yaml(path)
    c = _Checker(str(path))
    top = c.mapping(root, "annotations", _TOP_KEYS)

    policies: dict[str, CompatPolicy] = {}
    for name, node in (top["compat_policies"].value.items() if "compat_policies" in top else []):
        keys = c.mapping(node, f"compat_policies.{name}", _POLICY_KEYS)
        action = keys["action"].value if "action" in keys else None
        if action not in COMPAT_ACTIONS:
            c.error(f"compat_policies.{name}.action must be one of {', '.join(COMPAT_ACTIONS)}", keys.get("action", node))
            continue
        error = keys["error"].value if "error" in keys else None
        if action == "raise" and error not in _ERRORS:
            c.error(f"compat_policies.{name}.error must be one of {', '.join(_ERRORS)}", keys.get("error", node))
        policies[name] = CompatPolicy(
            name=name, action=action, error=error, message=_message_text(c, keys.get("message"), f"compat_policies.{name}.message") or ""
        )

    hooks_module = top["hooks"].value if "hooks" in top else None
    hook_names: frozenset[str] = frozenset()  # top-level names the hooks module defines
    if hooks_module is not None:
        hooks_file = package_dir / f"{hooks_module}.py"
        if not python_name(hooks_module):
            c.error(f"hooks: {hooks_module!r} is not a module name (an identifier, not a keyword)", top["hooks"])
        elif not hooks_file.is_file():
            c.error(f"hooks module {hooks_file} does not exist", top["hooks"], "create it (hand-written) or drop the key")
        else:
            try:
                hook_names = hook_names_in(hooks_file)
            except SyntaxError as exc:
                c.problems.append(Problem(f"hooks module does not parse: {exc.msg}", str(hooks_file), exc.lineno))

    def check_hook(name_node: _Node | None, where: str) -> str | None:
        if name_node is None:
            return None
        name = name_node.value
        if hooks_module is None:
            c.error(f"{where}: hook {name!r} named but no 'hooks' module is declared", name_node)
        elif name not in hook_names:
            c.unknown(f"hook in {hooks_module}.py ({where})", name, name_node, hook_names)
        return name

    def check_policy(node: _Node | None, where: str) -> str | None:
        if node is None:
            return None
        if node.value not in policies:
            c.unknown(f"compat policy ({where})", node.value, node, list(policies))
        return node.value

    messages: dict[str, dict[str, FieldNote]] = {}
    message_docs: dict[str, str] = {}
    extra_keys: dict[str, tuple[ExtraKeyNote, ...]] = {}
    for full, node in (top["messages"].value.items() if "messages" in top else []):
        message = schema.messages.get(full)
        if message is None:
            c.unknown("message", full, node, list(schema.messages))
            continue
        keys = c.mapping(node, full, _MESSAGE_KEYS)
        if "doc" in keys:
            message_docs[full] = keys["doc"].value
        if "extra_keys" in keys:
            extra_keys[full] = _extra_keys(c, keys["extra_keys"], full, message)
        notes: dict[str, FieldNote] = {}
        for fname, fnode in (keys["fields"].value.items() if "fields" in keys else []):
            f = message.field(fname)
            if f is None and fname in _FIELD_KEYS:  # `example:` dedented out of its field
                c.error(
                    f"unknown field of {full} {fname!r}",
                    fnode,
                    f"{fname!r} is a key of a field's entry: indent it under the field it belongs to",
                )
                continue
            if f is None:
                c.unknown(f"field of {full}", fname, fnode, [x.name for x in message.fields])
                continue
            where = f"{full}.{fname}"
            fk = c.mapping(fnode, where, _FIELD_KEYS)
            prop = fk["property"].value if "property" in fk else None
            if prop is True:
                c.error(f"{where}.property: give a name or false", fk["property"])
            constraint = None
            if "constraint" in fk:
                m = CONSTRAINT_RE.match(fk["constraint"].value)
                if not m:
                    c.error(f"{where}.constraint: expected '<op> <number>' with op one of > >= < <= !=", fk["constraint"])
                elif f.type not in _NUMERIC:
                    c.error(f"{where}.constraint: only numeric fields take a constraint (field is {f.type})", fk["constraint"])
                else:
                    constraint = (m.group(1), float(m.group(2)))
            for key, allowed_values in (
                ("enforce_constraint", ("strict", "always")),
                ("repeated", ("replace", "append")),
                ("view", ("dict", "message")),
            ):
                if key in fk and fk[key].value not in allowed_values:
                    c.error(f"{where}.{key} must be one of {', '.join(allowed_values)}", fk[key])
            if "view" in fk and f.type != "message":
                c.error(f"{where}.view applies to message fields only", fk["view"])
            if "repeated" in fk and not f.repeated:
                c.error(f"{where}.repeated applies to repeated fields only", fk["repeated"])
            choices = None
            if "choices" in fk:
                values = [x.value for x in fk["choices"].value]
                if f.type != "string" or not all(isinstance(v, str) for v in values):
                    c.error(f"{where}.choices: a list of strings, for string fields", fk["choices"])
                else:
                    choices = tuple(values)
            notes[fname] = FieldNote(
                doc=fk["doc"].value if "doc" in fk else None,
                example=fk["example"].value if "example" in fk else None,
                property=prop if isinstance(prop, str) else None,
                hidden=prop is False,
                compat=check_policy(fk.get("compat"), where),
                compat_message=_message_text(c, fk.get("compat_message"), f"{where}.compat_message"),
                constraint=constraint,
                enforce_constraint=fk["enforce_constraint"].value if "enforce_constraint" in fk else "strict",
                choices=choices,
                allow_nonfinite=fk["allow_nonfinite"].value if "allow_nonfinite" in fk else False,
                repeated=fk["repeated"].value if "repeated" in fk else "replace",
                view=fk["view"].value if "view" in fk else None,
                getter=check_hook(fk.get("getter"), where),
                setter=check_hook(fk.get("setter"), where),
                after_set=check_hook(fk.get("after_set"), where),
                type=_type_text(c, fk.get("type"), f"{where}.type"),
                setter_type=_type_text(c, fk.get("setter_type"), f"{where}.setter_type"),
                env=_env_note(c, fk.get("env"), where, f),
                line=fnode.line,
            )
        messages[full] = notes

    enums: dict[str, EnumNote] = {}
    for full, node in (top["enums"].value.items() if "enums" in top else []):
        enum = schema.enums.get(full)
        if enum is None:
            c.unknown("enum", full, node, list(schema.enums))
            continue
        keys = c.mapping(node, full, _ENUM_KEYS)
        values: dict[str, str] = {}
        names = {v.name for v in enum.values}  # once per enum, not per documented value
        for vname, vnode in (keys["values"].value.items() if "values" in keys else []):
            if vname not in names:
                c.unknown(f"value of {full}", vname, vnode, [v.name for v in enum.values])
                continue
            vk = c.mapping(vnode, f"{full}.{vname}", {"doc": str})
            if "doc" in vk:
                values[vname] = vk["doc"].value
        enums[full] = EnumNote(doc=keys["doc"].value if "doc" in keys else None, values=values)

    classes: list[ClassNote] = []
    for cname, node in (top["classes"].value.items() if "classes" in top else []):
        if not re.fullmatch(r"[A-Z][A-Za-z0-9_]*", cname):
            c.error(f"class name {cname!r} must be a CapWords identifier", node)
        elif not naming.is_usable_class_name(cname):
            c.error(f"class name {cname!r} is a keyword, a builtin or a name the generated code uses", node)
        keys = c.mapping(node, f"classes.{cname}", _CLASS_KEYS)
        if "empty_config" in keys and keys["empty_config"].value not in ("set", "unset"):
            c.error(f"classes.{cname}.empty_config must be one of set, unset", keys["empty_config"])
        if "message" not in keys:
            c.error(f"classes.{cname}: 'message' is required", node)
            continue
        full = keys["message"].value
        if full not in schema.messages:
            c.unknown(f"message (classes.{cname})", full, keys["message"], list(schema.messages))
            continue
        attribute = keys["message_attribute"].value if "message_attribute" in keys else "message"
        if "message_attribute" in keys:
            _identifier(c, attribute, keys["message_attribute"], f"classes.{cname}.message_attribute")
        extras: list[ExtraProperty] = []
        for pname, pnode in (keys["extra_properties"].value.items() if "extra_properties" in keys else []):
            where = f"classes.{cname}.extra_properties.{pname}"
            if not _identifier(c, pname, pnode, "extra property"):
                continue
            if pname == attribute:
                c.error(f"{where}: {pname!r} is already the class's message_attribute", pnode)
                continue
            pk = c.mapping(pnode, where, _EXTRA_KEYS)
            for required in ("doc", "getter", "type"):
                if required not in pk:
                    c.error(f"{where}: '{required}' is required", pnode)
            if any(r not in pk for r in ("doc", "getter", "type")):
                continue
            extras.append(
                ExtraProperty(
                    name=pname,
                    doc=pk["doc"].value,
                    example=pk["example"].value if "example" in pk else None,
                    getter=check_hook(pk["getter"], where) or "",
                    setter=check_hook(pk.get("setter"), where),
                    type=_type_text(c, pk["type"], f"{where}.type") or "",
                    setter_type=_type_text(c, pk.get("setter_type"), f"{where}.setter_type"),
                    line=pnode.line,
                )
            )
        classes.append(
            ClassNote(
                name=cname,
                message=full,
                message_attribute=attribute,
                mixin=check_hook(keys.get("mixin"), f"classes.{cname}"),
                init_hook=check_hook(keys.get("init_hook"), f"classes.{cname}"),
                compat=check_policy(keys.get("compat"), f"classes.{cname}"),
                empty_config=keys["empty_config"].value if "empty_config" in keys else "set",
                doc=keys["doc"].value if "doc" in keys else None,
                example=keys["example"].value if "example" in keys else None,
                extra_properties=tuple(extras),
                recipes=_recipes(c, keys.get("recipes"), f"classes.{cname}"),
                **_member_notes(c, keys, f"classes.{cname}", schema.messages[full], check_hook),
                line=node.line,
            )
        )
    _check_env_fields(c, messages, classes if "classes" in top else list(_derived(schema).classes))
    targets = _targets(c, top.get("targets"), hooks_module, package_dir)
    accepted: list[AcceptedChange] = []
    for index, node in enumerate(top["accepted_changes"].value if "accepted_changes" in top else []):
        where = f"accepted_changes[{index}]"
        keys = c.mapping(node, where, _ACCEPTED_KEYS)
        missing = [k for k in _ACCEPTED_KEYS if k not in keys]
        if missing:
            c.error(f"{where}: {', '.join(repr(k) for k in missing)} required", node)
            continue
        accepted.append(
            AcceptedChange(rule=keys["rule"].value, path=keys["path"].value, reason=keys["reason"].value, line=node.line)
        )
    if "strict_env" in top and not re.fullmatch(r"[A-Z_][A-Z0-9_]*", top["strict_env"].value):
        c.error(f"strict_env: {top['strict_env'].value!r} is not an environment variable name (A-Z, 0-9, _)", top["strict_env"])
    wrapped = classes if "classes" in top else _derived(schema).classes
    reference, differences, member_differences = _reference(c, top.get("reference"), {cls.name for cls in wrapped})
    rules = load_rules(c, top.get("rules"), schema, {cls.message for cls in wrapped})
    if c.problems:
        raise GeneratorError(c.problems)
    return Annotations(
        path=str(path),
        hooks_module=hooks_module,
        classes=tuple(classes) if "classes" in top else _derived(schema).classes,
        messages=messages,
        message_docs=message_docs,
        extra_keys=extra_keys,
        enums=enums,
        compat_policies=policies,
        targets=targets,
        accepted_changes=tuple(accepted),
        reference=reference,
        differences=differences,
        member_differences=member_differences,
        strict_env=top["strict_env"].value if "strict_env" in top else None,
        rules=rules,
    )


def _reference(
    c: _Checker, node: _Node | None, class_names: set[str]
) -> tuple[str | None, tuple[tuple[str, str], ...], tuple[MemberDifference, ...]]:
    """``reference:``: the name of the implementation compatible mode mirrors
    (a string), or a mapping of that ``name`` and its ``differences``: text
    per section of the class docs, each said there once, and ``members``,
    named differences in what some members do (``of``: ``Class`` or
    ``Class.member``; the model checks that the member exists)."""
    if node is None:
        return None, (), ()
    if isinstance(node.value, str):
        return node.value, (), ()
    keys = c.mapping(node, "reference", _REFERENCE_KEYS)
    if "name" not in keys:
        c.error("reference: 'name' is required (the implementation the docs compare with, e.g. 'Acme 2.0')", node)
    differences = []
    members: list[MemberDifference] = []
    for section, text in (keys["differences"].value.items() if "differences" in keys else []):
        if section == "members":
            members = _member_differences(c, text, class_names)
        elif section not in REFERENCE_SECTIONS:
            c.unknown("section in reference.differences", section, text, (*REFERENCE_SECTIONS, "members"))
        elif not isinstance(text.value, str):
            c.error(f"reference.differences.{section}: expected str, got {type(text.value).__name__}", text)
        else:
            differences.append((section, text.value))
    return (keys["name"].value if "name" in keys else None), tuple(differences), tuple(members)


def _member_differences(c: _Checker, node: _Node, class_names: set[str]) -> list[MemberDifference]:
    """``reference.differences.members``: ``name: {of: [Class.member, ...], text: ...}``."""
    if not isinstance(node.value, dict):
        c.error(f"reference.differences.members: expected a mapping of named differences, got {type(node.value).__name__}", node)
        return []
    found = []
    for name, entry in node.value.items():
        where = f"reference.differences.members.{name}"
        keys = c.mapping(entry, where, _MEMBER_DIFFERENCE_KEYS)
        missing = [k for k in _MEMBER_DIFFERENCE_KEYS if k not in keys]
        if missing:
            c.error(f"{where}: {' and '.join(repr(k) for k in missing)} required", entry)
            continue
        of = []
        for item in keys["of"].value:
            owner = item.value.split(".", 1)[0] if isinstance(item.value, str) else None
            if owner is None or not _DOTTED_NAME.fullmatch(item.value) or item.value.count(".") > 1:
                c.error(f"{where}.of: expected 'Class' or 'Class.member', got {item.value!r}", item)
            elif owner not in class_names:
                c.unknown(f"class in {where}.of", owner, item, class_names)
            else:
                of.append(item.value)
        if not keys["of"].value:
            c.error(f"{where}.of: name at least one class or member", keys["of"])
        if len(of) == len(keys["of"].value):
            found.append(MemberDifference(name=name, of=tuple(of), text=keys["text"].value, line=entry.line))
    return found


def _targets(c: _Checker, node: _Node | None, hooks_module: str | None, package_dir: Path) -> tuple[TargetNote, ...]:
    """``targets:``: each a package path, the package its pb2 modules come
    from and the logger its warnings go to; every other fact is shared."""
    if node is None:
        return ()
    targets = []
    for name, target_node in node.value.items():
        where = f"targets.{name}"
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name == "standalone":
            c.error(f"{where}: a target name is a lower-case identifier other than 'standalone'", target_node)
        keys = c.mapping(target_node, where, _TARGET_KEYS)
        required = ("package", "classes_package", "public_package", "pb2_package", "logger")
        missing = [k for k in required if k not in keys]
        if missing:
            c.error(f"{where}: missing {', '.join(missing)}", target_node)
            continue
        for key in required:
            if not dotted_name(keys[key].value):
                c.error(f"{where}.{key}: {keys[key].value!r} is not a dotted Python name (identifiers, not keywords)", keys[key])
        if "." not in keys["logger"].value:
            c.error(f"{where}.logger: {keys['logger'].value!r} is not module.attribute (the logger object to import)", keys["logger"])
        if not keys["package"].value.startswith(keys["classes_package"].value + "."):
            c.error(f"{where}.package must lie inside classes_package ({keys['classes_package'].value})", keys["package"])
        targets.append(
            TargetNote(
                name=name,
                package=keys["package"].value,
                classes_package=keys["classes_package"].value,
                public_package=keys["public_package"].value,
                pb2_package=keys["pb2_package"].value,
                logger=keys["logger"].value,
                doc=keys["doc"].value if "doc" in keys else "",
                line=target_node.line,
                module_members=_module_members(c, keys["module_members"], where, package_dir) if "module_members" in keys else None,
            )
        )
    if targets and hooks_module is None:
        c.error("targets: a second build needs the hooks module it copies ('hooks:')", node)
    return tuple(targets)


def _module_members(c: _Checker, node: _Node, where: str, package_dir: Path) -> ModuleMembersNote | None:
    """A target's ``module_members``: ``from`` (a hand-written module in the
    package folder, beside the hooks module, which this build carries a copy
    of), the ``names`` the class module imports from it, module-level
    ``attributes`` of the class module, and ``all`` (its ``__all__``)."""
    where = f"{where}.module_members"
    keys = c.mapping(node, where, _MODULE_MEMBERS_KEYS)
    source = keys["from"].value if "from" in keys else None
    defined: frozenset[str] = frozenset()
    if source is not None:
        path = package_dir / f"{source}.py"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", source):
            c.error(f"{where}.from: {source!r} is not a module name", keys["from"])
            source = None
        elif not path.is_file():
            c.error(f"{where}.from: module {path} does not exist", keys["from"], "create it (hand-written) beside the hooks module")
            source = None
        else:
            try:
                defined = hook_names_in(path)
            except SyntaxError as exc:
                c.problems.append(Problem(f"module does not parse: {exc.msg}", str(path), exc.lineno))
                source = None
    names = []
    for item in keys["names"].value if "names" in keys else []:
        if not isinstance(item.value, str) or not naming.is_identifier(item.value):
            c.error(f"{where}.names: expected identifiers, got {item.value!r}", item)
        elif "from" not in keys:
            c.error(f"{where}.names: names are imported from the module 'from' names; give it", item)
        elif source is not None and item.value not in defined:
            c.unknown(f"name in {source}.py ({where}.names)", item.value, item, defined)
        else:
            names.append(item.value)
    def module_variable(name: str, node: _Node) -> bool:
        if not naming.is_identifier(name):
            c.error(f"{where}.attributes.{name}: {name!r} is not an identifier", node)
        return naming.is_identifier(name)

    attributes = _attribute_notes(c, keys, where, module_variable)
    taken: dict[str, int] = {}
    for name, line in [(n, keys["names"].line) for n in names] + [(a.name, a.line) for a in attributes]:
        if name in taken:
            c.error(f"{where}: {name!r} is defined twice", _Node(name, line), f"first on line {taken[name]}")
        taken[name] = line
    exports = None
    if "all" in keys:
        exports = tuple(item.value for item in keys["all"].value)
        if not all(isinstance(name, str) and naming.is_identifier(name) for name in exports):
            c.error(f"{where}.all: expected a list of names", keys["all"])
    module = keys["module"].value if "module" in keys else None
    if module is not None and not _DOTTED_NAME.fullmatch(module):
        c.error(f"{where}.module: {module!r} is not a dotted Python name", keys["module"])
    return ModuleMembersNote(source=source, names=tuple(names), attributes=tuple(attributes), exports=exports,
                             module=module, line=node.line)


_NUMERIC = {
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
    "fixed32", "fixed64", "sfixed32", "sfixed64",
}


def _derived(schema: Schema) -> Annotations:
    """Without annotations: a wrapper class for every top-level "root" message."""
    used = {f.type_name for m in schema.messages.values() for f in m.fields if f.type == "message"}
    paths = [naming.module_path_for_proto(f) for f in schema.files]
    # the package's top-level names: its first folders, or its modules and their _pb2 modules
    modules = {p[0] for p in paths} | {f"{p[0]}_pb2" for p in paths if len(p) == 1}
    classes = tuple(
        ClassNote(name=naming.python_class_name(m.flat, modules), message=m.full_name, line=m.line)
        for m in schema.messages.values()
        if m.full_name not in used and not m.is_map_entry and "." not in m.name
    )
    bad = [c for c in classes if c.name.startswith("_")]
    if bad:
        raise GeneratorError(
            [Problem(f"message {c.message}: a class name cannot start with an underscore", schema.messages[c.message].file,
                     c.line, hint="name its class in the annotations file (classes:)") for c in bad]
        )
    return Annotations(
        path=None,
        hooks_module=None,
        classes=classes,
        messages={},
        message_docs={},
        enums={},
        compat_policies={},
    )


def hook_class_members(path: Path, class_name: str) -> frozenset[str]:
    """Names a hooks class defines (methods, attributes, ``__slots__``)."""
    tree = ast.parse(_hooks_source(path), filename=str(path))
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == class_name:
            for item in stmt.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    for target in item.targets:
                        if isinstance(target, ast.Name):
                            names.add(target.id)
                            if target.id == "__slots__" and isinstance(item.value, (ast.Tuple, ast.List)):
                                names.update(
                                    e.value for e in item.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                                )
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
    return frozenset(names)


# ------------------------------------------- members that are not properties
# Environment-backed fields (a field's `env:`), plain attributes, method
# aliases and the class's `environment:` (where env values come from, which
# method exports them): what a hooks module would otherwise hand-write.


@dataclass(frozen=True, kw_only=True)
class EnvNote:
    """``env:`` of a field: the environment variable backing it."""

    variable: str
    read: bool = True  # read when an instance is created, where set
    type: str | None = None  # the variable's type when not the field's: bool | int | float | str
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class EnvironmentNote:
    """``environment:`` of a class."""

    export: str | None = None  # name of the generated method writing the env-backed fields
    doc: str | None = None  # that method's docstring (default: a generic one)
    source: str | None = None  # hook returning a mapping of flags to use instead of os.environ, or None
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class AttributeNote:
    """A plain instance attribute (not a field), set to a fresh ``default`` per instance."""

    name: str
    default: Any
    type: str
    doc: str | None = None
    line: int = 0


@dataclass(frozen=True, kw_only=True)
class AliasNote:
    """A method writing one field: ``name(parameter)``."""

    name: str
    field: str
    parameter: str
    convert: str | None = None  # "str": the value goes through str() first
    line: int = 0


_ENV_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ENV_TYPES = _NUMERIC | {"bool", "string"}
_ENV_KEYS = {"variable": str, "read": bool, "type": str}
_ENV_VALUE_TYPES = ("bool", "int", "float", "str")
_ENVIRONMENT_KEYS = {"export": str, "source": str, "doc": str}
_ATTRIBUTE_KEYS = {"default": None, "type": str, "doc": str}
_ALIAS_KEYS = {"field": str, "parameter": str, "convert": str}
_CONVERTERS = ("str",)


def _env_note(c: _Checker, node: _Node | None, where: str, f: Any) -> EnvNote | None:
    """A field's ``env: VARIABLE`` or ``env: {variable: VARIABLE, read: false}``."""
    if node is None:
        return None
    type_ = None
    if isinstance(node.value, str):
        variable, read, at = node.value, True, node
    else:
        keys = c.mapping(node, f"{where}.env", _ENV_KEYS)
        if "variable" not in keys:
            c.error(f"{where}.env: 'variable' is required (the environment variable's name)", node)
            return None
        variable, at = keys["variable"].value, keys["variable"]
        read = keys["read"].value if "read" in keys else True
        if "type" in keys:
            type_ = keys["type"].value
            if type_ not in _ENV_VALUE_TYPES:
                c.error(f"{where}.env.type must be one of {', '.join(_ENV_VALUE_TYPES)}", keys["type"])
                return None
    if not _ENV_VARIABLE.fullmatch(variable):
        c.error(f"{where}.env: {variable!r} is not an environment variable name (letters, digits, _)", at)
        return None
    if f.repeated or f.type not in _ENV_TYPES:
        kind = "repeated " + f.type if f.repeated else f.type
        c.error(f"{where}.env: only a singular bool, number or string field can be environment-backed (field is {kind})", node)
        return None
    return EnvNote(variable=variable, read=read, type=type_, line=node.line)


def _identifier(c: _Checker, name: str, node: _Node, what: str) -> bool:
    if not naming.is_plain_attribute(name) or name in naming.WRAPPER_MEMBERS:
        c.error(f"{what} {name!r} is not a usable member name (an identifier, not a keyword, not __private)", node)
        return False
    return True


def _plain(node: _Node) -> Any:
    """A YAML value without its line marks."""
    if isinstance(node.value, dict):
        return {k: _plain(v) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [_plain(v) for v in node.value]
    return node.value


def _attribute_notes(
    c: _Checker, keys: dict[str, _Node], where: str, usable: Callable[[str, _Node], bool]
) -> list[AttributeNote]:
    """``attributes:`` (of a class, or of a target's module): plain variables
    with a default and a type expression (checked: it is pasted as code)."""
    attributes: list[AttributeNote] = []
    for name, node in (keys["attributes"].value.items() if "attributes" in keys else []):
        at = f"{where}.attributes.{name}"
        if not usable(name, node):
            continue
        ak = c.mapping(node, at, _ATTRIBUTE_KEYS)
        missing = [k for k in ("default", "type") if k not in ak]
        if missing:
            c.error(f"{at}: {' and '.join(repr(k) for k in missing)} required", node)
            continue
        default = _plain(ak["default"])
        if not _literal(default):
            c.error(f"{at}.default: expected a YAML scalar or a list of them", ak["default"])
            continue
        attributes.append(
            AttributeNote(name=name, default=default, type=_type_text(c, ak["type"], f"{at}.type") or "",
                          doc=ak["doc"].value if "doc" in ak else None, line=node.line)
        )
    return attributes


def _member_notes(c: _Checker, keys: dict[str, _Node], where: str, message: Any, check_hook: Any) -> dict[str, Any]:
    """A class's ``attributes:``, ``aliases:`` and ``environment:`` (ClassNote fields)."""
    attributes = _attribute_notes(c, keys, where, lambda name, node: _identifier(c, name, node, "attribute"))
    aliases: list[AliasNote] = []
    for name, node in (keys["aliases"].value.items() if "aliases" in keys else []):
        at = f"{where}.aliases.{name}"
        if not _identifier(c, name, node, "alias"):
            continue
        ak = c.mapping(node, at, _ALIAS_KEYS) if isinstance(node.value, dict) else {"field": node}
        if "field" not in ak or not isinstance(ak["field"].value, str):
            c.error(f"{at}: expected a field name of {message.full_name} or {{field: ..., parameter: ..., convert: str}}", node)
            continue
        f = message.field(ak["field"].value)
        if f is None:
            c.unknown(f"field of {message.full_name} ({at})", ak["field"].value, ak["field"], [x.name for x in message.fields])
            continue
        if f.is_map:
            c.error(f"{at}: {f.name} is a map; an alias writes a scalar, repeated or message field", ak["field"])
            continue
        convert = ak["convert"].value if "convert" in ak else None
        if convert is not None and (convert not in _CONVERTERS or f.type != "string" or f.repeated):
            c.error(f"{at}.convert: only 'str', for a singular string field (field is {f.label} {f.type})", ak["convert"])
            continue
        usable = naming.is_identifier(f.name) and f.name != "self"
        parameter = ak["parameter"].value if "parameter" in ak else (f.name if usable else "value")
        if not naming.is_identifier(parameter) or parameter == "self":
            c.error(f"{at}.parameter: {parameter!r} is not a usable parameter name", ak.get("parameter", node))
            continue
        aliases.append(AliasNote(name=name, field=f.name, parameter=parameter, convert=convert, line=node.line))
    environment = None
    if "environment" in keys:
        node = keys["environment"]
        ek = c.mapping(node, f"{where}.environment", _ENVIRONMENT_KEYS)
        export = ek["export"].value if "export" in ek else None
        if export is not None and not _identifier(c, export, ek["export"], "environment.export method"):
            export = None
        environment = EnvironmentNote(
            export=export, doc=ek["doc"].value if "doc" in ek else None, source=check_hook(ek.get("source"), f"{where}.environment"), line=node.line
        )
    names: dict[str, int] = {}
    for member, line in [(a.name, a.line) for a in attributes] + [(a.name, a.line) for a in aliases] + (
        [(environment.export, environment.line)] if environment and environment.export else []
    ):
        if member in names:
            c.error(f"{where}: member {member!r} is defined twice", _Node(member, line), f"first on line {names[member]}")
        names[member] = line
    return {"attributes": tuple(attributes), "aliases": tuple(aliases), "environment": environment}


def _literal(value: Any) -> bool:
    """A default the generated code can spell: a scalar or a (nested) list of them."""
    if isinstance(value, list):
        return all(_literal(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _check_env_fields(c: _Checker, messages: dict[str, dict[str, FieldNote]], classes: list[ClassNote]) -> None:
    """Environment-backed fields belong to a class's message, and each variable backs one field."""
    wrapped = {cls.message: cls for cls in classes}
    for full, notes in messages.items():
        seen: dict[str, str] = {}
        for fname, note in notes.items():
            if note.env is None:
                continue
            at = _Node(None, note.env.line)
            if full not in wrapped:
                c.error(f"{full}.{fname}.env: {full} has no class (classes:), so nothing reads the variable", at)
            elif note.env.variable in seen:
                c.error(f"{full}.{fname}.env: {note.env.variable} already backs field {seen[note.env.variable]!r}", at)
            seen[note.env.variable] = fname
    for cls in classes:
        env = cls.environment
        if env is not None and not any(n.env for n in messages.get(cls.message, {}).values()):
            c.error(f"classes.{cls.name}.environment: no field of {cls.message} has 'env:'", _Node(None, env.line))


def member_names(cls: ClassNote) -> set[str]:
    """Names a class's attributes, aliases and env export method take."""
    names = {a.name for a in cls.attributes} | {a.name for a in cls.aliases}
    if cls.environment and cls.environment.export:
        names.add(cls.environment.export)
    return names
