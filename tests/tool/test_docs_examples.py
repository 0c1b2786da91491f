"""The docs' Python examples run and type-check; their relative links resolve.

A reader pastes a page's ```python blocks in order, so each page (README.md and
every docs/*.md) is checked as one module: its python blocks concatenated.

- Type check: the whole module, with ``mypy --strict`` and the repository's
  ``[tool.mypy]`` (``mypy_path = generated``). Paddle is not installed in the
  tool's venv, so ``paddle`` and its submodules are typed as ``Any`` here
  (``follow_imports = skip`` for them only): our side of a Paddle example is
  checked, Paddle's own signatures are not.
- A known gap in the generated types (``TYPES_GAP``: the exact mypy message
  and why) makes a page's type check an expected failure, never a pass; any
  other error fails it, and so does a listed gap that no longer occurs.
- Run: the blocks that are not marked, in order, with this interpreter and
  ``generated/`` on the path, in a temporary working folder, so a file an
  example writes (``strategy.prototxt``) never lands in the clone.
- Run with Paddle: a block whose first line is ``# needs: paddle`` runs only
  with a Python that has ``paddlepaddle==3.3.1`` (``.venv-paddle-3.13`` or
  ``.venv-paddle-3.9``, made by ``tests/integration/setup_paddle.sh``, or the
  first of ``FLEET_PADDLE_PYTHONS``): there the page's blocks all run, in order.
  Without such a Python that test is skipped and says why (CI has one).
  So an unmarked block must not depend on a marked one.

Fences spelled ``py``, ``python3`` or ``pycon`` are refused, so no Python
example escapes these checks.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.support import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
PAGE_IDS = [page.relative_to(ROOT).as_posix() for page in PAGES]
PADDLE_MARK = "# needs: paddle"
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)$")
# Known gaps in the generated types: page -> {pattern of mypy's message: the gap}.
# Such a page's check is an expected failure (xfail) as long as every error it
# reports is a listed gap and every listed gap still occurs; once the types are
# fixed, the entry must go (the test fails on a gap that no longer occurs).
TYPES_GAP: dict[str, dict[str, str]] = {}


@dataclass(frozen=True)
class Block:
    info: str  # the fence's info string: "python", "sh", ...
    line: int  # 1-based line of the block's first line of code
    code: str

    @property
    def needs_paddle(self) -> bool:
        return self.code.lstrip().startswith(PADDLE_MARK)


def blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text (fences may be indented, as in lists)."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence = len(opened["indent"]), opened["fence"]
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        assert j < len(lines), f"line {i + 1}: unclosed code fence"
        found.append(Block(opened["info"].strip(), i + 2, "\n".join(body) + "\n"))
        i = j + 1
    return found


def module(page: Path, with_paddle: bool) -> tuple[str, list[int]]:
    """The page's python blocks as one module, and each module line's page line."""
    source: list[str] = []
    origin: list[int] = []
    for block in blocks(page.read_text(encoding="utf-8")):
        if block.info != "python" or (block.needs_paddle and not with_paddle):
            continue
        for offset, line in enumerate(block.code.splitlines()):
            source.append(line)
            origin.append(block.line + offset)
    return "\n".join(source) + "\n", origin


def page_lines(message: str, name: str, page: str, origin: list[int]) -> str:
    """Rewrite ``name:LINE:`` in a tool's output as the page's ``page:LINE:``."""
    return re.sub(
        rf"{re.escape(name)}(?:\", line |:)(\d+)",
        lambda m: f"{page}:{origin[int(m[1]) - 1]}" if 0 < int(m[1]) <= len(origin) else m[0],
        message,
    )


def module_name(page_id: str) -> str:
    return re.sub(r"\W", "_", page_id.removesuffix(".md").lower())


# ------------------------------------------------------------------ fences


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_python_examples_use_the_python_fence(page):
    """An example fenced otherwise would escape the run and the type check."""
    for block in blocks(page.read_text(encoding="utf-8")):
        assert block.info.split(" ")[0] not in ("py", "python3", "pycon", "Python"), (
            f"{page.name}:{block.line - 1}: fence the example as ```python so it is checked"
        )
        if block.info == "python" and PADDLE_MARK in block.code:
            assert block.needs_paddle, f"{page.name}:{block.line}: '{PADDLE_MARK}' goes on the block's first line"


def test_the_docs_have_examples():
    """The checks below see the examples (a fence regex that matched nothing would pass them all)."""
    for page_id in ("README.md", "docs/user-guide.md"):
        code, _ = module(ROOT / page_id, with_paddle=True)
        assert code.count("DistributedStrategy") >= 2, page_id
    assert any(
        block.needs_paddle for block in blocks((ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8"))
    ), "the user guide hands a strategy to fleet: at least one block needs Paddle"


# ------------------------------------------------------------------ run


def _run(python: str, page: Path, with_paddle: bool, folder: Path) -> None:
    page_id = page.relative_to(ROOT).as_posix()
    code, origin = module(page, with_paddle)
    if not code.strip():
        return
    name = f"{module_name(page_id)}.py"
    (folder / name).write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generated"), "FLAGS_enable_pir_api": "0", "GLOG_v": "0"}
    env.pop("FLEET_STRATEGY_STRICT", None)
    done = subprocess.run([python, name], cwd=folder, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, page_lines(f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}", name, page_id, origin)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_examples_run(page, tmp_path):
    before = set(os.listdir(ROOT))
    _run(sys.executable, page, with_paddle=False, folder=tmp_path)
    assert set(os.listdir(ROOT)) == before, "an example wrote into the clone"


@cache
def paddle_python() -> str | None:
    listed = os.environ.get("FLEET_PADDLE_PYTHONS")
    candidates = listed.split(os.pathsep) if listed else [str(ROOT / f".venv-paddle-{v}" / "bin" / "python") for v in ("3.13", "3.9")]
    probe = "import importlib.metadata as m; print(m.version('paddlepaddle'))"
    for python in candidates:
        if Path(python).exists():
            done = subprocess.run([python, "-c", probe], capture_output=True, text=True)
            if done.returncode == 0 and done.stdout.strip() == "3.3.1":
                return python
    return None


PADDLE_PAGES = [
    page for page in PAGES if any(b.needs_paddle for b in blocks(page.read_text(encoding="utf-8")) if b.info == "python")
]


@pytest.mark.parametrize("page", PADDLE_PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PADDLE_PAGES])
def test_examples_run_with_paddle(page, tmp_path):
    python = paddle_python()
    if python is None:
        pytest.skip("no Python with paddlepaddle==3.3.1: run tests/integration/setup_paddle.sh")
    _run(python, page, with_paddle=True, folder=tmp_path)


# ------------------------------------------------------------------ mypy --strict


def _mypy_config(folder: Path) -> Path:
    """The repository's [tool.mypy] (paths made absolute), plus Paddle as Any."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    lines = ["[mypy]"]
    for key, value in settings.items():
        if key == "mypy_path":
            value = os.pathsep.join(str(ROOT / part) for part in str(value).split(os.pathsep))
        lines.append(f"{key} = {value}")
    # follow_imports = skip: mypy_path's generated/paddle (the Paddle build) is not Paddle
    lines += ["", "[mypy-paddle,paddle.*]", "follow_imports = skip", "ignore_missing_imports = True", ""]
    config = folder / "mypy.ini"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory) -> dict[str, str]:
    """One mypy run over every page's module (the package is analysed once): errors by page."""
    folder = tmp_path_factory.mktemp("docs_mypy")
    names = {}
    for page, page_id in zip(PAGES, PAGE_IDS):
        code, origin = module(page, with_paddle=True)
        name = f"{module_name(page_id)}.py"
        (folder / name).write_text(code, encoding="utf-8")
        names[page_id] = (name, origin)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(_mypy_config(folder)), "--cache-dir", str(folder / ".cache"),
         "--no-error-summary", *(name for name, _ in names.values())],
        cwd=folder, capture_output=True, text=True,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2: mypy itself failed
    report = {}
    for page_id, (name, origin) in names.items():
        own = [line for line in done.stdout.splitlines() if line.startswith(f"{name}:")]
        report[page_id] = page_lines("\n".join(own), name, page_id, origin)
    return report


