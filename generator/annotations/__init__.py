"""Stage 3, the annotations file, in the order its modules import each other:

* ``yaml_reader``: YAML text -> a plain tree, every value with its line
  (the only importer of PyYAML, loaded only when the text is not cached);
* ``grammar``: annotation text pasted as code, checked against its grammar;
* ``keys``: the format, declared once: every key of every mapping (type,
  default, allowed values, doc) and the notes the file loads into, the
  rules between fields' notes included;
* ``checker``: the file read as a tree of lines (from the user cache when the
  same text was read before) and the checker that holds each mapping to its
  declared keys;
* ``rules``: the rules between fields read and checked against the schema,
  and resolved for the model and the generated linter;
* ``members``: what is not a field's: the reference and its differences,
  the targets (other builds), a class's members besides properties, and the
  hooks module (read, never imported);
* ``load``: the file loaded and validated against the schema
  (``load_annotations``): fields, classes, enums, the rest.

May import the foundations (``errors``, ``settings``), ``inputs`` and
``schema``; never the model, rendering or output. Nothing is re-exported
here: import each name from the module that defines it.
"""
