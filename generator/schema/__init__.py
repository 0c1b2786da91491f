"""Stage 2, the schema: the compiled descriptors as a small resolved view
(``schema``), the facts of protobuf several stages share (``proto_facts``:
scalar types, JSON names, how a number is shown) and the one renaming rule
from proto names to Python names (``naming``).

Imports only the foundations (``errors``); within the package, ``schema``
imports ``naming`` and ``proto_facts``. Nothing is re-exported here.
"""
