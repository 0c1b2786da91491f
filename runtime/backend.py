"""The runtime distribution's build backend: setuptools', after ``stage``.

The runtime's one source is the tool's ``generator/shipped/`` (a package
generated with runtime = "copy" carries the same modules). Built from this
repository, every build hook first writes the package folder
``src/fleet_strategy_codegen_runtime/`` from it: each shipped module, an
``__init__`` holding the tool's version and ``py.typed``, and the repository's
LICENSE beside this file. The sdist carries what was staged, so a build from
the sdist (which has no ``generator/``) uses it as it is.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403  (every hook not wrapped below)

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent
PACKAGE = "fleet_strategy_codegen_runtime"

INIT = '''"""fleet-strategy-codegen's runtime, for the packages it generates with
runtime = "dependency": each such package runs these modules as its own
(``loader``). Built from the tool's generator/shipped/ (runtime/backend.py)."""

__version__ = {version!r}
'''


def stage(repository: Path = REPOSITORY, folder: Path = HERE) -> Path:
    """Write the package from ``repository``'s generator/shipped/ into
    ``folder``/src (replacing what is there); the package's folder. Without a
    repository (a build from the sdist) the staged package is used as it is."""
    shipped = repository / "generator" / "shipped"
    package = folder / "src" / PACKAGE
    if not shipped.is_dir():
        return package
    tool = (repository / "generator" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', tool, re.MULTILINE)
    if found is None:
        raise RuntimeError("generator/__init__.py holds no __version__")
    shutil.rmtree(package, ignore_errors=True)
    package.mkdir(parents=True)
    for module in sorted(shipped.glob("*.py")):
        if module.name != "__init__.py":
            shutil.copyfile(module, package / module.name)
    (package / "__init__.py").write_text(INIT.format(version=found[1]), encoding="utf-8")
    (package / "py.typed").write_text("", encoding="utf-8")
    shutil.copyfile(repository / "LICENSE", folder / "LICENSE")
    return package


def _staged(hook: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        stage()
        return hook(*args, **kwargs)

    run.__name__ = run.__qualname__ = hook.__name__
    return run


build_sdist = _staged(build_meta.build_sdist)
build_wheel = _staged(build_meta.build_wheel)
build_editable = _staged(build_meta.build_editable)
get_requires_for_build_sdist = _staged(build_meta.get_requires_for_build_sdist)
get_requires_for_build_wheel = _staged(build_meta.get_requires_for_build_wheel)
get_requires_for_build_editable = _staged(build_meta.get_requires_for_build_editable)
prepare_metadata_for_build_wheel = _staged(build_meta.prepare_metadata_for_build_wheel)
prepare_metadata_for_build_editable = _staged(build_meta.prepare_metadata_for_build_editable)
