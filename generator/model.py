"""Stage 4: schema + annotations -> the API to emit, fully resolved.

Everything templates print is decided here, in one pass, into frozen
dataclasses: names (after the renaming rule), Python types, docstring text,
validation specs and hook references. Templates only loop and print.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import naming
from .annotations import Annotations, ClassNote, FieldNote, ModuleMembersNote, closest, member_names
from .errors import GeneratorError, Problem
from .proto_facts import INT_BOUNDS, PY_SCALAR, finite_only, plain_number
from .rules import RuleModel, rule_models
from .reference_page import ReferencePage, build_reference
from .schema import Enum, Extension, Field, Message, Schema, Service, shortest_float32_text, unresolved_imports

DOC_WIDTH = 72


# ------------------------------------------------------------------ IR types


@dataclass(frozen=True, kw_only=True)
class Header:
    generator_version: str
    inputs: tuple[str, ...]
    command: str  # how to regenerate: the whole command line, as the headers print it


@dataclass(frozen=True, kw_only=True)
class Target:
    """One build of the package: where its modules go and what they bind to.

    The standalone build generates its own ``*_pb2`` modules (in a private
    descriptor pool); another build (the annotations' ``targets:``) imports an
    existing project's and copies the hooks module in. Every other fact, docs
    included, comes from the one model.
    """

    name: str
    package: str  # support modules: _runtime, _specs, types (and hooks, copied)
    classes_package: str  # the wrapper class modules
    public_package: str  # where users import the classes from: the docs' examples are written for it
    pb2_package: str  # where the *_pb2 modules of the generated files are imported from
    logger: str  # standalone: the logger's name; else module.attribute of the project's logger object
    standalone: bool  # generates pb2 modules, stubs, the pool, py.typed and the reference page
    # every pb2 module this build's code uses (generated files' from pb2_package), generated ones first
    pb2_imports: tuple[Pb2Import, ...]
    module_members: ModuleMembersModel | None = None  # what its class module defines besides the classes

    def folder(self, dotted: str) -> str:
        return dotted.replace(".", "/")


@dataclass(frozen=True, kw_only=True)
class ModuleMembersModel:
    """What a build's class module defines besides its classes (a target's
    ``module_members``): names imported from a hand-written module the build
    carries, module-level variables, and the module's ``__all__``."""

    module: str  # the class module, dotted inside the classes' package
    source: str | None  # the hand-written module the names come from (copied into the build's package)
    names: tuple[str, ...]
    attributes: tuple[AttributeModel, ...]
    exports: tuple[str, ...] | None  # __all__ (None: the module's classes)


def _target_imports(imports: dict[str, Pb2Import], pb2_package: str) -> tuple[Pb2Import, ...]:
    """A build's records: the generated files' modules come from its pb2_package."""
    records = (
        dataclasses.replace(r, import_from=".".join((pb2_package, *r.folder))) if r.generated else r for r in imports.values()
    )
    return tuple(sorted(records, key=lambda r: (not r.generated, r.alias)))


def standalone_target(package: str, imports: dict[str, Pb2Import]) -> Target:
    return Target(
        name="standalone", package=package, classes_package=package, public_package=package, pb2_package=package,
        logger=package, standalone=True, pb2_imports=_target_imports(imports, package),
    )


@dataclass(frozen=True, kw_only=True)
class ClassRules:
    """What holds for every property of a class: its docs say it once, in
    sections of the class docstring (the templates word them, _notes.j2); a
    property says only where it differs."""

    policy: PolicyModel | None  # compatible mode's answer to a wrong type, for single-value options
    scalars: bool  # it has single-value (scalar) options
    configs: bool  # it has config-dict options
    defaults: bool  # it has options backed by fields: their defaults are the descriptor's
    reference: str | None  # the implementation compatible mode mirrors, named where the docs compare
    differences: tuple[tuple[str, str], ...] = ()  # (section, how the reference differs), from the annotations
    # how the reference differs in what some of the class's members do: (members, text); "" names the class
    member_differences: tuple[tuple[tuple[str, ...], str], ...] = ()

    def difference(self, section: str) -> str | None:
        return next((text for name, text in self.differences if name == section), None)


@dataclass(frozen=True, kw_only=True)
class Doc:
    """Docstring content; the templates lay it out (Google/napoleon style) and
    word its notes (_notes.j2) from the facts here."""

    summary: str
    paragraphs: tuple[str, ...] = ()
    type_text: str | None = None
    default_text: str | None = None
    # what a single value must be (the templates word it, _notes.j2 constraints)
    constraint: tuple[str, int | float] | None = None  # (operator, bound) from the annotations
    constraint_always: bool = False  # enforced in compatible mode too (else in strict mode only)
    choices: tuple[str, ...] | None = None  # the values strict mode accepts
    int_range: tuple[str, int, int] | None = None  # (proto type, lowest, highest)
    finite: bool = False  # strict mode rejects NaN and infinity
    table: tuple[str, ...] = ()  # a config's keys: pre-aligned RST simple-table lines (the template titles it)
    # under the table: the TypedDict whose keys carry the whole doc of each key,
    # when some key's doc says more than its table cell (each doc stated once)
    keys_in_full: str | None = None
    example: str | None = None
    # what the member's notes say (only what is its own: the class's rules are in ``rules``)
    deprecated: bool = False  # [deprecated = true]
    required: bool = False  # proto2 required
    json_name: str | None = None  # a json_name the schema declares
    policy: PolicyModel | None = None  # compatible mode's answer, where it is not the class's
    appended: tuple[str, ...] = ()  # config keys whose lists assigning appends to (the class rule: replaced)
    proto_field: str | None = None  # the proto field read and written, where the property is named otherwise
    environment: str | None = None  # the variable read when an instance is created (annotations: env)
    rules: ClassRules | None = None  # a class's docstring: its shared sections
    lint_rules: tuple[RuleModel, ...] = ()  # rules between fields this member is part of (templates/_rules.j2 words them)


@dataclass(frozen=True, kw_only=True)
class PolicyModel:
    action: str
    error: str | None
    message: str


@dataclass(frozen=True, kw_only=True)
class FieldModel:
    """One field of a generated message, resolved once (``_Builder.field``):
    every spelling of its type that some output needs, its default as the
    docs show it, its documentation, and what the annotations add to what
    the descriptor says (the runtime reads the rest from the descriptor)."""

    message: str  # full name of the message declaring it
    name: str
    out_type: str  # the dict view's type of the key
    in_type: str  # what a setter accepts for the key
    # the two as annotations in a TypedDict's class body (builtins its keys shadow spelled _builtins.int)
    out_annotation: str
    in_annotation: str
    doc_type: str  # docs, key tables and the reference page: "list[int] ", "map<string, int>", "int (int32)"
    stub_get: str  # the pb2 stub: the attribute's type
    stub_init: str  # the pb2 stub: the constructor keyword's type
    stub_is_message: bool
    default_text: str
    doc: str  # the documentation as written (annotations, else the proto comment)
    # from the annotations
    policy: str | None  # compatible-mode policy name: the field's own, else its class's (scalars only)
    policy_message: str | None  # the field's own wording of the policy's message
    class_policy: str | None  # the class-wide policy of its message (stated once per class)
    append: bool
    allow_nonfinite: bool
    constraint: tuple[str, float] | None
    constraint_always: bool
    choices: tuple[str, ...] | None

    @property
    def path(self) -> str:
        return f"{self.message}.{self.name}"

    @property
    def overrides(self) -> tuple[tuple[str, object], ...]:
        """FieldSpec attributes the annotations change (the policy aside)."""
        changes: dict[str, object] = {
            "append": self.append,
            "allow_nonfinite": self.allow_nonfinite,
            "constraint": self.constraint,
            "constraint_always": self.constraint_always,
            "choices": self.choices,
        }
        return tuple((k, v) for k, v in changes.items() if v)

    @property
    def own_policy(self) -> bool:
        """The field's policy differs from its class's (so the specs state it)."""
        return self.policy is not None and (self.policy != self.class_policy or self.policy_message is not None)


