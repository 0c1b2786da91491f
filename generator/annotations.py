"""Stage 3: load the annotations file (YAML) and validate it against the schema.

Every value is remembered with its line, so each problem names file:line and,
for a misspelt name, the closest valid one. All problems are collected and
reported together; nothing downstream runs on an invalid file.
"""

from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import naming
from .errors import GeneratorError, Problem
from .schema import Schema

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
    compat_policies: dict[str, CompatPolicy]
    targets: tuple[TargetNote, ...] = ()  # builds besides the standalone package
    accepted_changes: tuple[AcceptedChange, ...] = ()
    # the implementation compatible mode mirrors: named where the docs compare with it
    reference: str | None = None
    # how that implementation differs, by section of the class docs (REFERENCE_SECTIONS): said there once
    differences: tuple[tuple[str, str], ...] = ()
    strict_env: str | None = None  # the environment variable turning strict mode on (default: from the package)


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


# --------------------------------------------------------------------- YAML


class _Node:
    """A loaded YAML value with its line, for precise error messages."""

    __slots__ = ("value", "line")

    def __init__(self, value: Any, line: int) -> None:
        self.value = value
        self.line = line


def _convert(node: yaml.Node, problems: list[Problem], file: str, seen: set[int], used_at: int | None = None) -> _Node:
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
    if isinstance(node, yaml.MappingNode):
        out: dict[str, _Node] = {}
        for key_node, value_node in node.value:
            key = _convert(key_node, problems, file, seen, line)
            if not isinstance(key.value, str):
                problems.append(Problem(f"keys must be strings, got {key.value!r}", file, key.line))
                continue
            if key.value in out:
                problems.append(
                    Problem(f"duplicate key {key.value!r}", file, key.line, hint=f"first given on line {out[key.value].line}")
                )
                continue
            out[key.value] = _convert(value_node, problems, file, seen, key.line)
            out[key.value].line = key.line
        return _Node(out, line)
    if isinstance(node, yaml.SequenceNode):
        return _Node([_convert(n, problems, file, seen, line) for n in node.value], line)
    return _Node(_SCALARS.construct_object(node, deep=True), line)


_SCALARS = yaml.constructor.SafeConstructor()  # resolves tagged scalars (bool, int, str...)


def _load_yaml(path: Path) -> _Node:
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = getattr(exc, "problem", None) or str(exc)
        raise GeneratorError(Problem(f"YAML syntax error: {reason}", str(path), line)) from None
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
}
# `reference:` as a mapping: its name, and how it differs from the generated
# classes in what a section of each class's docs states once (the templates
# word the sections: "validation" for single-value options, "config_dicts" for
# assigning config dicts, "environment" for options read from the environment)
_REFERENCE_KEYS = {"name": str, "differences": dict}
REFERENCE_SECTIONS = ("validation", "config_dicts", "environment")
_TARGET_KEYS = {"doc": str, "package": str, "classes_package": str, "public_package": str, "pb2_package": str, "logger": str}
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
}
_EXTRA_KEYS = {"doc": str, "example": str, "getter": str, "setter": str, "type": str, "setter_type": str}
_MESSAGE_KEYS = {"doc": str, "fields": dict}
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


