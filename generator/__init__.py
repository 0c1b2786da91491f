"""fleet-strategy codegen: proto schema + annotations -> a typed Python API.

The pipeline, one module per stage:
compile -> schema -> annotations -> model -> render -> format -> output.
``python -m generator generate|check`` drives it (see ``cli``).
"""

__version__ = "0.1.0"
