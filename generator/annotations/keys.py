"""The annotations format (stage 3, generator.annotations.load), declared once:
every key of every mapping with the YAML types it takes, its default, the
values it allows and one line of doc, and the notes the file loads into.

A note's field declares its key (``Annotated[T, key(...)]``): the loader reads the keys
from here, the defaults are the note's, and the docs of the format
(docs/schema-owners.md) are checked against these declarations by
tests/stages/test_annotation_keys.py. Adding an option is one field here plus
what the option does (the model, the templates).

Unlike the other modules, this one does not postpone its annotations
(no ``from __future__ import annotations``): the keys are read from them at
import, and evaluating them as strings would cost ~10 ms of every run.
"""

import re
from typing import Annotated, Any, Union

# Any: a key's default and the values of a note's fields, whatever type the key declares

import msgspec

from ..schema.proto_facts import NUMERIC_TYPES

COMPAT_ACTIONS = ("warn", "raise", "passthrough")
CONSTRAINT_RE = re.compile(
    r"^\s*(>=|<=|>|<|!=)\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*$"
)
ERRORS = ("TypeError", "ValueError", "KeyError")  # what a compat policy may raise
REFERENCE_SECTIONS = ("validation", "config_dicts", "defaults", "environment")
ENV_VALUE_TYPES = ("bool", "int", "float", "str")
ENV_FIELD_TYPES = NUMERIC_TYPES | {"bool", "string"}
CONVERTERS = ("str",)
DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
ENV_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Key(msgspec.Struct, frozen=True):
    """One key of a mapping of the annotations file."""

    name: str  # as written in the file
    types: (
        type | tuple[type, ...] | None
    )  # the YAML types it takes; None: any (its reader checks)
    doc: str  # one line: what it says
    choices: tuple[str, ...] = ()  # the values it allows (a string key); () any
    required: bool = False
    # how the loader checks its text: "hook" (a name the hooks module defines),
    # "policy" (a compat policy's name), "type" (a type expression, pasted as
    # code), "message" (a compat message the runtime fills); None: as it is
    check: str | None = None
    attribute: str = ""  # the note's field it sets (a key with a note)
    default: Any = None  # that field's default (a key with a note, not required)


class Keys(dict[str, Key]):
    """The keys of one mapping, by name, in the order the file documents them."""

    def __init__(self, *keys: Key) -> None:
        super().__init__((k.name, k) for k in keys)

    @classmethod
    def of(cls, note: type[msgspec.Struct]) -> "Keys":
        """The keys a note's fields declare (``Annotated[T, key(...)]``), in
        field order; a key is required when its field has no default."""
        return cls(
            *(
                msgspec.structs.replace(
                    k,
                    name=k.name or f.name,
                    attribute=f.name,
                    required=f.required,
                    default=_default(f),
                )
                for f in msgspec.structs.fields(note)
                for k in getattr(f.type, "__metadata__", ())
                if isinstance(k, Key)
            )
        )

    def required(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.values() if k.required)


def _default(f: msgspec.structs.FieldInfo) -> Any:
    """A field's default: its value, a fresh one from its factory, None when required."""
    if f.default_factory is not msgspec.NODEFAULT:
        return f.default_factory()
    return None if f.required else f.default


def key(
    types: type | tuple[type, ...] | None,
    doc: str,
    *,
    choices: tuple[str, ...] = (),
    check: str | None = None,
    name: str = "",
) -> Key:
    """What a note's field says of the key of the file that sets it, written
    in the field's type: ``Annotated[T, key(...)]`` (``name``: the key's,
    when not the field's). The field's default is the key's; without one the
    key is required."""
    return Key(name, types, doc, choices, check=check)


class CompatPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """``compat_policies.<name>``: how the compatible mode answers a value of
    the wrong Python type."""

    name: str
    action: Annotated[
        str,
        key(
            str,
            "what a wrong type does: warn (keep the old value), raise, or passthrough",
            choices=COMPAT_ACTIONS,
        ),
    ]
    error: Annotated[
        str | None,
        key(
            str,
            "the exception raised (action: raise): TypeError, ValueError or KeyError",
        ),
    ] = None
    message: Annotated[
        str,
        key(
            str,
            "the wording, with {field} {property} {type} {received}",
            check="message",
        ),
    ] = ""


