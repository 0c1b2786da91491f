"""Stages 5 and 6, rendering: the model -> source text through the jinja2
templates, then that text as black would format it. In the order its
modules import each other:

* ``precompiled``: the templates a wheel carries compiled (a source
  checkout compiles them in memory, once a process; never cached on disk);
* ``templates``: one Environment, every literal through ``pyrepr`` and every
  docstring through ``docstring``, and the shipped runtime copied in;
* ``format``: the rendered text laid out as black (24 to 26, explicit Mode)
  would, usually without running black; black itself for the rare piece it
  cannot be sure of.

May import the foundations (``errors``, ``settings``), ``schema`` and
``model``. Nothing is re-exported here.
"""
