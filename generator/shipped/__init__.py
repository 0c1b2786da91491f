"""Modules copied verbatim into every generated package (not generated, not
imported by the generator): real Python, linted, type-checked and tested as
themselves. ``runtime.py`` is the validation and conversion machinery the
generated classes call. ``loader.py`` alone is not copied: it belongs to the
runtime's distribution (runtime/), which packages generated with runtime =
"dependency" run these modules from."""
