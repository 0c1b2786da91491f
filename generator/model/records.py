"""The model's data (stage 4): the frozen records (msgspec Structs) the templates read,
with the small derived facts each computes from its own fields: the package
and its classes, a class's members besides properties, the protobuf side
(pb2 modules and their stubs) and the Markdown reference page.

Built by generator.model.build (with members, stubs and reference_page);
nothing here reads the schema or the annotations."""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from ..annotations.rules import RuleModel
from ..schema.schema import Service
from .typeref import Import, TypeRef

# ------------------------------------------------------------------ IR types

# What a property stands for: a single value, a config dict (a message seen as
# a dict), a message, a list or map, or a value only hooks compute.
PropertyKind = Literal["scalar", "config", "message", "repeated", "hook"]
# How a getter reads: the protobuf value itself, the dict view of a message,
# or a copy (a dict of a map, a list of a repeated field); an enum's member, or
# a list of them.
PropertyRead = Literal[
    "direct",
    "view",
    "dict",
    "list",
    "enum",
    "enum_list",
    "message_list",
    "message_map",
    "record",  # a Record's message field: its class's instance, live
]


class Header(msgspec.Struct, frozen=True, kw_only=True):
    generator_version: str
    inputs: tuple[str, ...]
    command: str  # how to regenerate: the whole command line, as the headers print it
    # the runtime distribution the standalone package needs, as pip takes it
    # (runtime = "dependency"); None: the package carries its own copy
    runtime: str | None = None


class Target(msgspec.Struct, frozen=True, kw_only=True):
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
    standalone: (
        bool  # generates pb2 modules, stubs, the pool, py.typed and the reference page
    )
    # every pb2 module this build's code uses (generated files' from pb2_package), generated ones first
    pb2_imports: tuple[Pb2Import, ...]
    module_members: ModuleMembersModel | None = (
        None  # what its class module defines besides the classes
    )

    def folder(self, dotted: str) -> str:
        return dotted.replace(".", "/")


def target_imports(
    imports: dict[str, Pb2Import], pb2_package: str
) -> tuple[Pb2Import, ...]:
    """A build's records: the generated files' modules come from its pb2_package."""
    records = (
        (
            msgspec.structs.replace(r, import_from=".".join((pb2_package, *r.folder)))
            if r.generated
            else r
        )
        for r in imports.values()
    )
    return tuple(sorted(records, key=lambda r: (not r.generated, r.alias)))


def standalone_target(package: str, imports: dict[str, Pb2Import]) -> Target:
    return Target(
        name="standalone",
        package=package,
        classes_package=package,
        public_package=package,
        pb2_package=package,
        logger=package,
        standalone=True,
        pb2_imports=target_imports(imports, package),
    )


class ClassRules(msgspec.Struct, frozen=True, kw_only=True):
    """What holds for every property of a class: its docs say it once, in
    sections of the class docstring (the templates word them, _notes.j2); a
    property says only where it differs."""

    policy: (
        PolicyModel | None
    )  # compatible mode's answer to a wrong type, for single-value options
    scalars: bool  # it has single-value (scalar) options
    configs: bool  # it has config-dict options
    defaults: (
        bool  # it has options backed by fields: their defaults are the descriptor's
    )
    reference: (
        str | None
    )  # the implementation compatible mode mirrors, named where the docs compare
    differences: tuple[
        tuple[str, str], ...
    ] = ()  # (section, how the reference differs), from the annotations
    # how the reference differs in what some of the class's members do: (members, text); "" names the class
    member_differences: tuple[tuple[tuple[str, ...], str], ...] = ()

    def difference(self, section: str) -> str | None:
        return next((text for name, text in self.differences if name == section), None)


