"""Child process of run.py: time each stage of generator.pipeline.build in-process.

    python tests/benchmarks/stages.py --proto schema.proto [--annotations FILE] [--format]

Wraps the stage functions that ``generator.pipeline`` calls (compile, schema,
annotations, model, render, format) with timers, runs ``build`` once and prints
JSON: seconds per stage, total, and the size of the rendered text. Without
``--format`` the format stage is skipped (rendered text is returned as is), so
the figure is "everything but formatting". Nothing is written.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

# (module, function) -> stage. Patched in the defining module (for a build()
# that imports its stages lazily) and in generator.pipeline (for one that
# imported them at the top); a function that is missing is skipped.
STAGES = {
    ("generator.inputs.compile", "compile_protos"): "compile",
    ("generator.schema.schema", "load_schema"): "schema",
    ("generator.annotations.load", "load_annotations"): "annotations",
    ("generator.model.build", "build_model"): "model",
    ("generator.render.templates", "render_package"): "render",
    ("generator.render.format", "format_files"): "format",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proto", type=Path, required=True)
    parser.add_argument("--annotations", type=Path)
    parser.add_argument("--out", type=Path, default=Path("out"), help="as --out of the CLI; nothing is written")
    parser.add_argument("--package", default="synth")
    parser.add_argument("--format", action="store_true", help="include the format stage")
    args = parser.parse_args()

    started = time.perf_counter()
    modules = {name: importlib.import_module(name) for name, _ in STAGES}
    imported = time.perf_counter() - started
    seconds: dict[str, float] = {}
    rendered_chars = 0

    def timed(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*a: Any, **k: Any) -> Any:
            nonlocal rendered_chars
            t0 = time.perf_counter()
            result = func(*a, **k)
            seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - t0
            if name == "render":
                rendered_chars = sum(len(f.text) for f in result)
            return result

        return wrapper

    for (module, attr), name in STAGES.items():
        func = getattr(modules[module], attr, None)
        if func is None:
            continue
        if name == "format" and not args.format:
            formatted = modules[module].Formatted
            func = lambda files, *_: formatted({f.path: f.text for f in files})  # noqa: E731
        setattr(modules[module], attr, timed(name, func))
    from generator import pipeline  # after patching: a top-level `from ... import` sees the wrappers

    for module, attr in STAGES:
        if hasattr(pipeline, attr):
            setattr(pipeline, attr, getattr(modules[module], attr))
    options = pipeline.Options(
        protos=(args.proto,), annotations=args.annotations, out=args.out, package=args.package
    )
    gc.set_threshold(100_000, *gc.get_threshold()[1:])  # as the CLI runs the pipeline (generator/cli.py)
    t0 = time.perf_counter()
    result = pipeline.build(options)
    total = time.perf_counter() - t0
    json.dump(
        {
            "import": imported,
            "stages": seconds,
            "build": total,
            "files": len(result.files),
            "rendered_chars": rendered_chars,
            "format": args.format,
        },
        sys.stdout,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
