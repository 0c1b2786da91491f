"""fleet-strategy codegen: proto schema + annotations -> a typed Python API.

The pipeline, one package (or module) per stage, each importing only those
before it: inputs (read, compile) -> schema -> annotations -> model ->
render -> format -> output; the API change report, then ``pipeline``, which
chains them.
``fleet-strategy-codegen generate|check`` (in this repository also
``python -m generator``) drives it (see ``cli``); ``protoc-gen-fleet-strategy``
is the same pipeline as a protoc plugin (see ``plugin``). Installed, the
import name is ``fleet_strategy_codegen``; the package imports itself
relatively, so both names run the same code.
"""

__version__ = "0.1.0"
COMMAND = "fleet-strategy-codegen"  # the console script: how to regenerate