class EnvNote(msgspec.Struct, frozen=True, kw_only=True):
    """``env:`` of a field: the environment variable backing it."""

    variable: Annotated[str, key(str, "the environment variable's name")]
    read: Annotated[
        bool,
        key(bool, "read when an instance is created, where set (false: only written)"),
    ] = True
    type: Annotated[
        str | None,
        key(
            str,
            "the variable's type when not the field's (a float is truncated)",
            choices=ENV_VALUE_TYPES,
        ),
    ] = None
    line: int = 0


class RenameNote(msgspec.Struct, frozen=True, kw_only=True):
    """``messages.<message>.fields.<field>.renamed_from.<old>``: an old name of
    the field users may still write (a version, or this mapping)."""

    old: str
    since: Annotated[str, key((str, int), "the version the field was renamed in")]
    removed_in: Annotated[
        str | None,
        key((str, int), "the version the old name will stop working in"),
    ] = None
    line: int = 0


class DeprecationNote(msgspec.Struct, frozen=True, kw_only=True):
    """``messages.<message>.fields.<field>.deprecated``: the field is on its way out."""

    message: Annotated[str, key(str, "what to use instead (the warning says it)")]
    since: Annotated[str, key((str, int), "the version it was deprecated in")]
    removed_in: Annotated[
        str | None, key((str, int), "the version it will be removed in")
    ] = None
    line: int = 0


class FieldNote(msgspec.Struct, frozen=True, kw_only=True):
    """``messages.<message>.fields.<field>``: what the annotations say of a field."""

    doc: Annotated[
        str | None,
        key(str, "the property's docs (reST); the type and default are added"),
    ] = None
    example: Annotated[str | None, key(str, "a doctest, run by the tests")] = None
    property: Annotated[
        str | None, key((str, bool), "a new name for the property, or false for none")
    ] = None
    hidden: bool = False  # property: false
    compat: Annotated[
        str | None, key(str, "the compat policy of a wrong Python type", check="policy")
    ] = None
    compat_message: Annotated[
        str | None,
        key(str, "this field's own wording of the policy's message", check="message"),
    ] = None
    constraint: Annotated[
        tuple[str, float] | None,
        key(str, "values a number field accepts: '<op> <number>', op > >= < <= !="),
    ] = None
    enforce_constraint: Annotated[
        str,
        key(
            str,
            "when the constraint holds: strict mode only, or always",
            choices=("strict", "always"),
        ),
    ] = "strict"
    choices: Annotated[
        tuple[str, ...] | None,
        key(list, "the strings a string field accepts (strict mode)"),
    ] = None
    allow_nonfinite: Annotated[
        bool, key(bool, "strict mode accepts NaN and infinity (a float field)")
    ] = False
    repeated: Annotated[
        str,
        key(
            str,
            "assigning a list replaces the stored list, or appends to it",
            choices=("replace", "append"),
        ),
    ] = "replace"
    view: Annotated[
        str | None,
        key(
            str,
            "a message field reads as a dict view or as the message",
            choices=("dict", "message"),
        ),
    ] = None
    getter: Annotated[
        str | None, key(str, "a hook reading the property", check="hook")
    ] = None
    setter: Annotated[
        str | None, key(str, "a hook writing the property", check="hook")
    ] = None
    after_set: Annotated[
        str | None, key(str, "a hook run after the property is set", check="hook")
    ] = None
    type: Annotated[
        str | None,
        key(
            str,
            "the getter's type (default: the getter hook's return annotation)",
            check="type",
        ),
    ] = None
    setter_type: Annotated[
        str | None,
        key(str, "the setter's type, for a property a hook writes", check="type"),
    ] = None
    env: Annotated[
        EnvNote | None,
        key(
            (str, dict),
            "the environment variable backing the field: a name or {variable, read, type}",
        ),
    ] = None
    renamed_from: Annotated[
        tuple[RenameNote, ...],
        key(
            dict,
            "old names still accepted with a warning: {old: version} or {old: {since, removed_in}}",
        ),
    ] = ()
    deprecated: Annotated[
        DeprecationNote | None,
        key(dict, "the field is on its way out: {message, since, removed_in}"),
    ] = None
    line: int = 0


