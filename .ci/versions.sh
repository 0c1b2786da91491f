#!/usr/bin/env bash
# CI, supported versions (called by .ci/run, whose main run is the default
# python3 with the newest dependencies). Each venv gets only what it needs:
#  1. the generated runtime package, installed from its own distribution
#     (generated/pyproject.toml, protobuf its only dependency), with its
#     runtime tests on the declared protobuf floor (the newest protobuf runs
#     them in 2 and 3);
#  2. the tool at the floor of its ranges (pyproject.toml: protobuf 5.29 with
#     the grpcio-tools that fits it, black 24.1, msgspec 0.18.6, filelock 3.30) on the oldest Python: the
#     drift check, uncached, against the committed output, then the quick
#     tier (goldens, every generated file held to black 24's output, ...);
#  3. the same at the newest of each (protobuf 7.x, black 26) on the newest
#     Python, with the whole quick tier. Same output at both ends: the output is byte-identical across
#     the ranges.
# Interpreters come from pyenv ($PYENV_ROOT/versions/3.X.*) or PATH (python3.X).
set -euo pipefail
cd "$(dirname "$0")/.."

PROTOBUF_FLOOR=4.22.0   # the runtime's; keep in step with generated/pyproject.toml
# the tool's (pyproject.toml's ranges), floor and newest
TOOL_FLOOR=("protobuf==5.29.*" "black==24.1.0" "msgspec==0.18.6" "filelock==3.30.0")
TOOL_NEWEST=("protobuf>=7,<8" "black>=26,<27")
OLDEST=3.10
NEWEST=3.13
RUNTIME_TESTS=(tests/package/test_parity_reference.py tests/runtime/test_runtime_abuse.py tests/runtime/test_strict_and_transactions.py
               tests/runtime/test_files.py tests/runtime/test_threads.py tests/runtime/test_depth.py
               tests/package/test_hooks.py tests/package/test_docs.py tests/runtime/test_copies.py tests/runtime/test_runtime_fast_paths.py
               tests/runtime/test_migrate.py)
# needs protoc (grpcio-tools), the generator's dependency: the full suites run it
GENERATOR_ONLY=(--deselect tests/package/test_parity_reference.py::test_schema_is_wire_identical_to_paddles)
VENVS=.venv-ci

python_for() {
    local found
    found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/$1".*/bin/python 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -z "$found" ]]; then found=$(command -v "python$1" || true); fi
    if [[ -z "$found" ]]; then echo "no Python $1 found (pyenv or PATH)" >&2; return 1; fi
    echo "$found"
}

fresh_venv() {  # fresh_venv NAME PYTHON
    rm -rf "$VENVS/$1"
    "$2" -m venv "$VENVS/$1"
}

runtime() {  # runtime NAME PYTHON PROTOBUF_SPEC
    echo "== runtime tests: Python $("$2" -c 'import sys; print(sys.version.split()[0])'), protobuf $3"
    fresh_venv "$1" "$2"
    # the runtime distribution itself (not the source folder; built from a copy,
    # as a build leaves build/ and *.egg-info beside its sources), then the test tools
    rm -rf "$VENVS/runtime-source" && mkdir -p "$VENVS" && cp -rL generated "$VENVS/runtime-source"
    rm -rf "$VENVS/runtime-source"/{build,*.egg-info} "$VENVS/runtime-source"/fleet_strategy/__pycache__
    "$VENVS/$1/bin/pip" install -q "protobuf$3" "./$VENVS/runtime-source[migrate]" pytest hypothesis pyyaml msgspec  # pyyaml, msgspec: the tests' helpers read the annotations and build packages with the generator
    "$VENVS/$1/bin/python" -c 'import google.protobuf as p, fleet_strategy as f; print("protobuf", p.__version__, "| fleet_strategy from", f.__file__)'
    # -o pythonpath=.: the tests' helpers from the checkout, fleet_strategy from the installed wheel
    "$VENVS/$1/bin/python" -m pytest -p no:cacheprovider -o pythonpath=. "${RUNTIME_TESTS[@]}" "${GENERATOR_ONLY[@]}"
}

tool() {  # tool NAME PYTHON TESTS REQUIREMENTS... (TESTS: pytest's arguments, one word each, comma-separated)
    local name=$1 python=$2 tests
    IFS=, read -r -a tests <<< "$3"
    shift 3
    echo "== the tool at $*: Python $("$python" -c 'import sys; print(sys.version.split()[0])')"
    fresh_venv "$name" "$python"
    "$VENVS/$name/bin/pip" install -q --progress-bar off -e '.[dev]' "$@"
    "$VENVS/$name/bin/pip" install -q --progress-bar off -e ./generated --config-settings editable_mode=strict  # as the README's commands: mypy finds it from any folder
    "$VENVS/$name/bin/python" -c 'import importlib.metadata as m; print(*(f"{n} {m.version(n)}" for n in ("protobuf", "grpcio-tools", "black")), sep=" | ")'
    # uncached: the drift check regenerates everything with these versions
    FLEET_CODEGEN_NO_CACHE=1 "$VENVS/$name/bin/python" -m generator check --require-docs --full
    # tests/integration (real Paddle) ran in .ci/run already; a cache folder of this venv's own
    XDG_CACHE_HOME="$PWD/$VENVS/$name/cache" "$VENVS/$name/bin/python" -m pytest -p no:cacheprovider -n 2 "${tests[@]}"
}

start=$SECONDS
runtime runtime-floor "$(python_for $OLDEST)" "==$PROTOBUF_FLOOR"
# at the floor: the whole quick tier but Paddle's (run above) and one synthetic 20,000-field message
# that protobuf 5.29's own runtime refuses to load ("Message size exceeded maximum size of 65535 bytes")
tool tool-floor "$(python_for $OLDEST)" "--tier,quick,--ignore=tests/integration,--deselect=tests/benchmarks/test_make_schema.py::test_wide_20000_loads_in_the_protobuf_runtime" "${TOOL_FLOOR[@]}"
tool tool-newest "$(python_for $NEWEST)" "--tier,quick,--ignore=tests/integration" "${TOOL_NEWEST[@]}"
echo "== supported versions: all green in $((SECONDS - start)) s"
