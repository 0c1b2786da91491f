"""How a package generated with ``runtime = "dependency"`` runs this runtime.

Not copied into packages: it is a module of the fleet-strategy-codegen-runtime
distribution only (runtime/pyproject.toml), beside this folder's other modules.
Such a package's ``runtime`` and ``lint`` modules call ``load``, which checks
that this runtime's version is one the package was generated for, then runs
this distribution's module of that name as the package's module, and the
private modules it imports (``_runtime_*``) as the package's too. So each
package keeps its own settings (default strictness, logger) and message specs,
as a package carrying a copy does: two packages never share them.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def version_numbers(version: str) -> tuple[int, ...]:
    """``"1.2.3rc1"`` -> ``(1, 2, 3)``: the leading numbers of each part."""
    numbers: list[int] = []
    for part in version.split(".")[:3]:
        digits = part[: len(part) - len(part.lstrip("0123456789"))]
        if not digits:
            break
        numbers.append(int(digits))
    return tuple(numbers)


def installed_version() -> str:
    """This distribution's version (its package's ``__version__``)."""
    package = sys.modules.get(__name__.rpartition(".")[0])
    return str(getattr(package, "__version__", "0"))


def load(module: str, requirement: str, low: tuple[int, ...], high: tuple[int, ...]) -> None:
    """Run this runtime's module named as ``module``'s last part (``runtime``,
    ``lint``) as ``module``, a generated package's, whose requirement (as pip
    takes it) is ``requirement``: versions from ``low`` up to, not including,
    ``high``. Another version is an ImportError saying what to install."""
    package_name, _, name = module.rpartition(".")
    installed = installed_version()
    if not low <= version_numbers(installed) < high:
        raise ImportError(
            f"{package_name} needs {requirement}, but version {installed} is installed: "
            f"pip install '{requirement}' (or regenerate {package_name} with "
            f"fleet-strategy-codegen {installed})"
        )
    here = os.path.dirname(os.path.abspath(__file__))
    package = sys.modules[package_name]
    if here not in package.__path__:  # the private modules load as the package's own
        package.__path__.append(here)
    spec = importlib.util.spec_from_file_location(module, os.path.join(here, f"{name}.py"))
    if spec is None or spec.loader is None:  # pragma: no cover - a file location always has one
        raise ImportError(f"{module}: no {name}.py in {here}")
    spec.loader.exec_module(sys.modules[module])
