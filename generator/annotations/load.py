"""Stage 3: load the annotations file (YAML) and validate it against the schema.

Every value is remembered with its line, so each problem names file:line and,
for a misspelt name, the closest valid one. All problems are collected and
reported together; nothing downstream runs on an invalid file.

The format is declared in ``keys`` (every key once: type, default, allowed
values, check, doc); ``checker`` reads YAML with lines and checks mappings
against those declarations; ``grammar`` checks the text pasted as code;
``rules`` reads the rules between fields; ``members`` reads what is not a
field's (reference, targets, class members) and the hooks module. This
module reads the rest.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# Any: the checked values of a note's keys, of as many types as its fields

from ..errors import GeneratorError, Problem
from ..inputs.files import hand_written_module
from ..schema import naming
from ..schema.proto_facts import NUMERIC_TYPES
from ..schema.schema import Field, Message, Schema
from .aliases import check_renames, read_deprecated, read_renamed_from
from .checker import Checker, Node, load_yaml
from .grammar import format_problem, python_name, type_expression_problem
from .keys import (
    ACCEPTED_KEYS,
    CLASS_KEYS,
    COMPAT_ACTIONS,
    CONSTRAINT_RE,
    ENUM_KEYS,
    ENUM_VALUE_KEYS,
    ERRORS,
    EXTRA_KEY_KEYS,
    EXTRA_KEYS,
    FIELD_KEYS,
    MESSAGE_KEYS,
    POLICY_KEYS,
    RECIPE_KEYS,
    TOP_KEYS,
    AcceptedChange,
    Annotations,
    ClassNote,
    CompatPolicy,
    EnumNote,
    ExtraKeyNote,
    ExtraProperty,
    FieldNote,
    RecipeNote,
)
from .members import (
    check_env_fields,
    check_identifier,
    hook_names_in,
    hook_return_types,
    read_env_note,
    read_member_notes,
    read_reference,
    read_targets,
)
from .rules import load_rules


def load_annotations(path: Path | None, schema: Schema) -> Annotations:
    """Read and validate ``path`` (None: derive everything from the schema).
    The hand-written modules it names are read beside it (inputs.hand_written_module).
    """
    if path is None:
        return _derived(schema)
    c = Checker(str(path))
    top = c.mapping(load_yaml(path), "annotations", TOP_KEYS)
    read = _Reader(c, schema, path, top)
    messages, message_docs, extra_keys = read.messages(top.get("messages"))
    enums = read.enums(top.get("enums"))
    classes = read.classes(top["classes"]) if "classes" in top else None
    wrapped = classes if classes is not None else _derived(schema).classes
    check_env_fields(c, messages, list(wrapped))
    check_renames(c, schema, messages, wrapped, extra_keys)
    targets = read_targets(c, top.get("targets"), read.hooks_module, path)
    accepted = read.accepted_changes(top.get("accepted_changes"))
    strict_env = top["strict_env"].value if "strict_env" in top else None
    version = str(top["version"].value) if "version" in top else None
    if strict_env is not None and not re.fullmatch(r"[A-Z_][A-Z0-9_]*", strict_env):
        c.error(
            f"strict_env: {strict_env!r} is not an environment variable name (A-Z, 0-9, _)",
            top["strict_env"],
        )
    reference, differences, member_differences = read_reference(
        c, top.get("reference"), {cls.name for cls in wrapped}
    )
    rules = load_rules(c, top.get("rules"), schema, {cls.message for cls in wrapped})
    if c.problems:
        raise GeneratorError(c.problems)
    return Annotations(
        path=str(path),
        hooks_module=read.hooks_module,
        classes=tuple(wrapped),
        messages=messages,
        message_docs=message_docs,
        extra_keys=extra_keys,
        enums=enums,
        compat_policies=read.policies,
        targets=targets,
        accepted_changes=accepted,
        reference=reference,
        differences=differences,
        member_differences=member_differences,
        strict_env=strict_env,
        version=version,
        rules=rules,
    )


def _items(node: Node | None) -> list[tuple[str, Node]]:
    """A mapping node's entries (none for a missing key)."""
    return list(node.value.items()) if node is not None else []


