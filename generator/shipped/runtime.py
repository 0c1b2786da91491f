# The runtime of the packages fleet-strategy-codegen generates: modules of the
# tool itself (generator/shipped/runtime.py and the _runtime_*.py beside it),
# which `generate` copies verbatim into each package it writes, below a
# one-line generated header. Generated code and hooks import this module only.
"""What the generated classes run on.

* Specs: every field's facts (kind, integer bounds, presence, enum values,
  defaults, message types) are read from the message descriptors when the
  package's ``_specs`` module calls ``register``, which also applies what the
  annotations add (policies, constraints, choices, append, ...).
* ``dict_view``: the dict view of any message, driven by its spec.
* ``Wrapper``: the base of the generated classes (construction, the attribute
  lock, copies and pickling, ``strict``, and ``_set``, which every generated
  setter calls).
* ``Record``: the base of the classes of a schema that asks for no
  reference's compatibility (a keyword constructor, ``repr``, ``==`` by
  value), ``ProtoEnum`` of its enum classes, and ``MessageList`` and
  ``MessageMap``, the typed live views of its repeated and map message fields.

Two modes answer bad values:

* compatible (the default where the annotations name a reference) answers a
  value of the wrong Python type as the field's policy in the annotations
  file says (log a warning and keep the old value, or raise a given
  exception class; without a policy, protobuf checks it); values protobuf
  accepts are accepted.
* strict (the default for any other schema) raises TypeError/ValueError for every wrong type, out-of-range
  number, non-finite float, unknown config key and str-for-list, naming the
  property and key.

A message is taken as a config dict or as a message of its type, of the
package's class or any other class of that type (protoc's own module for a
well-known type, another pool's). ``google.protobuf.Value`` takes any
JSON-like Python value (None, bool, int, float, str, dict, list), ``Struct`` a
dict and ``ListValue`` a list, in every position (a field, a list item, a map
value, nested in a config), and an assignment replaces the old value. Read
back, they are the messages protobuf keeps, as every well-known type is (a
``Struct`` reads as a mapping, a ``ListValue`` as a sequence);
``json_format.MessageToDict`` gives a plain value of any of them.

In both modes a rejected assignment changes nothing: config dicts are built
into a scratch message first and merged only when every key was accepted, and
callers' objects are never mutated. An accepted one is applied in one step:
what takes more than one protobuf operation (a config, list or map
assignment, and reading a dict view) runs under the instance's lock, so
threads sharing an instance see each assignment whole. Nothing set can be
nested deeper than protobuf parses (``MAX_DEPTH``), so whatever is set can
be copied and pickled; files are written atomically (``write_atomically``).

The code lives in private modules beside this one, one concept each;
this module is their public face (what generated code
and hooks use, ``__all__``): ``_runtime_specs`` (mode, specs, scalar checks),
``_runtime_configs`` (configs, lists, maps, the depth limit, dict views),
``_runtime_wrapper`` (``Wrapper``, copies, the lock), ``_runtime_values``
(``Record``, ``ProtoEnum``, the list and map views), ``_runtime_io``
(environment, text files, dotted paths, duck-typed objects),
``_runtime_files`` (configs as documents: ``to_dict``/``from_dict``, YAML,
JSON and text-format files, ``ConfigError``), ``_runtime_documents``
(reading JSON and YAML within bounds, remembering where each value is),
``_runtime_schemas`` (the package's JSON Schemas, ``python -m PKG``) and
``_runtime_aliases`` (old names and deprecations: ``RENAMED``, ``DEPRECATED``).
Beside them,
``_runtime_migrate`` rewrites config files from old setting names to new
(``migrate_text``, and ``migrate_main``: ``python -m <package> migrate``);
``_runtime_fields`` declares a compact Record's fields (``Field``, ``field``).
"""

from __future__ import annotations

