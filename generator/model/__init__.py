"""Stage 4, the model: schema + annotations -> the API to emit, fully
resolved into frozen records the templates only loop over and print.

In the order its modules import each other:

* ``doctext``: documentation laid out as docstrings and tables show it;
* ``typeref``: a field's type as a structure, spelled per audience;
* ``records``: the records themselves (package, classes, fields, members,
  pb2 modules and stubs, the reference page);
* ``members``, ``stubs``, ``reference_page``: the parts built apart: a
  class's members besides properties, the protobuf side, the Markdown
  reference;
* ``build``: the one pass that builds the model (``build_model``).

May import the foundations (``errors``, ``settings``), ``schema`` and
``annotations``; never rendering or output. Nothing is re-exported here.
"""
