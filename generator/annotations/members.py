"""Annotations that are not a field's: the ``reference`` and its
differences, the ``targets`` (other builds), and the members of a class that
are not properties (environment-backed fields, plain attributes, method
aliases, the class's ``environment``): what a hooks module would otherwise
hand-write; and the hooks module itself, read without importing it."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

# Any: YAML values of members and env keys before they are checked

from ..errors import Problem
from ..inputs.files import decode_utf8, hand_written_module, read_input
from ..schema import naming
from .checker import Checker, Node, yaml_type
from .grammar import dotted_name
from .keys import (
    ALIAS_KEYS,
    ATTRIBUTE_KEYS,
    CONVERTERS,
    DOTTED_NAME,
    ENV_FIELD_TYPES,
    ENV_KEYS,
    ENV_VALUE_TYPES,
    ENV_VARIABLE,
    ENVIRONMENT_KEYS,
    MEMBER_DIFFERENCE_KEYS,
    MODULE_MEMBERS_KEYS,
    REFERENCE_KEYS,
    REFERENCE_SECTIONS,
    TARGET_KEYS,
    AliasNote,
    AttributeNote,
    ClassNote,
    EnvironmentNote,
    EnvNote,
    FieldNote,
    MemberDifference,
    ModuleMembersNote,
    TargetNote,
)


def read_reference(
    c: Checker, node: Node | None, class_names: set[str]
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
    keys = c.mapping(node, "reference", REFERENCE_KEYS)
    if "name" not in keys:
        c.error(
            "reference: 'name' is required (the implementation the docs compare with, e.g. 'Acme 2.0')",
            node,
        )
    differences = []
    members: list[MemberDifference] = []
    for section, text in (
        keys["differences"].value.items() if "differences" in keys else []
    ):
        if section == "members":
            members = _member_differences(c, text, class_names)
        elif section not in REFERENCE_SECTIONS:
            c.unknown(
                "section in reference.differences",
                section,
                text,
                (*REFERENCE_SECTIONS, "members"),
            )
        elif not isinstance(text.value, str):
            c.error(
                f"reference.differences.{section}: expected str, got {yaml_type(text.value)}",
                text,
            )
        else:
            differences.append((section, text.value))
    return (
        (keys["name"].value if "name" in keys else None),
        tuple(differences),
        tuple(members),
    )


def _member_differences(
    c: Checker, node: Node, class_names: set[str]
) -> list[MemberDifference]:
    """``reference.differences.members``: ``name: {of: [Class.member, ...], text: ...}``."""
    if not isinstance(node.value, dict):
        c.error(
            f"reference.differences.members: expected a mapping of named differences, got {yaml_type(node.value)}",
            node,
        )
        return []
    found = []
    for name, entry in node.value.items():
        where = f"reference.differences.members.{name}"
        keys = c.mapping(entry, where, MEMBER_DIFFERENCE_KEYS)
        missing = [k for k in MEMBER_DIFFERENCE_KEYS.required() if k not in keys]
        if missing:
            c.error(
                f"{where}: {' and '.join(repr(k) for k in missing)} required", entry
            )
            continue
        of = []
        for item in keys["of"].value:
            owner = item.value.split(".", 1)[0] if isinstance(item.value, str) else None
            if (
                owner is None
                or not DOTTED_NAME.fullmatch(item.value)
                or item.value.count(".") > 1
            ):
                c.error(
                    f"{where}.of: expected 'Class' or 'Class.member', got {item.value!r}",
                    item,
                )
            elif owner not in class_names:
                c.unknown(f"class in {where}.of", owner, item, class_names)
            else:
                of.append(item.value)
        if not keys["of"].value:
            c.error(f"{where}.of: name at least one class or member", keys["of"])
        if len(of) == len(keys["of"].value):
            found.append(
                MemberDifference(
                    name=name, of=tuple(of), text=keys["text"].value, line=entry.line
                )
            )
    return found


def read_targets(
    c: Checker, node: Node | None, hooks_module: str | None, notes_file: Path
) -> tuple[TargetNote, ...]:
    """``targets:``: each a package path, the package its pb2 modules come
    from and the logger its warnings go to; every other fact is shared."""
    if node is None:
        return ()
    targets = []
    for name, target_node in node.value.items():
        where = f"targets.{name}"
        if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name == "standalone":
            c.error(
                f"{where}: a target name is a lower-case identifier other than 'standalone'",
                target_node,
            )
        keys = c.mapping(target_node, where, TARGET_KEYS)
        required = TARGET_KEYS.required()
        missing = [k for k in required if k not in keys]
        if missing:
            c.error(f"{where}: missing {', '.join(missing)}", target_node)
            continue
        for key in required:
            if not dotted_name(keys[key].value):
                c.error(
                    f"{where}.{key}: {keys[key].value!r} is not a dotted Python name (identifiers, not keywords)",
                    keys[key],
                )
        if "." not in keys["logger"].value:
            c.error(
                f"{where}.logger: {keys['logger'].value!r} is not module.attribute (the logger object to import)",
                keys["logger"],
            )
        if not keys["package"].value.startswith(keys["classes_package"].value + "."):
            c.error(
                f"{where}.package must lie inside classes_package ({keys['classes_package'].value})",
                keys["package"],
            )
        members = keys.pop("module_members", None)
        targets.append(
            TargetNote(
                name=name,
                **c.values(keys, TARGET_KEYS, where),
                line=target_node.line,
                module_members=(
                    _module_members(c, members, where, notes_file)
                    if members is not None
                    else None
                ),
            )
        )
    if targets and hooks_module is None:
        c.error(
            "targets: a second build needs the hooks module it copies ('hooks:')", node
        )
    return tuple(targets)


def _member_source(
    c: Checker, node: Node | None, where: str, notes_file: Path
) -> tuple[str | None, frozenset[str]]:
    """``module_members.from``: the module's name and what it defines (None: unusable)."""
    if node is None:
        return None, frozenset()
    source: str = node.value
    path = hand_written_module(notes_file, source)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", source):
        c.error(f"{where}.from: {source!r} is not a module name", node)
    elif not path.is_file():
        c.error(
            f"{where}.from: module {path} does not exist",
            node,
            "create it (hand-written) beside the annotations file, as the hooks module is",
        )
    else:
        try:
            return source, hook_names_in(path)
        except SyntaxError as exc:
            c.problems.append(
                Problem(f"module does not parse: {exc.msg}", str(path), exc.lineno)
            )
    return None, frozenset()


