"""Stage 5, rendering: the model -> source text through the jinja2 templates
(``templates``: one Environment, every literal through ``pyrepr`` and every
docstring through ``docstring``, and the shipped runtime copied in).

May import the foundations (``errors``, ``settings``), ``schema``, ``model``
and the compiled-template cache (``template_cache``). Nothing is re-exported
here.
"""
