"""Stage 4: schema + annotations -> the API to emit, fully resolved.

Everything templates print is decided here, in one pass, into frozen
records (msgspec Structs): names (after the renaming rule), Python types, docstring text,
validation specs and hook references. Templates only loop and print.
"""

from __future__ import annotations

from collections.abc import Iterable

import re

import msgspec

from ..annotations.keys import (
    Annotations,
    ClassNote,
    ExtraProperty,
    FieldNote,
    ModuleMembersNote,
    member_names,
)
from ..annotations.rules import RuleModel, rule_models
from ..errors import GeneratorError, Problem, closest
from ..schema import naming
from ..schema.proto_facts import INT_BOUNDS, PY_SCALAR, finite_only, plain_number
from ..schema.schema import Enum, Field, Message, Schema, default_text
from . import typeref
from .doctext import doc_layout, doc_parts, first_sentence, rst_table
from .json_schema import json_schemas
from .members import members_model
from .records import (
    AttributeModel,
    ClassModel,
    EnumModel,
    ModuleMembersModel,
    ClassRules,
    DeprecatedModel,
    Doc,
    FieldModel,
    Header,
    PackageModel,
    PolicyModel,
    PropertyKind,
    PropertyModel,
    PropertyRead,
    RenamedModel,
    SpecOverrides,
    Target,
    TypedDictKey,
    TypedDictModel,
    standalone_target,
    target_imports,
)
from .reference_page import build_reference
from .stubs import Stubs, pb2_imports
from .typeref import Spelling, Sym, Type, TypeRef


