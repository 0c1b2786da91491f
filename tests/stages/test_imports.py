"""The generator's modules import downward only: no import cycle, and only
the command line (cli) and the protoc plugin import the orchestrator."""

from __future__ import annotations

import ast

from tests.support import ROOT

GENERATOR = ROOT / "generator"
ENTRY_POINTS = {"cli", "plugin", "__main__"}
# Stage 3 (annotations) and the API change report, split by concern, and the
# facts shared by several stages: each imports only the modules listed before it
# among these (and the stages below it).
STAGES = [
    "proto_facts",
    "schema",
    "rules",
    "annotation_notes",
    "yaml_reader",
    "annotation_yaml",
    "annotation_grammar",
    "annotation_members",
    "annotations",
    "model",
    "api_changes",
    "pipeline",
]


# The generator's modules and packages (a package is one node: the union of its modules' imports).
PACKAGES = sorted(p.parent.name for p in GENERATOR.glob("*/__init__.py"))
NODES = sorted({p.stem for p in GENERATOR.glob("*.py")} - {"__init__"} | set(PACKAGES))


def _imported(path, top: int) -> set[str]:
    """The names imported by the module at ``path`` from the generator's top
    level (``top``: the relative-import level that reaches it), at any depth of
    its code (an import inside a function is still an edge: it runs on that path)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == top:
            if node.module:
                found.add(node.module.split(".")[0])
            else:  # from . import naming
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("generator."):
            found.add(node.module.split(".")[1])
    return found


def _imports(name: str) -> set[str]:
    """The generator modules and packages ``name`` imports."""
    if name in PACKAGES:
        found = set().union(*(_imported(p, 2) for p in (GENERATOR / name).glob("*.py")))
    else:
        found = _imported(GENERATOR / f"{name}.py", 1)
    return (found & set(NODES)) - {name}


def _graph() -> dict[str, set[str]]:
    return {name: _imports(name) for name in NODES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
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


def test_generator_modules_have_no_import_cycle():
    graph = _graph()
    assert set(STAGES) | {"format", "render", "settings"} <= set(graph)  # the parse sees the modules
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"


def test_only_the_entry_points_import_the_pipeline():
    importers = sorted(name for name, targets in _graph().items() if "pipeline" in targets)
    assert set(importers) <= ENTRY_POINTS, importers


def test_the_split_stages_import_downward():
    graph = _graph()
    for index, name in enumerate(STAGES):
        later = set(STAGES[index + 1 :]) & graph[name]
        assert not later, f"{name} imports {sorted(later)}, listed after it"


def test_the_api_change_report_imports_downward():
    """generator/api_changes: each module imports only those before it (its docstring's order)."""
    order = ["surface", "paths", "comparisons", "rules", "report", "at_ref"]
    package = GENERATOR / "api_changes"
    assert sorted(order) == sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    for index, name in enumerate(order):
        found = _imported(package / f"{name}.py", 1) & set(order)
        later = found - set(order[:index])
        assert not later, f"api_changes.{name} imports {sorted(later)}, listed after it"