from ._runtime_aliases import (
    DEPRECATED,
    RENAMED,
    Deprecated,
    Renamed,
    TextRename,
    current_keys,
    current_text,
    deprecated,
    deprecated_of,
    register_aliases,
    renamed_of,
    resolve_key,
    text_renames,
    warn_field_deprecated,
    warn_renamed,
)
from ._runtime_configs import (
    MAX_DEPTH,
    ConfigChange,
    apply_config,
    assign_config,
    build_message,
    dict_view,
    replace_repeated,
    stage_config,
    warn_deprecated,
)
from ._runtime_documents import read_json, read_yaml
from ._runtime_fields import (
    UNSET,
    Field,
    field,
)
from ._runtime_files import (
    MAX_DOCUMENT_BYTES,
    MAX_DOCUMENT_NODES,
    ConfigError,
    ConfigFileNotFoundError,
    ConfigProblem,
    Document,
    Locations,
    apply_document,
    display_path,
    document_format,
    document_to_message,
    field_for_key,
    load_instance,
    load_message,
    message_to_document,
    read_document,
    save_message,
)
from ._runtime_io import (
    EnvField,
    FlagStore,
    TextFormatFileError,
    TextFormatFileNotFoundError,
    copy_to_object,
    export_env,
    fill_dotted,
    merge_keyed,
    merge_text_file,
    object_config,
    read_env,
    save_text,
    write_atomically,
)
from ._runtime_migrate import MigrateError, MigrationChange, migrate_text
from ._runtime_migrate import main as migrate_main
from ._runtime_schemas import json_schema, run_commands, schema_names
from ._runtime_specs import (
    BOOL,
    BYTES,
    ENUM,
    FLOAT,
    INT,
    KEEP,
    MESSAGE,
    PASSTHROUGH,
    SPECS,
    STR,
    FieldSpec,
    MessageSpec,
    Policy,
    UnknownConfigKeyError,
    as_mapping,
    check_scalar,
    configure,
    default_strict,
    enum_number,
    env_flag,
    field_spec,
    imported_spec,
    is_repeated,
    message_class,
    message_spec,
    register,
    restore_slots,
    set_default_strict,
    spec_of,
    strict_value,
    suggest,
    unknown_attribute,
    unknown_key,
    warn,
)
from ._runtime_values import (
    MessageList,
    MessageMap,
    ProtoEnum,
    Record,
    wrap,
)
from ._runtime_wrapper import (
    Wrapper,
    env_fields,
    lock_of,
)

__all__ = [
    "BOOL",
    "BYTES",
    "ConfigChange",
    "ConfigError",
    "ConfigFileNotFoundError",
    "ConfigProblem",
    "DEPRECATED",
    "Deprecated",
    "Document",
    "ENUM",
    "EnvField",
    "FLOAT",
    "Field",
    "FieldSpec",
    "FlagStore",
    "INT",
    "KEEP",
    "Locations",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_DOCUMENT_NODES",
    "MESSAGE",
    "MessageList",
    "MessageMap",
    "MessageSpec",
    "MigrateError",
    "MigrationChange",
    "PASSTHROUGH",
    "Policy",
    "ProtoEnum",
    "Record",
    "RENAMED",
    "Renamed",
    "SPECS",
    "STR",
    "TextFormatFileError",
    "TextFormatFileNotFoundError",
    "TextRename",
    "UNSET",
    "UnknownConfigKeyError",
    "Wrapper",
    "apply_config",
    "apply_document",
    "as_mapping",
    "assign_config",
    "build_message",
    "check_scalar",
    "configure",
    "copy_to_object",
    "current_keys",
    "current_text",
    "default_strict",
    "deprecated",
    "deprecated_of",
    "dict_view",
    "display_path",
    "document_format",
    "document_to_message",
    "enum_number",
    "env_fields",
    "env_flag",
    "export_env",
    "field_for_key",
    "field",
    "field_spec",
    "fill_dotted",
    "imported_spec",
    "is_repeated",
    "json_schema",
    "load_instance",
    "load_message",
    "lock_of",
    "merge_keyed",
    "merge_text_file",
    "message_class",
    "message_spec",
    "message_to_document",
    "migrate_main",
    "migrate_text",
    "object_config",
    "read_document",
    "read_env",
    "read_json",
    "read_yaml",
    "register",
    "register_aliases",
    "renamed_of",
    "replace_repeated",
    "resolve_key",
    "restore_slots",
    "run_commands",
    "save_message",
    "save_text",
    "schema_names",
    "set_default_strict",
    "spec_of",
    "stage_config",
    "strict_value",
    "suggest",
    "text_renames",
    "unknown_attribute",
    "unknown_key",
    "warn",
    "warn_deprecated",
    "wrap",
    "warn_field_deprecated",
    "warn_renamed",
    "write_atomically",
]