class _Builder:
    def __init__(self, schema: Schema, notes: Annotations, package: str) -> None:
        self.schema = schema
        self.notes = notes
        self.class_policy = {c.message: c.compat for c in notes.classes}
        # no reference named: the classes are Records, the enums enum classes
        self.record = notes.reference is None
        self.class_of = {c.message: c for c in notes.classes}
        self._fields: dict[tuple[str, str], FieldModel] = {}
        self.undocumented: list[str] = []
        self.problems: list[Problem] = []
        self.imports = pb2_imports(schema, package)
        self.module_of_file = {f: record.alias for f, record in self.imports.items()}
        # what a type in the annotations may name: the pb2 modules and everything types.py defines
        self.annotation_names = {
            r.alias: Sym("pb2", r.alias, "") for r in self.imports.values()
        }
        self.annotation_names.update(
            (name, Sym("types", "", name))
            for name in [
                naming.enum_literal_name(e.flat) for e in schema.enums.values()
            ]
            + [
                n
                for m in schema.messages.values()
                if not m.is_map_entry
                for n in naming.typed_dict_names(m.flat)
            ]
        )
        self._children_index: (
            tuple[
                dict[tuple[str, str], list[Message]], dict[tuple[str, str], list[Enum]]
            ]
            | None
        ) = None

    # -- names and types ----------------------------------------------------

    def pb2_path(self, full_name: str) -> tuple[str, str]:
        """(pb2 module alias, attribute path) of a message or enum."""
        item = self.schema.messages.get(full_name) or self.schema.enums.get(full_name)
        if item is None:
            file, local = self.schema.imported_messages[full_name]
            return self.module_of_file[file], local
        return self.module_of_file[item.file], item.name

    def pb2_expr(self, full_name: str) -> str:
        module, path = self.pb2_path(full_name)
        return f"{module}.{path}"

    def imported(self, full_name: str | None) -> bool:
        """A message type of a file this package does not generate (a well-known type)."""
        return full_name in self.schema.imported_messages

    def local(self, full_name: str) -> str:
        item = self.schema.messages.get(full_name) or self.schema.enums[full_name]
        return item.name

    def flat(self, full_name: str) -> str:
        """The flat name module-level Python names of a type are built from."""
        item = self.schema.messages.get(full_name) or self.schema.enums[full_name]
        return item.flat

    def pb2_sym(self, full_name: str) -> Sym:
        return Sym("pb2", *self.pb2_path(full_name))

    def type_ref(self, f: Field) -> TypeRef:
        """The field's type as a structure (typeref renders it per audience)."""
        if f.is_map:
            assert f.map_key is not None and f.map_value is not None
            return TypeRef(
                kind="map",
                proto="map",
                key=self.type_ref(f.map_key),
                item=self.type_ref(f.map_value),
            )
        if f.type not in ("message", "enum"):
            item = TypeRef(kind="scalar", proto=f.type)
        else:
            name = f.type_name or ""
            imported = self.imported(name)
            flat = "" if imported else self.flat(name)
            item = TypeRef(
                kind=f.type,
                proto=f.type,
                full_name=name,
                local=name if imported else self.local(name),
                pb2=self.pb2_sym(name),
                typed_dicts=(
                    naming.typed_dict_names(flat)
                    if f.type == "message" and not imported
                    else None
                ),
                literal=naming.enum_literal_name(flat) if f.type == "enum" else None,
            )
        return TypeRef(kind="list", proto=item.proto, item=item) if f.repeated else item

    def annotation_type(self, text: str) -> Type:
        """A type expression of the annotations, its names resolved."""
        return typeref.parse_annotation(text, self.annotation_names)

    def field_doc(self, message: Message, f: Field, note: FieldNote | None) -> str:
        if note and note.doc:
            return note.doc
        if f.doc:
            return f.doc
        path = f"{message.full_name}.{f.name}"
        self.undocumented.append(path)
        return f"The ``{f.name}`` field of ``{message.full_name}`` (undocumented)."

    def note(self, message: str, field_name: str) -> FieldNote | None:
        return self.notes.messages.get(message, {}).get(field_name)

    def policy_model(self, name: str | None) -> PolicyModel | None:
        """A compat policy of the annotations, as the docs state it (None: none)."""
        if not name:
            return None
        p = self.notes.compat_policies[name]
        return PolicyModel(action=p.action, error=p.error, message=p.message)

    # -- fields -------------------------------------------------------------

    def field(self, message: Message, f: Field) -> FieldModel:
        """The one resolved record of a field (built on first use)."""
        key = (message.full_name, f.name)
        found = self._fields.get(key)
        if found is not None:
            return found
        note = self.note(message.full_name, f.name)
        class_policy = self.class_policy.get(message.full_name)
        policy = policy_message = None
        if not f.repeated and f.type != "message":
            policy = (note.compat if note and note.compat else None) or class_policy
            policy_message = (
                note.compat_message if policy and note and note.compat_message else None
            )
        record = self._fields[key] = FieldModel(
            message=message.full_name,
            name=f.name,
            type=self.type_ref(f),
            default_text=default_text(self.schema, f),
            doc=((note.doc if note and note.doc else None) or f.doc).strip(),
            policy=policy,
            policy_message=policy_message,
            class_policy=class_policy,
            append=bool(note and note.repeated == "append"),
            allow_nonfinite=bool(note and note.allow_nonfinite),
            constraint=note.constraint if note else None,
            constraint_always=bool(
                note and note.constraint and note.enforce_constraint == "always"
            ),
            choices=note.choices if note else None,
        )
        return record

    def overrides(self, fields: tuple[FieldModel, ...]) -> SpecOverrides:
        """What ``_specs`` states: each class-wide policy once, then the fields with their own."""
        own = tuple(f for f in fields if f.own_policy or f.overrides)
        used = {f.policy for f in own if f.own_policy} | {
            c.compat for c in self.notes.classes if c.compat
        }
        return SpecOverrides(
            policies=tuple(
                (name, p)
                for name in self.notes.compat_policies
                if name in used
                for p in [self.policy_model(name)]
                if p
            ),
            class_policies=tuple(
                (c.message, c.compat) for c in self.notes.classes if c.compat
            ),
            fields=own,
            renamed=tuple(
                r
                for message, notes in self.notes.messages.items()
                for name, note in notes.items()
                for r in renamed_models(message, name, note)
            ),
            deprecated=tuple(
                d
                for message, notes in self.notes.messages.items()
                for name, note in notes.items()
                if (d := deprecated_model(message, name, note)) is not None
            ),
        )

    # -- typed dicts ----------------------------------------------------------

    def typed_dict(self, message: Message, spell: Spelling) -> TypedDictModel:
        """``message``'s TypedDicts; ``spell``: types.py's spelling (it records the imports)."""
        out_name, in_name = naming.typed_dict_names(message.flat)
        extras = self.notes.extra_keys.get(
            message.full_name, ()
        )  # the input TypedDict's only
        renamed = [
            (r, f.name)
            for f in message.fields
            for note in [self.note(message.full_name, f.name)]
            for r in (note.renamed_from if note else ())
        ]
        names = (
            [f.name for f in message.fields]
            + [x.name for x in extras]
            + [r.old for r, _ in renamed]
        )
        functional = naming.needs_functional_typed_dict(names)
        # a class body's keys shadow the builtins (and aliases) they are named after; only the printed form records imports
        body = Spelling(
            "code",
            shadowed=frozenset(names),
            in_types=True,
            imports=set() if functional else spell.imports,
        )
        module = spell if functional else Spelling("code", in_types=True)
        keys = []
        for r in (self.field(message, f) for f in message.fields):
            out, accepted = typeref.out_type(r.type), typeref.in_type(r.type)
            keys.append(
                TypedDictKey(
                    key=r.name,
                    out_type=module(out),
                    in_type=module(accepted),
                    out_annotation=body(out),
                    in_annotation=body(accepted),
                    doc="\n\n".join(doc_layout(r.doc)),
                )
            )
        extra_keys = tuple(
            TypedDictKey(
                key=x.name,
                out_type=module(t),
                in_type=module(t),
                out_annotation=body(t),
                in_annotation=body(t),
                doc="\n\n".join(doc_layout(x.doc)),
            )
            for x in extras
            for t in [self.annotation_type(x.type)]
        ) + tuple(
            msgspec.structs.replace(
                key,
                key=r.old,
                doc=f"Deprecated: use ``{new}`` (renamed in {r.since}"
                + (
                    f"; the old name goes away in {r.removed_in})."
                    if r.removed_in
                    else ")."
                ),
            )
            for r, new in renamed
            for key in keys
            if key.key == new
        )
        return TypedDictModel(
            extra_keys=extra_keys,
            full_name=message.full_name,
            out_name=out_name,
            in_name=in_name,
            keys=tuple(keys),
            doc="\n\n".join(
                doc_layout(
                    self.notes.message_docs.get(message.full_name) or message.doc
                )
            ),
            functional=functional,
        )

    def key_table(self, message: Message) -> tuple[str, ...]:
        rows = [
            (
                f.name,
                Spelling("doc")(typeref.out_type(self.field(message, f).type)),
                self.field(message, f).default_text,
                " ".join(
                    [
                        *_field_marks(f),
                        *_note_marks(self.note(message.full_name, f.name)),
                        first_sentence(
                            self.field_doc(
                                message, f, self.note(message.full_name, f.name)
                            )
                        ),
                    ]
                ),
            )
            for f in message.fields
        ]
        if not rows:
            return ()
        return rst_table(("key", "type", "default", "meaning"), rows)

    def keys_in_full(self, message: Message) -> str | None:
        """The input TypedDict of ``message`` when a key's table cell (its
        first sentence) does not say all of its doc: that TypedDict's keys
        carry every doc whole, so the property's docs point there."""
        for f in message.fields:
            text = self.field(message, f).doc
            if " ".join(text.split()) != first_sentence(text):
                return naming.typed_dict_names(message.flat)[1]
        return None

    # -- pb2 / pyi ------------------------------------------------------------

    # -- wrapper classes ------------------------------------------------------

    def enum_model(self, enum: Enum) -> EnumModel:
        note = self.notes.enums.get(enum.full_name)
        _, path = self.pb2_path(enum.full_name)
        values = tuple(
            (v.name, v.number, (note.values.get(v.name) if note else None) or v.doc)
            for v in enum.values
        )
        module, class_name, owner = "", "", None
        # a value named by a Python keyword (``None``) cannot be a member: no class
        if self.record and all(naming.is_plain_attribute(v.name) for v in enum.values):
            module = ".".join(naming.module_path_for_proto(enum.file))
            parent = self.class_of.get(enum.full_name.rpartition(".")[0])
            local = enum.name.rpartition(".")[2]
            taken = {*naming.WRAPPER_MEMBERS, *naming.CLASS_BODY_NAMES}
            if (
                parent is not None
            ):  # the names its parent's body binds (protoc refuses a field's)
                taken |= {parent.message_attribute, *member_names(parent)}
                taken |= {p.name for p in parent.extra_properties}
                notes = self.notes.messages.get(parent.message, {}).values()
                taken |= {note.property for note in notes if note.property}
            if parent is not None and "." in enum.name and local not in taken:
                class_name, owner = local, parent.name
            else:
                class_name = enum.flat
        return EnumModel(
            module=module,
            class_name=class_name,
            owner=owner,
            full_name=enum.full_name,
            pb2_path=path,
            literal_name=naming.enum_literal_name(enum.flat),
            values=values,
            doc=first_sentence((note.doc if note and note.doc else None) or enum.doc)
            or f"Names of ``{enum.full_name}``.",
            stub_doc=((note.doc if note and note.doc else None) or enum.doc).strip(),
        )

    def class_spelling(
        self, cls: ClassNote, message: Message, reserved: set[str]
    ) -> Spelling:
        """How the class's module spells types inside its body: a builtin one
        of its members is named after (a property ``int``) as ``_builtins.int``."""
        names = {
            cls.message_attribute,
            "lint",
            *member_names(cls),
            *(p.name for p in cls.extra_properties),
        }
        for f in message.fields:
            note = self.note(message.full_name, f.name)
            names.add(
                note.property
                if note and note.property
                else naming.python_member_name(f.name, reserved)
            )
        return Spelling("code", shadowed=frozenset(names))

    def field_properties(
        self, cls: ClassNote, message: Message, reserved: set[str], spell: Spelling
    ) -> list[PropertyModel]:
        properties: list[PropertyModel] = []
        used: dict[str, str] = {}
        for f in message.fields:
            note = self.note(message.full_name, f.name)
            if note and note.hidden:
                self.field_doc(message, f, note)  # still counted for documentation
                continue
            name = (
                note.property
                if note and note.property
                else naming.python_member_name(f.name, reserved)
            )
            if name in used:
                self.problems.append(
                    Problem(
                        f"{message.full_name}.{f.name}: property name {name!r} is already used by field {used[name]!r}",
                        self.notes.path,
                        note.line if note else None,
                        hint="set 'property:' to another name in the annotations",
                    )
                )
                continue
            if (
                not naming.is_identifier(name)
                or name in naming.WRAPPER_MEMBERS
                or name == cls.message_attribute
            ):
                self.problems.append(
                    Problem(
                        f"{message.full_name}.{f.name}: property name {name!r} is not usable on class {cls.name}",
                        self.notes.path,
                        note.line if note else None,
                    )
                )
                continue
            used[name] = f.name
            properties.append(self.field_property(message, f, note, name, spell))
        return properties

    def extra_property(self, extra: ExtraProperty, spell: Spelling) -> PropertyModel:
        """A property only hooks implement (annotations: extra_properties)."""
        summary, paragraphs = doc_parts(extra.doc)
        getter = self.annotation_type(extra.type)
        return PropertyModel(
            name=extra.name,
            field_name=None,
            kind="hook",
            getter_type=spell(getter),
            setter_type=(
                spell(self.annotation_type(extra.setter_type or extra.type))
                if extra.setter
                else None
            ),
            read="direct",
            fast_type=None,
            getter_hook=extra.getter,
            setter_hook=extra.setter,
            after_set_hook=None,
            doc=Doc(
                summary=summary,
                paragraphs=paragraphs,
                type_text=Spelling("doc")(getter),
                example=extra.example,
            ),
        )

    def class_model(self, cls: ClassNote, hook_members: frozenset[str]) -> ClassModel:
        message = self.schema.messages[cls.message]
        reserved = (
            set(naming.WRAPPER_MEMBERS) | {cls.message_attribute} | set(hook_members)
        )
        reserved |= {p.name for p in cls.extra_properties} | member_names(cls)
        lint = any(r.message == cls.message for r in self.notes.rules)
        if lint:
            reserved.add("lint")  # the class's lint() method
        spell = self.class_spelling(cls, message, reserved)
        properties = self.field_properties(cls, message, reserved, spell)
        properties += [
            self.extra_property(extra, spell) for extra in cls.extra_properties
        ]
        doc_text = (
            cls.doc or self.notes.message_docs.get(message.full_name) or message.doc
        )
        summary, paragraphs = doc_parts(
            doc_text or f"Typed view of ``{message.full_name}``."
        )
        rules = ClassRules(
            policy=self.policy_model(cls.compat),
            scalars=any(p.kind == "scalar" for p in properties),
            # a property of a message field (dict or message view) takes a dict, as the section says
            configs=any(
                p.field_name
                and (f := message.field(p.field_name)) is not None
                and f.type == "message"
                and not f.repeated
                and not self.imported(f.type_name)
                for p in properties
            ),
            defaults=any(p.field_name for p in properties),
            reference=self.notes.reference,
            differences=self.notes.differences,
            member_differences=self.member_differences(
                cls, {p.name for p in properties} | set(hook_members)
            ),
        )
        members = members_model(
            self, cls, message, hook_members, {p.name for p in properties}, spell
        )
        lint_types = (
            (
                spell(typeref.union(typeref.builtin("int"), typeref.NONE)),
                spell(
                    Type(
                        Sym("builtin", "", "list"),
                        (Type(Sym("verbatim", "", "_lint.Finding")),),
                    )
                ),
            )
            if lint
            else ("", "")
        )
        message_cls = spell(Type(self.pb2_sym(message.full_name)))
        init_params = tuple(
            (p.name, f"{p.setter_type} | None")
            for p in properties
            if self.record and p.field_name and p.setter_type
        )
        return ClassModel(
            record=self.record,
            init_params=init_params,
            strict_type=spell(typeref.union(typeref.builtin("bool"), typeref.NONE)),
            name=cls.name,
            module=".".join(naming.module_path_for_proto(message.file)),
            message_cls=message_cls,
            lint_types=lint_types,
            imports=tuple(sorted(spell.imports, key=repr)),
            message_full_name=message.full_name,
            message_attribute=cls.message_attribute,
            mixin=cls.mixin,
            init_hook=cls.init_hook,
            empty_config_sets=cls.empty_config == "set",
            properties=tuple(properties),
            members=members,
            doc=Doc(
                summary=summary, paragraphs=paragraphs, example=cls.example, rules=rules
            ),
        )

    def member_differences(
        self, cls: ClassNote, members: set[str]
    ) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The annotations' member differences that name ``cls`` or one of its
        members (``members``: its properties and hook members; the rest are
        the annotations' attributes, aliases and env export, and the runtime's)."""
        known = (
            members
            | member_names(cls)
            | set(naming.WRAPPER_MEMBERS)
            | {cls.message_attribute}
        )
        found = []
        for entry in self.notes.member_differences:
            mine = []
            for path in entry.of:
                owner, _, member = path.partition(".")
                if owner != cls.name:
                    continue
                if member and member not in known:
                    guess = closest(member, known)
                    self.problems.append(
                        Problem(
                            f"reference.differences.members.{entry.name}: {cls.name} has no member {member!r}",
                            self.notes.path,
                            entry.line,
                            hint=f"did you mean {guess!r}?" if guess else None,
                        )
                    )
                mine.append(member)
            if mine:
                found.append((tuple(mine), entry.text))
        return tuple(found)

    def property_types(
        self, f: Field, record: FieldModel, view: str
    ) -> tuple[PropertyKind, PropertyRead, Type, Type]:
        """A field property's kind, how its getter reads, and its getter's and setter's types."""
        ref = record.type
        if (
            f.type == "message"
            and not f.repeated
            and not self.imported(f.type_name)
            and view == "dict"
        ):
            assert ref.typed_dicts is not None
            getter = Type(Sym("types", "", ref.typed_dicts[0]))
            return "config", "view", getter, typeref.in_type(ref, config_dict=True)
        if f.type == "message" and not f.repeated:
            # a well-known type, or a message view: the message itself; a dict sets its fields
            return (
                "message",
                "direct",
                typeref.out_type(ref),
                typeref.in_type(ref, config_dict=True),
            )
        if f.repeated and f.type == "message" and not f.is_map:
            return "repeated", "direct", typeref.stub_get(ref), typeref.in_type(ref)
        if f.repeated:
            return (
                "repeated",
                "dict" if f.is_map else "list",
                typeref.out_type(ref),
                typeref.in_type(ref),
            )
        return "scalar", "direct", typeref.out_type(ref), typeref.in_type(ref)

    def scalar_limits(self, f: Field, note: FieldNote | None) -> dict[str, object]:
        """What a scalar's docs say it must be (Doc's constraint fields)."""
        limits: dict[str, object] = {}
        if note and note.constraint:
            op, bound = note.constraint
            limits["constraint"] = (op, plain_number(bound))
            limits["constraint_always"] = note.enforce_constraint == "always"
        if note and note.choices:
            limits["choices"] = note.choices
        if f.type in INT_BOUNDS:
            limits["int_range"] = (f.type, *INT_BOUNDS[f.type])
        limits["finite"] = finite_only(f.type, bool(note and note.allow_nonfinite))
        return limits

    def field_property(
        self,
        message: Message,
        f: Field,
        note: FieldNote | None,
        name: str,
        spell: Spelling,
    ) -> PropertyModel:
        """The property of field ``f``; ``spell``: its class's spelling of types."""
        record = self.field(message, f)
        summary, paragraphs = doc_parts(self.field_doc(message, f, note))
        kind, read, getter, setter = self.property_types(
            f, record, (note.view if note else None) or "dict"
        )
        policy = None
        appended: list[str] = []
        limits: dict[str, object] = {}
        table: tuple[str, ...] = ()
        keys_in_full: str | None = None
        if kind in ("config", "message") and not self.imported(f.type_name):
            target = self.schema.messages[f.type_name or ""]
            table, keys_in_full = self.key_table(target), self.keys_in_full(target)
            # the rules of assigning a dict are the class's (said once); appending is this key's own
            appended = [x.name for x in target.fields if self.field(target, x).append]
        if kind == "scalar":
            if (
                record.policy != record.class_policy
            ):  # the class's policy: said once, by the class
                policy = self.policy_model(record.policy)
            limits = self.scalar_limits(f, note)
        doc_getter = getter
        value_class = None
        if self.record and not (note and (note.getter or note.type)):
            read, getter, setter, value_class = self.record_types(
                message, f, record.type, read, getter, setter
            )
            if read == "record":  # its class, not the dict view
                doc_getter = getter
        if note and note.type:
            getter = doc_getter = self.annotation_type(note.type)
        if note and note.setter_type:
            setter = self.annotation_type(note.setter_type)
        fast_type = None
        if (
            kind == "scalar"
            and f.type != "enum"
            and not (note and note.constraint and note.enforce_constraint == "always")
        ):
            fast_type = PY_SCALAR[f.type]
        doc = Doc(
            summary=summary,
            paragraphs=paragraphs,
            type_text=Spelling("doc")(
                doc_getter
            ),  # the signature's type, spelled for the docs
            default_text=record.default_text,
            **limits,  # type: ignore[arg-type]
            table=table,
            keys_in_full=keys_in_full,
            example=note.example if note else None,
            deprecated=f.deprecated,
            required=f.label == "required",
            json_name=f.json_name or None,
            policy=policy,
            appended=tuple(appended),
            proto_field=f.name if name != f.name else None,
            environment=(
                note.env.variable if note and note.env and note.env.read else None
            ),
            renamed_from=tuple(
                (r.old, r.since, r.removed_in)
                for r in (note.renamed_from if note else ())
            ),
            deprecation=(
                (
                    note.deprecated.message,
                    note.deprecated.since,
                    note.deprecated.removed_in,
                )
                if note and note.deprecated
                else None
            ),
        )
        return PropertyModel(
            name=name,
            field_name=f.name,
            kind=kind,
            getter_type=spell(getter),
            setter_type=spell(setter),
            read=read,
            via_getattr=not naming.is_plain_attribute(f.name)
            or f.deprecated
            or f.name in naming.MESSAGE_MEMBERS,
            fast_type=fast_type,
            getter_hook=note.getter if note else None,
            setter_hook=note.setter if note else None,
            after_set_hook=note.after_set if note else None,
            doc=doc,
            deprecated=f.deprecated,
            value_class=value_class,
            renamed=renamed_models(message.full_name, f.name, note, name),
            deprecation=deprecated_model(message.full_name, f.name, note),
        )

    def local_class(self, message: Message, full_name: str | None) -> str | None:
        """The name of the class wrapping ``full_name`` when it is in the module
        of ``message``'s class (its code names it without an import)."""
        target = self.class_of.get(full_name or "")
        if target is None:
            return None
        item = self.schema.messages[target.message]
        return target.name if item.file == message.file else None

    def record_types(
        self,
        message: Message,
        f: Field,
        ref: TypeRef,
        read: PropertyRead,
        getter: Type,
        setter: Type,
    ) -> tuple[PropertyRead, Type, Type, str | None]:
        """A Record's field: an enum read as its enum class's member, repeated
        and map message fields as live views of their class, and a class's
        instance taken wherever its message is (types of this module only)."""
        if f.type == "enum" and not f.is_map:
            enum = self.schema.enums.get(f.type_name or "")
            model = self.enum_model(enum) if enum is not None else None
            if model is not None and model.module == ".".join(
                naming.module_path_for_proto(message.file)
            ):
                name = (
                    f"{model.owner}.{model.class_name}"
                    if model.owner
                    else model.class_name
                )
                member = Type(Sym("verbatim", "", name), detail=getter.detail)
                if f.repeated:
                    return (
                        "enum_list",
                        Type(Sym("builtin", "", "list"), (member,)),
                        setter,
                        name,
                    )
                return "enum", member, setter, name
            return read, getter, setter, None
        item = ref.item if f.is_map else (ref.item if f.repeated else ref)
        value = self.local_class(
            message, f.map_value.type_name if f.map_value else f.type_name
        )
        if item is None or not item.is_message or value is None:
            return read, getter, setter, None
        wrapper = Type(Sym("verbatim", "", value))
        if f.is_map:
            assert ref.key is not None and f.map_key is not None
            view = Type(
                Sym("verbatim", "", "_runtime.MessageMap"),
                (typeref.scalar(ref.key), wrapper),
            )
            return "message_map", view, typeref.in_type(ref, wrapper=wrapper), value
        if f.repeated:
            view = Type(Sym("verbatim", "", "_runtime.MessageList"), (wrapper,))
            return "message_list", view, typeref.in_type(ref, wrapper=wrapper), value
        return "record", wrapper, typeref.in_type(ref, wrapper=wrapper), value