def _module_members(
    c: Checker, node: Node, where: str, notes_file: Path
) -> ModuleMembersNote | None:
    """A target's ``module_members``: ``from`` (a hand-written module beside
    the annotations file, as the hooks module is, which this build carries a
    copy of), the ``names`` the class module imports from it, module-level
    ``attributes`` of the class module, and ``all`` (its ``__all__``)."""
    where = f"{where}.module_members"
    keys = c.mapping(node, where, MODULE_MEMBERS_KEYS)
    source, defined = _member_source(c, keys.get("from"), where, notes_file)
    names = []
    for item in keys["names"].value if "names" in keys else []:
        if not isinstance(item.value, str) or not naming.is_identifier(item.value):
            c.error(f"{where}.names: expected identifiers, got {item.value!r}", item)
        elif "from" not in keys:
            c.error(
                f"{where}.names: names are imported from the module 'from' names; give it",
                item,
            )
        elif source is not None and item.value not in defined:
            c.unknown(f"name in {source}.py ({where}.names)", item.value, item, defined)
        else:
            names.append(item.value)

    def module_variable(name: str, node: Node) -> bool:
        if not naming.is_identifier(name):
            c.error(f"{where}.attributes.{name}: {name!r} is not an identifier", node)
        return naming.is_identifier(name)

    attributes = _attribute_notes(c, keys, where, module_variable)
    taken: dict[str, int] = {}
    for name, line in [(n, keys["names"].line) for n in names] + [
        (a.name, a.line) for a in attributes
    ]:
        if name in taken:
            c.error(
                f"{where}: {name!r} is defined twice",
                Node(name, line),
                f"first on line {taken[name]}",
            )
        taken[name] = line
    exports = None
    if "all" in keys:
        exports = tuple(item.value for item in keys["all"].value)
        if not all(
            isinstance(name, str) and naming.is_identifier(name) for name in exports
        ):
            c.error(f"{where}.all: expected a list of names", keys["all"])
    module = keys["module"].value if "module" in keys else None
    if module is not None and not DOTTED_NAME.fullmatch(module):
        c.error(
            f"{where}.module: {module!r} is not a dotted Python name", keys["module"]
        )
    return ModuleMembersNote(
        source=source,
        names=tuple(names),
        attributes=tuple(attributes),
        exports=exports,
        module=module,
        line=node.line,
    )


