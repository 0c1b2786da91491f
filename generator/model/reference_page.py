"""The Markdown option reference (``<package>.md``): what it shows, resolved
into the model's Reference* records (generator.model_types).

Built from the model's classes and the builder's field records (``b``: the
model's ``_Builder``, passed in as the ``Builder`` protocol so this module
imports no stage above it); ``templates/REFERENCE.md.j2`` only loops and prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

from ..annotations.aliases import is_due, version_key
from ..annotations.keys import Annotations, FieldNote
from ..schema.schema import Field, Message, Schema
from .doctext import code_fence
from .records import (
    ClassModel,
    FieldModel,
    ReferenceAttribute,
    ReferenceClass,
    ReferenceEntry,
    ReferenceKey,
    ReferenceMessage,
    ReferencePage,
    ReferenceRecipe,
    ScheduleRow,
)
from .typeref import Spelling, Type, out_type


class Builder(Protocol):
    """What the page reads of the model's builder (model._Builder, which imports this module)."""

    schema: Schema
    notes: Annotations

    def imported(self, full_name: str | None) -> bool: ...

    def field(self, message: Message, f: Field) -> FieldModel: ...

    def field_doc(self, message: Message, f: Field, note: FieldNote | None) -> str: ...

    def note(self, message: str, field_name: str) -> FieldNote | None: ...

    def annotation_type(self, text: str) -> Type: ...


_ALIAS_WORDS = {"set": "sets", "extend": "extends", "copy": "copies its argument into"}


class _Keys:
    """Key rows of messages, and the sections of the nested messages they link to."""

    def __init__(
        self,
        b: Builder,
        classes: tuple[ClassModel, ...],
        doc_parts: Callable[[str], tuple[str, tuple[str, ...]]],
    ) -> None:
        self.b = b
        self.doc_parts = doc_parts
        # a class's own message links to the class; a config property's message to its table
        self.anchors: dict[str, str] = {
            c.message_full_name: c.name.lower() for c in classes
        }
        for cls in classes:
            message = b.schema.messages[cls.message_full_name]
            for prop in cls.properties:
                f = message.field(prop.field_name) if prop.field_name else None
                # (a message field always names its type: type_name is there for mypy)
                if f and f.type_name and self.expandable(f) and not f.repeated:
                    self.anchors.setdefault(
                        f.type_name, f"{cls.name}-{prop.name}".lower()
                    )
        self.reached: dict[str, list[str]] = (
            {}
        )  # nested message -> paths it is reached through, in order

    def expandable(self, f: Field) -> bool:
        """A field whose value is a message of the schema's (not a map, not an imported type)."""
        return f.type == "message" and not f.is_map and not self.b.imported(f.type_name)

    def value_message(self, f: Field) -> str | None:
        """The local message a field holds (a map's value included), if any."""
        holder = f.map_value if f.map_value is not None else f
        if holder.type == "message" and not self.b.imported(holder.type_name):
            return holder.type_name
        return None

    def row(self, message: Message, f: Field, path: str) -> ReferenceKey:
        """A key's row; a message it holds is queued for a section (reached through ``path``)."""
        record = self.b.field(message, f)
        target = self.value_message(f)
        link = None
        if target is not None:
            link = self.anchors.get(target)
            if link is None:
                link = "message-" + target.replace(".", "-").lower()
                self.reached.setdefault(target, [])
            if target in self.reached and path not in self.reached[target]:
                self.reached[target].append(path)
        return ReferenceKey(
            key=f.name,
            type_text=Spelling("doc")(out_type(record.type)),
            default_text=record.default_text,
            doc=self.b.field_doc(message, f, self.b.note(message.full_name, f.name)),
            link=link,
        )

    def rows(self, message: Message, path: str) -> tuple[ReferenceKey, ...]:
        extras = tuple(
            ReferenceKey(
                key=x.name,
                type_text=Spelling("doc")(self.b.annotation_type(x.type)),
                default_text=None,
                doc=x.doc,
            )
            for x in self.b.notes.extra_keys.get(message.full_name, ())
        )
        return (
            tuple(self.row(message, f, f"{path}.{f.name}") for f in message.fields)
            + extras
        )

    def messages(self) -> tuple[ReferenceMessage, ...]:
        """The queued messages' sections, breadth first (a message's own keys queue more)."""
        done: list[ReferenceMessage] = []
        seen: set[str] = set()
        while len(seen) < len(self.reached):
            full = next(name for name in self.reached if name not in seen)
            seen.add(full)
            message = self.b.schema.messages[full]
            anchor = "message-" + full.replace(".", "-").lower()
            keys = self.rows(message, self.reached[full][0])
            doc = self.b.notes.message_docs.get(full) or message.doc
            summary, paragraphs = (
                self.doc_parts(doc) if doc else (f"The ``{full}`` message.", ())
            )
            done.append(
                ReferenceMessage(
                    name=message.name,
                    full_name=full,
                    anchor=anchor,
                    summary=summary,
                    paragraphs=paragraphs,
                    reached_from=(),
                    keys=keys,
                )
            )
        # every path is known once every section is built (a later message may reach an earlier one)
        return tuple(
            msgspec.structs.replace(m, reached_from=tuple(self.reached[m.full_name]))
            for m in done
        )


