"""Stage 4, what a wrapper class has besides properties: plain attributes,
one-line alias methods and environment-backed fields (the annotations'
``attributes``, ``aliases``, ``env`` and ``environment``), and what a build's
class module defines besides its classes (``module_members``).
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from . import naming, typeref
from .annotations import Annotations, ClassNote
from .errors import Problem
from .schema import Field, Message
from .typeref import Spelling, Type, TypeRef


class Builder(Protocol):
    """What the members read of the model's builder (model._Builder, which imports this module)."""

    problems: list[Problem]
    notes: Annotations

    def type_ref(self, f: Field) -> TypeRef: ...

    def annotation_type(self, text: str) -> Type: ...


class AttributeModel(msgspec.Struct, frozen=True, kw_only=True):
    """A plain instance attribute: a slot set to a fresh ``default`` per instance."""

    name: str
    default: object  # a Python literal value (the template spells it with pyrepr)
    type: str
    doc: str | None


class AliasModel(msgspec.Struct, frozen=True, kw_only=True):
    """A one-line method writing one field as protobuf does."""

    name: str
    parameter: str
    parameter_type: str
    field_name: str
    action: str  # set | extend (repeated) | copy (message: CopyFrom)
    convert: str | None  # "str": str(value) is stored


class EnvFieldModel(msgspec.Struct, frozen=True, kw_only=True):
    variable: str
    field_name: str
    read: bool  # read when an instance is created, where set
    kind: (
        str | None
    )  # the variable's kind (runtime kinds: bool int float str) when not the field's


class MembersModel(msgspec.Struct, frozen=True, kw_only=True):
    """What a class has besides properties: plain attributes, aliases, env-backed fields."""

    attributes: tuple[AttributeModel, ...] = ()
    aliases: tuple[AliasModel, ...] = ()
    env_fields: tuple[EnvFieldModel, ...] = ()
    env_export: str | None = (
        None  # the generated method exporting the env-backed fields
    )
    env_export_doc: str | None = None
    env_source: str | None = (
        None  # hook: a mapping of flags to use instead of os.environ, or None
    )

    @property
    def env_read(self) -> bool:
        return any(e.read for e in self.env_fields)

    @property
    def init(self) -> bool:
        """Something to do when an instance is created (a generated init function)."""
        return self.env_read or bool(self.attributes)


def _alias_models(
    b: Builder, cls: ClassNote, message: Message, spell: Spelling
) -> tuple[AliasModel, ...]:
    """The class's aliases: one-line methods writing a field as protobuf does."""
    aliases = []
    for alias in cls.aliases:
        f = message.field(alias.field)
        assert f is not None  # checked with the annotations
        ref = b.type_ref(f)
        item = ref.item or ref
        value = Type(item.pb2) if item.is_message else typeref.scalar(item)
        if alias.convert:
            action, parameter = "set", typeref.builtin("object")
        elif f.repeated:
            action, parameter = "extend", typeref.sequence_of(value)
        else:
            action, parameter = "copy" if f.type == "message" else "set", value
        parameter_type = spell(parameter)
        aliases.append(
            AliasModel(
                name=alias.name,
                parameter=alias.parameter,
                parameter_type=parameter_type,
                field_name=f.name,
                action=action,
                convert=alias.convert,
            )
        )
    return tuple(aliases)


def members_model(
    b: Builder,
    cls: ClassNote,
    message: Message,
    hook_members: frozenset[str],
    property_names: set[str],
    spell: Spelling,
) -> MembersModel:
    """The class's attributes, aliases and env-backed fields; a name another
    member of the class already has is a problem naming the annotation line."""
    taken = (
        property_names
        | set(hook_members)
        | set(naming.WRAPPER_MEMBERS)
        | {cls.message_attribute}
    )
    for name, line in (
        [(a.name, a.line) for a in cls.attributes]
        + [(a.name, a.line) for a in cls.aliases]
        + (
            [(cls.environment.export, cls.environment.line)]
            if cls.environment and cls.environment.export
            else []
        )
    ):
        if name in taken:
            owner = (
                "the hooks class " + cls.mixin
                if name in hook_members and cls.mixin
                else "a property or member"
            )
            b.problems.append(
                Problem(
                    f"classes.{cls.name}: {name!r} is already {owner} of {cls.name}",
                    b.notes.path,
                    line,
                    hint="rename it, or remove the other definition",
                )
            )
    aliases = _alias_models(b, cls, message, spell)
    notes = b.notes.messages.get(message.full_name, {})
    env_fields = tuple(
        EnvFieldModel(
            variable=n.env.variable, field_name=f.name, read=n.env.read, kind=n.env.type
        )
        for f in message.fields
        if (n := notes.get(f.name)) is not None and n.env is not None
    )
    env = cls.environment
    return MembersModel(
        attributes=tuple(
            AttributeModel(
                name=a.name,
                default=a.default,
                type=spell(b.annotation_type(a.type)),
                doc=a.doc,
            )
            for a in cls.attributes
        ),
        aliases=aliases,
        env_fields=env_fields,
        env_export=env.export if env else None,
        env_export_doc=env.doc if env else None,
        env_source=env.source if env else None,
    )


class ModuleMembersModel(msgspec.Struct, frozen=True, kw_only=True):
    """What a build's class module defines besides its classes (a target's
    ``module_members``): names imported from a hand-written module the build
    carries, module-level variables, and the module's ``__all__``."""

    module: str  # the class module, dotted inside the classes' package
    source: (
        str | None
    )  # the hand-written module the names come from (copied into the build's package)
    names: tuple[str, ...]
    attributes: tuple[AttributeModel, ...]
    exports: tuple[str, ...] | None  # __all__ (None: the module's classes)