def hook_names_in(path: Path) -> frozenset[str]:
    """Top-level names the hooks module defines, read without importing it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
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
    if not path.is_file():
        raise GeneratorError(Problem("annotations file not found", str(path)))
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
            name=name, action=action, error=error, message=keys["message"].value if "message" in keys else ""
        )

    hooks_module = top["hooks"].value if "hooks" in top else None
    hook_names: frozenset[str] = frozenset()  # top-level names the hooks module defines
    if hooks_module is not None:
        hooks_file = package_dir / f"{hooks_module}.py"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", hooks_module):
            c.error(f"hooks: {hooks_module!r} is not a module name", top["hooks"])
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
    for full, node in (top["messages"].value.items() if "messages" in top else []):
        message = schema.messages.get(full)
        if message is None:
            c.unknown("message", full, node, list(schema.messages))
            continue
        keys = c.mapping(node, full, _MESSAGE_KEYS)
        if "doc" in keys:
            message_docs[full] = keys["doc"].value
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
                compat_message=fk["compat_message"].value if "compat_message" in fk else None,
                constraint=constraint,
                enforce_constraint=fk["enforce_constraint"].value if "enforce_constraint" in fk else "strict",
                choices=choices,
                allow_nonfinite=fk["allow_nonfinite"].value if "allow_nonfinite" in fk else False,
                repeated=fk["repeated"].value if "repeated" in fk else "replace",
                view=fk["view"].value if "view" in fk else None,
                getter=check_hook(fk.get("getter"), where),
                setter=check_hook(fk.get("setter"), where),
                after_set=check_hook(fk.get("after_set"), where),
                type=fk["type"].value if "type" in fk else None,
                setter_type=fk["setter_type"].value if "setter_type" in fk else None,
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
        for vname, vnode in (keys["values"].value.items() if "values" in keys else []):
            if vname not in {v.name for v in enum.values}:
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
        extras: list[ExtraProperty] = []
        for pname, pnode in (keys["extra_properties"].value.items() if "extra_properties" in keys else []):
            where = f"classes.{cname}.extra_properties.{pname}"
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
                    type=pk["type"].value,
                    setter_type=pk["setter_type"].value if "setter_type" in pk else None,
                    line=pnode.line,
                )
            )
        classes.append(
            ClassNote(
                name=cname,
                message=full,
                message_attribute=keys["message_attribute"].value if "message_attribute" in keys else "message",
                mixin=check_hook(keys.get("mixin"), f"classes.{cname}"),
                init_hook=check_hook(keys.get("init_hook"), f"classes.{cname}"),
                compat=check_policy(keys.get("compat"), f"classes.{cname}"),
                empty_config=keys["empty_config"].value if "empty_config" in keys else "set",
                doc=keys["doc"].value if "doc" in keys else None,
                example=keys["example"].value if "example" in keys else None,
                extra_properties=tuple(extras),
                **_member_notes(c, keys, f"classes.{cname}", schema.messages[full], check_hook),
                line=node.line,
            )
        )
    _check_env_fields(c, messages, classes if "classes" in top else list(_derived(schema).classes))
    targets = _targets(c, top.get("targets"), hooks_module)
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
    reference, differences = _reference(c, top.get("reference"))
    if c.problems:
        raise GeneratorError(c.problems)
    return Annotations(
        path=str(path),
        hooks_module=hooks_module,
        classes=tuple(classes) if "classes" in top else _derived(schema).classes,
        messages=messages,
        message_docs=message_docs,
        enums=enums,
        compat_policies=policies,
        targets=targets,
        accepted_changes=tuple(accepted),
        reference=reference,
        differences=differences,
        strict_env=top["strict_env"].value if "strict_env" in top else None,
    )


def _reference(c: _Checker, node: _Node | None) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """``reference:``: the name of the implementation compatible mode mirrors
    (a string), or a mapping of that ``name`` and its ``differences``: text
    per section of the class docs, each said there once."""
    if node is None:
        return None, ()
    if isinstance(node.value, str):
        return node.value, ()
    keys = c.mapping(node, "reference", _REFERENCE_KEYS)
    if "name" not in keys:
        c.error("reference: 'name' is required (the implementation the docs compare with, e.g. 'Acme 2.0')", node)
    differences = []
    for section, text in (keys["differences"].value.items() if "differences" in keys else []):
        if section not in REFERENCE_SECTIONS:
            c.unknown("section in reference.differences", section, text, REFERENCE_SECTIONS)
        elif not isinstance(text.value, str):
            c.error(f"reference.differences.{section}: expected str, got {type(text.value).__name__}", text)
        else:
            differences.append((section, text.value))
    return (keys["name"].value if "name" in keys else None), tuple(differences)


def _targets(c: _Checker, node: _Node | None, hooks_module: str | None) -> tuple[TargetNote, ...]:
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
            if not _DOTTED_NAME.fullmatch(keys[key].value):
                c.error(f"{where}.{key}: {keys[key].value!r} is not a dotted Python name", keys[key])
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
            )
        )
    if targets and hooks_module is None:
        c.error("targets: a second build needs the hooks module it copies ('hooks:')", node)
    return tuple(targets)


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
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
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


def _member_notes(c: _Checker, keys: dict[str, _Node], where: str, message: Any, check_hook: Any) -> dict[str, Any]:
    """A class's ``attributes:``, ``aliases:`` and ``environment:`` (ClassNote fields)."""
    attributes: list[AttributeNote] = []
    for name, node in (keys["attributes"].value.items() if "attributes" in keys else []):
        at = f"{where}.attributes.{name}"
        if not _identifier(c, name, node, "attribute"):
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
            AttributeNote(name=name, default=default, type=ak["type"].value,
                          doc=ak["doc"].value if "doc" in ak else None, line=node.line)
        )
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