def read_env_note(c: Checker, node: Node | None, where: str, f: Any) -> EnvNote | None:
    """A field's ``env: VARIABLE`` or ``env: {variable: VARIABLE, read: false}``."""
    if node is None:
        return None
    given: dict[str, Any]
    if isinstance(node.value, str):
        given, at = {"variable": node.value}, node
    else:
        keys = c.mapping(node, f"{where}.env", ENV_KEYS)
        if "variable" not in keys:
            c.error(
                f"{where}.env: 'variable' is required (the environment variable's name)",
                node,
            )
            return None
        if "type" in keys and keys["type"].value not in ENV_VALUE_TYPES:
            return None  # reported
        given, at = {name: child.value for name, child in keys.items()}, keys[
            "variable"
        ]
    if not ENV_VARIABLE.fullmatch(given["variable"]):
        c.error(
            f"{where}.env: {given['variable']!r} is not an environment variable name (letters, digits, _)",
            at,
        )
        return None
    if f.repeated or f.type not in ENV_FIELD_TYPES:
        kind = "repeated " + f.type if f.repeated else f.type
        c.error(
            f"{where}.env: only a singular bool, number or string field can be environment-backed (field is {kind})",
            node,
        )
        return None
    return EnvNote(**given, line=node.line)


def check_identifier(c: Checker, name: str, node: Node, what: str) -> bool:
    if not naming.is_plain_attribute(name) or name in naming.WRAPPER_MEMBERS:
        c.error(
            f"{what} {name!r} is not a usable member name (an identifier, not a keyword, not __private)",
            node,
        )
        return False
    return True


