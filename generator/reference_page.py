"""The Markdown option reference (``<package>.md``): what it shows, resolved.

Built from the model's classes and the builder's field records (``b``: the
model's ``_Builder``, passed in so this module imports no stage above it);
``templates/REFERENCE.md.j2`` only loops and prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .rules import RuleModel


@dataclass(frozen=True, kw_only=True)
class ReferenceKey:
    key: str
    type_text: str
    default_text: str
    doc: str  # the whole doc: a table cell


@dataclass(frozen=True, kw_only=True)
class ReferenceEntry:
    name: str
    type_text: str  # as a user writes it: list[TableParameter], not the stub's container type
    default_text: str | None  # None: no default to state (a property computed by hooks)
    summary: str
    paragraphs: tuple[str, ...]  # the rest of the doc
    member: Any  # the model's Doc: its constraints and notes, what the property says of itself
    example: str | None  # a doctest, shown as a code block
    fence: str  # a code fence longer than any run of backticks in the example
    keys: tuple[ReferenceKey, ...]
    anchor: str


@dataclass(frozen=True, kw_only=True)
class ReferenceClass:
    name: str
    summary: str
    paragraphs: tuple[str, ...]
    example: str | None
    fence: str
    rules: Any  # the model's ClassRules: shared sections, said once per class
    entries: tuple[ReferenceEntry, ...]
    lint_rules: tuple[RuleModel, ...] = ()  # its "Rules" section


_STUB_CONTAINER = re.compile(r"\b_containers\.(Repeated(?:Composite|Scalar)FieldContainer|MessageMap|ScalarMap)\[")
_PB2_PREFIX = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*_pb2\.")


def user_type(expression: str) -> str:
    """A stub's type as a user writes it: protobuf's containers as ``list``
    and ``dict``, message classes without their ``_pb2`` module."""
    spelled = _STUB_CONTAINER.sub(lambda m: "dict[" if m.group(1).endswith("Map") else "list[", expression)
    return _PB2_PREFIX.sub("", spelled)


def code_fence(text: str | None) -> str:
    """A Markdown code fence ``text`` cannot close (longer than any backtick run in it)."""
    runs = [len(run) for run in re.findall(r"`+", text or "")]
    return "`" * max(3, max(runs, default=0) + 1)


def build_reference(b: Any, classes: tuple[Any, ...]) -> tuple[ReferenceClass, ...]:
    """Every class's section of the page (``classes``: the model's ClassModels)."""
    out = []
    for cls in classes:
        message = b.schema.messages[cls.message_full_name]
        entries = []
        for prop in cls.properties:
            keys: tuple[ReferenceKey, ...] = ()
            f = message.field(prop.field_name) if prop.field_name else None
            if f is not None and f.type == "message" and not f.repeated and not b.imported(f.type_name):
                target = b.schema.messages[f.type_name]
                keys = tuple(
                    ReferenceKey(
                        key=x.name,
                        type_text=b.field(target, x).doc_type,
                        default_text=b.field(target, x).default_text,
                        doc=b.field_doc(target, x, b.note(target.full_name, x.name)),
                    )
                    for x in target.fields
                )
            entries.append(
                ReferenceEntry(
                    name=prop.name,
                    type_text=user_type(prop.doc.type_text or prop.getter_type),
                    default_text=prop.doc.default_text,
                    summary=prop.doc.summary,
                    paragraphs=prop.doc.paragraphs,
                    member=prop.doc,
                    example=prop.doc.example,
                    fence=code_fence(prop.doc.example),
                    keys=keys,
                    anchor=f"{cls.name}-{prop.name}".lower(),
                )
            )
        out.append(
            ReferenceClass(
                name=cls.name,
                summary=cls.doc.summary,
                paragraphs=cls.doc.paragraphs,
                example=cls.doc.example,
                fence=code_fence(cls.doc.example),
                rules=cls.doc.rules,
                entries=tuple(entries),
                lint_rules=cls.lint_rules,
            )
        )
    return tuple(out)