def _nested_paths(classes: tuple[ClassModel, ...]) -> tuple[ClassModel, ...]:
    """A compact Record's declarations name a nested class by its path
    (``Order.Item``), not its flat alias: the alias is assigned after the
    class, and pyright, building the constructor from the declarations,
    would meet it before it is defined."""
    paths = {
        flat: path for c in classes for flat, path in c.flat_aliases
    }  # (one module's classes share these names: a flat name is unique in it)
    if not paths:
        return classes
    flat_name = re.compile(
        r"(?<![\w.])(" + "|".join(map(re.escape, paths)) + r")(?!\w)"
    )

    def spelled(text: str) -> str:
        return flat_name.sub(lambda m: paths[m.group(1)], text)

    return tuple(
        (
            msgspec.structs.replace(
                c,
                properties=tuple(
                    msgspec.structs.replace(
                        p,
                        getter_type=spelled(p.getter_type),
                        setter_type=p.setter_type and spelled(p.setter_type),
                    )
                    for p in c.properties
                ),
            )
            if c.compact
            else c
        )
        for c in classes
    )


def _nested(classes: tuple[ClassModel, ...]) -> tuple[ClassModel, ...]:
    """A nested message's class defined in its parent's class (``Order.Item``)
    where it can be: its parent has a class in the same module, it needs no
    module-level function (an init or environment hook), and its name is not
    one of its parent's members. Each module-level class lists the flat names
    of the classes nested in it, kept as aliases (what earlier packages exported)."""
    by_message = {c.message_full_name: c for c in classes}
    parent_of: dict[str, ClassModel] = {}
    for c in classes:
        parent = by_message.get(c.message_full_name.rpartition(".")[0])
        local = c.message_full_name.rpartition(".")[2]
        if (
            parent is None
            or parent.module != c.module
            or c.members.init
            or c.members.env_fields
            or local
            in {
                parent.message_attribute,
                *naming.WRAPPER_MEMBERS,
                *(p.name for p in parent.properties),
                *(e.class_name for e in parent.enums),
                *(a.name for a in parent.members.attributes),
                *(a.name for a in parent.members.aliases),
            }
        ):
            continue
        parent_of[c.name] = parent

    def path(c: ClassModel) -> str:
        parent = parent_of.get(c.name)
        local = c.message_full_name.rpartition(".")[2]
        return f"{path(parent)}.{local}" if parent else c.name

    def top(c: ClassModel) -> str:
        parent = parent_of.get(c.name)
        return top(parent) if parent else c.name

    aliases: dict[str, list[tuple[str, str]]] = {}
    for c in classes:
        if c.name in parent_of:
            aliases.setdefault(top(c), []).append((c.name, path(c)))
    return tuple(
        msgspec.structs.replace(
            c,
            nested_in=parent_of[c.name].name if c.name in parent_of else None,
            local_name=(
                c.message_full_name.rpartition(".")[2] if c.name in parent_of else ""
            ),
            qualname=path(c) if c.name in parent_of else "",
            flat_aliases=tuple(aliases.get(c.name, ())),
        )
        for c in classes
    )