def _methods(cls: ClassModel) -> tuple[tuple[str, str], ...]:
    """(signature, what it writes) of each of the class's aliases."""
    return tuple(
        (
            f"{a.name}({a.parameter})",
            f"{_ALIAS_WORDS[a.action]} ``{a.field_name}``"
            + (f" (as ``str({a.parameter})``)" if a.convert else ""),
        )
        for a in cls.members.aliases
    )


def build_reference(
    b: Builder,
    classes: tuple[ClassModel, ...],
    doc_parts: Callable[[str], tuple[str, tuple[str, ...]]],
) -> ReferencePage:
    """The page (``classes``: the model's ClassModels, ``b`` its builder;
    ``doc_parts``: a doc's summary and the rest, laid out as docstrings show them)."""
    rows = _Keys(b, classes, doc_parts)
    out = []
    for cls in classes:
        message = b.schema.messages[cls.message_full_name]
        entries = []
        for prop in cls.properties:
            keys: tuple[ReferenceKey, ...] = ()
            f = message.field(prop.field_name) if prop.field_name else None
            if f and f.type_name and rows.expandable(f) and not f.repeated:
                target = b.schema.messages[f.type_name]
                keys = rows.rows(target, f"{cls.name}.{prop.name}")
            elif f is not None:
                rows.row(
                    message, f, f"{cls.name}.{prop.name}"
                )  # a list of messages: its message gets a section
            entries.append(
                ReferenceEntry(
                    name=prop.name,
                    type_text=prop.doc.type_text
                    or "",  # the signature's type, as the docs spell it
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
        with_property = {p.field_name for p in cls.properties if p.field_name}
        note = next((c for c in b.notes.classes if c.name == cls.name), None)
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
                attributes=tuple(
                    ReferenceAttribute(
                        name=a.name,
                        type_text=a.type,
                        default_text=repr(a.default),
                        doc=a.doc or "",
                    )
                    for a in cls.members.attributes
                ),
                methods=_methods(cls),
                fields=tuple(
                    rows.row(message, f, f"{cls.name}.{cls.message_attribute}.{f.name}")
                    for f in message.fields
                    if f.name not in with_property
                ),
                recipes=tuple(
                    ReferenceRecipe(
                        title=r.title,
                        doc=r.doc,
                        example=r.example,
                        fence=code_fence(r.example),
                    )
                    for r in (note.recipes if note else ())
                ),
            )
        )
    return ReferencePage(
        classes=tuple(out),
        messages=rows.messages(),
        schedule=_schedule(b.notes),
        version=b.notes.version,
    )


def _schedule(notes: Annotations) -> tuple[ScheduleRow, ...]:
    """Every old name and deprecation, by the version they go away in (never: last)."""
    rows = [
        ScheduleRow(
            setting=f"{message}.{r.old}",
            kind="renamed",
            what=name,
            since=r.since,
            removed_in=r.removed_in,
            due=is_due(r.removed_in, notes.version),
        )
        for message, fields in notes.messages.items()
        for name, note in fields.items()
        for r in note.renamed_from
    ] + [
        ScheduleRow(
            setting=f"{message}.{name}",
            kind="deprecated",
            what=note.deprecated.message,
            since=note.deprecated.since,
            removed_in=note.deprecated.removed_in,
            due=is_due(note.deprecated.removed_in, notes.version),
        )
        for message, fields in notes.messages.items()
        for name, note in fields.items()
        if note.deprecated
    ]
    return tuple(
        sorted(
            rows,
            key=lambda r: (
                r.removed_in is None,
                version_key(r.removed_in or ""),
                r.setting,
            ),
        )
    )
