"""The README's quick starts stay true: the "your own schema" lines run as
written in an empty folder outside the repository, and the type checkers
find the runtime package from any folder the way the README says."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

BIN = Path(sys.executable).parent  # the dev venv: the tool's console scripts, protoc (grpcio-tools)
README = ROOT / "README.md"
INSTALL = "python3 -m venv .venv && . .venv/bin/activate && pip install ./fleet-strategy-codegen"


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n### {title}\n")
    end = text.index("\n#", start + 1)
    return text[start:end]


def _block(section: str, info: str) -> str:
    (block,) = re.findall(rf"^```{info}\n(.*?)^```$", section, flags=re.M | re.S)
    return block


def _activated(tmp_path: Path) -> dict[str, str]:
    """The environment of a shell where the venv holding the tool is active."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(BIN.parent),
            "XDG_CACHE_HOME": str(tmp_path / "cache")}


def _inactive(tmp_path: Path) -> dict[str, str]:
    """The environment of a shell where no venv is active."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != BIN]
    return {**env, "PATH": os.pathsep.join(path), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_your_own_schema_runs_as_written_in_an_empty_folder(tmp_path):
    section = _section("Your own schema")
    folder = tmp_path / "empty"
    (folder / "schema").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "goldens" / "cases" / "shop" / "input" / "shop.proto", folder / "schema")
    (folder / "pyproject.toml").write_text(_block(section, "toml"), encoding="utf-8")
    install, *lines = _block(section, "sh").splitlines()
    # the install is the wheel test's (tests/tool/test_tool.py); here the dev venv is the active one
    assert install.startswith(INSTALL + " "), install
    assert [line.split()[0] for line in lines] == ["fleet-strategy-codegen", "PYTHONPATH=src", "mkdir"]
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", "\n".join(lines)], cwd=folder, env=_activated(tmp_path),
                            capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert "shop_api: generated" in result.stdout and "\nCustomer(name='Ann')\n" in result.stdout
    for out in ("src", "gen"):  # the CLI's package, and the plugin's
        assert (folder / out / "shop_api" / "shop.py").is_file(), out
    shop = (folder / "src" / "shop_api" / "shop.py").read_text(encoding="utf-8")
    assert (folder / "gen" / "shop_api" / "shop.py").read_text(encoding="utf-8").split("\n", 1)[1] == shop.split("\n", 1)[1]
    # the table holds no optional key: nothing names a file the reader may not have
    assert set(re.findall(r"^(\w+) =", _block(section, "toml"), flags=re.M)) == {"proto", "out", "package"}


def test_mypy_finds_the_package_from_any_folder(tmp_path):
    """The venv's mypy from any folder, the venv not active, as the README says."""
    (tmp_path / "use.py").write_text("from fleet_strategy import DistributedStrategy\nreveal_type(DistributedStrategy().amp)\n")
    result = subprocess.run([BIN / "mypy", "--strict", "--no-incremental", "use.py"], cwd=tmp_path, capture_output=True,
                            text=True, env=_inactive(tmp_path))
    assert 'Revealed type is "bool"' in result.stdout and result.returncode == 0, result.stdout


@pytest.mark.full
@pytest.mark.parametrize("how", ["activated", "--pythonpath", "neither"])
def test_pyright_finds_the_package_where_the_readme_says(tmp_path, how):
    (tmp_path / "use.py").write_text("from fleet_strategy import DistributedStrategy\nreveal_type(DistributedStrategy().amp)\n")
    args = [str(BIN / "pyright"), "use.py"]
    env = _activated(tmp_path)
    if how == "--pythonpath":  # the venv not active: only named
        args[1:1] = ["--pythonpath", sys.executable]
        env = _inactive(tmp_path)
    result = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True,
                            env=_inactive(tmp_path) if how == "neither" else env)
    if how == "neither":  # what the README says happens then
        assert 'Import "fleet_strategy" could not be resolved' in result.stdout, result.stdout
        assert 'Import "fleet_strategy" could not be resolved' in README.read_text(encoding="utf-8")
        return
    assert result.returncode == 0 and 'Type of "DistributedStrategy().amp" is "bool"' in result.stdout, result.stdout