def renamed_models(
    message: str, field: str, note: FieldNote | None, prop: str | None = None
) -> tuple[RenamedModel, ...]:
    """A field's old names (``prop``: its property, which old properties forward to)."""
    return tuple(
        RenamedModel(
            message=message,
            old=r.old,
            new=field,
            since=r.since,
            removed_in=r.removed_in,
            property_name=prop,
        )
        for r in (note.renamed_from if note else ())
    )


def deprecated_model(
    message: str, field: str, note: FieldNote | None
) -> DeprecatedModel | None:
    d = note.deprecated if note else None
    if d is None:
        return None
    return DeprecatedModel(
        message=message,
        field=field,
        text=d.message,
        since=d.since,
        removed_in=d.removed_in,
    )


def _field_marks(f: Field) -> list[str]:
    """The same facts in a key table's few words."""
    return [
        *(["(deprecated)"] if f.deprecated else []),
        *(["(required)"] if f.label == "required" else []),
        *([f"(JSON ``{f.json_name}``)"] if f.json_name else []),
    ]


def _note_marks(note: FieldNote | None) -> list[str]:
    """What the annotations say of a key's history, in a key table's few words."""
    if note is None:
        return []
    return [
        *(f"(formerly ``{r.old}``)" for r in note.renamed_from),
        *([f"(deprecated since {note.deprecated.since})"] if note.deprecated else []),
    ]