@dataclass(frozen=True, kw_only=True)
class SpecOverrides:
    """What the generated ``_specs`` module tells the runtime beyond the descriptors."""

    policies: tuple[tuple[str, PolicyModel], ...]  # the named policies used
    class_policies: tuple[tuple[str, str], ...]  # message full name -> its class-wide policy
    fields: tuple[FieldModel, ...]  # fields with something of their own


@dataclass(frozen=True, kw_only=True)
class EnumModel:
    full_name: str
    pb2_path: str  # attribute path in its pb2 module, e.g. "Outer.K"
    literal_name: str
    values: tuple[tuple[str, int, str], ...]  # name, number, doc
    doc: str
    stub_doc: str = ""  # the whole documentation, verbatim (doc: its first sentence)


@dataclass(frozen=True, kw_only=True)
class TypedDictKey:
    key: str
    out_type: str
    in_type: str
    # the types as annotations in the class body (builtins the keys shadow spelled _builtins.int)
    out_annotation: str
    in_annotation: str
    doc: str  # the field's whole documentation, laid out by doc_layout ("": none): a string after the key's annotation


@dataclass(frozen=True, kw_only=True)
class TypedDictModel:
    full_name: str
    out_name: str
    in_name: str
    keys: tuple[TypedDictKey, ...]
    doc: str  # the message's whole documentation, laid out ("": none); the template names the message first
    functional: bool  # no class body: the docstring after the call lists the keys' docs
    extra_keys: tuple[TypedDictKey, ...] = ()  # keys its setter takes besides the fields (annotations' extra_keys)

    @property
    def in_keys(self) -> tuple[TypedDictKey, ...]:
        """The input TypedDict's keys: the fields', then the extra keys."""
        return self.keys + self.extra_keys

    @property
    def documented(self) -> bool:
        """The message or a key has docs (stated on the input TypedDict only)."""
        return bool(self.doc) or any(k.doc for k in self.keys)


@dataclass(frozen=True, kw_only=True)
class PyiField:
    name: str
    get_type: str
    init_type: str
    is_message: bool
    doc: str = ""  # the field's documentation, verbatim (code blocks and lists kept)
    # [deprecated = true]: a property marked @deprecated (PEP 702), with a marked setter when settable
    deprecated: bool = False
    deprecated_setter: bool = False
    as_property: bool = False  # stubbed as a property (message fields, deprecated fields), not an attribute
    # black's stub style: a blank line after a def with a body that a def follows
    blank_after_getter: bool = False  # between a documented getter and its setter
    blank_after: bool = False


@dataclass(frozen=True, kw_only=True)
class PyiMessage:
    name: str  # local class name in the pb2 module (nested kept nested)
    full_name: str
    doc: str  # the message's documentation, verbatim
    fields: tuple[PyiField, ...]
    nested: tuple[PyiMessage, ...]
    enums: tuple[EnumModel, ...]
    self_name: str  # __init__'s first parameter: "self", unless a field has that name
    has_field_names: tuple[str, ...]  # what HasField accepts (fields with presence, oneofs)
    clear_field_names: tuple[str, ...]  # what ClearField accepts (every field, oneofs)
    extensions: tuple[ExtensionModel, ...]  # declared in its body: class attributes at run time


@dataclass(frozen=True, kw_only=True)
class ExtensionModel:
    """An extension, exposed as protoc's modules expose it: its descriptor
    under its name and its number as ``<NAME>_FIELD_NUMBER``."""

    name: str
    number: int
    constant: str
    plain: bool  # its name works as a Python attribute
    doc: str = ""  # its comment in the schema


@dataclass(frozen=True, kw_only=True)
class Pb2Import:
    """The Python module holding one proto file's protobuf classes, and the
    name generated code binds it to. Decided once per file (``pb2_imports``):
    every template imports pb2 modules through these records, and every type
    expression naming a protobuf class starts with ``alias``."""

    proto_file: str
    import_from: str  # the package holding the module: this package (or a folder in it), or e.g. "google.protobuf"
    module: str  # the module's name in it: "distributed_strategy_pb2", "timestamp_pb2"
    alias: str  # the name generated code binds it to
    generated: bool  # False: a module that exists already (protobuf's well-known types)
    folder: tuple[str, ...] = ()  # generated: its folder inside the package (the proto file's folders)


@dataclass(frozen=True, kw_only=True)
class Pb2Module:
    name: str
    path: str  # of the module inside the package, "/"-separated, no suffix: "google/api/http_pb2"
    proto_file: str
    descriptor: bytes  # serialized FileDescriptorProto (no source info)
    dependencies: tuple[Pb2Import, ...]  # pb2 modules of the files it imports, in import order
    messages: tuple[PyiMessage, ...]  # top-level
    enums: tuple[EnumModel, ...]  # top-level
    uses_maps: bool  # the stub needs Mapping
    uses_deprecated: bool  # the stub marks deprecated fields (typing_extensions.deprecated)
    extensions: tuple[ExtensionModel, ...]  # declared at the file's top level: module attributes
    services: tuple[Service, ...] = ()  # documented in the stub's module docstring (no code is generated for them)


@dataclass(frozen=True, kw_only=True)
class PropertyModel:
    name: str
    field_name: str | None  # None for extra (hook-only) properties
    kind: str  # scalar | config | message | repeated | hook
    getter_type: str
    setter_type: str | None  # None: read-only
    read: str  # getter: direct (the protobuf value) | view (the dict view) | dict | list (a copy)
    fast_type: str | None  # exact Python type accepted without the slow path
    getter_hook: str | None
    setter_hook: str | None
    after_set_hook: str | None
    doc: Doc
    deprecated: bool = False  # the field is [deprecated = true]: the setter warns

    @property
    def direct_set(self) -> bool:
        """Given exactly ``fast_type`` in compatible mode, the value goes
        straight into the message: no hook runs around the setter and there is
        nothing to warn about (the class's __setattr__ does it from a table)."""
        return self.kind == "scalar" and self.fast_type is not None and not (
            self.setter_hook or self.after_set_hook or self.deprecated
        )


@dataclass(frozen=True, kw_only=True)
class ClassModel:
    name: str
    module: str
    message_cls: str  # pb2 expression
    message_full_name: str
    message_attribute: str
    mixin: str | None
    init_hook: str | None
    empty_config_sets: bool  # {} assigned to a config property sets it (annotations: empty_config)
    properties: tuple[PropertyModel, ...]
    doc: Doc  # with the class's rules, which its properties' docs do not repeat
    type_imports: tuple[str, ...] = ()  # names from types.py the properties' types use
    members: MembersModel = dataclasses.field(default_factory=lambda: MembersModel())  # attributes, aliases, env-backed fields
    lint_rules: tuple[RuleModel, ...] = ()  # the rules its lint() checks

    @property
    def direct(self) -> tuple[str, ...]:
        """The plain scalar options (the runtime's ``_direct``)."""
        return tuple(p.name for p in self.properties if p.direct_set)

    @property
    def renamed(self) -> tuple[tuple[str, str], ...]:
        """Properties not named as their fields: (property, field)."""
        return tuple((p.name, p.field_name) for p in self.properties if p.field_name and p.name != p.field_name)

    @property
    def has_views(self) -> bool:
        return any(p.read == "view" and not p.getter_hook for p in self.properties)

    @property
    def uses_builtins(self) -> bool:
        """A property's type spells a builtin it shadows as ``_builtins.X`` (see _unshadowed)."""
        return any("_builtins." in f"{p.getter_type} {p.setter_type}" for p in self.properties)