class _Reader:
    """One annotations file being read: the checker collecting problems, and
    what later sections check names against (the hooks module's names, the
    compat policies)."""

    def __init__(
        self, c: Checker, schema: Schema, notes_file: Path, top: dict[str, Node]
    ) -> None:
        self.c, self.schema = c, schema
        self.hooks_module: str | None = top["hooks"].value if "hooks" in top else None
        self.hook_returns: dict[str, str] = {}  # function -> its return annotation
        self.hook_names = self._hook_names(top.get("hooks"), notes_file)
        c.checks = {
            "hook": lambda node, where, key: self.hook(node, where),
            "policy": lambda node, where, key: self.policy(node, where),
            "type": lambda node, where, key: _type_text(c, node, f"{where}.{key}"),
            "message": lambda node, where, key: _message_text(
                c, node, f"{where}.{key}"
            ),
        }
        self.policies: dict[str, CompatPolicy] = {}
        self.policies = self._policies(top.get("compat_policies"))

    def _hook_names(self, node: Node | None, notes_file: Path) -> frozenset[str]:
        """Top-level names the hooks module defines (none without one)."""
        if node is None:
            return frozenset()
        module = node.value
        hooks_file = hand_written_module(notes_file, module)
        if not python_name(module):
            self.c.error(
                f"hooks: {module!r} is not a module name (an identifier, not a keyword)",
                node,
            )
        elif not hooks_file.is_file():
            self.c.error(
                f"hooks module {hooks_file} does not exist",
                node,
                "create it (hand-written) beside the annotations file, or drop the key",
            )
        else:
            try:
                self.hook_returns = hook_return_types(hooks_file)
                return hook_names_in(hooks_file)
            except SyntaxError as exc:
                self.c.problems.append(
                    Problem(
                        f"hooks module does not parse: {exc.msg}",
                        str(hooks_file),
                        exc.lineno,
                    )
                )
        return frozenset()

    def hook(self, node: Node | None, where: str) -> str | None:
        """A hook's name, checked against the hooks module."""
        if node is None:
            return None
        name: str = node.value
        if self.hooks_module is None:
            self.c.error(
                f"{where}: hook {name!r} named but no 'hooks' module is declared", node
            )
        elif name not in self.hook_names:
            self.c.unknown(
                f"hook in {self.hooks_module}.py ({where})", name, node, self.hook_names
            )
        return name

    def policy(self, node: Node | None, where: str) -> str | None:
        """A compat policy's name, checked against compat_policies."""
        if node is None:
            return None
        if node.value not in self.policies:
            self.c.unknown(
                f"compat policy ({where})", node.value, node, list(self.policies)
            )
        return str(node.value)

    def _policies(self, node: Node | None) -> dict[str, CompatPolicy]:
        policies: dict[str, CompatPolicy] = {}
        for name, entry in _items(node):
            where = f"compat_policies.{name}"
            keys = self.c.mapping(entry, where, POLICY_KEYS)
            if "action" not in keys:
                self.c.error(
                    f"{where}.action must be one of {', '.join(COMPAT_ACTIONS)}", entry
                )
                continue
            if keys["action"].value not in COMPAT_ACTIONS:
                continue  # reported
            values = self.c.values(keys, POLICY_KEYS, where)
            if values["action"] == "raise" and values.get("error") not in ERRORS:
                self.c.error(
                    f"{where}.error must be one of {', '.join(ERRORS)}",
                    keys.get("error", entry),
                )
            policies[name] = CompatPolicy(
                name=name, **{**values, "message": values.get("message") or ""}
            )
        return policies

    # -- messages and their fields ------------------------------------------

    def messages(self, node: Node | None) -> tuple[
        dict[str, dict[str, FieldNote]],
        dict[str, str],
        dict[str, tuple[ExtraKeyNote, ...]],
    ]:
        messages: dict[str, dict[str, FieldNote]] = {}
        docs: dict[str, str] = {}
        extra_keys: dict[str, tuple[ExtraKeyNote, ...]] = {}
        for full, entry in _items(node):
            message = self.schema.messages.get(full)
            if message is None:
                self.c.unknown("message", full, entry, list(self.schema.messages))
                continue
            keys = self.c.mapping(entry, full, MESSAGE_KEYS)
            if "doc" in keys:
                docs[full] = keys["doc"].value
            if "extra_keys" in keys:
                extra_keys[full] = self.extra_keys(keys["extra_keys"], message)
            notes: dict[str, FieldNote] = {}
            for fname, fnode in _items(keys.get("fields")):
                note = self.field_note(message, fname, fnode)
                if note is not None:
                    notes[fname] = note
            messages[full] = notes
        return messages, docs, extra_keys

    def extra_keys(self, node: Node, message: Message) -> tuple[ExtraKeyNote, ...]:
        """``messages.<full>.extra_keys``: ``key: {type, doc}``, a key no field of the message has."""
        found = []
        for name, knode in _items(node):
            where = f"{message.full_name}.extra_keys.{name}"
            if message.field(name) is not None:
                self.c.error(
                    f"{where}: {name!r} is a field of {message.full_name}, not an extra key",
                    knode,
                )
                continue
            keys = self.c.mapping(knode, where, EXTRA_KEY_KEYS)
            missing = [k for k in EXTRA_KEY_KEYS.required() if k not in keys]
            if missing:
                self.c.error(f"{where}: 'type' and 'doc' are required", knode)
                continue
            found.append(
                ExtraKeyNote(
                    name=name,
                    **self.c.values(keys, EXTRA_KEY_KEYS, where),
                    line=knode.line,
                )
            )
        return tuple(found)

    def recipes(self, node: Node | None, owner: str) -> tuple[RecipeNote, ...]:
        """``recipes``: ``title: {doc, example}``, each shown on the reference page."""
        found = []
        for title, rnode in _items(node):
            where = f"{owner}.recipes.{title}"
            keys = self.c.mapping(rnode, where, RECIPE_KEYS)
            if any(k not in keys for k in RECIPE_KEYS.required()):
                self.c.error(f"{where}: 'doc' and 'example' are required", rnode)
                continue
            found.append(
                RecipeNote(
                    title=str(title),
                    **self.c.values(keys, RECIPE_KEYS, where),
                    line=rnode.line,
                )
            )
        return tuple(found)

    def field_note(self, message: Message, fname: str, node: Node) -> FieldNote | None:
        full = message.full_name
        f = message.field(fname)
        if f is None and fname in FIELD_KEYS:  # `example:` dedented out of its field
            self.c.error(
                f"unknown field of {full} {fname!r}",
                node,
                f"{fname!r} is a key of a field's entry: indent it under the field it belongs to",
            )
            return None
        if f is None:
            self.c.unknown(
                f"field of {full}", fname, node, [x.name for x in message.fields]
            )
            return None
        where = f"{full}.{fname}"
        fk = self.c.mapping(node, where, FIELD_KEYS)
        values = self.c.values(fk, FIELD_KEYS, where)
        values.update(_field_values(self.c, fk, where, f))
        if "getter" in fk and "type" not in fk:
            values["type"] = self.getter_type(values["getter"], where, fk["getter"])
        return FieldNote(**values, line=node.line)

    def getter_type(self, getter: str, where: str, node: Node) -> str | None:
        """A getter hook's return annotation: its property's type, unless the
        annotations give one (``type:``). It is pasted into the class module,
        so it names what that module imports (its *_pb2 modules, ``types``)."""
        text = self.hook_returns.get(getter)
        problem = type_expression_problem(text) if text is not None else None
        if problem:
            self.c.error(
                f"{where}.getter: the return annotation of {self.hooks_module}.{getter}, "
                f"{text!r}, is not a type expression: {problem}",
                node,
            )
        return text

    # -- enums, classes, accepted changes ------------------------------------

    def enums(self, node: Node | None) -> dict[str, EnumNote]:
        enums: dict[str, EnumNote] = {}
        for full, entry in _items(node):
            enum = self.schema.enums.get(full)
            if enum is None:
                self.c.unknown("enum", full, entry, list(self.schema.enums))
                continue
            keys = self.c.mapping(entry, full, ENUM_KEYS)
            values: dict[str, str] = {}
            names = {
                v.name for v in enum.values
            }  # once per enum, not per documented value
            for vname, vnode in _items(keys.get("values")):
                if vname not in names:
                    self.c.unknown(
                        f"value of {full}", vname, vnode, [v.name for v in enum.values]
                    )
                    continue
                vk = self.c.mapping(vnode, f"{full}.{vname}", ENUM_VALUE_KEYS)
                if "doc" in vk:
                    values[vname] = vk["doc"].value
            enums[full] = EnumNote(
                doc=keys["doc"].value if "doc" in keys else None, values=values
            )
        return enums

    def classes(self, node: Node) -> tuple[ClassNote, ...]:
        classes = []
        for cname, entry in _items(node):
            note = self.class_note(cname, entry)
            if note is not None:
                classes.append(note)
        return tuple(classes)

    def class_note(self, cname: str, node: Node) -> ClassNote | None:
        where = f"classes.{cname}"
        if not re.fullmatch(r"[A-Z][A-Za-z0-9_]*", cname):
            self.c.error(f"class name {cname!r} must be a CapWords identifier", node)
        elif not naming.is_usable_class_name(cname):
            self.c.error(
                f"class name {cname!r} is a keyword, a builtin or a name the generated code uses",
                node,
            )
        keys = self.c.mapping(node, where, CLASS_KEYS)
        if "message" not in keys:
            self.c.error(f"{where}: 'message' is required", node)
            return None
        full = keys["message"].value
        if full not in self.schema.messages:
            self.c.unknown(
                f"message ({where})", full, keys["message"], list(self.schema.messages)
            )
            return None
        members = {k: v for k, v in keys.items() if k not in _CLASS_MEMBER_KEYS}
        values = self.c.values(members, CLASS_KEYS, where)
        if "message_attribute" in keys:
            check_identifier(
                self.c,
                values["message_attribute"],
                keys["message_attribute"],
                f"{where}.message_attribute",
            )
        attribute = values.get(
            "message_attribute", CLASS_KEYS["message_attribute"].default
        )
        extras = tuple(
            self._extra_properties(keys.get("extra_properties"), where, attribute)
        )
        return ClassNote(
            name=cname,
            **values,
            extra_properties=extras,
            recipes=self.recipes(keys.get("recipes"), where),
            **read_member_notes(self.c, keys, where, self.schema.messages[full]),
            line=node.line,
        )

    def _extra_properties(
        self, node: Node | None, owner: str, attribute: str
    ) -> list[ExtraProperty]:
        extras: list[ExtraProperty] = []
        for pname, pnode in _items(node):
            where = f"{owner}.extra_properties.{pname}"
            if not check_identifier(self.c, pname, pnode, "extra property"):
                continue
            if pname == attribute:
                self.c.error(
                    f"{where}: {pname!r} is already the class's message_attribute",
                    pnode,
                )
                continue
            pk = self.c.mapping(pnode, where, EXTRA_KEYS)
            missing = [k for k in EXTRA_KEYS.required() if k not in pk]
            for required in missing:
                self.c.error(f"{where}: '{required}' is required", pnode)
            if missing:
                continue
            values = self.c.values(pk, EXTRA_KEYS, where)
            if "type" not in pk:
                values["type"] = self.getter_type(values["getter"], where, pk["getter"])
            if not values["type"]:
                self.c.error(
                    f"{where}: 'type' is required (or annotate the getter hook's return type)",
                    pnode,
                )
                continue
            extras.append(ExtraProperty(name=pname, **values, line=pnode.line))
        return extras

    def accepted_changes(self, node: Node | None) -> tuple[AcceptedChange, ...]:
        accepted: list[AcceptedChange] = []
        for index, entry in enumerate(node.value if node is not None else []):
            where = f"accepted_changes[{index}]"
            keys = self.c.mapping(entry, where, ACCEPTED_KEYS)
            missing = [k for k in ACCEPTED_KEYS.required() if k not in keys]
            if missing:
                self.c.error(
                    f"{where}: {', '.join(repr(k) for k in missing)} required", entry
                )
                continue
            accepted.append(
                AcceptedChange(
                    **self.c.values(keys, ACCEPTED_KEYS, where), line=entry.line
                )
            )
        return tuple(accepted)