class ExtraProperty(msgspec.Struct, frozen=True, kw_only=True):
    """``classes.<class>.extra_properties.<name>``: a property that is not a field."""

    name: str
    doc: Annotated[str, key(str, "the property's docs (reST)")]
    example: Annotated[str | None, key(str, "a doctest, run by the tests")] = None
    getter: Annotated[str, key(str, "the hook reading it", check="hook")]
    setter: Annotated[
        str | None, key(str, "the hook writing it (none: read-only)", check="hook")
    ] = None
    type: Annotated[
        str,
        key(
            str,
            "the getter's type (default: the getter hook's return annotation)",
            check="type",
        ),
    ] = ""
    setter_type: Annotated[
        str | None, key(str, "the setter's type (a type expression)", check="type")
    ] = None
    line: int


class AttributeNote(msgspec.Struct, frozen=True, kw_only=True):
    """``attributes.<name>``: a plain variable (not a field), set to a fresh
    ``default`` per instance (of a class, or of a target's class module)."""

    name: str
    default: Annotated[
        Any, key(None, "its value: a scalar or a list, fresh per instance")
    ]
    type: Annotated[str, key(str, "its type (a type expression)", check="type")]
    doc: Annotated[str | None, key(str, "what it holds")] = None
    line: int = 0


class AliasNote(msgspec.Struct, frozen=True, kw_only=True):
    """``classes.<class>.aliases.<name>``: a method writing one field, ``name(parameter)``."""

    name: str
    field: Annotated[str, key(str, "the field it writes")]
    parameter: Annotated[
        str, key(str, "its parameter's name (default: the field's)")
    ] = ""
    convert: Annotated[
        str | None,
        key(str, "str: the value goes through str() first (a singular string field)"),
    ] = None
    line: int = 0


class EnvironmentNote(msgspec.Struct, frozen=True, kw_only=True):
    """``classes.<class>.environment``: how the env-backed fields are read and exported."""

    export: Annotated[
        str | None,
        key(str, "the name of the generated method writing the env-backed fields"),
    ] = None
    doc: Annotated[
        str | None, key(str, "that method's docs (default: a generic one)")
    ] = None
    source: Annotated[
        str | None,
        key(
            str,
            "a hook returning the flag store to use instead of os.environ, or None",
            check="hook",
        ),
    ] = None
    line: int = 0


class RecipeNote(msgspec.Struct, frozen=True, kw_only=True):
    """``classes.<class>.recipes.<title>``: a workflow, told and shown (a doctest)."""

    title: str
    doc: Annotated[str, key(str, "what the recipe does (reST)")]
    example: Annotated[str, key(str, "a doctest, run by the tests")]
    line: int = 0


class ClassNote(msgspec.Struct, frozen=True, kw_only=True):
    """``classes.<name>``: a wrapper class."""

    name: str
    message: Annotated[str, key(str, "the message it wraps (full name)")]
    message_attribute: Annotated[str, key(str, "the attribute holding the message")] = (
        "message"
    )
    mixin: Annotated[
        str | None,
        key(str, "a class of the hooks module providing members", check="hook"),
    ] = None
    init_hook: Annotated[
        str | None, key(str, "a hook run at the end of __init__", check="hook")
    ] = None
    compat: Annotated[
        str | None,
        key(
            str,
            "the default compat policy of the class's scalar fields",
            check="policy",
        ),
    ] = None
    # "set": assigning {} to a config property sets it (presence is never lost);
    # "unset": an empty dict leaves it alone (as the reference implementation may do)
    empty_config: Annotated[
        str,
        key(
            str,
            "assigning {} to a config property sets it, or leaves it unset",
            choices=("set", "unset"),
        ),
    ] = "set"
    doc: Annotated[str | None, key(str, "the class's docs (reST)")] = None
    example: Annotated[str | None, key(str, "a doctest, run by the tests")] = None
    extra_properties: Annotated[
        tuple[ExtraProperty, ...], key(dict, "properties that are not fields")
    ] = ()
    attributes: Annotated[
        tuple[AttributeNote, ...],
        key(dict, "plain instance attributes that are not fields"),
    ] = ()
    aliases: Annotated[
        tuple[AliasNote, ...], key(dict, "one-line methods writing one field")
    ] = ()
    environment: Annotated[
        EnvironmentNote | None,
        key(dict, "how the fields with env: are read and exported"),
    ] = None
    recipes: Annotated[
        tuple[RecipeNote, ...],
        key(dict, "worked examples the reference page shows under the class"),
    ] = ()
    line: int = 0


