"""Stage 3: load the annotations file (YAML) and validate it against the schema.

Every value is remembered with its line, so each problem names file:line and,
for a misspelt name, the closest valid one. All problems are collected and
reported together; nothing downstream runs on an invalid file.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from . import naming
from .annotation_grammar import POLICY_PLACEHOLDERS, _message_text, _type_text, dotted_name, format_problem, python_name
from .annotation_grammar import type_expression_problem
from .annotation_members import (
    _check_env_fields,
    _env_note,
    _identifier,
    _member_notes,
    _reference,
    _targets,
    hook_class_members,
    hook_names_in,
)
from .annotation_notes import (
    _ACCEPTED_KEYS,
    _CLASS_KEYS,
    _ENUM_KEYS,
    _ERRORS,
    _EXTRA_KEYS,
    _FIELD_KEYS,
    _MESSAGE_KEYS,
    _POLICY_KEYS,
    _TOP_KEYS,
    COMPAT_ACTIONS,
    CONSTRAINT_RE,
    REFERENCE_SECTIONS,
    AcceptedChange,
    AliasNote,
    Annotations,
    AttributeNote,
    ClassNote,
    CompatPolicy,
    EnumNote,
    EnvironmentNote,
    EnvNote,
    ExtraProperty,
    FieldNote,
    MemberDifference,
    ModuleMembersNote,
    TargetNote,
)
from .annotation_yaml import _Checker, _load_yaml, _Node, closest
from .errors import GeneratorError, Problem
from .proto_facts import NUMERIC_TYPES
from .rules import load_rules
from .schema import Schema

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
                elif f.type not in NUMERIC_TYPES:
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


def member_names(cls: ClassNote) -> set[str]:
    """Names a class's attributes, aliases and env export method take."""
    names = {a.name for a in cls.attributes} | {a.name for a in cls.aliases}
    if cls.environment and cls.environment.export:
        names.add(cls.environment.export)
    return names
