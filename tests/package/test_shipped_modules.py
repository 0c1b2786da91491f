"""Every module a build ships works where it stands: the standalone package's
modules import without Paddle and their doctests pass as the installed
package runs them (``pytest --doctest-modules``); the Paddle build's modules,
hooks.py and module_helpers.py included, pass mypy --strict and pyright
--strict against Paddle's modules (typed here by the standalone package's
stubs), with no ``fleet_strategy`` on the path. (The Paddle build's doctests
need Paddle: tests/integration/test_paddle.py runs them there.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fleet_strategy
from tests.support import ROOT

BIN = Path(sys.executable).parent
INSTALLED = Path(fleet_strategy.__file__).parent
PADDLE_BUILD = ROOT / "generated" / "paddle"
# A process in which `import paddle` fails, whatever is installed: the standalone package must not need it.
NO_PADDLE = """\
import sys


class _NoPaddle:
    def find_spec(self, name, path=None, target=None):
        if name == "paddle" or name.startswith("paddle."):
            raise ModuleNotFoundError(f"No module named {name!r} (hidden by the test)", name=name)
        return None


sys.meta_path.insert(0, _NoPaddle())
"""


def _without_paddle(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that cannot import Paddle (a sitecustomize hides it)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_PADDLE)
    # the checkout's generated/ too: the test command installs no runtime package (pytest's pythonpath finds it)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "generated")])}


def test_every_module_of_the_standalone_package_imports_without_paddle(tmp_path):
    code = (
        "import importlib, pkgutil, sys\n"
        "import fleet_strategy\n"
        "names = sorted(m.name for m in pkgutil.walk_packages(fleet_strategy.__path__, 'fleet_strategy.'))\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'paddle']\n"
        "print(' '.join(names))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=_without_paddle(tmp_path))
    assert done.returncode == 0, done.stderr
    shipped = sorted(f"fleet_strategy.{p.stem}" for p in INSTALLED.glob("*.py") if p.stem != "__init__")
    assert done.stdout.split() == shipped and "fleet_strategy.hooks" in shipped
    assert "fleet_strategy.module_helpers" not in shipped  # it imports Paddle: the Paddle build's only


def test_the_process_without_paddle_cannot_import_it(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import paddle"], capture_output=True, text=True, env=_without_paddle(tmp_path))
    assert done.returncode == 1 and "hidden by the test" in done.stderr


def test_every_doctest_of_the_installed_standalone_package_passes_where_it_stands(tmp_path):
    """As a user runs them: pytest's --doctest-modules on the installed
    package, no option flags, no names given to the examples, Paddle absent."""
    work = tmp_path / "work"  # examples that save files write here
    work.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--doctest-modules", "-p", "no:cacheprovider", "-c", os.devnull,
         "--rootdir", str(work), "-v", str(INSTALLED)],
        capture_output=True, text=True, cwd=work, env=_without_paddle(tmp_path),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    passed = [line for line in done.stdout.splitlines() if " PASSED" in line]
    hooks = [line for line in passed if line.startswith("hooks.py::")]
    assert len(passed) > 60 and len(hooks) == 3, done.stdout[-3000:]


@pytest.fixture(scope="module")
def paddle_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Paddle build beside stubs of the two Paddle modules it imports
    (its messages typed as the standalone package's stubs type them, its
    logger a logging.Logger)."""
    root = tmp_path_factory.mktemp("paddle_tree")
    shutil.copytree(PADDLE_BUILD, root / "paddle")
    fleet = root / "paddle" / "distributed" / "fleet"
    (fleet / "proto").mkdir()
    shutil.copy(ROOT / "generated" / "fleet_strategy" / "distributed_strategy_pb2.pyi", fleet / "proto" / "distributed_strategy_pb2.pyi")
    (fleet / "utils").mkdir()
    (fleet / "utils" / "log_util.pyi").write_text("import logging\n\nlogger: logging.Logger\n")
    return root


def test_the_paddle_build_passes_mypy_strict(paddle_tree):
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "paddle.distributed.fleet.base"],
        capture_output=True, text=True, cwd=paddle_tree, env={**os.environ, "MYPYPATH": str(paddle_tree)},
    )
    assert done.returncode == 0 and "17 source files" in done.stdout, done.stdout


def test_the_paddle_builds_support_modules_pass_pyright_strict(paddle_tree):
    """hooks.py, module_helpers.py and the rest of _fleet_strategy/."""
    config = {"typeCheckingMode": "strict", "pythonVersion": "3.10", "include": ["paddle/distributed/fleet/base/_fleet_strategy"]}
    (paddle_tree / "pyrightconfig.json").write_text(json.dumps(config))
    done = subprocess.run(
        [str(BIN / "pyright"), "--project", str(paddle_tree), "--pythonpath", sys.executable],
        capture_output=True, text=True, cwd=paddle_tree,
    )
    assert done.returncode == 0 and "0 errors" in done.stdout, done.stdout