@dataclass(frozen=True, kw_only=True)
class PackageModel:
    name: str
    header: Header
    hooks_module: str | None
    strict_env: str
    enums: tuple[EnumModel, ...]
    fields: tuple[FieldModel, ...]  # of every generated message, in schema order
    overrides: SpecOverrides
    typed_dicts: tuple[TypedDictModel, ...]
    pb2_modules: tuple[Pb2Module, ...]
    # the package's files live in protobuf's default pool (they import a file
    # this package does not generate, whose standard module is there); else a private pool
    default_pool: bool
    classes: tuple[ClassModel, ...]
    class_modules: tuple[str, ...]  # dotted, inside the classes' package: "distributed_strategy", "google.api.http"
    # folders of the package's modules ("google", "google/api"): each gets an __init__.py
    subpackages: tuple[str, ...]
    class_subpackages: tuple[str, ...]  # those holding class modules (other builds need only these)
    type_names: tuple[str, ...]  # everything types.py defines
    uses_maps: bool  # types.py needs Mapping
    uses_any: bool  # types.py needs Any (dicts for imported message types)
    uses_builtins: bool  # types.py spells a builtin as _builtins.X (a TypedDict key shadows it)
    reference: ReferencePage
    undocumented: tuple[str, ...]  # field paths with neither annotation doc nor proto comment
    exports: tuple[str, ...]
    targets: tuple[Target, ...]  # the standalone build first
    rules: tuple[RuleModel, ...] = ()  # rules between fields (annotations' rules:): lint.py, _rules.py and __main__.py


# ------------------------------------------------------------------- helpers


def _wrap(paragraph: str, width: int = DOC_WIDTH) -> str:
    # textwrap.fill costs ~10 ms a generation. _blocks hands over paragraphs
    # of words between single spaces (no other whitespace, Unicode's included);
    # for those, fill's lines are what one regex finds, ~10x faster
    # (tests/package/test_doc_layout.py holds the two equal).
    if paragraph.split(" ") != paragraph.split():
        return textwrap.fill(paragraph, width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(fitting or long for fitting, long in _line_pattern(width).findall(paragraph))


@functools.cache
def _line_pattern(width: int) -> re.Pattern[str]:
    """A line as fill makes it: the most words that fit in ``width`` (the
    match is greedy), else one longer word alone; then the space after it."""
    return re.compile(rf"(.{{1,{width}}})(?: |\Z)|([^ ]+)(?: |\Z)")


_FENCE = re.compile(r"\s*(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")


def _blocks(text: str) -> list[tuple[bool, str]]:
    """``text`` as blocks, each ``(verbatim, text)``: prose paragraphs with
    their whitespace collapsed (the docs reflow them), and code and lists as
    written: a fenced block (blank lines inside kept), or the part of a
    paragraph from its first indented or list-item line on (an indented code
    block, a bullet or numbered list, with the prose before it a block of its own)."""
    blocks: list[tuple[bool, str]] = []
    paragraph: list[str] = []
    fenced: list[str] = []
    fence = ""

    def end_paragraph() -> None:
        lines = [line.rstrip() for line in paragraph]
        paragraph.clear()
        if not lines:
            return
        cut = next((i for i, line in enumerate(lines) if line[:1].isspace() or _LIST_ITEM.match(line)), len(lines))
        if cut:
            blocks.append((False, " ".join(" ".join(lines[:cut]).split())))
        if cut < len(lines):
            blocks.append((True, textwrap.dedent("\n".join(lines[cut:]))))

    for line in textwrap.dedent(text.strip("\n")).split("\n"):
        if fence:
            fenced.append(line.rstrip())
            if line.strip().startswith(fence):
                blocks.append((True, "\n".join(fenced)))
                fenced.clear()
                fence = ""
            continue
        opening = _FENCE.match(line)
        if opening and line.strip()[len(opening.group(1)):].find(opening.group(1)) != -1:  # opened and closed: ```x```
            end_paragraph()
            blocks.append((True, line.rstrip()))
        elif opening:
            end_paragraph()
            fence = opening.group(1)
            fenced.append(line.rstrip())
        elif line.strip():
            paragraph.append(line)
        else:
            end_paragraph()
    end_paragraph()
    if fenced:  # a fence never closed: kept as written
        blocks.append((True, "\n".join(fenced)))
    return blocks


def _layout(blocks: list[tuple[bool, str]], width: int = DOC_WIDTH) -> tuple[str, ...]:
    return tuple(block if verbatim else _wrap(block, width) for verbatim, block in blocks)


def doc_layout(text: str, width: int = DOC_WIDTH) -> tuple[str, ...]:
    """Every block of ``text`` as a docstring shows it: prose reflowed to
    ``width``, code blocks and lists line for line."""
    return _layout(_blocks(text), width)


def _doc_parts(text: str) -> tuple[str, tuple[str, ...]]:
    """A docstring's summary (the first sentence of the first paragraph) and
    the rest of ``text`` laid out as ``doc_layout`` does: nothing is dropped."""
    blocks = _blocks(text)
    if not blocks:
        return "", ()
    verbatim, first = blocks[0]
    if verbatim:
        return first, _layout(blocks[1:])
    cut = first.find(". ")
    if cut == -1:
        return first, _layout(blocks[1:])
    rest = first[cut + 2 :].strip()
    return first[: cut + 1], _layout(([(False, rest)] if rest else []) + blocks[1:])


def _first_sentence(text: str) -> str:
    """The summary of ``text`` on one line (a table cell)."""
    summary, _ = _doc_parts(text)
    return " ".join(summary.split())


# A Keys table sits 12 columns in (a property's docstring in a class body, under "Keys:"):
# at this width its lines end by column 100
TABLE_WIDTH = 88


def _rst_table(headers: tuple[str, ...], rows: list[tuple[str, ...]], width: int = TABLE_WIDTH) -> tuple[str, ...]:
    """An RST simple table fitting ``width`` where its words allow: cells
    after the first wrap onto continuation lines (first column blank), the
    last column first (down to 20), then the others from the right, then the
    last again (each down to its longest word)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    floors = [max(len(word) for cell in (h, *(r[i] for r in rows)) for word in [*cell.split(), ""]) for i, h in enumerate(headers)]
    last = len(widths) - 1
    for i, floor in [(last, max(20, floors[last])), *((i, floors[i]) for i in range(last - 1, 0, -1)), (last, floors[last])]:
        over = sum(widths) + 2 * last - width
        if over > 0:
            widths[i] = max(floor, widths[i] - over)
    rule = "  ".join("=" * w for w in widths)

    def lines(cells: tuple[str, ...]) -> list[str]:
        wrapped = [[cells[0]], *(_wrap(c, w).split("\n") if c else [""] for c, w in zip(cells[1:], widths[1:]))]
        return [
            "  ".join((col[n] if n < len(col) else "").ljust(w) for col, w in zip(wrapped, widths)).rstrip()
            for n in range(max(map(len, wrapped)))
        ]

    return (rule, *lines(headers), rule, *(x for r in rows for x in lines(r)), rule)


def default_text(schema: Schema, f: Field) -> str:
    """A field's default as the docs show it (also what the API change report compares)."""
    if f.is_map:
        return "{}"
    if f.repeated:
        return "[]"
    if f.type == "message":
        return "every key at its default"
    if f.type == "enum":
        enum = schema.enums[f.type_name]
        return next(v.name for v in enum.values if v.number == f.default)
    if f.type == "bool":
        return repr(f.default)
    if f.type == "float":  # as declared (0.8), not as float32 reads back (0.800000011920929)
        # a Python literal: the shortest decimal is spelled "5e+01" for 50, Python reads it 50.0
        return repr(float(shortest_float32_text(float(f.default))))  # type: ignore[arg-type]
    if f.type == "double":
        return repr(float(f.default))  # type: ignore[arg-type]
    return repr(f.default)


def standard_module(proto_file: str) -> tuple[str, str] | None:
    """(package, module) protobuf itself ships for ``proto_file``, if any: the
    well-known types (``google/protobuf/timestamp.proto`` -> ``google.protobuf``,
    ``timestamp_pb2``)."""
    import importlib.util

    if not proto_file.startswith("google/protobuf/") or not proto_file.endswith(".proto"):
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
        Problem(f"{' and '.join(files)} would both generate {'/'.join(path)}.py", files[0], hint="rename one of the .proto files")
        for path, files in files_of_path.items() if len(files) > 1
    ] + [
        Problem(f"{files[0]} would generate {'/'.join(path)}.py beside a folder of that name", files[0],
                hint="rename the .proto file or the folder")
        for path, files in files_of_path.items() if path in folders
    ]
    if problems:
        raise GeneratorError(problems)
    stems = {path[-1] for path in files_of_path}
    for path, (f,) in files_of_path.items():
        module = f"{path[-1]}_pb2"
        # a file's module is known by its name, by its folders and name where names repeat
        alias = module if sum(p[-1] == path[-1] for p in files_of_path) == 1 else "_".join((*path[:-1], module))
        records[f] = Pb2Import(proto_file=f, import_from=".".join((package, *path[:-1])), module=module, alias=alias,
                               generated=True, folder=path[:-1])
    aliases = {r.alias for r in records.values()} | stems
    problems = unresolved_imports(schema, lambda name: standard_module(name) is not None)
    for f in schema.files:
        for dep in schema.dependencies.get(f, ()):
            standard = standard_module(dep) if dep not in records else None
            if standard is None:
                continue
            alias = standard[1] if standard[1] not in aliases else "_".join([*standard[0].split("."), standard[1]])
            aliases.add(alias)
            records[dep] = Pb2Import(proto_file=dep, import_from=standard[0], module=standard[1], alias=alias, generated=False)
    if problems:
        raise GeneratorError(problems)
    return records


