"""``protoc-gen-fleet-strategy``: the generator as a protoc plugin.

For teams that drive code generation with ``protoc --…_out=`` or ``buf
generate``. protoc compiles the protos and hands the plugin a
CodeGeneratorRequest; the rest of the pipeline is the CLI's, so the files are
byte-identical to ``fleet-strategy-codegen generate`` when both see the same
options:

    python -m grpc_tools.protoc -Iproto \\
        --plugin=protoc-gen-fleet-strategy=$(which protoc-gen-fleet-strategy) \\
        --fleet-strategy_out=generated \\
        --fleet-strategy_opt=proto_path=proto,annotations=proto/x.yaml,package=x \\
        proto/x.proto

Parameters (comma-separated ``key=value``; defaults from
``[tool.fleet-strategy-codegen]`` in the pyproject.toml of the folder protoc
runs in, as for the CLI) are the options of generator.options that have a
plugin parameter; ``protoc-gen-fleet-strategy --help`` lists them. The plugin
needs nothing but the CodeGeneratorRequest (it reads no ``.proto`` file from
disk; headers name each file as protoc does, relative to its ``-I``), so it
runs where only the request exists (buf remote plugins, sandboxes).

protoc writes the files into the ``--fleet-strategy_out`` folder, which must
exist (protoc does not create it; the plugin's note says so when ``out=``
names a missing folder); it cannot remove orphans (``generate`` does).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from . import __version__
from .errors import GeneratorError, Problem, shell_word, shown_path
from .options import merge, parse_parameter, plugin_usage

if TYPE_CHECKING:
    from google.protobuf.compiler import plugin_pb2


def generate(request_bytes: bytes) -> bytes:
    """A serialized CodeGeneratorRequest in, a serialized CodeGeneratorResponse out."""
    from google.protobuf.compiler import plugin_pb2

    request = plugin_pb2.CodeGeneratorRequest.FromString(request_bytes)
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    try:
        files = _files(request)
    except GeneratorError as exc:  # protoc prints it and exits 1
        response.error = "\n".join(str(problem) for problem in exc.problems)
        return response.SerializeToString()
    except Exception as exc:  # a bug: one line and a hint, as the CLI's exit 3
        response.error = f"internal error: {type(exc).__name__}: {exc} (a bug in fleet-strategy-codegen {__version__}; please report it)"
        return response.SerializeToString()
    for name, text in sorted(files.items()):
        response.file.add(name=name, content=text)
    return response.SerializeToString()


def _files(request: plugin_pb2.CodeGeneratorRequest) -> dict[str, str]:
    """The generated files for a CodeGeneratorRequest."""
    from google.protobuf import descriptor_pb2

    from .cli import report_undocumented
    from .inputs.compile import CompiledSchema
    from .pipeline import build, check_package_name
    from .project import find_config

    given = parse_parameter(request.parameter)
    # paths (and the names in headers) are relative to where protoc runs, as for the CLI
    options = merge(given, find_config(Path.cwd()), "plugin", Path.cwd())
    check_package_name(options.package)
    names = sorted(
        request.file_to_generate
    )  # protoc's names: relative to its -I folder
    # protoc's names stand for the files: the pipeline takes the compiled
    # descriptors from the request and never opens a .proto
    protos = tuple(Path(name) for name in names)
    descriptors = descriptor_pb2.FileDescriptorSet(file=request.proto_file)
    compiled = CompiledSchema(
        descriptor_set=descriptors.SerializeToString(),
        proto_files=protos,
        names=tuple(names),
    )
    if not os.path.lexists(options.out):
        # protoc writes into its --fleet-strategy_out folder but does not make
        # it; its own message ("out/: No such file or directory") comes after
        # everything the plugin prints
        print(
            f"protoc-gen-fleet-strategy: note: the output folder {shown_path(options.out)} does not exist, "
            f"and protoc does not create it: mkdir -p {shell_word(str(options.out))} first",
            file=sys.stderr,
        )
    if options.strict:
        print(
            "protoc-gen-fleet-strategy: note: the parameter strict is deprecated; write require_docs",
            file=sys.stderr,
        )
    result = build(msgspec.structs.replace(options, protos=protos), compiled=compiled)
    if report_undocumented(result.undocumented, options.require_docs):
        raise GeneratorError(Problem("fields without documentation (require_docs)"))
    return result.files


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args:  # protoc passes none: anything given is a person at a terminal
        if args[0] in ("-h", "--help"):
            print(plugin_usage(), end="")
            return 0
        if args[0] in ("-V", "--version"):
            print(f"protoc-gen-fleet-strategy (fleet-strategy-codegen) {__version__}")
            return 0
        print(
            f"protoc-gen-fleet-strategy: unknown argument {args[0]!r}\n{plugin_usage()}",
            end="",
            file=sys.stderr,
        )
        return 2
    sys.stdout.buffer.write(generate(sys.stdin.buffer.read()))
    return 0