class Doc(msgspec.Struct, frozen=True, kw_only=True):
    """Docstring content; the templates lay it out (Google/napoleon style) and
    word its notes (_notes.j2) from the facts here."""

    summary: str
    paragraphs: tuple[str, ...] = ()
    type_text: str | None = None
    default_text: str | None = None
    # what a single value must be (the templates word it, _notes.j2 constraints)
    constraint: tuple[str, int | float] | None = (
        None  # (operator, bound) from the annotations
    )
    constraint_always: bool = (
        False  # enforced in compatible mode too (else in strict mode only)
    )
    choices: tuple[str, ...] | None = None  # the values strict mode accepts
    int_range: tuple[str, int, int] | None = None  # (proto type, lowest, highest)
    finite: bool = False  # strict mode rejects NaN and infinity
    table: tuple[
        str, ...
    ] = ()  # a config's keys: pre-aligned RST simple-table lines (the template titles it)
    # under the table: the TypedDict whose keys carry the whole doc of each key,
    # when some key's doc says more than its table cell (each doc stated once)
    keys_in_full: str | None = None
    example: str | None = None
    # what the member's notes say (only what is its own: the class's rules are in ``rules``)
    deprecated: bool = False  # [deprecated = true]
    required: bool = False  # proto2 required
    json_name: str | None = None  # a json_name the schema declares
    policy: PolicyModel | None = (
        None  # compatible mode's answer, where it is not the class's
    )
    appended: tuple[
        str, ...
    ] = ()  # config keys whose lists assigning appends to (the class rule: replaced)
    proto_field: str | None = (
        None  # the proto field read and written, where the property is named otherwise
    )
    environment: str | None = (
        None  # the variable read when an instance is created (annotations: env)
    )
    # annotations: renamed_from (old name, since, removed_in) and deprecated (text, since, removed_in)
    renamed_from: tuple[tuple[str, str, str | None], ...] = ()
    deprecation: tuple[str, str, str | None] | None = None
    rules: ClassRules | None = None  # a class's docstring: its shared sections
    lint_rules: tuple[
        RuleModel, ...
    ] = ()  # rules between fields this member is part of (templates/_rules.j2 words them)


class PolicyModel(msgspec.Struct, frozen=True, kw_only=True):
    action: str
    error: str | None
    message: str


class FieldModel(msgspec.Struct, frozen=True, kw_only=True):
    """One field of a generated message, resolved once (``_Builder.field``):
    its type (a structure each audience's spelling is rendered from), its default as the
    docs show it, its documentation, and what the annotations add to what
    the descriptor says (the runtime reads the rest from the descriptor)."""

    message: str  # full name of the message declaring it
    name: str
    type: TypeRef  # every audience's type is rendered from it (typeref)
    default_text: str
    doc: str  # the documentation as written (annotations, else the proto comment)
    # from the annotations
    policy: (
        str | None
    )  # compatible-mode policy name: the field's own, else its class's (scalars only)
    policy_message: str | None  # the field's own wording of the policy's message
    class_policy: (
        str | None
    )  # the class-wide policy of its message (stated once per class)
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
        return self.policy is not None and (
            self.policy != self.class_policy or self.policy_message is not None
        )


class SpecOverrides(msgspec.Struct, frozen=True, kw_only=True):
    """What the generated ``_specs`` module tells the runtime beyond the descriptors."""

    policies: tuple[tuple[str, PolicyModel], ...]  # the named policies used
    class_policies: tuple[
        tuple[str, str], ...
    ]  # message full name -> its class-wide policy
    fields: tuple[FieldModel, ...]  # fields with something of their own
    renamed: tuple[RenamedModel, ...] = ()  # old names (register_aliases)
    deprecated: tuple[DeprecatedModel, ...] = ()  # deprecations (register_aliases)