class _Builder:
    def __init__(self, schema: Schema, notes: Annotations, package: str) -> None:
        self.schema = schema
        self.notes = notes
        self.class_policy = {c.message: c.compat for c in notes.classes}
        self._fields: dict[tuple[str, str], FieldModel] = {}
        self._shadowing: dict[str, list[str]] = {}  # message -> its field names that are builtins' names
        self.undocumented: list[str] = []
        self.problems: list[Problem] = []
        self.imports = pb2_imports(schema, package)
        self.module_of_file = {f: record.alias for f, record in self.imports.items()}
        self._children_index: tuple[dict[tuple[str, str], list[Message]], dict[tuple[str, str], list[Enum]]] | None = None

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

    def scalar_type(self, f: Field) -> str:
        if f.type == "enum":
            return "int"
        return PY_SCALAR[f.type]

    def in_scalar_type(self, f: Field) -> str:
        if f.type == "enum":
            return f"int | {naming.enum_literal_name(self.flat(f.type_name))}"
        return PY_SCALAR[f.type]

    def out_type(self, f: Field) -> str:
        """Type of a key as the dict view returns it."""
        if f.is_map:
            value = f.map_value
            v = self.pb2_expr(value.type_name) if value.type == "message" else self.scalar_type(value)
            return f"dict[{self.scalar_type(f.map_key)}, {v}]"
        if f.type == "message" and self.imported(f.type_name):
            return f"list[{self.pb2_expr(f.type_name)}]" if f.repeated else self.pb2_expr(f.type_name)
        if f.type == "message":
            td = naming.typed_dict_names(self.flat(f.type_name))[0]
            return f"list[{td}]" if f.repeated else self.pb2_expr(f.type_name)
        base = self.scalar_type(f)
        return f"list[{base}]" if f.repeated else base

    def in_type(self, f: Field) -> str:
        """Type of a key a setter accepts."""
        if f.is_map:
            value = f.map_value
            if value.type == "message":
                v = self.message_input(value.type_name)
            else:
                v = self.in_scalar_type(value)
            return f"Mapping[{self.scalar_type(f.map_key)}, {v}]"
        if f.type == "message":
            item = self.message_input(f.type_name)
            return f"list[{item}] | tuple[{item}, ...]" if f.repeated else item
        base = self.in_scalar_type(f)
        return f"list[{base}] | tuple[{base}, ...]" if f.repeated else base

    def message_input(self, full_name: str) -> str:
        """What a setter accepts for a message: a dict of its keys or the message
        (an imported type's keys are not typed: no TypedDict is generated for it)."""
        if self.imported(full_name):
            return f"{self.pb2_expr(full_name)} | Mapping[str, Any]"
        return f"{naming.typed_dict_names(self.flat(full_name))[1]} | {self.pb2_expr(full_name)}"

    def doc_type(self, f: Field) -> str:
        if f.is_map:
            return f"map<{f.map_key.type}, {self.doc_item_type(f.map_value)}>"
        item = self.doc_item_type(f)
        return f"list[{item}]" if f.repeated else item

    def doc_item_type(self, f: Field) -> str:
        if f.type == "message":
            return f.type_name if self.imported(f.type_name) else self.local(f.type_name)
        if f.type == "enum":
            return f"{self.local(f.type_name)} (enum)"
        py = PY_SCALAR[f.type]
        if f.type in ("bool", "string", "bytes", "double"):
            return py
        return f"{py} (float32)" if f.type == "float" else f"{py} ({f.type})"

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
            policy_message = note.compat_message if policy and note and note.compat_message else None
        stub = self.pyi_field(f, self.module_of_file[message.file])
        names = self._shadowing.get(message.full_name)
        if names is None:  # once per message: per field it cost the square of a message's size
            names = self._shadowing[message.full_name] = [x.name for x in message.fields if x.name in naming.BUILTIN_NAMES]
        out_type, in_type = self.out_type(f), self.in_type(f)
        record = self._fields[key] = FieldModel(
            message=message.full_name,
            name=f.name,
            out_type=out_type,
            in_type=in_type,
            out_annotation=naming.class_body_annotation(out_type, names),
            in_annotation=naming.class_body_annotation(in_type, names),
            doc_type=self.doc_type(f),
            stub_get=stub.get_type,
            stub_init=stub.init_type,
            stub_is_message=stub.is_message,
            default_text=default_text(self.schema, f),
            doc=((note.doc if note and note.doc else None) or f.doc).strip(),
            policy=policy,
            policy_message=policy_message,
            class_policy=class_policy,
            append=bool(note and note.repeated == "append"),
            allow_nonfinite=bool(note and note.allow_nonfinite),
            constraint=note.constraint if note else None,
            constraint_always=bool(note and note.constraint and note.enforce_constraint == "always"),
            choices=note.choices if note else None,
        )
        return record

    def overrides(self, fields: tuple[FieldModel, ...]) -> SpecOverrides:
        """What ``_specs`` states: each class-wide policy once, then the fields with their own."""
        own = tuple(f for f in fields if f.own_policy or f.overrides)
        used = {f.policy for f in own if f.own_policy} | {c.compat for c in self.notes.classes if c.compat}
        return SpecOverrides(
            policies=tuple(
                (name, p) for name in self.notes.compat_policies if name in used for p in [self.policy_model(name)] if p
            ),
            class_policies=tuple((c.message, c.compat) for c in self.notes.classes if c.compat),
            fields=own,
        )

    # -- typed dicts ----------------------------------------------------------

    def typed_dict(self, message: Message) -> TypedDictModel:
        out_name, in_name = naming.typed_dict_names(message.flat)
        names = [f.name for f in message.fields]
        keys = tuple(
            TypedDictKey(
                key=r.name,
                out_type=r.out_type,
                in_type=r.in_type,
                out_annotation=r.out_annotation,
                in_annotation=r.in_annotation,
                doc="\n\n".join(doc_layout(r.doc)),
            )
            for r in (self.field(message, f) for f in message.fields)
        )
        extras = self.notes.extra_keys.get(message.full_name, ())
        extra_keys = tuple(
            TypedDictKey(key=x.name, out_type=x.type, in_type=x.type, out_annotation=x.type, in_annotation=x.type,
                         doc="\n\n".join(doc_layout(x.doc)))
            for x in extras
        )
        # an extra key named like a builtin would shadow it for the fields' annotations: no class body then
        functional = naming.needs_functional_typed_dict(names + [x.name for x in extras]) or any(
            x.name in naming.BUILTIN_NAMES for x in extras
        )
        return TypedDictModel(
            extra_keys=extra_keys,
            full_name=message.full_name,
            out_name=out_name,
            in_name=in_name,
            keys=keys,
            doc="\n\n".join(doc_layout(self.notes.message_docs.get(message.full_name) or message.doc)),
            functional=functional,
        )

    def key_table(self, message: Message) -> tuple[str, ...]:
        rows = [
            (
                f.name,
                self.field(message, f).doc_type,
                self.field(message, f).default_text,
                " ".join([*_field_marks(f), _first_sentence(self.field_doc(message, f, self.note(message.full_name, f.name)))]),
            )
            for f in message.fields
        ]
        if not rows:
            return ()
        return _rst_table(("key", "type", "default", "meaning"), rows)

    def keys_in_full(self, message: Message) -> str | None:
        """The input TypedDict of ``message`` when a key's table cell (its
        first sentence) does not say all of its doc: that TypedDict's keys
        carry every doc whole, so the property's docs point there."""
        for f in message.fields:
            text = self.field(message, f).doc
            if " ".join(text.split()) != _first_sentence(text):
                return naming.typed_dict_names(message.flat)[1]
        return None

    # -- pb2 / pyi ------------------------------------------------------------

    def enum_model(self, enum: Enum) -> EnumModel:
        note = self.notes.enums.get(enum.full_name)
        _, path = self.pb2_path(enum.full_name)
        values = tuple(
            (v.name, v.number, (note.values.get(v.name) if note else None) or v.doc) for v in enum.values
        )
        return EnumModel(
            full_name=enum.full_name,
            pb2_path=path,
            literal_name=naming.enum_literal_name(enum.flat),
            values=values,
            doc=_first_sentence((note.doc if note and note.doc else None) or enum.doc)
            or f"Names of ``{enum.full_name}``.",
            stub_doc=((note.doc if note and note.doc else None) or enum.doc).strip(),
        )

    def pyi_field(self, f: Field, module: str) -> PyiField:
        """A field's types in the stub. Builtins and typing names are spelled
        through private aliases (``_builtins.int``, ``_Iterable``): a field or
        message may be named ``int``, ``property`` or ``Mapping``."""
        if f.is_map:
            value = f.map_value
            key = self.stub_scalar(f.map_key)
            v = self.pyi_ref(value.type_name, module) if value.type == "message" else self.stub_scalar(value)
            container = "MessageMap" if value.type == "message" else "ScalarMap"
            return PyiField(name=f.name, get_type=f"_containers.{container}[{key}, {v}]",
                            init_type=f"_Mapping[{key}, {v}] | None", is_message=True)
        if f.type == "message":
            ref = self.pyi_ref(f.type_name, module)
            if f.repeated:
                return PyiField(
                    name=f.name,
                    get_type=f"_containers.RepeatedCompositeFieldContainer[{ref}]",
                    init_type=f"_Iterable[{ref}] | None",
                    is_message=True,
                )
            return PyiField(name=f.name, get_type=ref, init_type=f"{ref} | None", is_message=True)
        base = self.stub_scalar(f)
        if f.repeated:
            return PyiField(
                name=f.name,
                get_type=f"_containers.RepeatedScalarFieldContainer[{base}]",
                init_type=f"_Iterable[{base}] | None",
                is_message=False,
            )
        return PyiField(name=f.name, get_type=base, init_type=f"{base} | None", is_message=False)

    def stub_scalar(self, f: Field) -> str:
        return f"_builtins.{self.scalar_type(f)}"

    def pyi_ref(self, full_name: str, current: str) -> str:
        module, path = self.pb2_path(full_name)
        return path if module == current else f"{module}.{path}"

    def _children(self) -> tuple[dict[tuple[str, str], list[Message]], dict[tuple[str, str], list[Enum]]]:
        """Nested messages and enums by (file, parent name), built once (linear)."""
        if self._children_index is None:
            messages: dict[tuple[str, str], list[Message]] = {}
            enums: dict[tuple[str, str], list[Enum]] = {}
            for m in self.schema.messages.values():
                if "." in m.name and not m.is_map_entry:
                    messages.setdefault((m.file, m.name.rsplit(".", 1)[0]), []).append(m)
            for e in self.schema.enums.values():
                if "." in e.name:
                    enums.setdefault((e.file, e.name.rsplit(".", 1)[0]), []).append(e)
            self._children_index = (messages, enums)
        return self._children_index

    def pyi_message(self, message: Message) -> PyiMessage:
        nested_messages, nested_enums = self._children()
        key = (message.file, message.name)
        nested = tuple(self.pyi_message(m) for m in nested_messages.get(key, []))
        enums = tuple(self.enum_model(e) for e in nested_enums.get(key, []))
        stubbed = [
            PyiField(name=f.name, get_type=r.stub_get, init_type=r.stub_init, is_message=r.stub_is_message, doc=r.doc)
            for f in message.fields if naming.is_identifier(f.name)
            for r in [self.field(message, f)]
        ]
        deprecated = {f.name for f in message.fields if f.deprecated}
        settable = {f.name for f in message.fields if not f.repeated and f.type != "message"}
        stubbed = [
            dataclasses.replace(
                f, deprecated=f.name in deprecated, deprecated_setter=f.name in deprecated and f.name in settable,
                as_property=f.is_message or f.name in deprecated,
            )
            for f in stubbed
        ]
        shown = [f for f in stubbed if naming.is_plain_attribute(f.name)]
        followed_by_def = {a.name for a, b in zip(shown, [*shown[1:], None]) if b is None or b.as_property}
        fields = tuple(
            dataclasses.replace(
                f,
                blank_after_getter=f.deprecated_setter and bool(f.doc),
                blank_after=f.as_property and bool(f.doc) and not f.deprecated_setter and f.name in followed_by_def,
            )
            for f in stubbed
        )
        has = [f.name for f in message.fields if f.has_presence or f.type == "message" and not f.repeated]
        clearable = [f.name for f in message.fields] + list(message.oneofs)
        return PyiMessage(
            name=message.name.rsplit(".", 1)[-1],
            full_name=message.full_name,
            doc=_with_oneof_docs((self.notes.message_docs.get(message.full_name) or message.doc).strip(), message),
            fields=fields,
            nested=nested,
            enums=enums,
            self_name=next(n for n in ("self", "self_", "_self", "__self") if message.field(n) is None),
            has_field_names=tuple(has + list(message.oneofs)),
            clear_field_names=tuple(clearable),
            extensions=_extension_models(message.extensions),
        )

    def pb2_modules(self) -> tuple[Pb2Module, ...]:
        from google.protobuf import descriptor_pb2

        modules = []
        by_file: dict[str, list[Message]] = {}  # each file's messages, nested ones included (one pass, not one per file)
        for m in self.schema.messages.values():
            by_file.setdefault(m.file, []).append(m)
        enums_by_file: dict[str, list[Enum]] = {}
        for e in self.schema.enums.values():
            if "." not in e.name:
                enums_by_file.setdefault(e.file, []).append(e)
        for raw in self.schema.file_protos:
            fp = descriptor_pb2.FileDescriptorProto()
            fp.ParseFromString(raw)
            if fp.name not in self.schema.local_files:
                continue
            in_file = by_file.get(fp.name, [])
            messages = tuple(self.pyi_message(m) for m in in_file if "." not in m.name)
            enums = tuple(self.enum_model(e) for e in enums_by_file.get(fp.name, []))
            modules.append(
                Pb2Module(
                    name=self.imports[fp.name].module,
                    path="/".join((*self.imports[fp.name].folder, self.imports[fp.name].module)),
                    proto_file=fp.name,
                    descriptor=raw,
                    dependencies=tuple(self.imports[dep] for dep in fp.dependency),
                    messages=messages,
                    enums=enums,
                    uses_maps=any(f.is_map for m in in_file for f in m.fields),
                    uses_deprecated=any(f.deprecated for m in in_file for f in m.fields),
                    extensions=_extension_models(self.schema.file_extensions.get(fp.name, ())),
                    services=self.schema.services.get(fp.name, ()),
                )
            )
        return tuple(modules)

    # -- wrapper classes ------------------------------------------------------

    def class_model(self, cls: ClassNote, hook_members: frozenset[str]) -> ClassModel:
        message = self.schema.messages[cls.message]
        reserved = set(naming.WRAPPER_MEMBERS) | {cls.message_attribute} | set(hook_members)
        reserved |= {p.name for p in cls.extra_properties} | member_names(cls)
        if any(r.message == cls.message for r in self.notes.rules):
            reserved.add("lint")  # the class's lint() method
        properties: list[PropertyModel] = []
        used: dict[str, str] = {}
        for f in message.fields:
            note = self.note(message.full_name, f.name)
            if note and note.hidden:
                self.field_doc(message, f, note)  # still counted for documentation
                continue
            name = note.property if note and note.property else naming.python_member_name(f.name, reserved)
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
            if not naming.is_identifier(name) or name in naming.WRAPPER_MEMBERS or name == cls.message_attribute:
                self.problems.append(
                    Problem(
                        f"{message.full_name}.{f.name}: property name {name!r} is not usable on class {cls.name}",
                        self.notes.path,
                        note.line if note else None,
                    )
                )
                continue
            used[name] = f.name
            properties.append(self.field_property(message, f, note, name))
        for extra in cls.extra_properties:
            summary, paragraphs = _doc_parts(extra.doc)
            properties.append(
                PropertyModel(
                    name=extra.name,
                    field_name=None,
                    kind="hook",
                    getter_type=extra.type,
                    setter_type=(extra.setter_type or extra.type) if extra.setter else None,
                    read="direct",
                    fast_type=None,
                    getter_hook=extra.getter,
                    setter_hook=extra.setter,
                    after_set_hook=None,
                    doc=Doc(
                        summary=summary,
                        paragraphs=paragraphs,
                        type_text=extra.type,
                        example=extra.example,
                    ),
                )
            )
        doc_text = cls.doc or self.notes.message_docs.get(message.full_name) or message.doc
        summary, paragraphs = _doc_parts(doc_text or f"Typed view of ``{message.full_name}``.")
        rules = ClassRules(
            policy=self.policy_model(cls.compat),
            scalars=any(p.kind == "scalar" for p in properties),
            # a property of a message field (dict or message view) takes a dict, as the section says
            configs=any(
                p.field_name and (f := message.field(p.field_name)) is not None and f.type == "message"
                and not f.repeated and not self.imported(f.type_name)
                for p in properties
            ),
            defaults=any(p.field_name for p in properties),
            reference=self.notes.reference,
            differences=self.notes.differences,
            member_differences=self.member_differences(cls, {p.name for p in properties} | set(hook_members)),
        )
        return ClassModel(
            name=cls.name,
            module=".".join(naming.module_path_for_proto(message.file)),
            message_cls=self.pb2_expr(message.full_name),
            message_full_name=message.full_name,
            message_attribute=cls.message_attribute,
            mixin=cls.mixin,
            init_hook=cls.init_hook,
            empty_config_sets=cls.empty_config == "set",
            properties=_unshadowed(properties),
            members=members_model(self, cls, message, hook_members, {p.name for p in properties}),
            doc=Doc(summary=summary, paragraphs=paragraphs, example=cls.example, rules=rules),
        )

    def member_differences(self, cls: ClassNote, members: set[str]) -> tuple[tuple[tuple[str, ...], str], ...]:
        """The annotations' member differences that name ``cls`` or one of its
        members (``members``: its properties and hook members; the rest are
        the annotations' attributes, aliases and env export, and the runtime's)."""
        known = members | member_names(cls) | set(naming.WRAPPER_MEMBERS) | {cls.message_attribute}
        found = []
        for entry in self.notes.member_differences:
            mine = []
            for path in entry.of:
                owner, _, member = path.partition(".")
                if owner != cls.name:
                    continue
                if member and member not in known:
                    guess = closest(member, known)
                    self.problems.append(Problem(
                        f"reference.differences.members.{entry.name}: {cls.name} has no member {member!r}",
                        self.notes.path, entry.line, hint=f"did you mean {guess!r}?" if guess else None,
                    ))
                mine.append(member)
            if mine:
                found.append((tuple(mine), entry.text))
        return tuple(found)

    def field_property(
        self, message: Message, f: Field, note: FieldNote | None, name: str
    ) -> PropertyModel:
        record = self.field(message, f)
        text = self.field_doc(message, f, note)
        summary, paragraphs = _doc_parts(text)
        view = (note.view if note else None) or "dict"
        policy = None
        appended: list[str] = []
        limits: dict[str, object] = {}  # Doc's constraint fields
        table: tuple[str, ...] = ()
        keys_in_full: str | None = None
        read = "direct"
        if f.type == "message" and not f.repeated and self.imported(f.type_name):
            # a well-known type: the standard message itself; a dict sets its fields
            kind = "message"
            getter_type, setter_type, type_text = record.out_type, record.in_type, record.doc_type
        elif f.type == "message" and not f.repeated:
            target = self.schema.messages[f.type_name]
            kind = "config" if view == "dict" else "message"
            if kind == "config":
                read = "view"
            out_name = naming.typed_dict_names(target.flat)[0]
            getter_type = out_name if kind == "config" else record.out_type
            setter_type = record.in_type
            table = self.key_table(target)
            keys_in_full = self.keys_in_full(target)
            # the rules of assigning a dict are the class's (said once); appending is this key's own
            appended = [x.name for x in target.fields if self.field(target, x).append]
            type_text = getter_type if kind == "config" else record.doc_type
        elif f.repeated or f.is_map:
            kind = "repeated"
            getter_type = record.out_type
            setter_type = record.in_type
            type_text = record.doc_type
            if f.type == "message" and not f.is_map:
                getter_type = f"_containers.RepeatedCompositeFieldContainer[{self.pb2_expr(f.type_name)}]"
            else:
                read = "dict" if f.is_map else "list"
        else:
            kind = "scalar"
            getter_type, setter_type, type_text = record.out_type, record.in_type, record.doc_type
            if record.policy != record.class_policy:  # the class's policy: said once, by the class
                policy = self.policy_model(record.policy)
            if note and note.constraint:
                op, bound = note.constraint
                limits["constraint"] = (op, plain_number(bound))
                limits["constraint_always"] = note.enforce_constraint == "always"
            if note and note.choices:
                limits["choices"] = note.choices
            if f.type in INT_BOUNDS:
                limits["int_range"] = (f.type, *INT_BOUNDS[f.type])
            limits["finite"] = finite_only(f.type, bool(note and note.allow_nonfinite))
        if note and note.type:
            getter_type = note.type
        if note and note.setter_type:
            setter_type = note.setter_type
        fast_type = None
        if kind == "scalar" and f.type != "enum" and not (note and note.constraint and note.enforce_constraint == "always"):
            fast_type = PY_SCALAR[f.type]
        doc = Doc(
            summary=summary,
            paragraphs=paragraphs,
            type_text=type_text,
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
            environment=note.env.variable if note and note.env and note.env.read else None,
        )
        return PropertyModel(
            name=name,
            field_name=f.name,
            kind=kind,
            getter_type=getter_type,
            setter_type=setter_type,
            read=read,
            fast_type=fast_type,
            getter_hook=note.getter if note else None,
            setter_hook=note.setter if note else None,
            after_set_hook=note.after_set if note else None,
            doc=doc,
            deprecated=f.deprecated,
        )