class ExtraKeyNote(msgspec.Struct, frozen=True, kw_only=True):
    """``messages.<message>.extra_keys.<key>``: a key a config setter takes
    besides the message's fields (its hook handles it); the input TypedDict
    declares it, the docs list it."""

    name: str
    type: Annotated[
        str, key(str, "what the setter accepts (a type expression)", check="type")
    ]
    doc: Annotated[str, key(str, "what the key does")]
    line: int = 0


class EnumNote(msgspec.Struct, frozen=True, kw_only=True):
    """``enums.<enum>``."""

    doc: Annotated[str | None, key(str, "the enum's docs")] = None
    values: Annotated[dict[str, str], key(dict, "per value: {doc}")] = msgspec.field(
        default_factory=dict
    )


class AcceptedChange(msgspec.Struct, frozen=True, kw_only=True):
    """``accepted_changes[i]``: a breaking API change the reviewers accepted
    (see generator.api_changes)."""

    rule: Annotated[
        str, key(str, "the breaking rule (see the API change report's rules)")
    ]
    path: Annotated[
        str, key(str, "where users meet the change, as the report names it")
    ]
    reason: Annotated[str, key(str, "why it is accepted")]
    line: int


class MemberDifference(msgspec.Struct, frozen=True, kw_only=True):
    """``reference.differences.members.<name>``: how the reference differs in
    what some members do (``of``: ``Class`` for the class as a whole, or
    ``Class.member``)."""

    name: str
    of: Annotated[
        tuple[str, ...],
        key(list, "the classes and members it concerns: Class or Class.member"),
    ]
    text: Annotated[str, key(str, "how the reference differs")]
    line: int


class ModuleMembersNote(msgspec.Struct, frozen=True, kw_only=True):
    """``targets.<name>.module_members``: what a target's class module defines
    besides the classes (names a project's own module had, which other code imports)."""

    source: Annotated[
        str | None,
        key(
            str,
            "a hand-written module beside the annotations file, copied into this build",
            name="from",
        ),
    ] = None
    names: Annotated[
        tuple[str, ...], key(list, "names the class module imports from it")
    ] = ()
    attributes: Annotated[
        tuple[AttributeNote, ...],
        key(dict, "module-level variables of the class module"),
    ] = ()
    exports: Annotated[
        tuple[str, ...] | None,
        key(list, "the class module's __all__ (default: its classes)", name="all"),
    ] = None
    module: Annotated[
        str | None,
        key(
            str,
            "the class module (dotted, inside classes_package; default: the only one)",
        ),
    ] = None
    line: int


class TargetNote(msgspec.Struct, frozen=True, kw_only=True):
    """``targets.<name>``: a second build of the same API, bound to another
    project's modules."""

    name: str
    package: Annotated[
        str, key(str, "where its support modules go (_runtime, _specs, types, hooks)")
    ]
    classes_package: Annotated[str, key(str, "where its class modules go")]
    public_package: Annotated[
        str, key(str, "where its users import the classes from (the docs' examples do)")
    ]
    pb2_package: Annotated[
        str, key(str, "the existing package its *_pb2 modules are imported from")
    ]
    logger: Annotated[
        str, key(str, "module.attribute of the logger compatible-mode warnings go to")
    ]
    doc: Annotated[str, key(str, "what the build is")] = ""
    line: int
    module_members: Annotated[
        ModuleMembersNote | None,
        key(dict, "what its class module defines besides the classes"),
    ] = None


# ------------------------------------------- the rules between fields (rules.py reads them)


Scalar = Union[bool, int, float, str]
CompareValue = Union[Scalar, tuple[Scalar, ...]]  # a tuple for "in"


class Compare(msgspec.Struct, frozen=True):
    path: tuple[str, ...]  # proto field names, through singular message fields
    op: str  # a rules.COMPARISONS value
    value: CompareValue  # an enum value is compared by its name


