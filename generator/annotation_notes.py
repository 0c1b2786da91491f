"""The annotations format (stage 3, generator.annotations): the notes it
loads into, and every key it has."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .proto_facts import NUMERIC_TYPES
from .rules import RuleNote

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
_ENV_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ENV_TYPES = NUMERIC_TYPES | {"bool", "string"}
_ENV_KEYS = {"variable": str, "read": bool, "type": str}
_ENV_VALUE_TYPES = ("bool", "int", "float", "str")
_ENVIRONMENT_KEYS = {"export": str, "source": str, "doc": str}
_ATTRIBUTE_KEYS = {"default": None, "type": str, "doc": str}
_ALIAS_KEYS = {"field": str, "parameter": str, "convert": str}
_CONVERTERS = ("str",)
