"""The generator's import order: packages by concept, stacked, importing
downward only.

``ORDER`` lists the generator's parts, bottom first: a package (a folder of
modules) or a module at the top of ``generator/``. A part imports only the
parts listed before it; inside a package, a module imports only the modules
listed before it in ``PACKAGES``. So there is no import cycle and nothing
runs back up. Every import names where the name is defined (no module
re-exports another's names), and no private (``_``) name crosses modules.
An import inside a function is still an edge: it runs on that path.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from tests.support import ROOT

GENERATOR = ROOT / "generator"

ORDER = [
    "errors",  # the one error type, the did-you-mean, the exit codes
    "settings",  # constants and places every stage may need
    "cache",  # the user cache: the fast check's memo
    "inputs",  # stage 1: the user's files, protoc
    "schema",  # stage 2: the descriptors, protobuf facts, naming
    "annotations",  # stage 3: the annotations file
    "model",  # stage 4: the API to emit
    "render",  # stages 5 and 6: templates, then black's layout
    "output",  # stage 7: the writer
    "options",  # every option once: CLI flags, pyproject keys, plugin parameters
    "project",  # pyproject.toml settings
    "api_changes",  # the API change report
    "pipeline",  # the stages chained
    "cli",
    "plugin",
    "__main__",
]
# each package's modules, bottom first
PACKAGES = {
    "inputs": ["files", "compile"],
    "schema": ["naming", "proto_facts", "schema"],
    "annotations": ["yaml_reader", "grammar", "keys", "checker", "aliases", "rules", "members", "load"],
    "model": ["sentences", "doctext", "typeref", "records", "members", "stubs", "reference_page", "json_schema", "build"],
    "render": ["precompiled", "templates", "format"],
    "output": ["files", "manifest", "lock", "plan", "write"],
    "api_changes": ["surface", "paths", "comparisons", "rules", "report", "at_ref"],
}
# only the entry points import the orchestrator
ENTRY_POINTS = {"cli", "plugin", "__main__"}


def _rank(module: str) -> tuple[int, int]:
    """Where a generator module ("model.build", "errors") sits in the order."""
    part, _, inner = module.partition(".")
    return ORDER.index(part), (PACKAGES[part].index(inner) if inner else -1)


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _sources(root: Path = GENERATOR) -> dict[str, ast.Module]:
    return {
        _module_name(p, root): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(root.rglob("*.py"))
        if "shipped" not in p.relative_to(root).parts
    }


def _imported(
    module: str, node: ast.ImportFrom, modules: set[str]
) -> list[tuple[str, str | None]]:
    """(generator module, name or None for a whole module) for each name a
    ``from ... import`` brings in; nothing for an import from outside."""
    if node.level:
        package = module.split(".")
        is_package = module in modules and any(m.startswith(module + ".") for m in modules)
        base = package if is_package else package[:-1]
        base = base[: len(base) - (node.level - 1)]
    elif node.module and node.module.split(".")[0] in ("generator", "fleet_strategy_codegen"):
        base = []
        node = ast.ImportFrom(node.module.split(".", 1)[1] if "." in node.module else None, node.names, 1)
    else:
        return []
    target = ".".join([*base, *(node.module.split(".") if node.module else [])])
    found = []
    for alias in node.names:
        whole = f"{target}.{alias.name}" if target else alias.name
        if whole in modules:
            found.append((whole, None))
        else:
            found.append((target, alias.name))
    return found


def _defined(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (an import is not a definition)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def _edges(sources: dict[str, ast.Module]) -> list[tuple[str, str, str | None]]:
    """(importer, imported module, name) for every import between generator modules."""
    modules = set(sources)
    return [
        (module, target, name)
        for module, tree in sources.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for target, name in _imported(module, node, modules)
    ]


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_every_module_has_its_place_in_the_order():
    listed = {f"{p}.{m}" for p, ms in PACKAGES.items() for m in ms}
    listed |= {p for p in ORDER if p not in PACKAGES} | set(PACKAGES)
    assert set(_sources()) - {""} == listed


def _cycle(sources: dict[str, ast.Module]) -> list[str] | None:
    graph: dict[str, set[str]] = {}
    for module, target, _ in _edges(sources):
        if target != module and target != "" and not module.startswith(target + "."):
            graph.setdefault(module, set()).add(target)
    assert graph  # the parse sees the imports
    return find_cycle(graph)


def _upward(sources: dict[str, ast.Module]) -> list[str]:
    return [
        f"{module} imports {target}"
        for module, target, _ in _edges(sources)
        if target and module not in ("", "__main__") and _rank(target) >= _rank(module)
    ]


def _not_where_defined(sources: dict[str, ast.Module]) -> list[str]:
    return [
        f"{module} imports {name} from {target}, which does not define it"
        for module, target, name in _edges(sources)
        if name and target and name not in _defined(sources[target])
    ]


def _private(sources: dict[str, ast.Module]) -> list[str]:
    return [
        f"{module} imports {name} from {target}"
        for module, target, name in _edges(sources)
        if name and name.startswith("_") and not name.startswith("__") and target != module
    ]


def test_generator_modules_have_no_import_cycle():
    cycle = _cycle(_sources())
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


def test_every_import_runs_downward():
    upward = _upward(_sources())
    assert not upward, upward


def test_only_the_entry_points_import_the_pipeline():
    importers = {module for module, target, _ in _edges(_sources()) if target == "pipeline"}
    assert importers <= ENTRY_POINTS, importers


def test_every_name_is_imported_from_where_it_is_defined():
    """No module re-exports names it does not define, so a reader finds a
    name where its import says (the package's own face, ``generator``, aside)."""
    elsewhere = _not_where_defined(_sources())
    assert not elsewhere, elsewhere


def test_no_private_name_crosses_modules():
    private = _private(_sources())
    assert not private, private


def test_each_package_says_what_it_owns_and_exports_nothing():
    """A package's ``__init__`` is its docstring (what it owns, what it may
    import): no code, so no re-exports."""
    for package in PACKAGES:
        tree = _sources()[package]
        assert ast.get_docstring(tree), package
        assert len(tree.body) == 1, f"{package}/__init__.py holds more than its docstring"


def test_the_checks_catch_what_they_forbid(tmp_path):
    """A tree planted with each forbidden import: every check reports it."""
    root = tmp_path / "generator"
    for name in ["__init__", "errors", "settings", "pipeline", "cli"]:
        (root / f"{name}.py").parent.mkdir(parents=True, exist_ok=True)
        (root / f"{name}.py").write_text("")
    for package, modules in PACKAGES.items():
        (root / package).mkdir()
        (root / package / "__init__.py").write_text('"""doc"""\n')
        for module in modules:
            (root / package / f"{module}.py").write_text("")
    (root / "errors.py").write_text("class Problem: ...\n_hidden = 1\n")
    (root / "schema" / "naming.py").write_text("from ..errors import Problem, _hidden\n")
    (root / "schema" / "schema.py").write_text("from .naming import Problem\nfrom ..model.build import build\n")
    (root / "model" / "build.py").write_text("from ..schema import schema\ndef build(): ...\n")
    sources = _sources(root)
    assert _cycle(sources) == ["model.build", "schema.schema", "model.build"]
    assert _upward(sources) == ["schema.schema imports model.build"]
    assert _not_where_defined(sources) == ["schema.schema imports Problem from schema.naming, which does not define it"]
    assert _private(sources) == ["schema.naming imports _hidden from errors"]


@pytest.mark.parametrize(
    "source, found",
    [
        ("from .schema.schema import Schema", ("schema.schema", "Schema")),
        ("from ..schema import naming", ("schema.naming", None)),
        ("from .keys import Key", ("annotations.keys", "Key")),
        ("from ..errors import closest", ("errors", "closest")),
    ],
)
def test_imports_are_read_relative_to_their_module(source, found):
    """The reader resolves relative imports as Python does (a wrong base would
    let every other test here pass on nothing)."""
    importer = "pipeline" if source.startswith("from .schema") else "annotations.checker"
    if source.startswith("from ..schema"):
        importer = "model.build"
    modules = {"schema", "schema.schema", "schema.naming", "annotations", "annotations.keys", "errors"}
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _imported(importer, node, modules) == [found]