def _folders(folders: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Every folder and the folders above it, "/"-separated, sorted."""
    return tuple(
        sorted(
            {
                "/".join(folder[:i])
                for folder in folders
                for i in range(1, len(folder) + 1)
            }
        )
    )


def _with_rules(cls: ClassModel, rules: tuple[RuleModel, ...]) -> ClassModel:
    """The class with its rules, and each property's docs with the rules it is part of."""
    own = tuple(r for r in rules if r.message == cls.message_full_name)
    if not own:
        return cls
    properties = tuple(
        (
            msgspec.structs.replace(
                p, doc=msgspec.structs.replace(p.doc, lint_rules=touching)
            )
            if (touching := tuple(r for r in own if r.touches(p.name)))
            else p
        )
        for p in cls.properties
    )
    return msgspec.structs.replace(cls, properties=properties, lint_rules=own)


def build_model(
    schema: Schema,
    notes: Annotations,
    package: str,
    header: Header,
    hook_members: dict[str, frozenset[str]],
) -> PackageModel:
    """Resolve everything the templates need. ``hook_members``: mixin -> names."""
    b = _Builder(schema, notes, package)
    local_messages = [m for m in schema.messages.values() if not m.is_map_entry]
    fields = tuple(b.field(m, f) for m in local_messages for f in m.fields)
    enums = tuple(b.enum_model(e) for e in schema.enums.values())
    types_spell = Spelling(
        "code", in_types=True
    )  # types.py's: it records what types.py imports
    typed_dicts = tuple(b.typed_dict(m, types_spell) for m in local_messages)
    for used, name in ((enums, "Literal"), (typed_dicts, "TypedDict")):
        if used:
            types_spell(typeref.typing_name(name))
    classes = tuple(
        b.class_model(c, hook_members.get(c.mixin or "", frozenset()))
        for c in notes.classes
    )
    rules = rule_models(
        schema,
        notes.rules,
        {
            c.message_full_name: {
                p.field_name: p.name for p in c.properties if p.field_name
            }
            for c in classes
        },
    )
    classes = tuple(_with_rules(c, rules) for c in classes)
    if b.record:  # each class holds its nested enums' and messages' classes
        classes = _nested(
            tuple(
                msgspec.structs.replace(
                    c, enums=tuple(e for e in enums if e.owner == c.name)
                )
                for c in classes
            )
        )
        classes = _nested_paths(classes)
    # every message field counts for documentation, even without a property
    for m in local_messages:
        for f in m.fields:
            b.field_doc(m, f, b.note(m.full_name, f.name))
    if b.problems:
        raise GeneratorError(b.problems)
    exports = sorted({c.name for c in classes})
    overrides = b.overrides(fields)
    return PackageModel(
        name=package,
        header=header,
        hooks_module=notes.hooks_module,
        strict_env=notes.strict_env or naming.strict_env(package),
        enums=enums,
        fields=fields,
        overrides=overrides,
        typed_dicts=typed_dicts,
        pb2_modules=Stubs(
            schema,
            notes,
            b.imports,
            lambda m, f: (b.field(m, f).type, b.field(m, f).doc),
            b.enum_model,
            b.type_ref,
            b.pb2_sym,
        ).modules(),
        default_pool=not all(r.generated for r in b.imports.values()),
        classes=classes,
        class_modules=tuple(sorted({c.module for c in classes})),
        subpackages=_folders(r.folder for r in b.imports.values() if r.generated),
        class_subpackages=_folders(tuple(c.module.split(".")[:-1]) for c in classes),
        types_imports=tuple(sorted(types_spell.imports, key=repr)),
        reference=build_reference(b, classes, doc_parts),
        rules=rules,
        undocumented=tuple(sorted(set(b.undocumented))),
        exports=tuple(exports),
        record=b.record,
        views=not (b.record and all(c.compact for c in classes)),
        targets=_targets(b, notes, package, classes),
        json_schemas=json_schemas(
            schema,
            {(f.message, f.name): f for f in fields},
            typed_dicts,
            header,
            _root_messages(classes, local_messages),
            overrides.renamed,
        ),
    )


def _root_messages(
    classes: tuple[ClassModel, ...], messages: list[Message]
) -> tuple[str, ...] | None:
    """The messages a package is about (``python -m PKG schema`` prints
    them): those of the classes the annotations declare, in their order;
    None where every message has its class (json_schema then takes the
    messages no other message holds)."""
    wrapped = tuple(c.message_full_name for c in classes)
    return None if set(wrapped) >= {m.full_name for m in messages} else wrapped


def _targets(
    b: _Builder, notes: Annotations, package: str, classes: tuple[ClassModel, ...]
) -> tuple[Target, ...]:
    """The standalone build, then each build of the annotations' ``targets``."""
    return (
        standalone_target(package, b.imports),
        *(
            Target(
                name=t.name,
                package=t.package,
                classes_package=t.classes_package,
                public_package=t.public_package,
                pb2_package=t.pb2_package,
                logger=t.logger,
                standalone=False,
                pb2_imports=target_imports(b.imports, t.pb2_package),
                module_members=_module_members(b, t.name, t.module_members, classes),
            )
            for t in notes.targets
        ),
    )


def _module_members(
    b: _Builder,
    target: str,
    note: ModuleMembersNote | None,
    classes: tuple[ClassModel, ...],
) -> ModuleMembersModel | None:
    """A target's ``module_members``, checked against its class modules: which
    module (the only one, unless named), and a name defined once there."""
    if note is None:
        return None
    where = f"targets.{target}.module_members"
    modules = sorted({c.module for c in classes})
    module = note.module or (modules[0] if len(modules) == 1 else None)
    if module not in modules:
        raise GeneratorError(
            Problem(
                f"{where}.module: "
                + (
                    f"{module!r} is not a class module"
                    if module
                    else "the build has several class modules; name one"
                ),
                b.notes.path,
                note.line,
                hint=f"class modules: {', '.join(modules)}",
            )
        )
    mine = {c.name for c in classes if c.module == module}
    # what the class module defines itself (classes.py.j2): a member may not take one of those names
    used = mine | {
        "annotations",
        "TYPE_CHECKING",
        "cast",
        "_specs",
        "_runtime",
        "__all__",
        b.notes.hooks_module or "",
    }
    used |= (
        {r.alias for r in b.imports.values()}
        | {f"_{c}_init" for c in mine}
        | {f"_{c}_ENV" for c in mine}
    )
    for name in [*note.names, *(a.name for a in note.attributes)]:
        if name in used:
            b.problems.append(
                Problem(
                    f"{where}: {name!r} is a name the class module {module} already uses",
                    b.notes.path,
                    note.line,
                )
            )
    defined = mine | set(note.names) | {a.name for a in note.attributes}
    for name in note.exports or ():
        if name not in defined:
            b.problems.append(
                Problem(
                    f"{where}.all: {module} defines no {name!r}",
                    b.notes.path,
                    note.line,
                    hint=f"it defines: {', '.join(sorted(defined))}",
                )
            )
    if b.problems:
        raise GeneratorError(b.problems)
    return ModuleMembersModel(
        module=module,
        source=note.source,
        names=note.names,
        exports=note.exports,
        attributes=tuple(
            AttributeModel(name=a.name, default=a.default, type=a.type, doc=a.doc)
            for a in note.attributes
        ),
    )