def _extension_models(extensions: Iterable[Extension]) -> tuple[ExtensionModel, ...]:
    return tuple(
        ExtensionModel(name=x.name, number=x.number, constant=f"{x.name.upper()}_FIELD_NUMBER", plain=naming.is_plain_attribute(x.name),
                       doc=x.doc)
        for x in extensions
    )


def _unshadowed(properties: list[PropertyModel]) -> tuple[PropertyModel, ...]:
    """The properties with their types as annotations in the class body: a
    property named like a builtin (``int``, ``bool``) shadows it there, so
    such a builtin is spelled ``_builtins.int``."""
    names = [p.name for p in properties]
    return tuple(
        dataclasses.replace(
            p, getter_type=naming.class_body_annotation(p.getter_type, names),
            setter_type=naming.class_body_annotation(p.setter_type, names) if p.setter_type else None,
        )
        for p in properties
    )


def _with_oneof_docs(doc: str, message: Message) -> str:
    """A message's stub docs, then a paragraph per documented oneof (a oneof
    has no attribute of its own to carry them)."""
    members: dict[str, list[str]] = {}
    for f in message.fields:
        if f.oneof is not None:
            members.setdefault(f.oneof, []).append(f"``{f.name}``")
    oneofs = [
        f"Oneof ``{name}`` ({', '.join(members.get(name, []))}): {text}"
        for name, text in zip(message.oneofs, message.oneof_docs) if text
    ]
    return "\n\n".join([doc, *oneofs] if doc else oneofs)


