"""Stage 4, the protobuf side: where each proto file's ``*_pb2`` module comes
from (``pb2_imports``) and what its stub declares (``Stubs``).

The stub's types are rendered from each field's ``TypeRef`` by the stub's
``Spelling``, which records what the stub imports; the names the template
itself prints (``_builtins.int``, ``_ClassVar``, ...) come spelled from here
too, only those the module uses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import msgspec

from ..annotations.keys import Annotations
from ..errors import GeneratorError, Problem
from ..schema import naming
from ..schema.schema import (
    Enum,
    Extension,
    Field,
    Message,
    Schema,
    unresolved_imports,
)
from . import typeref
from .records import (
    EnumModel,
    ExtensionModel,
    Pb2Import,
    Pb2Module,
    PyiField,
    PyiMessage,
)
from .typeref import Spelling, Sym, Type, TypeRef


def standard_module(proto_file: str) -> tuple[str, str] | None:
    """(package, module) protobuf itself ships for ``proto_file``, if any: the
    well-known types (``google/protobuf/timestamp.proto`` -> ``google.protobuf``,
    ``timestamp_pb2``)."""
    import importlib.util

    if not proto_file.startswith("google/protobuf/") or not proto_file.endswith(
        ".proto"
    ):
        return None
    parts = proto_file.removesuffix(".proto").split("/")
    package, module = ".".join(parts[:-1]), f"{parts[-1]}_pb2"
    try:
        found = importlib.util.find_spec(f"{package}.{module}") is not None
    except ImportError:
        found = False
    return (package, module) if found else None


def pb2_imports(schema: Schema, package: str) -> dict[str, Pb2Import]:
    """Proto file -> where its protobuf classes come from.

    A generated file: its ``<name>_pb2`` module in the package. A file that
    generated files import but that is not generated: the standard module
    protobuf ships (well-known types), so values are the standard classes;
    any other such file is an error naming the flag that generates it."""
    records: dict[str, Pb2Import] = {}
    files_of_path: dict[tuple[str, ...], list[str]] = {}
    for f in schema.files:
        files_of_path.setdefault(naming.module_path_for_proto(f), []).append(f)
    folders = {path[:i] for path in files_of_path for i in range(1, len(path))}
    problems = [
        Problem(
            f"{' and '.join(files)} would both generate {'/'.join(path)}.py",
            files[0],
            hint="rename one of the .proto files",
        )
        for path, files in files_of_path.items()
        if len(files) > 1
    ] + [
        Problem(
            f"{files[0]} would generate {'/'.join(path)}.py beside a folder of that name",
            files[0],
            hint="rename the .proto file or the folder",
        )
        for path, files in files_of_path.items()
        if path in folders
    ]
    if problems:
        raise GeneratorError(problems)
    stems = {path[-1] for path in files_of_path}
    for path, (f,) in files_of_path.items():
        module = f"{path[-1]}_pb2"
        # a file's module is known by its name, by its folders and name where names repeat
        alias = (
            module
            if sum(p[-1] == path[-1] for p in files_of_path) == 1
            else "_".join((*path[:-1], module))
        )
        records[f] = Pb2Import(
            proto_file=f,
            import_from=".".join((package, *path[:-1])),
            module=module,
            alias=alias,
            generated=True,
            folder=path[:-1],
        )
    aliases = {r.alias for r in records.values()} | stems
    problems = unresolved_imports(
        schema, lambda name: standard_module(name) is not None
    )
    for f in schema.files:
        for dep in schema.dependencies.get(f, ()):
            standard = standard_module(dep) if dep not in records else None
            if standard is None:
                continue
            alias = (
                standard[1]
                if standard[1] not in aliases
                else "_".join([*standard[0].split("."), standard[1]])
            )
            aliases.add(alias)
            records[dep] = Pb2Import(
                proto_file=dep,
                import_from=standard[0],
                module=standard[1],
                alias=alias,
                generated=False,
            )
    if problems:
        raise GeneratorError(problems)
    return records


class Stubs:
    """The stubs of the generated pb2 modules. ``field``: a field's type and
    documentation (the model's one record of it); ``enum_model``: an enum's model."""

    def __init__(
        self,
        schema: Schema,
        notes: Annotations,
        imports: dict[str, Pb2Import],
        field: Callable[[Message, Field], tuple[TypeRef, str]],
        enum_model: Callable[[Enum], EnumModel],
        type_ref: Callable[[Field], TypeRef],
        pb2_sym: Callable[[str], Sym],
    ) -> None:
        self.schema, self.notes, self.imports = schema, notes, imports
        self.field, self.enum_model, self.type_ref, self.pb2_sym = (
            field,
            enum_model,
            type_ref,
            pb2_sym,
        )
        self._children_index: (
            tuple[
                dict[tuple[str, str], list[Message]], dict[tuple[str, str], list[Enum]]
            ]
            | None
        ) = None

    def _children(
        self,
    ) -> tuple[dict[tuple[str, str], list[Message]], dict[tuple[str, str], list[Enum]]]:
        """Nested messages and enums by (file, parent name), built once (linear)."""
        if self._children_index is None:
            messages: dict[tuple[str, str], list[Message]] = {}
            enums: dict[tuple[str, str], list[Enum]] = {}
            for m in self.schema.messages.values():
                if "." in m.name and not m.is_map_entry:
                    messages.setdefault((m.file, m.name.rsplit(".", 1)[0]), []).append(
                        m
                    )
            for e in self.schema.enums.values():
                if "." in e.name:
                    enums.setdefault((e.file, e.name.rsplit(".", 1)[0]), []).append(e)
            self._children_index = (messages, enums)
        return self._children_index

    def pyi_fields(self, message: Message, spell: Spelling) -> tuple[PyiField, ...]:
        """The stubbed fields: types spelled by ``spell``, black's blank lines decided."""
        stubbed = []
        for f in message.fields:
            if not naming.is_plain_attribute(
                f.name
            ):  # not in the stub: only what it prints is spelled
                continue
            ref, doc = self.field(message, f)
            deprecated = f.deprecated
            attribute = f.name not in naming.MESSAGE_MEMBERS
            unprinted = Spelling("stub", here=spell.here, shadowed=spell.shadowed)
            stubbed.append(
                PyiField(
                    name=f.name,
                    get_type=(spell if attribute else unprinted)(typeref.stub_get(ref)),
                    init_type=spell(typeref.stub_init(ref)),
                    is_message=f.type == "message",
                    doc=doc,
                    deprecated=deprecated,
                    deprecated_setter=deprecated
                    and not f.repeated
                    and f.type != "message",
                    as_property=f.type == "message" or deprecated,
                    attribute=attribute,
                )
            )
        shown = [f for f in stubbed if f.attribute]
        followed_by_def = {
            a.name
            for a, b in zip(shown, [*shown[1:], None])
            if b is None or b.as_property
        }
        return tuple(
            msgspec.structs.replace(
                f,
                blank_after_getter=f.deprecated_setter and bool(f.doc),
                blank_after=f.as_property
                and bool(f.doc)
                and not f.deprecated_setter
                and f.name in followed_by_def,
            )
            for f in stubbed
        )

    def pyi_message(self, message: Message, spell: Spelling) -> PyiMessage:
        """``message``'s stub; ``spell``: the module's spelling. Its body has
        a spelling of its own: a field named like an alias (``_message``)
        takes that name there, so the body spells another one."""
        nested_messages, nested_enums = self._children()
        key = (message.file, message.name)
        nested = nested_messages.get(key, [])
        enums = tuple(self.enum_model(e) for e in nested_enums.get(key, []))
        bound = {f.name for f in message.fields} | {
            m.name.rsplit(".", 1)[-1] for m in nested
        }
        bound |= {e.pb2_path.rsplit(".", 1)[-1] for e in enums} | {
            v[0] for e in enums for v in e.values
        }
        bound |= {
            n
            for x in message.extensions
            for n in (x.name, f"{x.name.upper()}_FIELD_NUMBER")
        }
        body = Spelling(
            "stub", here=spell.here, shadowed=frozenset(bound), imports=spell.imports
        )
        has = [
            f.name
            for f in message.fields
            if f.has_presence or f.type == "message" and not f.repeated
        ]
        stub = PyiMessage(
            name=message.name.rsplit(".", 1)[-1],
            full_name=message.full_name,
            doc=_with_oneof_docs(
                (self.notes.message_docs.get(message.full_name) or message.doc).strip(),
                message,
            ),
            fields=self.pyi_fields(message, body),
            nested=tuple(self.pyi_message(m, spell) for m in nested),
            enums=enums,
            # a type checker takes another name for self only with a leading underscore
            self_name=next(
                n
                for n in (
                    "self",
                    *(f"_self{'_' * i}" for i in range(len(message.fields) + 1)),
                )
                if message.field(n) is None
            ),
            has_field_names=tuple(has + list(message.oneofs)),
            clear_field_names=tuple(
                [f.name for f in message.fields] + list(message.oneofs)
            ),
            extensions=self.extension_models(message.extensions, body),
        )
        return msgspec.structs.replace(stub, names=_body_names(body, stub))

    def extension_models(
        self, extensions: Iterable[Extension], spell: Spelling | None
    ) -> tuple[ExtensionModel, ...]:
        """The extensions, typed in the stub (``spell``) as mypy-protobuf types them."""
        out = []
        for x in extensions:
            type_text = ""
            if spell is not None and naming.is_plain_attribute(x.name):
                value = typeref.stub_get(self.extension_ref(x))
                handle = typeref.module_attr(
                    "google.protobuf.internal.extension_dict",
                    "_ExtensionFieldDescriptor",
                    Type(self.pb2_sym(x.extendee)),
                    value,
                )
                type_text = spell(handle)
            out.append(
                ExtensionModel(
                    name=x.name,
                    number=x.number,
                    constant=f"{x.name.upper()}_FIELD_NUMBER",
                    plain=naming.is_plain_attribute(x.name),
                    type=type_text,
                    doc=x.doc,
                )
            )
        return tuple(out)

    def extension_ref(self, x: Extension) -> TypeRef:
        return self.type_ref(
            Field(
                name=x.name,
                number=x.number,
                label="repeated" if x.repeated else "optional",
                type=x.type,
                type_name=x.type_name,
                default=None,
                oneof=None,
                has_presence=not x.repeated,
                doc="",
                line=0,
            )
        )

    def module(
        self, fp_name: str, raw: bytes, in_file: list[Message], enums: list[Enum]
    ) -> Pb2Module:
        record = self.imports[fp_name]
        spell = Spelling("stub", here=record.alias)
        messages = tuple(
            self.pyi_message(m, spell) for m in in_file if "." not in m.name
        )
        top_enums = tuple(self.enum_model(e) for e in enums)
        extensions = self.extension_models(
            self.schema.file_extensions.get(fp_name, ()), spell
        )
        names = _stub_names(spell, messages, top_enums, extensions)
        return Pb2Module(
            name=record.module,
            path="/".join((*record.folder, record.module)),
            proto_file=fp_name,
            descriptor=raw,
            dependencies=tuple(
                self.imports[dep] for dep in self.schema.dependencies[fp_name]
            ),
            messages=messages,
            enums=top_enums,
            uses_deprecated=any(f.deprecated for m in in_file for f in m.fields),
            extensions=extensions,
            imports=tuple(sorted(spell.imports, key=repr)),
            names=names,
            services=self.schema.services.get(fp_name, ()),
            typed_extensions=any(
                x.type
                for x in (
                    *extensions,
                    *(x for m in _walk(messages) for x in m.extensions),
                )
            ),
        )

    def modules(self) -> tuple[Pb2Module, ...]:
        by_file: dict[str, list[Message]] = (
            {}
        )  # each file's messages, nested ones included (one pass, not one per file)
        for m in self.schema.messages.values():
            by_file.setdefault(m.file, []).append(m)
        enums_by_file: dict[str, list[Enum]] = {}
        for e in self.schema.enums.values():
            if "." not in e.name:
                enums_by_file.setdefault(e.file, []).append(e)
        modules = []
        for name, raw in self.schema.file_protos.items():
            if name in self.schema.local_files:
                modules.append(
                    self.module(
                        name, raw, by_file.get(name, []), enums_by_file.get(name, [])
                    )
                )
        return tuple(modules)


def _with_oneof_docs(doc: str, message: Message) -> str:
    """A message's stub docs, then a paragraph per documented oneof (a oneof
    has no attribute of its own to carry them)."""
    members: dict[str, list[str]] = {}
    for f in message.fields:
        if f.oneof is not None:
            members.setdefault(f.oneof, []).append(f"``{f.name}``")
    oneofs = [
        f"Oneof ``{name}`` ({', '.join(members.get(name, []))}): {text}"
        for name, text in zip(message.oneofs, message.oneof_docs)
        if text
    ]
    return "\n\n".join([doc, *oneofs] if doc else oneofs)


def _walk(messages: Iterable[PyiMessage]) -> Iterator[PyiMessage]:
    for m in messages:
        yield m
        yield from _walk(m.nested)


def _spelled(
    spell: Spelling, wanted: dict[str, Type | None]
) -> tuple[tuple[str, str], ...]:
    return tuple((name, spell(t)) for name, t in wanted.items() if t is not None)


_MESSAGE = typeref.module_attr("google.protobuf.message", "Message")
_WRAPPER = typeref.module_attr(
    "google.protobuf.internal.enum_type_wrapper", "EnumTypeWrapper"
)


def _plain_values(enums: Iterable[EnumModel]) -> bool:
    return any(naming.is_plain_attribute(v[0]) for e in enums for v in e.values)


def _body_names(body: Spelling, m: PyiMessage) -> tuple[tuple[str, str], ...]:
    """The names a message's body prints (nested classes' bases and
    metaclasses included), spelled in that body, only those it uses."""
    class_vars = _plain_values(m.enums) or bool(m.extensions)
    return _spelled(
        body,
        {
            "Message": _MESSAGE if m.nested else None,
            "EnumTypeWrapper": _WRAPPER if m.enums else None,
            "int": typeref.builtin("int") if m.enums or class_vars else None,
            "ClassVar": typeref.typing_name("ClassVar") if class_vars else None,
            "bool": typeref.builtin("bool") if m.has_field_names else None,
            "property": (
                typeref.builtin("property")
                if any(f.as_property and f.attribute for f in m.fields)
                else None
            ),
            "Literal": (
                typeref.typing_name("Literal")
                if m.has_field_names or m.clear_field_names
                else None
            ),
            "deprecated": (
                Type(Sym("typing", "typing_extensions", "deprecated"))
                if any(f.deprecated and f.attribute for f in m.fields)
                else None
            ),
        },
    )


def _stub_names(
    spell: Spelling,
    messages: tuple[PyiMessage, ...],
    enums: tuple[EnumModel, ...],
    extensions: tuple[ExtensionModel, ...],
) -> tuple[tuple[str, str], ...]:
    """The names the stub template prints at module level (and in enum
    bodies, which see the module's names), only those the module uses."""
    values = _plain_values(enums) or _plain_values(
        e for m in _walk(messages) for e in m.enums
    )
    return _spelled(
        spell,
        {
            "FileDescriptor": typeref.module_attr(
                "google.protobuf.descriptor", "FileDescriptor"
            ),
            "Message": _MESSAGE if messages else None,
            "EnumTypeWrapper": _WRAPPER if enums else None,
            "int": typeref.builtin("int") if enums or extensions or values else None,
            "ClassVar": typeref.typing_name("ClassVar") if values else None,
        },
    )
