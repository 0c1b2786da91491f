"""Issue 30's size budget: the ``shop`` golden case's package (four messages,
tests/goldens/cases/shop/input/shop.proto), generated with its runtime as a
dependency, against betterproto2's output for the same file, in lines.

Both sides count every line of every Python file (``.py`` and ``.pyi``) their
generator writes for the schema: ours the package folder (its reference page
and manifest are not code and lie beside it), betterproto2's its output folder
(``shop/__init__.py``, ``message_pool.py``, the empty ``__init__.py``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "tests" / "goldens" / "cases" / "shop" / "input"
PACKAGE = "shop_api"
BUDGET = 3.0  # issue 30: at most three times betterproto2's line count


def python_lines(folder: Path) -> int:
    """Lines of every .py and .pyi file under ``folder``."""
    return sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(folder.rglob("*"))
        if path.suffix in (".py", ".pyi") and "__pycache__" not in path.parts
    )


def ours(out: Path, runtime: str = "dependency", root: Path = ROOT) -> int:
    """Generate the shop package into ``out`` (the generator of ``root``);
    its Python lines."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "generator", "generate", "--no-annotations", "--proto", str(SHOP),
               "--out", str(out), "--package", PACKAGE, "--runtime", runtime]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"generate failed: {done.stderr.strip()[-400:]}")
    return python_lines(out / PACKAGE)


def betterproto2(out: Path, python: str = sys.executable) -> int | str:
    """betterproto2's output for shop.proto into ``out``: its Python lines, or
    why it could not run (its plugin is in the bench extra)."""
    plugin = shutil.which("protoc-gen-python_betterproto2", path=str(Path(python).parent)) or shutil.which(
        "protoc-gen-python_betterproto2")
    if plugin is None:
        return "protoc-gen-python_betterproto2 not found: pip install -e '.[dev]'"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = {"PATH": str(Path(python).parent) + ":" + __import__("os").environ.get("PATH", "")}  # it runs ruff
    done = subprocess.run(
        [python, "-m", "grpc_tools.protoc", f"-I{SHOP}", f"--plugin=protoc-gen-python_betterproto2={plugin}",
         f"--python_betterproto2_out={out}", "shop.proto"], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return f"betterproto2 failed: {done.stderr.strip()[-200:]}"
    return python_lines(out)