def _field_marks(f: Field) -> list[str]:
    """The same facts in a key table's few words."""
    return [
        *(["(deprecated)"] if f.deprecated else []),
        *(["(required)"] if f.label == "required" else []),
        *([f"(JSON ``{f.json_name}``)"] if f.json_name else []),
    ]


def _folders(folders: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """Every folder and the folders above it, "/"-separated, sorted."""
    return tuple(sorted({"/".join(folder[:i]) for folder in folders for i in range(1, len(folder) + 1)}))


def _names_used(cls: ClassModel, order: dict[str, list[int]], names: list[str]) -> tuple[str, ...]:
    """Which of ``names`` the property annotations of ``cls`` mention, in their
    order (``order``: name -> its places in ``names``; a scan of ``names`` per
    class cost classes × messages)."""
    words: set[str] = set()
    for prop in cls.properties:
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f"{prop.getter_type} {prop.setter_type or ''}"))
    return tuple(names[i] for i in sorted(i for word in words for i in order.get(word, ())))


def _with_rules(cls: ClassModel, rules: tuple[RuleModel, ...]) -> ClassModel:
    """The class with its rules, and each property's docs with the rules it is part of."""
    own = tuple(r for r in rules if r.message == cls.message_full_name)
    if not own:
        return cls
    properties = tuple(
        dataclasses.replace(p, doc=dataclasses.replace(p.doc, lint_rules=touching))
        if (touching := tuple(r for r in own if r.touches(p.name))) else p
        for p in cls.properties
    )
    return dataclasses.replace(cls, properties=properties, lint_rules=own)


