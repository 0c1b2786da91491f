#!/usr/bin/env bash
# Creates .venv-paddle-3.9 and .venv-paddle-3.13 (the oldest and newest Python
# that Paddle 3.3.1 supports) with paddlepaddle==3.3.1 (CPU) for
# tests/integration/test_paddle.py. Reuses a venv that already has it.
# Arguments: the versions to set up (default: both). The quick test tier
# needs 3.13 only; the full tier runs Paddle on 3.9 too. PyYAML too: the
# generated package's `yaml` extra (the docs load YAML configs with Paddle).
set -euo pipefail
cd "$(dirname "$0")/../.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.9 3.13)
for version in "${versions[@]}"; do
  venv=".venv-paddle-$version"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('paddlepaddle') == '3.3.1'" 2>/dev/null; then
    "$venv/bin/python" -c "import yaml" 2>/dev/null ||
      "$venv/bin/pip" install --quiet --disable-pip-version-check 'PyYAML>=5.4,<7'
    continue
  fi
  python=""
  for candidate in "python$version" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/"python$version"; do
    if "$candidate" -c "" >/dev/null 2>&1; then python=$candidate; break; fi
  done
  if [ -z "$python" ]; then
    echo "setup_paddle.sh: no python$version on PATH or under pyenv" >&2
    exit 2
  fi
  echo "setup_paddle.sh: installing paddlepaddle==3.3.1 (CPU, about 200 MB) into $venv ..."
  rm -rf "$venv"
  "$python" -m venv "$venv"
  # not --quiet: a line per package, so a slow download shows progress
  "$venv/bin/pip" install --progress-bar off --disable-pip-version-check paddlepaddle==3.3.1 'PyYAML>=5.4,<7'
  echo "setup_paddle.sh: $venv ready"
done
