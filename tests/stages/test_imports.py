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
from pathlib import Path

import pytest

from tests.support import ROOT

GENERATOR = ROOT / "generator"

ORDER = [
    "errors",  # the one error type, the did-you-mean, the exit codes
    "settings",  # constants and places every stage may need
    "inputs",  # stage 1: the user's files, protoc
    "schema",  # stage 2: the descriptors, protobuf facts, naming
    "annotations",  # stage 3: the annotations file
    "model",  # stage 4: the API to emit
    "template_cache",
    "render",  # stage 5: templates
    "format",  # stage 6: black
    "output",  # stage 7: the writer
    "project",  # pyproject.toml settings
    "api_surface",  # the API change report
    "api_rules",
    "api_diff",
    "api_changes",
    "pipeline",  # the stages chained
    "cli",
    "plugin",
    "__main__",
]
# each package's modules, bottom first
PACKAGES = {
    "inputs": ["files", "compile"],
    "schema": ["naming", "proto_facts", "schema"],
    "annotations": ["yaml_reader", "grammar", "keys", "checker", "rules", "members", "load"],
    "model": ["doctext", "typeref", "records", "members", "stubs", "reference_page", "build"],
    "render": ["templates"],
}
# only the entry points import the orchestrator
ENTRY_POINTS = {"cli", "plugin", "__main__"}


def _rank(module: str) -> tuple[int, int]:
    """Where a generator module ("model.build", "errors") sits in the order."""
    part, _, inner = module.partition(".")
    return ORDER.index(part), (PACKAGES[part].index(inner) if inner else -1)


def _module_name(path: Path) -> str:
    parts = path.relative_to(GENERATOR).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, ast.Module]:
    return {
        _module_name(p): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(GENERATOR.rglob("*.py"))
        if "shipped" not in p.parts
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


def _edges() -> list[tuple[str, str, str | None]]:
    """(importer, imported module, name) for every import between generator modules."""
    sources = _sources()
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


def test_generator_modules_have_no_import_cycle():
    graph: dict[str, set[str]] = {}
    for module, target, _ in _edges():
        if target != module and target != "" and not module.startswith(target + "."):
            graph.setdefault(module, set()).add(target)
    assert graph  # the parse sees the imports
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"


def test_every_import_runs_downward():
    upward = [
        f"{module} imports {target}"
        for module, target, _ in _edges()
        if target and module not in ("", "__main__") and _rank(target) >= _rank(module)
    ]
    assert not upward, upward


def test_only_the_entry_points_import_the_pipeline():
    importers = {module for module, target, _ in _edges() if target == "pipeline"}
    assert importers <= ENTRY_POINTS, importers


def test_every_name_is_imported_from_where_it_is_defined():
    """No module re-exports names it does not define, so a reader finds a
    name where its import says (the package's own face, ``generator``, aside)."""
    sources = _sources()
    elsewhere = [
        f"{module} imports {name} from {target}, which does not define it"
        for module, target, name in _edges()
        if name and target and name not in _defined(sources[target])
    ]
    assert not elsewhere, elsewhere


def test_no_private_name_crosses_modules():
    private = [
        f"{module} imports {name} from {target}"
        for module, target, name in _edges()
        if name and name.startswith("_") and not name.startswith("__") and target != module
    ]
    assert not private, private


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
