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
runs in, as for the CLI):

* ``proto_path``: accepted for compatibility and ignored: the plugin needs
  nothing but the CodeGeneratorRequest (it reads no ``.proto`` file from
  disk; headers name each file as protoc does, relative to its ``-I``), so
  it runs where only the request exists (buf remote plugins, sandboxes);
* ``annotations``: the annotations file; ``no_annotations`` ignores it;
* ``package``: the generated package's name;
* ``out``: the folder given as ``--fleet-strategy_out`` (default: the
  table's ``out``; the hand-written hooks module is read beside the
  annotations file);
* ``require_docs``: undocumented fields are an error (``strict``, its old
  spelling, still works and prints a deprecation note).

protoc writes the files; it cannot remove orphans (``generate`` does).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .errors import GeneratorError, Problem

if TYPE_CHECKING:
    from google.protobuf.compiler import plugin_pb2

PARAMETERS = (
    "proto_path",
    "annotations",
    "no_annotations",
    "package",
    "out",
    "require_docs",
    "strict",
)
FLAGS = (
    "no_annotations",
    "require_docs",
    "strict",
)  # strict: the deprecated spelling of require_docs


def parse_parameter(parameter: str) -> dict[str, str]:
    """``a=1,b`` -> {"a": "1", "b": ""}; unknown or repeated keys are errors."""
    from .errors import closest

    values: dict[str, str] = {}
    problems = []
    for item in filter(None, (part.strip() for part in parameter.split(","))):
        key, _, value = item.partition("=")
        if key not in PARAMETERS:
            guess = closest(key, PARAMETERS)
            hint = (
                f"did you mean {guess!r}?"
                if guess
                else f"valid: {', '.join(PARAMETERS)}"
            )
            problems.append(Problem(f"unknown plugin parameter {key!r}", hint=hint))
        elif key in values:
            problems.append(Problem(f"plugin parameter {key!r} given twice"))
        elif (key in FLAGS) == bool(value):
            form = key if key in FLAGS else f"{key}=VALUE"
            problems.append(Problem(f"plugin parameter {item!r}: write it as {form}"))
        else:
            values[key] = value
    if problems:
        raise GeneratorError(problems)
    return values


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
    from .pipeline import Options, build, check_package_name
    from .project import project_defaults

    values = parse_parameter(request.parameter)
    table, _ = project_defaults(Path.cwd())
    root = (
        Path.cwd()
    )  # paths (and the names in headers) are relative to where protoc runs, as for the CLI
    package = values.get("package") or table.get("package")
    out = values.get("out") or table.get("out")
    if not package or not out:
        missing = "package" if not package else "out"
        raise GeneratorError(
            Problem(
                f"no {missing}= plugin parameter and no [tool.fleet-strategy-codegen] {missing}"
            )
        )
    check_package_name(package)
    annotations = None
    if "no_annotations" not in values:
        given = values.get("annotations") or table.get("annotations")
        annotations = root / given if given else None
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
    options = Options(
        protos=protos, annotations=annotations, out=root / out, package=package
    )
    if "strict" in values:
        print(
            "protoc-gen-fleet-strategy: note: the parameter strict is deprecated; write require_docs",
            file=sys.stderr,
        )
    result = build(options, compiled=compiled)
    if report_undocumented(
        result.model.undocumented, "require_docs" in values or "strict" in values
    ):
        raise GeneratorError(Problem("fields without documentation (require_docs)"))
    return result.files


USAGE = """\
usage: protoc --plugin=protoc-gen-fleet-strategy=PATH --fleet-strategy_out=DIR \\
              [--fleet-strategy_opt=KEY=VALUE,...] FILE.proto ...

protoc-gen-fleet-strategy is a protoc plugin: protoc runs it and writes its
answer to a CodeGeneratorRequest on standard input; it is not run by hand.
Parameters (--fleet-strategy_opt, comma-separated; defaults from
[tool.fleet-strategy-codegen] in the pyproject.toml of the folder protoc runs in):
  annotations=FILE   the annotations file
  no_annotations     ignore any annotations file
  package=NAME       the generated package's name
  out=DIR            the folder given as --fleet-strategy_out
  require_docs       a field without documentation is an error
Options: --help (this text), --version.
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args:  # protoc passes none: anything given is a person at a terminal
        if args[0] in ("-h", "--help"):
            print(USAGE, end="")
            return 0
        if args[0] in ("-V", "--version"):
            print(f"protoc-gen-fleet-strategy (fleet-strategy-codegen) {__version__}")
            return 0
        print(
            f"protoc-gen-fleet-strategy: unknown argument {args[0]!r}\n{USAGE}",
            end="",
            file=sys.stderr,
        )
        return 2
    sys.stdout.buffer.write(generate(sys.stdin.buffer.read()))
    return 0
