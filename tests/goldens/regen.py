"""Regenerate the golden outputs: python tests/goldens/regen.py

Each folder under tests/goldens/cases/ holds ``input/`` (its .proto files and, if the
case has one, ``annotations.yaml``) and ``expected/`` (the generated tree).
A case whose imports are relative to folders inside ``input/`` lists those
folders, one a line, in ``input/proto_path.txt`` (protoc's -I).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.output.write import apply  # noqa: E402
from generator.output.plan import plan  # noqa: E402
from generator.options import Options  # noqa: E402
from generator.pipeline import build  # noqa: E402
from generator.schema.naming import RUNTIME_MODULES  # noqa: E402

CASES = Path(__file__).resolve().parent / "cases"


def case_options(case: Path, out: Path) -> Options:
    annotations = case / "input" / "annotations.yaml"
    include = case / "input" / "proto_path.txt"
    proto_paths = [case / "input" / line for line in include.read_text().split()] if include.is_file() else []
    return Options(
        proto_paths=tuple(proto_paths),
        protos=(case / "input",),
        annotations=annotations if annotations.is_file() else None,
        out=out,
        package=f"golden_{case.name}",
    )


def main() -> None:
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        expected = case / "expected"
        result = build(case_options(case, expected))
        shutil.rmtree(expected, ignore_errors=True)
        package = f"golden_{case.name}"
        # every package carries the runtime verbatim; the goldens do not (tests add it back)
        files = {path: text for path, text in result.files.items() if path not in {f"{package}/{m}.py" for m in RUNTIME_MODULES}}
        apply(plan(expected, files, package))
        print(f"{case.name}: {len(result.files)} files")


if __name__ == "__main__":
    main()