# a class's keys read by members.py (each a mapping of members)
_CLASS_MEMBER_KEYS = (
    "extra_properties",
    "attributes",
    "aliases",
    "environment",
    "recipes",
)


def _field_values(
    c: Checker, fk: dict[str, Node], where: str, f: Field
) -> dict[str, Any]:
    """What a field's keys mean for this field: the checks that depend on its
    type, and the keys whose note value is not the text (``property: false``
    hides it; a constraint is parsed; ``env`` is a note of its own)."""
    values: dict[str, Any] = {}
    prop = fk["property"].value if "property" in fk else None
    if prop is True:
        c.error(f"{where}.property: give a name or false", fk["property"])
    values["property"] = prop if isinstance(prop, str) else None
    values["hidden"] = prop is False
    if "constraint" in fk:
        values["constraint"] = None
        m = CONSTRAINT_RE.match(fk["constraint"].value)
        if not m:
            c.error(
                f"{where}.constraint: expected '<op> <number>' with op one of > >= < <= !=",
                fk["constraint"],
            )
        elif f.type not in NUMERIC_TYPES:
            c.error(
                f"{where}.constraint: only numeric fields take a constraint (field is {f.type})",
                fk["constraint"],
            )
        else:
            values["constraint"] = (m.group(1), float(m.group(2)))
    if "view" in fk and f.type != "message":
        c.error(f"{where}.view applies to message fields only", fk["view"])
    if "repeated" in fk and not f.repeated:
        c.error(f"{where}.repeated applies to repeated fields only", fk["repeated"])
    if "choices" in fk:
        values["choices"] = None
        choices = [x.value for x in fk["choices"].value]
        if f.type != "string" or not all(isinstance(v, str) for v in choices):
            c.error(
                f"{where}.choices: a list of strings, for string fields", fk["choices"]
            )
        else:
            values["choices"] = tuple(choices)
    values["env"] = read_env_note(c, fk.get("env"), where, f)
    values["renamed_from"] = read_renamed_from(c, fk.get("renamed_from"), where)
    values["deprecated"] = read_deprecated(c, fk.get("deprecated"), where)
    return values


