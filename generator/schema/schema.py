"""Stage 2: FileDescriptorSet -> a small, resolved view of the schema.

Only what later stages need: messages (nested ones flattened under their full
name), fields with label/type/declared default, enums, oneofs, maps, and the
comments protoc keeps in SourceCodeInfo (looked up by path, the path numbers
taken from descriptor_pb2's *_FIELD_NUMBER constants, not typed by hand).
"""

from __future__ import annotations

import functools
import keyword
import math
import struct
from collections.abc import Callable, Iterable
from typing import Literal

import msgspec
from google.protobuf import descriptor_pb2 as d
from msgspec import field

from ..errors import GeneratorError, Problem
from . import naming, proto_facts
from .proto_facts import SCALAR_TYPES

F = d.FieldDescriptorProto

Label = Literal["optional", "required", "repeated"]
LABELS: dict[int, Label] = {
    F.LABEL_OPTIONAL: "optional",
    F.LABEL_REQUIRED: "required",
    F.LABEL_REPEATED: "repeated",
}

# SourceCodeInfo path components (see descriptor.proto).
_FILE_MESSAGE = d.FileDescriptorProto.MESSAGE_TYPE_FIELD_NUMBER
_FILE_ENUM = d.FileDescriptorProto.ENUM_TYPE_FIELD_NUMBER
_MSG_FIELD = d.DescriptorProto.FIELD_FIELD_NUMBER
_MSG_NESTED = d.DescriptorProto.NESTED_TYPE_FIELD_NUMBER
_MSG_ENUM = d.DescriptorProto.ENUM_TYPE_FIELD_NUMBER
_ENUM_VALUE = d.EnumDescriptorProto.VALUE_FIELD_NUMBER
_MSG_ONEOF = d.DescriptorProto.ONEOF_DECL_FIELD_NUMBER
_MSG_EXTENSION = d.DescriptorProto.EXTENSION_FIELD_NUMBER
_FILE_EXTENSION = d.FileDescriptorProto.EXTENSION_FIELD_NUMBER
_FILE_SERVICE = d.FileDescriptorProto.SERVICE_FIELD_NUMBER
_SERVICE_METHOD = d.ServiceDescriptorProto.METHOD_FIELD_NUMBER


class Comment(msgspec.Struct, frozen=True, kw_only=True):
    text: str  # the leading comment, then the trailing one (a paragraph each); stripped
    line: int  # 1-based line of the element in its file