class TypedDictKey(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    out_type: str
    in_type: str
    # the types as annotations in the class body (builtins the keys shadow spelled _builtins.int)
    out_annotation: str
    in_annotation: str
    doc: str  # the field's whole documentation, laid out by doc_layout ("": none): a string after the key's annotation


class TypedDictModel(msgspec.Struct, frozen=True, kw_only=True):
    full_name: str
    out_name: str
    in_name: str
    keys: tuple[TypedDictKey, ...]
    doc: str  # the message's whole documentation, laid out ("": none); the template names the message first
    functional: bool  # no class body: the docstring after the call lists the keys' docs
    extra_keys: tuple[
        TypedDictKey, ...
    ] = ()  # keys its setter takes besides the fields (annotations' extra_keys)

    @property
    def in_keys(self) -> tuple[TypedDictKey, ...]:
        """The input TypedDict's keys: the fields', then the extra keys."""
        return self.keys + self.extra_keys

    @property
    def documented(self) -> bool:
        """The message or a key has docs (stated on the input TypedDict only)."""
        return bool(self.doc) or any(k.doc for k in self.keys)


class RenamedModel(msgspec.Struct, frozen=True, kw_only=True):
    """An old name of a field (annotations: ``renamed_from``): a config key,
    a file's key and, where the field has one, a property."""

    message: str  # full name of the message
    old: str
    new: str  # the field's name
    since: str
    removed_in: str | None
    property_name: str | None = (
        None  # the field's property, which the old one forwards to
    )

    @property
    def warning(self) -> str:
        """What type checkers show (PEP 702); the runtime's warning says the same."""
        removal = (
            f"; the old name goes away in {self.removed_in}" if self.removed_in else ""
        )
        new = self.property_name or self.new
        return f"{self.old!r} was renamed {new!r} in {self.since}{removal}: use {new!r}"


class DeprecatedModel(msgspec.Struct, frozen=True, kw_only=True):
    """A field on its way out (annotations: ``deprecated``)."""

    message: str  # full name of the message
    field: str
    text: str  # what to use instead
    since: str
    removed_in: str | None

    @property
    def warning(self) -> str:
        removal = f", to be removed in {self.removed_in}" if self.removed_in else ""
        return f"{self.field!r} is deprecated since {self.since}{removal}: {self.text}"


class PropertyModel(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    field_name: str | None  # None for extra (hook-only) properties
    kind: PropertyKind
    getter_type: str
    setter_type: str | None  # None: read-only
    read: PropertyRead  # how the getter reads
    fast_type: str | None  # exact Python type accepted without the slow path
    getter_hook: str | None
    setter_hook: str | None
    after_set_hook: str | None
    doc: Doc
    deprecated: bool = False  # the field is [deprecated = true]: the setter warns
    # the getter reads getattr(message, name): a keyword, or a deprecated field (its stub property warns)
    via_getattr: bool = False
    # read enum: the enum class its getter returns a member of; message_list,
    # message_map: the class of the items (a class of the same module)
    value_class: str | None = None
    renamed: tuple[RenamedModel, ...] = ()  # its old names: deprecated alias properties
    deprecation: DeprecatedModel | None = (
        None  # annotations' deprecated: getter and setter warn
    )

    @property
    def direct_set(self) -> bool:
        """Given exactly ``fast_type`` in compatible mode, the value goes
        straight into the message: no hook runs around the setter and there is
        nothing to warn about (the class's __setattr__ does it from a table)."""
        return (
            self.kind == "scalar"
            and self.fast_type is not None
            and not (
                self.setter_hook
                or self.after_set_hook
                or self.deprecated
                or self.deprecation
            )
        )


class ClassModel(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    module: str
    message_cls: str  # pb2 expression
    message_full_name: str
    message_attribute: str
    mixin: str | None
    init_hook: str | None
    empty_config_sets: (
        bool  # {} assigned to a config property sets it (annotations: empty_config)
    )
    properties: tuple[PropertyModel, ...]
    doc: Doc  # with the class's rules, which its properties' docs do not repeat
    imports: tuple[
        Import, ...
    ] = ()  # what the class's code names (typeref.Spelling records it)
    lint_types: tuple[str, str] = (
        "",
        "",
    )  # lint()'s world_size and return types, spelled in the class body
    members: MembersModel = msgspec.field(
        default_factory=lambda: MembersModel()
    )  # attributes, aliases, env-backed fields
    lint_rules: tuple[RuleModel, ...] = ()  # the rules its lint() checks
    # a schema that asks for no reference's compatibility: runtime.Record's
    # constructor (its keywords: name, type), repr and ==, its enum classes
    record: bool = False
    init_params: tuple[tuple[str, str], ...] = ()
    strict_type: str = (
        "bool | None"  # its ``strict`` keyword's, as the class body spells it
    )
    enums: tuple[EnumModel, ...] = ()  # the enum classes nested in it
    # a nested message's class, defined in its parent's body (``Order.Item``):
    # the parent class's name and its own name there ("": a module-level class)
    nested_in: str | None = None
    local_name: str = ""
    qualname: str = ""  # its name from the module: "Order.Item" ("": its name)
    # a module-level class: the flat names kept for its nested classes
    # (``Order_Item = Order.Item``: what earlier packages exported)
    flat_aliases: tuple[tuple[str, str], ...] = ()

    @property
    def direct(self) -> tuple[str, ...]:
        """The plain scalar options (the runtime's ``_direct``); a Record has
        none: its values go through ``_set``, which names the class in errors."""
        if self.record:
            return ()
        return tuple(p.name for p in self.properties if p.direct_set)

    @property
    def compact(self) -> bool:
        """A Record whose fields are all declared in one line each
        (``name: _runtime.Field[G, S] = _runtime.field(...)``, made properties
        by ``Record`` and its constructor typed by PEP 681): nothing of its
        own besides its fields (no hook, attribute, alias or lint), and no
        field named ``strict`` (the constructor's keyword)."""
        return (
            self.record
            and not (
                self.mixin
                or self.init_hook
                or self.lint_rules
                or self.members.init
                or self.members.attributes
                or self.members.aliases
                or self.members.env_fields
                or self.members.env_export
            )
            and all(
                p.field_name
                and p.setter_type
                and p.name != "strict"
                and p.read != "view"
                and not (
                    p.getter_hook
                    or p.setter_hook
                    or p.after_set_hook
                    or p.deprecated
                    or p.renamed  # alias properties and warnings: the full class
                    or p.deprecation
                    or p.doc.example  # a doctest: the property's docstring shows it
                )
                for p in self.properties
            )
        )

    @property
    def init_self(self) -> str:
        """The name of ``__init__``'s first parameter: not one of its keywords."""
        name = "self"
        while any(param == name for param, _ in self.init_params):
            name += "_"
        return name

    @property
    def renamed(self) -> tuple[tuple[str, str], ...]:
        """Properties not named as their fields: (property, field)."""
        return tuple(
            (p.name, p.field_name)
            for p in self.properties
            if p.field_name and p.name != p.field_name
        )

    @property
    def has_views(self) -> bool:
        return any(p.read == "view" and not p.getter_hook for p in self.properties)

    @property
    def uses_cast(self) -> bool:
        """A getter casts what it reads: a dict view, or a field read by getattr
        (a compact Record has no getter of its own)."""
        return not self.compact and any(
            not p.getter_hook
            and (p.read == "view" or p.read == "direct" and p.via_getattr)
            for p in self.properties
        )

    @property
    def uses_hooks(self) -> bool:
        """Its code calls the hooks module."""
        return bool(
            self.mixin
            or self.init_hook
            or self.members.env_source
            or any(
                p.getter_hook or p.setter_hook or p.after_set_hook
                for p in self.properties
            )
        )


class JsonSchemaFile(msgspec.Struct, frozen=True, kw_only=True):
    """One message's JSON Schema, as the package holds it in ``schemas/``
    (generator.model.json_schema builds it)."""

    full_name: str
    text: str  # the file's JSON text
    root: bool  # a message the package is about (``python -m PKG schema`` prints these)

    SUFFIX: ClassVar[str] = ".schema.json"

    @property
    def file_name(self) -> str:
        return self.full_name + self.SUFFIX


class PackageModel(msgspec.Struct, frozen=True, kw_only=True):
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
    class_modules: tuple[
        str, ...
    ]  # dotted, inside the classes' package: "distributed_strategy", "google.api.http"
    # folders of the package's modules ("google", "google/api"): each gets an __init__.py
    subpackages: tuple[str, ...]
    class_subpackages: tuple[
        str, ...
    ]  # those holding class modules (other builds need only these)
    types_imports: tuple[
        Import, ...
    ]  # what types.py names (typeref.Spelling records it)
    reference: ReferencePage
    undocumented: tuple[
        str, ...
    ]  # field paths with neither annotation doc nor proto comment
    exports: tuple[str, ...]
    targets: tuple[Target, ...]  # the standalone build first
    rules: tuple[
        RuleModel, ...
    ] = ()  # rules between fields (annotations' rules:): lint.py, _rules.py and __main__.py
    # the annotations name no reference: strict by default, Record classes, enum classes
    record: bool = False
    # every message's JSON Schema (schemas/<full name>.schema.json): the roots first
    json_schemas: tuple[JsonSchemaFile, ...] = ()
    # types.py has each message's ``XDict`` (what a dict view returns); not where
    # every class is a compact Record, whose getters return classes, never dicts
    views: bool = True


# ---------------------------------------------------------- the reference page
# What the Markdown option reference (``<package>.md``) shows, resolved by
# generator.reference_page; templates/REFERENCE.md.j2 only loops and prints.


class ReferenceKey(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    type_text: str
    default_text: (
        str | None
    )  # None: an extra key, which has no default (the setter takes it, a getter never shows it)
    doc: str  # the whole doc: a table cell
    link: str | None = (
        None  # a message-typed key: the anchor of the section listing that message's keys
    )


class ReferenceMessage(msgspec.Struct, frozen=True, kw_only=True):
    """A message reached through a class's fields that no property's table
    lists: its own section, so every key of every nested config is named."""

    name: str  # as the docs spell its type (the local name)
    full_name: str
    anchor: str
    summary: str
    paragraphs: tuple[str, ...]
    reached_from: tuple[
        str, ...
    ]  # dotted paths from a class: ``DistributedStrategy.hybrid_configs.mp_configs``
    keys: tuple[ReferenceKey, ...]


class ReferenceAttribute(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    type_text: str
    default_text: str
    doc: str


class ReferenceRecipe(msgspec.Struct, frozen=True, kw_only=True):
    title: str
    doc: str
    example: str
    fence: str


class ReferenceEntry(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    type_text: (
        str  # as a user writes it: list[TableParameter], not the stub's container type
    )
    default_text: str | None  # None: no default to state (a property computed by hooks)
    summary: str
    paragraphs: tuple[str, ...]  # the rest of the doc
    member: Doc  # its constraints and notes, what the property says of itself
    example: str | None  # a doctest, shown as a code block
    fence: str  # a code fence longer than any run of backticks in the example
    keys: tuple[ReferenceKey, ...]
    anchor: str


class ReferenceClass(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    summary: str
    paragraphs: tuple[str, ...]
    example: str | None
    fence: str
    rules: ClassRules | None  # shared sections, said once per class
    entries: tuple[ReferenceEntry, ...]
    lint_rules: tuple[RuleModel, ...] = ()  # its "Rules" section
    attributes: tuple[
        ReferenceAttribute, ...
    ] = ()  # plain attributes (not fields), with their defaults
    methods: tuple[
        tuple[str, str], ...
    ] = ()  # (signature, what it writes): the annotations' aliases
    fields: tuple[
        ReferenceKey, ...
    ] = ()  # message fields without a property (reached through the message)
    recipes: tuple[ReferenceRecipe, ...] = ()


class ScheduleRow(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the reference page's removal schedule: an old name or a deprecated field."""

    setting: str  # message.old_name, or message.field
    kind: str  # "renamed" or "deprecated"
    what: str  # the new name, or what to use instead
    since: str
    removed_in: str | None
    due: bool  # the schema's version reached removed_in


class ReferencePage(msgspec.Struct, frozen=True, kw_only=True):
    classes: tuple[ReferenceClass, ...]
    messages: tuple[
        ReferenceMessage, ...
    ]  # every nested message no property's table lists, each once
    schedule: tuple[ScheduleRow, ...] = ()  # renamed and deprecated settings
    version: str | None = None  # the schema's current version (annotations)


# ------------------------------------------------------------------- helpers


# ------------------------------------------------ members besides properties (members.py)


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


# ------------------------------------------------ the protobuf side (stubs.py)


class EnumModel(msgspec.Struct, frozen=True, kw_only=True):
    full_name: str
    pb2_path: str  # attribute path in its pb2 module, e.g. "Outer.K"
    literal_name: str
    values: tuple[tuple[str, int, str], ...]  # name, number, doc
    doc: str
    stub_doc: str = ""  # the whole documentation, verbatim (doc: its first sentence)
    # its Python enum class (a schema without a reference): the class module it
    # is in, its name there, and the class it is nested in (None: the module's)
    module: str = ""
    class_name: str = ""
    owner: str | None = None


class PyiField(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    get_type: str
    init_type: str
    is_message: bool
    doc: str = ""  # the field's documentation, verbatim (code blocks and lists kept)
    # [deprecated = true]: a property marked @deprecated (PEP 702), with a marked setter when settable
    deprecated: bool = False
    deprecated_setter: bool = False
    # stubbed as a property (message fields, deprecated fields), not an attribute
    as_property: bool = False
    # stubbed as an attribute (else only a keyword of __init__: msg.__init__ is the method)
    attribute: bool = True
    # black's stub style: a blank line after a def with a body that a def follows
    blank_after_getter: bool = False  # between a documented getter and its setter
    blank_after: bool = False


class PyiMessage(msgspec.Struct, frozen=True, kw_only=True):
    name: str  # local class name in the pb2 module (nested kept nested)
    # the names its body's template prints, spelled in its body (only those it uses)
    names: tuple[tuple[str, str], ...] = ()
    full_name: str
    doc: str  # the message's documentation, verbatim
    fields: tuple[PyiField, ...]
    nested: tuple[PyiMessage, ...]
    enums: tuple[EnumModel, ...]
    self_name: str  # __init__'s first parameter: "self", unless a field has that name
    has_field_names: tuple[
        str, ...
    ]  # what HasField accepts (fields with presence, oneofs)
    clear_field_names: tuple[str, ...]  # what ClearField accepts (every field, oneofs)
    extensions: tuple[
        ExtensionModel, ...
    ]  # declared in its body: class attributes at run time

    @property
    def name_of(self) -> dict[str, str]:
        return dict(self.names)


class ExtensionModel(msgspec.Struct, frozen=True, kw_only=True):
    """An extension, exposed as protoc's modules expose it: its descriptor
    under its name and its number as ``<NAME>_FIELD_NUMBER``."""

    name: str
    number: int
    constant: str
    plain: bool  # its name works as a Python attribute
    type: str = (
        ""  # in the stub: _ExtensionFieldDescriptor[extended message, value], so Extensions[it] is typed
    )
    doc: str = ""  # its comment in the schema


class Pb2Import(msgspec.Struct, frozen=True, kw_only=True):
    """The Python module holding one proto file's protobuf classes, and the
    name generated code binds it to. Decided once per file (``pb2_imports``):
    every template imports pb2 modules through these records, and every type
    expression naming a protobuf class starts with ``alias``."""

    proto_file: str
    import_from: str  # the package holding the module: this package (or a folder in it), or e.g. "google.protobuf"
    module: str  # the module's name in it: "distributed_strategy_pb2", "timestamp_pb2"
    alias: str  # the name generated code binds it to
    generated: bool  # False: a module that exists already (protobuf's well-known types)
    folder: tuple[
        str, ...
    ] = ()  # generated: its folder inside the package (the proto file's folders)


class Pb2Module(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    path: str  # of the module inside the package, "/"-separated, no suffix: "google/api/http_pb2"
    proto_file: str
    descriptor: bytes  # serialized FileDescriptorProto (no source info)
    dependencies: tuple[
        Pb2Import, ...
    ]  # pb2 modules of the files it imports, in import order
    messages: tuple[PyiMessage, ...]  # top-level
    enums: tuple[EnumModel, ...]  # top-level
    uses_deprecated: (
        bool  # the stub marks deprecated fields (typing_extensions.deprecated)
    )
    extensions: tuple[
        ExtensionModel, ...
    ]  # declared at the file's top level: module attributes
    imports: tuple[Import, ...] = ()  # what the stub imports (every name it uses)
    typed_extensions: bool = (
        False  # it names protobuf's private _ExtensionFieldDescriptor (as mypy-protobuf does)
    )
    # the names the stub's template prints, spelled (only those the stub uses: a missing one is an error)
    names: tuple[tuple[str, str], ...] = ()
    services: tuple[
        Service, ...
    ] = ()  # documented in the stub's module docstring (no code is generated for them)

    @property
    def name_of(self) -> dict[str, str]:
        return dict(self.names)