def build_model(schema: Schema, notes: Annotations, package: str, header: Header, hook_members: dict[str, frozenset[str]]) -> PackageModel:
    """Resolve everything the templates need. ``hook_members``: mixin -> names."""
    b = _Builder(schema, notes, package)
    local_messages = [m for m in schema.messages.values() if not m.is_map_entry]
    fields = tuple(b.field(m, f) for m in local_messages for f in m.fields)
    enums = tuple(b.enum_model(e) for e in schema.enums.values())
    typed_dicts = tuple(b.typed_dict(m) for m in local_messages)
    classes = tuple(b.class_model(c, hook_members.get(c.mixin or "", frozenset())) for c in notes.classes)
    type_names = [e.literal_name for e in enums] + [n for td in typed_dicts for n in (td.out_name, td.in_name)]
    order: dict[str, list[int]] = {}
    for i, name in enumerate(type_names):
        order.setdefault(name, []).append(i)
    classes = tuple(dataclasses.replace(c, type_imports=_names_used(c, order, type_names)) for c in classes)
    rules = rule_models(
        schema, notes.rules, {c.message_full_name: {p.field_name: p.name for p in c.properties if p.field_name} for c in classes}
    )
    classes = tuple(_with_rules(c, rules) for c in classes)
    # every message field counts for documentation, even without a property
    for m in local_messages:
        for f in m.fields:
            b.field_doc(m, f, b.note(m.full_name, f.name))
    if b.problems:
        raise GeneratorError(b.problems)
    exports = sorted({c.name for c in classes})
    return PackageModel(
        name=package,
        header=header,
        hooks_module=notes.hooks_module,
        strict_env=notes.strict_env or naming.strict_env(package),
        enums=enums,
        fields=fields,
        overrides=b.overrides(fields),
        typed_dicts=typed_dicts,
        pb2_modules=b.pb2_modules(),
        default_pool=not all(r.generated for r in b.imports.values()),
        classes=classes,
        class_modules=tuple(sorted({c.module for c in classes})),
        subpackages=_folders(r.folder for r in b.imports.values() if r.generated),
        class_subpackages=_folders(tuple(c.module.split(".")[:-1]) for c in classes),
        type_names=tuple(type_names),
        uses_maps=any(f.is_map or b.imported(f.type_name) for m in local_messages for f in m.fields),
        uses_any=any(b.imported(x.type_name) for m in local_messages for f in m.fields for x in (f, f.map_value) if x),
        uses_builtins=any(
            k.out_annotation != k.out_type or k.in_annotation != k.in_type
            for td in typed_dicts if not td.functional for k in td.in_keys
        ),
        reference=build_reference(b, classes, _doc_parts),
        rules=rules,
        undocumented=tuple(sorted(set(b.undocumented))),
        exports=tuple(exports),
        targets=(
            standalone_target(package, b.imports),
            *(
                Target(name=t.name, package=t.package, classes_package=t.classes_package, public_package=t.public_package,
                       pb2_package=t.pb2_package, logger=t.logger, standalone=False,
                       pb2_imports=_target_imports(b.imports, t.pb2_package),
                       module_members=module_members)
                for t in notes.targets
                for module_members in [_module_members(b, t.name, t.module_members, classes)]
            ),
        ),
    )