class EnumValue(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    number: int
    doc: str
    line: int
    deprecated: bool = False  # [deprecated = true]


class Enum(msgspec.Struct, frozen=True, kw_only=True):
    full_name: str
    name: str  # dotted name inside the package, e.g. "Outer.Kind"
    file: str
    values: tuple[EnumValue, ...]
    doc: str
    line: int
    flat: str = (
        ""  # the flat Python name module-level names are built from (naming.flat_type_names)
    )
    # ``reserved`` numbers as inclusive (low, high) ranges, and names
    reserved_numbers: tuple[tuple[int, int], ...] = ()
    reserved_names: tuple[str, ...] = ()


class Field(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    number: int
    label: Label
    type: str  # a SCALAR_TYPES value, "message" or "enum"
    type_name: str | None  # full name of the message/enum type, no leading dot
    default: object  # the value a fresh message returns (float32 already rounded)
    oneof: str | None
    has_presence: bool  # False: proto3 implicit presence (0 == unset)
    map_key: Field | None = None
    map_value: Field | None = None
    doc: str
    line: int
    deprecated: bool = False  # [deprecated = true]
    json_name: str | None = (
        None  # a custom [json_name = ...]; None when it is the one derived from the name
    )

    @property
    def repeated(self) -> bool:
        return self.label == "repeated"

    @property
    def is_map(self) -> bool:
        return self.map_key is not None


class Extension(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    number: int
    extendee: str  # full name of the extended message
    # its value's type, as a Field's (the stubs type the extension by it)
    type: str = "int32"
    type_name: str | None = None
    repeated: bool = False
    doc: str = ""
    line: int = 0


class Method(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    input_type: str  # full names, no leading dot
    output_type: str
    client_streaming: bool
    server_streaming: bool
    doc: str
    line: int


class Service(msgspec.Struct, frozen=True, kw_only=True):
    """A service: no code is generated for it (protoc's ``--python_out`` makes
    none either); its descriptor is in the ``_pb2`` module and its docs in the stub."""

    name: str
    doc: str
    line: int
    methods: tuple[Method, ...]


class Message(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    full_name: str
    name: str  # dotted name inside the package, e.g. "Outer.Inner"
    file: str
    fields: tuple[Field, ...]
    oneofs: tuple[str, ...]
    doc: str
    line: int
    is_map_entry: bool
    oneof_docs: tuple[
        str, ...
    ] = ()  # the comment of each oneof, in the order of ``oneofs``
    flat: str = (
        ""  # the flat Python name module-level names are built from (naming.flat_type_names)
    )
    extensions: tuple[
        Extension, ...
    ] = ()  # extensions declared inside it (``extend`` in its body)
    deprecated: bool = False  # option deprecated = true
    # ``reserved`` numbers as inclusive (low, high) ranges, and names
    reserved_numbers: tuple[tuple[int, int], ...] = ()
    reserved_names: tuple[str, ...] = ()

    def field(self, name: str) -> Field | None:
        return self._by_name.get(name)

    @functools.cached_property
    def _by_name(self) -> dict[str, Field]:
        """Fields by name, built on the first lookup: a scan per lookup made a
        message of n fields cost n² (every stage looks its fields up by name)."""
        return {f.name: f for f in self.fields}


class Schema(msgspec.Struct, frozen=True, kw_only=True):
    files: tuple[str, ...]  # the files generated for (not their imports)
    syntax: dict[str, str]  # file -> proto2 | proto3 | editions
    packages: tuple[str, ...]
    messages: dict[str, Message] = field(default_factory=dict)
    enums: dict[str, Enum] = field(default_factory=dict)
    # file name -> its FileDescriptorProto, for the generated files and their
    # imports in dependency order, serialized without source info (what the _pb2 embeds)
    file_protos: dict[str, bytes] = field(default_factory=dict)
    local_files: frozenset[str] = frozenset()
    # every file of the set (generated or imported) -> the files it imports
    dependencies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # messages of imported (not generated) files: full name -> (file, dotted name inside its package)
    imported_messages: dict[str, tuple[str, str]] = field(default_factory=dict)
    # extensions declared at the top level of each generated file
    file_extensions: dict[str, tuple[Extension, ...]] = field(default_factory=dict)
    # the services each generated file declares
    services: dict[str, tuple[Service, ...]] = field(default_factory=dict)


def float32(value: float) -> float:
    """The double a float32 field hands back for ``value``."""
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        rounded: float = struct.unpack("<f", struct.pack("<f", value))[0]
        return rounded
    except OverflowError:
        return math.copysign(math.inf, value)


def shortest_float32_text(value: float) -> str:
    """Shortest decimal that reads back as the same float32 (0.800000012 -> 0.8)."""
    if math.isnan(value) or math.isinf(value):
        return repr(value)
    target = float32(value)
    for digits in range(1, 18):
        text = f"{target:.{digits}g}"
        if float32(float(text)) == target:
            return text
    return repr(target)


class _Enums(dict[str, d.EnumDescriptorProto]):
    """Every enum of the set by full name, and their numbers by value name
    (indexed on first use: a scan per field cost fields × values)."""

    def __init__(self) -> None:
        super().__init__()
        self._numbers: dict[str, dict[str, int]] = {}

    def number(self, enum: str, value: str) -> int:
        if enum not in self._numbers:
            self._numbers[enum] = {v.name: v.number for v in self[enum].value}
        return self._numbers[enum][value]


def _parse_default(fd: d.FieldDescriptorProto, enums: _Enums) -> object:
    """A field's default value: the declared one, else its type's zero."""
    declared = fd.default_value if fd.HasField("default_value") else None
    kind = fd.type
    if kind == F.TYPE_MESSAGE or kind == F.TYPE_GROUP:
        return None
    if kind == F.TYPE_ENUM:
        name = fd.type_name.lstrip(".")
        if declared is not None:
            return enums.number(name, declared)
        return enums[name].value[0].number
    if kind == F.TYPE_BOOL:
        return declared == "true"
    if kind in (F.TYPE_FLOAT, F.TYPE_DOUBLE):
        value = float(declared) if declared is not None else 0.0
        return float32(value) if kind == F.TYPE_FLOAT else value
    if kind == F.TYPE_STRING:
        return declared or ""
    if kind == F.TYPE_BYTES:
        if declared is None:
            return b""
        return declared.encode("latin-1").decode("unicode_escape").encode("latin-1")
    return int(declared) if declared is not None else 0


class _Comments:
    def __init__(self, fp: d.FileDescriptorProto) -> None:
        self.file = fp.name
        self.by_path: dict[tuple[int, ...], d.SourceCodeInfo.Location] = {
            tuple(loc.path): loc for loc in fp.source_code_info.location
        }

    def span(self, path: tuple[int, ...]) -> tuple[int, ...]:
        loc = self.by_path.get(path)
        return tuple(loc.span) if loc is not None else ()

    def get(self, path: tuple[int, ...]) -> Comment:
        loc = self.by_path.get(path)
        if loc is None:
            return Comment(text="", line=0)
        line = loc.span[0] + 1 if loc.span else 0
        if isinstance(loc.leading_comments, bytes) or isinstance(
            loc.trailing_comments, bytes
        ):
            raise _not_utf8("the comment of the element on this line", self.file, line)
        texts = [
            _comment_text(t)
            for t in (loc.leading_comments, loc.trailing_comments)
            if t.strip()
        ]
        return Comment(text="\n\n".join(texts), line=line)


def _comment_text(text: str) -> str:
    """A comment as protoc records it, without the space after each ``//``."""
    lines = [
        line[1:] if line.startswith(" ") else line
        for line in text.strip("\n").split("\n")
    ]
    return "\n".join(lines).strip()


def _not_utf8(what: str, file: str, line: int) -> GeneratorError:
    """protobuf hands back a string that is not UTF-8 as bytes (the protoc
    plugin gets the schema without the check compile makes on the text)."""
    return GeneratorError(
        Problem(
            f"{what} is not UTF-8 text",
            file,
            line or None,
            hint="save the .proto file as UTF-8",
        )
    )


# FieldDescriptorProto.json_name; DescriptorProto's field, nested_type and
# extension lists; FileDescriptorProto's message_type and extension lists
_JSON_NAME = d.FieldDescriptorProto.JSON_NAME_FIELD_NUMBER
_MESSAGE_FIELDS = (
    d.DescriptorProto.FIELD_FIELD_NUMBER,
    d.DescriptorProto.EXTENSION_FIELD_NUMBER,
)
_NESTED = d.DescriptorProto.NESTED_TYPE_FIELD_NUMBER


def embedded_descriptor(fp: d.FileDescriptorProto) -> bytes:
    """The FileDescriptorProto a generated ``_pb2`` embeds: what protoc's own
    ``--python_out`` embeds, so that both register as the same file in one
    descriptor pool (googleapis-common-protos and our package in one process):
    no source info, and a field's ``json_name`` only where the .proto declares
    one (a descriptor set fills in every field's; protoc's modules do not).
    Without source info (a plugin's imported files) a json_name that is the
    derived one counts as not declared."""
    stripped = d.FileDescriptorProto()
    stripped.CopyFrom(fp)
    declared = {
        tuple(loc.path)
        for loc in fp.source_code_info.location
        if loc.path and loc.path[-1] == _JSON_NAME
    }
    known = bool(fp.source_code_info.location)

    def clear(fields: Iterable[d.FieldDescriptorProto], path: tuple[int, ...]) -> None:
        for i, field in enumerate(fields):
            explicit = (
                (*path, i, _JSON_NAME) in declared
                if known
                else field.json_name != proto_facts.json_name(field.name)
            )
            if field.HasField("json_name") and not explicit:
                field.ClearField("json_name")

    def walk(message: d.DescriptorProto, path: tuple[int, ...]) -> None:
        clear(message.field, (*path, _MESSAGE_FIELDS[0]))
        clear(message.extension, (*path, _MESSAGE_FIELDS[1]))
        for j, nested in enumerate(message.nested_type):
            walk(nested, (*path, _NESTED, j))

    for i, message in enumerate(stripped.message_type):
        walk(message, (d.FileDescriptorProto.MESSAGE_TYPE_FIELD_NUMBER, i))
    clear(stripped.extension, (d.FileDescriptorProto.EXTENSION_FIELD_NUMBER,))
    stripped.ClearField("source_code_info")
    return stripped.SerializeToString(deterministic=True)


def load_schema(descriptor_set: bytes, local_files: list[str]) -> Schema:
    """Build the schema view of ``local_files`` (protoc-relative names)."""
    fds = d.FileDescriptorSet()
    fds.ParseFromString(descriptor_set)
    index = _TypeIndex(fds)
    wanted = set(local_files)
    loader = _Loader(index)
    syntax: dict[str, str] = {}
    packages: dict[str, None] = {}  # in order of appearance
    file_protos: dict[str, bytes] = {}
    for fp in fds.file:
        file_protos[fp.name] = embedded_descriptor(fp)
        if fp.name in wanted:
            syntax[fp.name] = fp.syntax or "proto2"
            packages.setdefault(fp.package)
            loader.load_file(fp)
    missing = wanted - set(syntax)
    if missing:
        raise GeneratorError(
            [
                Problem("file not in the compiled descriptor set", file=f)
                for f in sorted(missing)
            ]
        )
    messages, enums = loader.messages, loader.enums
    enums.update(_imported_enums(messages, enums, index))
    types: list[Message | Enum] = [*messages.values(), *enums.values()]
    flat = naming.flat_type_names([(x.full_name, x.name) for x in types])
    messages = {
        k: msgspec.structs.replace(m, flat=flat[k]) for k, m in messages.items()
    }
    enums = {k: msgspec.structs.replace(e, flat=flat[k]) for k, e in enums.items()}
    _check_loadable(fds)
    _check_type_names([*messages.values(), *enums.values()])
    return Schema(
        files=tuple(sorted(wanted)),
        syntax=syntax,
        packages=tuple(packages),
        messages=messages,
        enums=enums,
        file_protos=file_protos,
        local_files=frozenset(wanted),
        dependencies={fp.name: tuple(fp.dependency) for fp in fds.file},
        imported_messages={
            k: v for k, v in index.message_homes.items() if v[0] not in wanted
        },
        file_extensions=loader.file_extensions,
        services=loader.services,
    )


class _TypeIndex:
    """Every message and enum of the set (generated files and their imports):
    the enums' descriptors, and where each type is declared."""

    def __init__(self, fds: d.FileDescriptorSet) -> None:
        self.enums = _Enums()
        self.enum_homes: dict[str, tuple[str, str]] = (
            {}
        )  # full name -> (file, dotted name inside the package)
        self.message_homes: dict[str, tuple[str, str]] = {}
        for fp in fds.file:
            prefix = f"{fp.package}." if fp.package else ""
            for e in fp.enum_type:
                self._enum(fp.name, prefix, e.name, e)
            for m in fp.message_type:
                self._message(fp.name, prefix, m.name, m)

    def _enum(
        self, file: str, prefix: str, local: str, e: d.EnumDescriptorProto
    ) -> None:
        self.enums[prefix + local] = e
        self.enum_homes[prefix + local] = (file, local)

    def _message(
        self, file: str, prefix: str, local: str, msg: d.DescriptorProto
    ) -> None:
        self.message_homes[prefix + local] = (file, local)
        for e in msg.enum_type:
            self._enum(file, prefix, f"{local}.{e.name}", e)
        for n in msg.nested_type:
            self._message(file, prefix, f"{local}.{n.name}", n)


class _Loader:
    """The schema view of the generated files, one file at a time, with the
    comments protoc recorded for each element."""

    def __init__(self, index: _TypeIndex) -> None:
        self.index = index
        self.messages: dict[str, Message] = {}
        self.enums: dict[str, Enum] = {}
        self.file_extensions: dict[str, tuple[Extension, ...]] = {}
        self.services: dict[str, tuple[Service, ...]] = {}

    def load_file(self, fp: d.FileDescriptorProto) -> None:
        comments = _Comments(fp)
        prefix = f"{fp.package}." if fp.package else ""
        for i, e in enumerate(fp.enum_type):
            self.add_enum(fp, comments, prefix, e, e.name, (_FILE_ENUM, i))
        for i, m in enumerate(fp.message_type):
            self.add_message(fp, comments, prefix, m, m.name, (_FILE_MESSAGE, i))
        self.file_extensions[fp.name] = _extensions(
            fp.extension, comments, (_FILE_EXTENSION,)
        )
        self.services[fp.name] = tuple(
            _service(s, comments, (_FILE_SERVICE, i)) for i, s in enumerate(fp.service)
        )

    def add_enum(
        self,
        fp: d.FileDescriptorProto,
        comments: _Comments,
        prefix: str,
        e: d.EnumDescriptorProto,
        local: str,
        path: tuple[int, ...],
    ) -> None:
        head = comments.get(path)
        values = []
        for i, v in enumerate(e.value):
            comment = comments.get((*path, _ENUM_VALUE, i))
            values.append(
                EnumValue(
                    name=v.name,
                    number=v.number,
                    doc=comment.text,
                    line=comment.line,
                    deprecated=v.options.deprecated,
                )
            )
        self.enums[prefix + local] = Enum(
            full_name=prefix + local,
            name=local,
            file=fp.name,
            values=tuple(values),
            doc=head.text,
            line=head.line,
            # an enum's reserved range includes its end
            reserved_numbers=tuple((r.start, r.end) for r in e.reserved_range),
            reserved_names=tuple(e.reserved_name),
        )

    def add_message(
        self,
        fp: d.FileDescriptorProto,
        comments: _Comments,
        prefix: str,
        m: d.DescriptorProto,
        local: str,
        path: tuple[int, ...],
    ) -> None:
        full = prefix + local
        for i, n in enumerate(m.nested_type):
            self.add_message(
                fp, comments, prefix, n, f"{local}.{n.name}", (*path, _MSG_NESTED, i)
            )
        for i, e in enumerate(m.enum_type):
            self.add_enum(
                fp, comments, prefix, e, f"{local}.{e.name}", (*path, _MSG_ENUM, i)
            )
        nested_maps = {
            f"{full}.{n.name}": n for n in m.nested_type if n.options.map_entry
        }
        # a proto2 group declares its field and its message in one statement: protoc gives the comment to the message
        groups = {
            f"{full}.{n.name}": (*path, _MSG_NESTED, i)
            for i, n in enumerate(m.nested_type)
        }
        fields = []
        for i, fd in enumerate(m.field):
            comment = comments.get((*path, _MSG_FIELD, i))
            group = (
                groups.get(fd.type_name.lstrip("."))
                if fd.type == F.TYPE_GROUP and not comment.text
                else None
            )
            if group is not None and comments.span(
                (*path, _MSG_FIELD, i)
            ) == comments.span(group):
                comment = Comment(text=comments.get(group).text, line=comment.line)
            if isinstance(fd.default_value, bytes):
                raise _not_utf8(
                    f"the default of {full}.{fd.name}", fp.name, comment.line
                )
            fields.append(
                _make_field(
                    fd, comment, m, self.index.enums, nested_maps, fp.syntax == "proto3"
                )
            )
        head = comments.get(path)
        self.messages[full] = Message(
            full_name=full,
            name=local,
            file=fp.name,
            fields=tuple(fields),
            oneofs=tuple(o.name for o in m.oneof_decl),
            oneof_docs=tuple(
                comments.get((*path, _MSG_ONEOF, i)).text
                for i in range(len(m.oneof_decl))
            ),
            doc=head.text,
            line=head.line,
            is_map_entry=m.options.map_entry,
            extensions=_extensions(m.extension, comments, (*path, _MSG_EXTENSION)),
            deprecated=m.options.deprecated,
            # a message's reserved range excludes its end
            reserved_numbers=tuple((r.start, r.end - 1) for r in m.reserved_range),
            reserved_names=tuple(m.reserved_name),
        )


def _imported_enums(
    messages: dict[str, Message], enums: dict[str, Enum], index: _TypeIndex
) -> dict[str, Enum]:
    """Enums of imported files that generated fields use: their values are needed too."""
    found: dict[str, Enum] = {}
    for message in messages.values():
        for f in message.fields:
            for x in (f, f.map_value):
                if (
                    x is not None
                    and x.type == "enum"
                    and x.type_name
                    and x.type_name not in enums
                ):
                    home, local = index.enum_homes[x.type_name]
                    values = tuple(
                        EnumValue(name=v.name, number=v.number, doc="", line=0)
                        for v in index.enums[x.type_name].value
                    )
                    found[x.type_name] = Enum(
                        full_name=x.type_name,
                        name=local,
                        file=home,
                        values=values,
                        doc="",
                        line=0,
                    )
    return found


def _check_type_names(types: list[Message | Enum]) -> None:
    """The _pb2 module defines a class per type: its name must be a Python name."""
    keywords = [x for x in types if any(map(keyword.iskeyword, x.name.split(".")))]
    if keywords:
        raise GeneratorError(
            [
                Problem(
                    f"type {x.full_name}: a Python keyword cannot name a message or enum",
                    x.file,
                    x.line or None,
                )
                for x in keywords
            ]
        )


def _extensions(
    declared: Iterable[d.FieldDescriptorProto],
    comments: _Comments,
    path: tuple[int, ...],
) -> tuple[Extension, ...]:
    """Extensions declared in one scope (``path``: the scope's extension list)."""
    found = []
    for i, x in enumerate(declared):
        comment = comments.get((*path, i))
        found.append(
            Extension(
                name=x.name,
                number=x.number,
                extendee=x.extendee.lstrip("."),
                type=_kind(x),
                type_name=x.type_name.lstrip(".") or None,
                repeated=x.label == F.LABEL_REPEATED,
                doc=comment.text,
                line=comment.line,
            )
        )
    return tuple(found)


def _kind(fd: d.FieldDescriptorProto) -> str:
    """A field's type: a SCALAR_TYPES value, "message" (groups included) or "enum"."""
    if fd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP):
        return "message"
    return "enum" if fd.type == F.TYPE_ENUM else SCALAR_TYPES[fd.type]


def _service(
    s: d.ServiceDescriptorProto, comments: _Comments, path: tuple[int, ...]
) -> Service:
    head = comments.get(path)
    methods = []
    for i, m in enumerate(s.method):
        comment = comments.get((*path, _SERVICE_METHOD, i))
        methods.append(
            Method(
                name=m.name,
                input_type=m.input_type.lstrip("."),
                output_type=m.output_type.lstrip("."),
                client_streaming=m.client_streaming,
                server_streaming=m.server_streaming,
                doc=comment.text,
                line=comment.line,
            )
        )
    return Service(name=s.name, doc=head.text, line=head.line, methods=tuple(methods))


def unresolved_imports(
    schema: Schema,
    provided: Callable[[str], bool],
    typed: Callable[[str], str] = str,
) -> list[Problem]:
    """A problem per import of a generated file that is neither generated nor
    ``provided`` (a module that exists already: protobuf's well-known types),
    naming with it every file of its import closure that is missing too, so
    that one run names them all (not one level of imports per run). The hint
    names each file as ``typed`` spells it (the path to give --proto)."""
    problems = []
    for f in schema.files:
        for dep in schema.dependencies.get(f, ()):
            if dep in schema.local_files or provided(dep):
                continue
            closure = _missing_closure(schema, dep, provided)
            if len(closure) == 1:
                hint = f"generate it too: add {typed(dep)} (or a folder holding it) with --proto, under an -I folder"
                more = ""
            else:
                hint = f"generate them too: add {', '.join(map(typed, closure))} (or folders holding them) with --proto, under an -I folder"
                more = (
                    f", nor are the files it imports in turn: {', '.join(closure[1:])}"
                )
            problems.append(
                Problem(
                    f"imports {dep}, which is not generated{more} (only protobuf's well-known types may be imported without being generated)",
                    f,
                    hint=hint,
                )
            )
    return problems


def _missing_closure(
    schema: Schema, start: str, provided: Callable[[str], bool]
) -> list[str]:
    """``start`` and the files it imports, directly or not, that are neither
    generated nor provided (breadth first: nearest first)."""
    found = [start]
    seen = {start}
    for name in found:  # grows while it is read
        for dep in schema.dependencies.get(name, ()):
            if dep not in seen and dep not in schema.local_files and not provided(dep):
                seen.add(dep)
                found.append(dep)
    return found


def _check_loadable(fds: d.FileDescriptorSet) -> None:
    """The generated _pb2 modules must import: protoc accepts a few things the
    protobuf runtime refuses (subnormal float/double defaults), so try now."""
    from google.protobuf import descriptor_pool

    pool = descriptor_pool.DescriptorPool()
    for fp in fds.file:
        try:
            pool.Add(fp)
        except (TypeError, ValueError) as exc:
            hint = (
                "protobuf cannot load subnormal float/double defaults"
                if "Invalid default" in str(exc)
                else None
            )
            raise GeneratorError(
                Problem(
                    f"the protobuf runtime rejects this schema: {exc}",
                    fp.name,
                    hint=hint,
                )
            ) from None


def _make_field(
    fd: d.FieldDescriptorProto,
    comment: Comment,
    owner: d.DescriptorProto,
    enums: _Enums,
    nested_maps: dict[str, d.DescriptorProto],
    proto3: bool = False,
) -> Field:
    type_name = fd.type_name.lstrip(".") or None
    kind = _kind(fd)
    default = _parse_default(fd, enums)
    oneof = None
    if fd.HasField("oneof_index") and not fd.proto3_optional:
        oneof = owner.oneof_decl[fd.oneof_index].name
    map_key = map_value = None
    entry = nested_maps.get(type_name or "")
    if entry is not None and fd.label == F.LABEL_REPEATED:
        key_fd, value_fd = entry.field[0], entry.field[1]
        map_key = _make_field(
            key_fd, Comment(text="", line=0), entry, enums, {}, proto3
        )
        map_value = _make_field(
            value_fd, Comment(text="", line=0), entry, enums, {}, proto3
        )
    has_presence = fd.label != F.LABEL_REPEATED and (
        not proto3
        or kind == "message"
        or fd.proto3_optional
        or fd.HasField("oneof_index")
    )
    return Field(
        name=fd.name,
        number=fd.number,
        label=LABELS[fd.label],
        type=kind,
        type_name=type_name,
        default=default,
        oneof=oneof,
        has_presence=has_presence,
        map_key=map_key,
        map_value=map_value,
        doc=comment.text,
        line=comment.line,
        deprecated=fd.options.deprecated,
        json_name=(
            fd.json_name
            if fd.HasField("json_name")
            and fd.json_name != proto_facts.json_name(fd.name)
            else None
        ),
    )


def default_text(schema: Schema, f: Field) -> str:
    """A field's default as the docs show it (also what the API change report compares)."""
    if f.is_map:
        return "{}"
    if f.repeated:
        return "[]"
    if f.type == "message":
        return "every key at its default"
    if f.type == "enum":
        enum = schema.enums[f.type_name or ""]
        return next(v.name for v in enum.values if v.number == f.default)
    if f.type == "bool":
        return repr(f.default)
    if (
        f.type == "float"
    ):  # as declared (0.8), not as float32 reads back (0.800000011920929)
        # a Python literal: the shortest decimal is spelled "5e+01" for 50, Python reads it 50.0
        return repr(float(shortest_float32_text(float(f.default))))  # type: ignore[arg-type]
    if f.type == "double":
        return repr(float(f.default))  # type: ignore[arg-type]
    return repr(f.default)