class AnyOf(msgspec.Struct, frozen=True):
    items: tuple["Condition", ...]


class AllOf(msgspec.Struct, frozen=True):
    items: tuple["Condition", ...]


class Not(msgspec.Struct, frozen=True):
    item: "Condition"


Condition = Union[Compare, AnyOf, AllOf, Not]


class Product(msgspec.Struct, frozen=True):
    items: tuple["Operand", ...]


Operand = Union[
    tuple[str, ...], int, float, str, Product
]  # a field path, a number, an input ("@world_size"), a product


class RuleNote(msgspec.Struct, frozen=True, kw_only=True):
    code: str
    message: str  # full name of the message it is about
    kind: str  # one of rules.KINDS
    field: tuple[str, ...] = ()  # effective_when, conflicts_with: the field it is about
    condition: Condition | None = None  # effective_when
    other: tuple[str, ...] = ()  # conflicts_with
    wins: tuple[str, ...] = ()  # conflicts_with: field or other
    relation: tuple[Operand, str, Operand] | None = None
    when: Condition | None = None
    doc: str | None = None
    line: int = 0


class Annotations(msgspec.Struct, frozen=True, kw_only=True):
    """The annotations file, loaded (or derived from the schema without one)."""

    path: str | None  # None: no annotations file given
    hooks_module: str | None
    classes: tuple[ClassNote, ...]
    messages: dict[str, dict[str, FieldNote]]  # message -> field -> note
    message_docs: dict[str, str]
    enums: dict[str, EnumNote]
    # message -> keys its config setter takes besides its fields
    extra_keys: dict[str, tuple[ExtraKeyNote, ...]] = msgspec.field(
        default_factory=dict
    )
    compat_policies: dict[str, CompatPolicy]
    targets: tuple[TargetNote, ...] = ()  # builds besides the standalone package
    accepted_changes: tuple[AcceptedChange, ...] = ()
    # the implementation compatible mode mirrors: named where the docs compare with it
    reference: str | None = None
    # how that implementation differs, by section of the class docs (REFERENCE_SECTIONS): said there once
    differences: tuple[tuple[str, str], ...] = ()
    # ...and in what some members do (reference.differences.members): listed in their classes' docs
    member_differences: tuple[MemberDifference, ...] = ()
    strict_env: str | None = (
        None  # the environment variable turning strict mode on (default: from the package)
    )
    # the schema's current version: a deprecation or an old name whose
    # removed_in it reaches is due (the API change report, the option reference)
    version: str | None = None
    rules: tuple[
        RuleNote, ...
    ] = ()  # rules between fields (generator.annotations.rules)


# The mappings without a note of their own.
def member_names(cls: ClassNote) -> set[str]:
    """Names a class's attributes, aliases and env export method take."""
    names = {a.name for a in cls.attributes} | {a.name for a in cls.aliases}
    if cls.environment and cls.environment.export:
        names.add(cls.environment.export)
    return names


TOP_KEYS = Keys(
    Key(
        "hooks",
        str,
        "the hand-written module beside this file (hooks -> hooks.py) the hooks are found in",
    ),
    Key(
        "reference",
        (str, dict),
        "the implementation compatible mode mirrors: a name, or {name, differences}",
    ),
    Key("strict_env", str, "the environment variable turning strict mode on at import"),
    Key(
        "version",
        (str, int),
        "the schema's current version (a deprecation's removed_in is due when reached)",
    ),
    Key("targets", dict, "builds besides the standalone package"),
    Key(
        "compat_policies",
        dict,
        "named answers to a wrong Python type in compatible mode",
    ),
    Key("classes", dict, "the wrapper classes"),
    Key("enums", dict, "docs of enums and their values"),
    Key(
        "accepted_changes",
        list,
        "breaking API changes the reviewers accepted: [{rule, path, reason}]",
    ),
    Key(
        "rules",
        None,
        "rules between fields, by message (annotations/rules.py checks its shape)",
    ),
    Key(
        "messages",
        dict,
        "docs of messages, and what the annotations say of their fields",
    ),
)
# `reference:` as a mapping: its name, and how it differs from the generated
# classes in what a section of each class's docs states once (the templates
# word the sections: "validation" for single-value options, "config_dicts" for
# assigning config dicts, "defaults" for the defaults the docs show,
# "environment" for options read from the environment), and in what some
# members do ("members": each {of: [Class.member, ...], text})
REFERENCE_KEYS = Keys(
    Key("name", str, "the implementation the docs compare with"),
    Key(
        "differences",
        dict,
        "text per section of the class docs, and members: named differences",
    ),
)
MESSAGE_KEYS = Keys(
    Key("doc", str, "the message's docs"),
    Key("fields", dict, "what the annotations say of each field"),
    Key(
        "extra_keys",
        dict,
        "keys its config setter takes besides its fields: {type, doc}",
    ),
)
ENUM_VALUE_KEYS = Keys(Key("doc", str, "the value's docs"))