def _plain(node: Node) -> Any:
    """A YAML value without its line marks."""
    if isinstance(node.value, dict):
        return {k: _plain(v) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [_plain(v) for v in node.value]
    return node.value


def _attribute_notes(
    c: Checker,
    keys: dict[str, Node],
    where: str,
    usable: Callable[[str, Node], bool],
) -> list[AttributeNote]:
    """``attributes:`` (of a class, or of a target's module): plain variables
    with a default and a type expression (checked: it is pasted as code)."""
    attributes: list[AttributeNote] = []
    for name, node in (
        keys["attributes"].value.items() if "attributes" in keys else []
    ):
        at = f"{where}.attributes.{name}"
        if not usable(name, node):
            continue
        ak = c.mapping(node, at, ATTRIBUTE_KEYS)
        missing = [k for k in ATTRIBUTE_KEYS.required() if k not in ak]
        if missing:
            c.error(f"{at}: {' and '.join(repr(k) for k in missing)} required", node)
            continue
        default = _plain(ak["default"])
        if not _literal(default):
            c.error(
                f"{at}.default: expected a YAML scalar or a list of them", ak["default"]
            )
            continue
        values = c.values(ak, ATTRIBUTE_KEYS, at)
        attributes.append(
            AttributeNote(
                name=name,
                **{**values, "default": default, "type": values["type"] or ""},
                line=node.line,
            )
        )
    return attributes


def read_member_notes(
    c: Checker, keys: dict[str, Node], where: str, message: Any
) -> dict[str, Any]:
    """A class's ``attributes:``, ``aliases:`` and ``environment:`` (ClassNote fields)."""
    attributes = _attribute_notes(
        c, keys, where, lambda name, node: check_identifier(c, name, node, "attribute")
    )
    aliases: list[AliasNote] = []
    for name, node in keys["aliases"].value.items() if "aliases" in keys else []:
        alias = _alias_note(c, name, node, where, message)
        if alias is not None:
            aliases.append(alias)
    environment = (
        _environment_note(c, keys["environment"], where)
        if "environment" in keys
        else None
    )
    names: dict[str, int] = {}
    for member, line in (
        [(a.name, a.line) for a in attributes]
        + [(a.name, a.line) for a in aliases]
        + (
            [(environment.export, environment.line)]
            if environment and environment.export
            else []
        )
    ):
        if member in names:
            c.error(
                f"{where}: member {member!r} is defined twice",
                Node(member, line),
                f"first on line {names[member]}",
            )
        names[member] = line
    return {
        "attributes": tuple(attributes),
        "aliases": tuple(aliases),
        "environment": environment,
    }


def _alias_note(
    c: Checker, name: str, node: Node, where: str, message: Any
) -> AliasNote | None:
    """``aliases.<name>``: a field's name, or ``{field, parameter, convert}``."""
    at = f"{where}.aliases.{name}"
    if not check_identifier(c, name, node, "alias"):
        return None
    ak = (
        c.mapping(node, at, ALIAS_KEYS)
        if isinstance(node.value, dict)
        else {"field": node}
    )
    if "field" not in ak or not isinstance(ak["field"].value, str):
        c.error(
            f"{at}: expected a field name of {message.full_name} or {{field: ..., parameter: ..., convert: str}}",
            node,
        )
        return None
    f = message.field(ak["field"].value)
    if f is None:
        c.unknown(
            f"field of {message.full_name} ({at})",
            ak["field"].value,
            ak["field"],
            [x.name for x in message.fields],
        )
        return None
    if f.is_map:
        c.error(
            f"{at}: {f.name} is a map; an alias writes a scalar, repeated or message field",
            ak["field"],
        )
        return None
    convert = ak["convert"].value if "convert" in ak else ALIAS_KEYS["convert"].default
    if convert is not None and (
        convert not in CONVERTERS or f.type != "string" or f.repeated
    ):
        c.error(
            f"{at}.convert: only 'str', for a singular string field (field is {f.label} {f.type})",
            ak["convert"],
        )
        return None
    usable = naming.is_identifier(f.name) and f.name != "self"
    parameter = (
        ak["parameter"].value if "parameter" in ak else (f.name if usable else "value")
    )
    if not naming.is_identifier(parameter) or parameter == "self":
        c.error(
            f"{at}.parameter: {parameter!r} is not a usable parameter name",
            ak.get("parameter", node),
        )
        return None
    return AliasNote(
        name=name, field=f.name, parameter=parameter, convert=convert, line=node.line
    )


def _environment_note(c: Checker, node: Node, where: str) -> EnvironmentNote:
    """``environment:`` of a class."""
    ek = c.mapping(node, f"{where}.environment", ENVIRONMENT_KEYS)
    values = c.values(ek, ENVIRONMENT_KEYS, f"{where}.environment")
    if "export" in ek and not check_identifier(
        c, values["export"], ek["export"], "environment.export method"
    ):
        values["export"] = None
    return EnvironmentNote(**values, line=node.line)


def _literal(value: object) -> bool:
    """A default the generated code can spell: a scalar or a (nested) list of them."""
    if isinstance(value, list):
        return all(_literal(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def check_env_fields(
    c: Checker, messages: dict[str, dict[str, FieldNote]], classes: list[ClassNote]
) -> None:
    """Environment-backed fields belong to a class's message, and each variable backs one field."""
    wrapped = {cls.message: cls for cls in classes}
    for full, notes in messages.items():
        seen: dict[str, str] = {}
        for fname, note in notes.items():
            if note.env is None:
                continue
            at = Node(None, note.env.line)
            if full not in wrapped:
                c.error(
                    f"{full}.{fname}.env: {full} has no class (classes:), so nothing reads the variable",
                    at,
                )
            elif note.env.variable in seen:
                c.error(
                    f"{full}.{fname}.env: {note.env.variable} already backs field {seen[note.env.variable]!r}",
                    at,
                )
            seen[note.env.variable] = fname
    for cls in classes:
        env = cls.environment
        if env is not None and not any(
            n.env for n in messages.get(cls.message, {}).values()
        ):
            c.error(
                f"classes.{cls.name}.environment: no field of {cls.message} has 'env:'",
                Node(None, env.line),
            )


def _hooks_source(path: Path) -> str:
    """The hooks module's text: a regular file in UTF-8 (a build copies it as text)."""
    return decode_utf8(read_input(path, "hooks module"), path, "hooks module")


class _Outline(NamedTuple):
    """What the generator reads of a hand-written module, without importing it."""

    names: frozenset[str]  # top-level functions, classes and assigned names
    returns: dict[str, str]  # each top-level function's return annotation, as written
    classes: dict[str, frozenset[str]]  # each top-level class's members


def _outline(path: Path) -> _Outline:
    """The module at ``path`` outlined (a SyntaxError is the caller's)."""
    return _outline_of(_hooks_source(path), str(path))


@functools.lru_cache(maxsize=8)  # a run asks for names, return types and class members
def _outline_of(source: str, filename: str) -> _Outline:
    return _outlined(ast.parse(source, filename=filename))


def _outlined(tree: ast.Module) -> _Outline:
    names: set[str] = set()
    returns: dict[str, str] = {}
    classes: dict[str, frozenset[str]] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(stmt.name)
            if stmt.returns is not None:
                annotation = stmt.returns
                returns[stmt.name] = str(
                    annotation.value
                    if isinstance(annotation, ast.Constant)
                    else ast.unparse(annotation)
                )
        elif isinstance(stmt, ast.ClassDef):
            names.add(stmt.name)
            classes[stmt.name] = classes.get(stmt.name, frozenset()) | _class_members(
                stmt
            )
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return _Outline(frozenset(names), returns, classes)


def _class_members(node: ast.ClassDef) -> frozenset[str]:
    """Names a class defines (methods, attributes, ``__slots__``)."""
    names: set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(item.name)
        elif isinstance(item, ast.Assign):
            for target in item.targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
                    if target.id == "__slots__" and isinstance(
                        item.value, (ast.Tuple, ast.List)
                    ):
                        names.update(
                            e.value
                            for e in item.value.elts
                            if isinstance(e, ast.Constant) and isinstance(e.value, str)
                        )
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
    return frozenset(names)


def hook_names_in(path: Path) -> frozenset[str]:
    """Top-level names the hooks module defines, read without importing it."""
    return _outline(path).names


def hook_return_types(path: Path) -> dict[str, str]:
    """The return annotation of each top-level function of the hooks module,
    as written (a getter hook's is its property's type, unless the
    annotations give one)."""
    return dict(_outline(path).returns)


def hook_class_members(path: Path, class_name: str) -> frozenset[str]:
    """Names a hooks class defines (methods, attributes, ``__slots__``)."""
    return _outline(path).classes.get(class_name, frozenset())


# ------------------------------------------- members that are not properties
# Environment-backed fields (a field's `env:`), plain attributes, method
# aliases and the class's `environment:` (where env values come from, which
# method exports them): what a hooks module would otherwise hand-write.
