"""Stage 4, what a wrapper class has besides properties: plain attributes,
one-line alias methods and environment-backed fields (the annotations'
``attributes``, ``aliases``, ``env`` and ``environment``), and what a build's
class module defines besides its classes (``module_members``).
"""

from __future__ import annotations

from typing import Protocol

from ..annotations.keys import Annotations, ClassNote
from ..errors import Problem
from ..schema import naming
from ..schema.schema import Field, Message
from . import typeref
from .records import AliasModel, AttributeModel, EnvFieldModel, MembersModel
from .typeref import Spelling, Type, TypeRef


class Builder(Protocol):
    """What the members read of the model's builder (model._Builder, which imports this module)."""

    problems: list[Problem]
    notes: Annotations

    def type_ref(self, f: Field) -> TypeRef: ...

    def annotation_type(self, text: str) -> Type: ...


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
