"""Helpers shared by the tests: run the pipeline into a temp folder, import it."""

from __future__ import annotations

import importlib
import itertools
import sys
from pathlib import Path
from types import ModuleType

# Only what the runtime-only CI jobs have (protobuf, msgspec, PyYAML; no jinja2): the
# stages these helpers drive are imported where they are used.
from generator.output.manifest import MANIFEST_SUFFIX
from generator.output.write import apply
from generator.output.plan import plan
from generator.options import Options
from generator.pipeline import Generated, build

ROOT = Path(__file__).resolve().parent.parent
# What Paddle 3.3.1's class really does, recorded by running it (see its README).
REFERENCE = ROOT / "tests" / "reference" / "paddle-3.3.1"
_counter = itertools.count()


def unique_package(prefix: str = "gen") -> str:
    return f"{prefix}_{next(_counter)}"


def generate(
    out: Path,
    protos: list[Path],
    annotations: Path | None = None,
    package: str | None = None,
    proto_paths: tuple[Path, ...] = (),
) -> tuple[str, Generated]:
    """Generate into ``out``; returns (package name, pipeline result)."""
    package = package or unique_package()
    options = Options(protos=tuple(protos), annotations=annotations, out=out, package=package, proto_paths=proto_paths)
    result = build(options)
    apply(plan(out, result.files, package))
    return package, result


def import_generated(out: Path, package: str) -> ModuleType:
    """Import a freshly generated package (each test uses its own name)."""
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    return importlib.import_module(package)


def golden_files(expected: Path) -> dict[str, str]:
    """A golden case's expected tree as the generator writes it: the committed
    files plus the runtime modules, which every package carries verbatim and
    the goldens do not (tests/goldens/regen.py leaves it out)."""
    files = {
        p.relative_to(expected).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(expected.rglob("*"))
        if p.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(expected).parts)
    }
    from generator import COMMAND, __version__
    from generator.model.records import Header
    from generator.schema.naming import RUNTIME_MODULES
    from generator.render.templates import environment, runtime_copy

    header = Header(generator_version=__version__, inputs=(), command=COMMAND)  # the copy's names no input
    for manifest in [name for name in files if name.endswith(MANIFEST_SUFFIX)]:
        for module in RUNTIME_MODULES:
            files[f"{manifest[: -len(MANIFEST_SUFFIX)]}/{module}.py"] = runtime_copy(environment(), header, module)
    return files


def golden_tree(expected: Path, out: Path) -> Path:
    """Write a golden case's complete tree (see golden_files) into ``out``."""
    for relative, text in golden_files(expected).items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_text(text, encoding="utf-8")
    return out


def annotated_env_fields(message: str = "paddle.fleet.DistributedStrategy") -> set[tuple[str, str, bool]]:
    """(variable, field, read when created) of each ``env:`` entry the
    annotations file gives a field of ``message``: a bare variable name is
    read at construction, a mapping says so with ``read:`` (default true)."""
    import yaml  # (not in the runtime-only CI jobs: imported where used)

    annotations = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text(encoding="utf-8"))
    found = set()
    for name, field in annotations["messages"][message]["fields"].items():
        env = (field or {}).get("env")
        if isinstance(env, str):
            found.add((env, name, True))
        elif env is not None:
            found.add((env["variable"], name, env.get("read", True)))
    return found