def _module_members(
    b: _Builder, target: str, note: ModuleMembersNote | None, classes: tuple[ClassModel, ...]
) -> ModuleMembersModel | None:
    """A target's ``module_members``, checked against its class modules: which
    module (the only one, unless named), and a name defined once there."""
    if note is None:
        return None
    where = f"targets.{target}.module_members"
    modules = sorted({c.module for c in classes})
    module = note.module or (modules[0] if len(modules) == 1 else None)
    if module not in modules:
        raise GeneratorError(Problem(
            f"{where}.module: " + (f"{module!r} is not a class module" if module else "the build has several class modules; name one"),
            b.notes.path, note.line, hint=f"class modules: {', '.join(modules)}",
        ))
    mine = {c.name for c in classes if c.module == module}
    # what the class module defines itself (classes.py.j2): a member may not take one of those names
    used = mine | {"annotations", "TYPE_CHECKING", "cast", "_specs", "_runtime", "__all__", b.notes.hooks_module or ""}
    used |= {r.alias for r in b.imports.values()} | {f"_{c}_init" for c in mine} | {f"_{c}_ENV" for c in mine}
    for name in [*note.names, *(a.name for a in note.attributes)]:
        if name in used:
            b.problems.append(Problem(f"{where}: {name!r} is a name the class module {module} already uses", b.notes.path, note.line))
    defined = mine | set(note.names) | {a.name for a in note.attributes}
    for name in note.exports or ():
        if name not in defined:
            b.problems.append(Problem(f"{where}.all: {module} defines no {name!r}", b.notes.path, note.line,
                                      hint=f"it defines: {', '.join(sorted(defined))}"))
    if b.problems:
        raise GeneratorError(b.problems)
    return ModuleMembersModel(
        module=module, source=note.source, names=note.names, exports=note.exports,
        attributes=tuple(AttributeModel(name=a.name, default=a.default, type=a.type, doc=a.doc) for a in note.attributes),
    )


# ------------------------------------------- members that are not properties


@dataclass(frozen=True, kw_only=True)
class AttributeModel:
    """A plain instance attribute: a slot set to a fresh ``default`` per instance."""

    name: str
    default: Any  # a Python literal value (the template spells it with pyrepr)
    type: str
    doc: str | None


@dataclass(frozen=True, kw_only=True)
class AliasModel:
    """A one-line method writing one field as protobuf does."""

    name: str
    parameter: str
    parameter_type: str
    field_name: str
    action: str  # set | extend (repeated) | copy (message: CopyFrom)
    convert: str | None  # "str": str(value) is stored


@dataclass(frozen=True, kw_only=True)
class EnvFieldModel:
    variable: str
    field_name: str
    read: bool  # read when an instance is created, where set
    kind: str | None  # the variable's kind (runtime kinds: bool int float str) when not the field's


@dataclass(frozen=True, kw_only=True)
class MembersModel:
    """What a class has besides properties: plain attributes, aliases, env-backed fields."""

    attributes: tuple[AttributeModel, ...] = ()
    aliases: tuple[AliasModel, ...] = ()
    env_fields: tuple[EnvFieldModel, ...] = ()
    env_export: str | None = None  # the generated method exporting the env-backed fields
    env_export_doc: str | None = None
    env_source: str | None = None  # hook: a mapping of flags to use instead of os.environ, or None

    @property
    def env_read(self) -> bool:
        return any(e.read for e in self.env_fields)

    @property
    def init(self) -> bool:
        """Something to do when an instance is created (a generated init function)."""
        return self.env_read or bool(self.attributes)


def members_model(
    b: Any, cls: ClassNote, message: Message, hook_members: frozenset[str], property_names: set[str]
) -> MembersModel:
    """The class's attributes, aliases and env-backed fields; a name another
    member of the class already has is a problem naming the annotation line."""
    taken = property_names | set(hook_members) | set(naming.WRAPPER_MEMBERS) | {cls.message_attribute}
    for name, line in [(a.name, a.line) for a in cls.attributes] + [(a.name, a.line) for a in cls.aliases] + (
        [(cls.environment.export, cls.environment.line)] if cls.environment and cls.environment.export else []
    ):
        if name in taken:
            owner = "the hooks class " + cls.mixin if name in hook_members and cls.mixin else "a property or member"
            b.problems.append(
                Problem(f"classes.{cls.name}: {name!r} is already {owner} of {cls.name}", b.notes.path, line,
                        hint="rename it, or remove the other definition")
            )
    aliases = []
    for alias in cls.aliases:
        f = message.field(alias.field)
        assert f is not None  # checked with the annotations
        if alias.convert:
            action, parameter_type = "set", "object"
        elif f.type == "message" and f.repeated:
            item = b.pb2_expr(f.type_name)
            action, parameter_type = "extend", f"list[{item}] | tuple[{item}, ...]"
        elif f.type == "message":
            action, parameter_type = "copy", b.pb2_expr(f.type_name)
        elif f.repeated:
            item = b.scalar_type(f)
            action, parameter_type = "extend", f"list[{item}] | tuple[{item}, ...]"
        else:
            action, parameter_type = "set", b.scalar_type(f)
        aliases.append(
            AliasModel(name=alias.name, parameter=alias.parameter, parameter_type=parameter_type, field_name=f.name,
                       action=action, convert=alias.convert)
        )
    notes = b.notes.messages.get(message.full_name, {})
    env_fields = tuple(
        EnvFieldModel(variable=n.env.variable, field_name=f.name, read=n.env.read, kind=n.env.type)
        for f in message.fields
        if (n := notes.get(f.name)) is not None and n.env is not None
    )
    env = cls.environment
    return MembersModel(
        attributes=tuple(AttributeModel(name=a.name, default=a.default, type=a.type, doc=a.doc) for a in cls.attributes),
        aliases=tuple(aliases),
        env_fields=env_fields,
        env_export=env.export if env else None,
        env_export_doc=env.doc if env else None,
        env_source=env.source if env else None,
    )