def _derived(schema: Schema) -> Annotations:
    """Without annotations (or without their ``classes``): a wrapper class for
    every message but map entries, nested and recursive ones included, so a
    user can start from any message."""
    names = _derived_class_names(schema)
    classes = tuple(
        ClassNote(name=names[m.full_name], message=m.full_name, line=m.line)
        for m in schema.messages.values()
        if not m.is_map_entry
    )
    bad = [c for c in classes if c.name.startswith("_")]
    if bad:
        raise GeneratorError(
            [
                Problem(
                    f"message {c.message}: a class name cannot start with an underscore",
                    schema.messages[c.message].file,
                    c.line,
                    hint="name its class in the annotations file (classes:)",
                )
                for c in bad
            ]
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


def _derived_class_names(schema: Schema) -> dict[str, str]:
    """Message full name -> its class's name: its flat name, with the renaming
    rule's trailing underscores while that is not usable or is taken: by the
    package's top-level names, the names ``types`` defines (``XDict``,
    ``XInput``, ``XName``: class modules import them), or another class.
    Messages whose flat name is free keep it; the others follow in schema order."""
    paths = [naming.module_path_for_proto(f) for f in schema.files]
    # the package's top-level names: its first folders, or its modules and their _pb2 modules
    taken = {p[0] for p in paths} | {f"{p[0]}_pb2" for p in paths if len(p) == 1}
    messages = [m for m in schema.messages.values() if not m.is_map_entry]
    taken |= {n for m in messages for n in naming.typed_dict_names(m.flat)}
    taken |= {naming.enum_literal_name(e.flat) for e in schema.enums.values()}
    names = {
        m.full_name: m.flat
        for m in messages
        if naming.python_class_name(m.flat, taken) == m.flat
    }
    taken |= set(names.values())
    for m in messages:
        if m.full_name not in names:
            names[m.full_name] = naming.python_class_name(m.flat, taken)
            taken.add(names[m.full_name])
    return names


def _type_text(c: Checker, node: Node | None, where: str) -> str | None:
    """A type expression's text, checked (see type_expression_problem)."""
    if node is None:
        return None
    problem = type_expression_problem(node.value)
    if problem:
        c.error(f"{where}: {node.value!r} is not a type expression: {problem}", node)
    return node.value  # type: ignore[no-any-return]


def _message_text(c: Checker, node: Node | None, where: str) -> str | None:
    """A compatible-mode message, checked (see format_problem)."""
    if node is None:
        return None
    problem = format_problem(node.value)
    if problem:
        c.error(
            f"{where}: {node.value!r} is not a message the runtime can fill: {problem}",
            node,
        )
    return node.value  # type: ignore[no-any-return]
