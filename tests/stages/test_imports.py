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
    "api_surface",
    "api_rules",
    "api_diff",
    "api_changes",
    "pipeline",
]


def _imports(name: str) -> set[str]:
    """The generator modules ``name`` imports, at any depth of its code (an
    import inside a function is still an edge: it runs on that path)."""
    tree = ast.parse((GENERATOR / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:  # from . import naming
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("generator."):
            found.add(node.module.split(".")[1])
    modules = {p.stem for p in GENERATOR.glob("*.py")}
    return (found & modules) - {name}


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p.stem) for p in GENERATOR.glob("*.py") if p.stem != "__init__"}


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