@pytest.mark.parametrize("page_id", PAGE_IDS)
def test_examples_pass_mypy_strict(page_id, mypy_report):
    errors = [line for line in mypy_report[page_id].splitlines() if ": error: " in line]
    gaps = TYPES_GAP.get(page_id, {})
    unexplained = [error for error in errors if not any(re.search(pattern, error) for pattern in gaps)]
    assert not unexplained, "\n".join(unexplained)
    fixed = [gap for pattern, gap in gaps.items() if not any(re.search(pattern, error) for error in errors)]
    assert not fixed, f"no longer reported, remove from TYPES_GAP: {fixed}"
    if gaps:
        pytest.xfail("; ".join(gaps.values()))


# ------------------------------------------------------------------ links

LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def prose(text: str) -> str:
    """The text without code blocks and code spans (links there are examples)."""
    kept, fenced, fence = [], False, ""
    for line in text.splitlines():
        opened = FENCE.match(line)
        if not fenced and opened:
            fenced, fence = True, opened["fence"]
        elif fenced and line.strip().startswith(fence):
            fenced = False
        elif not fenced:
            kept.append(re.sub(r"(`+).*?\1", "", line))
    return "\n".join(kept)


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown page, and its explicit ``<a id>``s."""
    text = page.read_text(encoding="utf-8")
    found = set(ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for line in prose(text.replace("`", "")).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            title = re.sub(r"<[^>]+>", "", heading[1])
            slug = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def test_anchors_follow_github():
    """The slug rule the link check relies on, on headings of the kinds the docs use."""
    page = ROOT / "README.md"
    assert "safety-contract" in anchors(page)
    assert "compatibility-with-paddle-331" in anchors(page)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_relative_links_resolve(page):
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists() or ROOT.resolve() not in (resolved, *resolved.parents):
            broken.append(f"{target}: no such file in the repository")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading or anchor #{fragment} in {resolved.name}")
    assert not broken, "\n".join(broken)


def test_readme_stays_an_overview():
    """Reference material lives in docs/; the README links to it."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines (at most 300: move the detail to docs/)"


# ------------------------------------------------------------------ metadata


@pytest.mark.parametrize("pyproject", ["pyproject.toml", "generated/pyproject.toml"])
def test_distributions_link_their_source_and_docs(pyproject):
    """Project-URLs: the four well-known labels, one repository, and a
    Documentation link to a page of this tree's docs/."""
    urls = tomllib.loads((ROOT / pyproject).read_text(encoding="utf-8"))["project"]["urls"]
    assert sorted(urls) == ["Documentation", "Homepage", "Issues", "Source"]
    source = urls["Source"]
    assert urls["Homepage"] == source and urls["Issues"] == f"{source}/issues"
    docs = re.fullmatch(rf"{re.escape(source)}/(?:tree|blob)/main/(docs(?:/.+)?)", urls["Documentation"])
    assert docs and (ROOT / docs[1]).exists(), urls["Documentation"]