POLICY_KEYS = Keys.of(CompatPolicy)
ENV_KEYS = Keys.of(EnvNote)
FIELD_KEYS = Keys.of(FieldNote)
RENAME_KEYS = Keys.of(RenameNote)
DEPRECATION_KEYS = Keys.of(DeprecationNote)
EXTRA_KEYS = Keys.of(ExtraProperty)
ATTRIBUTE_KEYS = Keys.of(AttributeNote)
ALIAS_KEYS = Keys.of(AliasNote)
ENVIRONMENT_KEYS = Keys.of(EnvironmentNote)
CLASS_KEYS = Keys.of(ClassNote)
RECIPE_KEYS = Keys.of(RecipeNote)
EXTRA_KEY_KEYS = Keys.of(ExtraKeyNote)
ENUM_KEYS = Keys.of(EnumNote)
ACCEPTED_KEYS = Keys.of(AcceptedChange)
MEMBER_DIFFERENCE_KEYS = Keys.of(MemberDifference)
MODULE_MEMBERS_KEYS = Keys.of(ModuleMembersNote)
TARGET_KEYS = Keys.of(TargetNote)
# every mapping of the file, by where it is (as the docs of the format name them)
# A rule between fields (``rules: <message>: <code>:``): one of effective_when,
# conflicts_with and relation (generator.annotations.rules reads and checks it).
RULE_KEYS = Keys(
    Key(
        "field",
        str,
        "the field the rule is about: a path through singular message fields",
    ),
    Key(
        "effective_when",
        (str, dict),
        "the condition without which `field` does nothing",
    ),
    Key("conflicts_with", str, "the field that conflicts with `field`"),
    Key(
        "wins",
        str,
        "of two conflicting fields, the one that takes effect: field or other",
    ),
    Key("relation", dict, "`{left, op, right}`: a relation the values must hold"),
    Key("when", (str, dict), "the condition under which the rule applies"),
    Key("doc", str, "why the rule holds, for the docs and lint's findings"),
)

FORMAT: dict[str, Keys] = {
    "": TOP_KEYS,
    "reference": REFERENCE_KEYS,
    "reference.differences.members.<name>": MEMBER_DIFFERENCE_KEYS,
    "targets.<name>": TARGET_KEYS,
    "targets.<name>.module_members": MODULE_MEMBERS_KEYS,
    "compat_policies.<name>": POLICY_KEYS,
    "classes.<name>": CLASS_KEYS,
    "classes.<name>.extra_properties.<name>": EXTRA_KEYS,
    "classes.<name>.attributes.<name>": ATTRIBUTE_KEYS,
    "classes.<name>.aliases.<name>": ALIAS_KEYS,
    "classes.<name>.environment": ENVIRONMENT_KEYS,
    "classes.<name>.recipes.<title>": RECIPE_KEYS,
    "enums.<enum>": ENUM_KEYS,
    "enums.<enum>.values.<value>": ENUM_VALUE_KEYS,
    "accepted_changes[i]": ACCEPTED_KEYS,
    "messages.<message>": MESSAGE_KEYS,
    "messages.<message>.fields.<field>": FIELD_KEYS,
    "messages.<message>.extra_keys.<key>": EXTRA_KEY_KEYS,
    "messages.<message>.fields.<field>.env": ENV_KEYS,
    "messages.<message>.fields.<field>.renamed_from.<old>": RENAME_KEYS,
    "messages.<message>.fields.<field>.deprecated": DEPRECATION_KEYS,
    "rules.<message>.<code>": RULE_KEYS,
}
