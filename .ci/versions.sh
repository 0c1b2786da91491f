#!/usr/bin/env bash
# CI, supported versions (called by .ci/run). Each venv gets only what it needs:
#  1. the generated runtime package, installed from its own distribution
#     (generated/pyproject.toml, protobuf its only dependency), with its
#     runtime tests on the declared protobuf floor and on the newest 7.x;
#  2. the quick tier and the drift check on the oldest and the newest Python
#     the tool supports (3.10 and 3.13).
# Interpreters come from pyenv ($PYENV_ROOT/versions/3.X.*) or PATH (python3.X).
set -euo pipefail
cd "$(dirname "$0")/.."

PROTOBUF_FLOOR=4.22.0   # keep in step with generated/pyproject.toml
PROTOBUF_NEWEST="<8"    # the newest 7.x pip finds
OLDEST=3.10
NEWEST=3.13
RUNTIME_TESTS=(tests/package/test_parity_reference.py tests/runtime/test_runtime_abuse.py tests/runtime/test_strict_and_transactions.py
               tests/runtime/test_files.py tests/runtime/test_threads.py tests/runtime/test_depth.py
               tests/package/test_hooks.py tests/package/test_docs.py tests/runtime/test_copies.py tests/runtime/test_runtime_fast_paths.py)
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
    "$VENVS/$1/bin/pip" install -q "protobuf$3" "./$VENVS/runtime-source" pytest hypothesis
    "$VENVS/$1/bin/python" -c 'import google.protobuf as p, fleet_strategy as f; print("protobuf", p.__version__, "| fleet_strategy from", f.__file__)'
    # -o pythonpath=.: the tests' helpers from the checkout, fleet_strategy from the installed wheel
    "$VENVS/$1/bin/python" -m pytest -p no:cacheprovider -o pythonpath=. "${RUNTIME_TESTS[@]}" "${GENERATOR_ONLY[@]}"
}

full() {  # full NAME PYTHON
    echo "== quick tier and drift check: Python $("$2" -c 'import sys; print(sys.version.split()[0])')"
    fresh_venv "$1" "$2"
    "$VENVS/$1/bin/pip" install -q -e '.[dev]'
    "$VENVS/$1/bin/python" -m generator check --require-docs --full
    # tests/integration (real Paddle) ran in .ci/run already
    "$VENVS/$1/bin/python" -m pytest -p no:cacheprovider --tier quick --ignore=tests/integration
}

start=$SECONDS
runtime runtime-floor "$(python_for $OLDEST)" "==$PROTOBUF_FLOOR"
runtime runtime-newest "$(python_for $NEWEST)" "$PROTOBUF_NEWEST"
full full-oldest "$(python_for $OLDEST)"
full full-newest "$(python_for $NEWEST)"
echo "== supported versions: all green in $((SECONDS - start)) s"
