"""The API change report: what an edit of the inputs changes for the users of
the generated package.

Owns, by concept (each module imports only those listed before it here):

* ``surface``: the API surface, typed records of what users see of the model
  (property names, kinds and types, TypedDict keys and types, validation,
  enum values) plus the schema's wire facts (field numbers, labels, wire
  types, JSON names, ``reserved``, ``deprecated``), built from the schema
  stage's facts and the model's records; its JSON form for the manifest and
  ``decode_surface`` to read a stored one back (``SurfaceError`` if damaged);
* ``paths``: where users meet each field (``Class.prop['key']``), worked out
  from a surface when a change is reported;
* ``comparisons``: how two values of a fact compare (number ranges, scalar
  types, constraints, compat policies);
* ``rules``: every change rule (``Rule``: id, category, meaning) and the
  checks that find its changes (``compare``);
* ``report``: the report ``check`` and ``generate`` print (accepted changes
  marked; text and JSON);
* ``at_ref``: the inputs as they are at a git ref, for ``check --against``.

Categories: ``breaking`` (code or data that worked before fails or means
something else: a property, key, message or enum value removed or renamed, a
type that rejects old values, a changed default, tightened validation, and
the wire rules of buf's WIRE/WIRE_JSON categories), ``behaviour`` (visible,
but every value that was valid stays valid) and ``addition``.

Where the "before" side comes from: every ``generate`` records the surface it
emitted in the manifest (``"api"``), so ``check`` and ``generate`` compare with
exactly what is in the output folder, with or without git; ``check --against
REF`` rebuilds the surface from the inputs as they are at a git ref. A hand
edit of the manifest's record is itself drift. Breaking changes can be
accepted in the annotations file (``accepted_changes``: rule, path, reason),
so the acknowledgement is reviewed with the edit.

May import: the schema stage (``schema``, ``proto_facts``), the model's
records (``model_types``), the annotations' records (``accepted_changes``),
``errors``, and ``output`` (only ``at_ref``: which files the tool wrote).
Imported by ``pipeline`` and ``cli``; nothing below them imports it.
"""
