"""PEP 702 on old names: mypy and pyright flag every use of an alias
property (and of a deprecated field's property) of a generated class, and
nothing else; the generated package itself stays clean (test_typing.py,
test_generated_strict.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, golden_tree

BIN = Path(sys.executable).parent

USAGE = """\
from golden_annotated import Shop
from golden_annotated.types import CheckoutInput

shop = Shop()
shop.workers = 2
shop.threads = 3  # E: old name, written
count: int = shop.threads  # P: old name, read (pyright only: see below)
shop.tags = ["a"]  # E: deprecated field
shop.owners = ["me"]
shop.checkout_configs = {"max_items": 4}
old_config: CheckoutInput = {"max_basket": 4}  # an old key type-checks (TypedDict keys cannot be @deprecated)
shop.checkout_configs = old_config
print(count, shop.workers)
"""


def _marked(text: str, *marks: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if any(f"# {m}:" in line for m in marks)}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = golden_tree(ROOT / "tests" / "goldens" / "cases" / "annotated" / "expected", tmp_path_factory.mktemp("tree"))
    (out / "usage.py").write_text(USAGE, encoding="utf-8")
    return out


def test_mypy_flags_each_write_through_an_old_or_deprecated_name(tree: Path) -> None:
    """mypy (2.4) forgets a getter's ``@deprecated`` once the property has a
    setter, whichever order the decorators take: it flags writes only."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--enable-error-code", "deprecated", "--no-incremental", "usage.py"],
        cwd=tree, capture_output=True, text=True, env={"MYPYPATH": str(tree), "PATH": str(BIN)},
    )
    flagged = {int(line.split(":")[1]) for line in result.stdout.splitlines() if line.startswith("usage.py:") and "[deprecated]" in line}
    assert flagged == _marked(USAGE, "E"), result.stdout
    assert "was renamed 'workers' in 1.2" in result.stdout
    assert result.stdout.count("error:") == len(flagged), result.stdout


def test_pyright_flags_each_use_of_an_old_or_deprecated_name(tree: Path) -> None:
    config = {"typeCheckingMode": "strict", "reportDeprecated": "error", "pythonVersion": "3.10", "include": ["usage.py"]}
    (tree / "pyrightconfig.json").write_text(json.dumps(config))
    result = subprocess.run(
        [str(BIN / "pyright"), "--outputjson", "--project", str(tree), "--pythonpath", sys.executable],
        cwd=tree, capture_output=True, text=True,
    )
    report = json.loads(result.stdout)
    diagnostics = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert {d["range"]["start"]["line"] + 1 for d in diagnostics} == _marked(USAGE, "E", "P"), diagnostics
    assert all(d.get("rule") == "reportDeprecated" for d in diagnostics), diagnostics
