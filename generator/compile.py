"""Stage 1: .proto files -> a FileDescriptorSet (bytes), via grpcio-tools' protoc.

protoc runs in-process (no system protoc, no subprocess); its diagnostics are
written to file descriptor 2 by C++ code, so they are captured at that level.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import GeneratorError, Problem


MAX_PROBLEMS = 20
# protoc's logging library (absl) also writes to stderr: its banner and its
# "W0000 00:00:... file.cc:123]" lines are not the user's errors.
_ABSL_LOG = re.compile(r"^(WARNING: All log messages before absl::InitializeLog\(\)|[IWEF]\d{4} )")


@dataclass(frozen=True)
class CompiledSchema:
    descriptor_set: bytes  # serialized FileDescriptorSet with source info
    proto_files: tuple[Path, ...]  # the inputs, as given (sorted)
    include_root: Path


def find_proto_files(paths: list[Path]) -> list[Path]:
    """Expand folders into the .proto files they hold; keep order stable."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(path.rglob("*.proto")))
        elif path.is_file() and path.suffix == ".proto":
            found.append(path)
        elif path.is_file():
            raise GeneratorError(Problem("not a .proto file (give .proto files or folders of them)", file=str(path)))
        else:
            raise GeneratorError(Problem("no such .proto file or folder", file=str(path)))
    if not found:
        raise GeneratorError(Problem("no .proto files found", file=", ".join(map(str, paths))))
    return sorted(set(found))


def _common_root(files: list[Path]) -> Path:
    return Path(os.path.commonpath([str(f.resolve().parent) for f in files]))


def compile_protos(paths: list[Path], include_root: Path | None = None) -> CompiledSchema:
    """Compile the given .proto files (and folders) into a FileDescriptorSet."""
    import grpc_tools  # deferred: only compilation needs it
    from grpc_tools import protoc

    files = find_proto_files(paths)
    root = (include_root or _common_root(files)).resolve()
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory(prefix="fsc-protoc-") as tmp:
        out = Path(tmp) / "set.bin"
        errors = Path(tmp) / "stderr.txt"
        args = [
            "protoc",
            f"-I{root}",
            f"-I{well_known}",
            "--include_source_info",
            "--include_imports",
            f"--descriptor_set_out={out}",
            *(str(f.resolve().relative_to(root)) for f in files),
        ]
        code = _run_capturing_stderr(lambda: protoc.main(args), errors)
        message = errors.read_text(encoding="utf-8", errors="replace").strip()
        if code != 0 or not out.exists():
            problems = [_protoc_problem(line, root) for line in message.splitlines() if line.strip() and not _ABSL_LOG.match(line)]
            if len(problems) > MAX_PROBLEMS:  # one broken file can give hundreds; the first ones tell
                more = len(problems) - MAX_PROBLEMS
                problems = [*problems[:MAX_PROBLEMS], Problem(f"... and {more} more protoc errors")]
            raise GeneratorError(problems or [Problem(f"protoc failed with exit code {code}")])
        data = out.read_bytes()
    return CompiledSchema(descriptor_set=data, proto_files=tuple(files), include_root=root)


def _run_capturing_stderr(run, target: Path) -> int:
    """Run ``run()`` with OS-level stderr redirected into ``target``."""
    import sys

    sys.stderr.flush()
    saved = os.dup(2)
    with open(target, "wb") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            return int(run())
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _protoc_problem(line: str, root: Path) -> Problem:
    """protoc prints ``file:line:col: message``; keep file relative to the cwd."""
    parts = line.split(":", 3)
    if len(parts) == 4 and parts[1].isdigit():
        file = parts[0]
        candidate = root / file
        if candidate.exists():
            try:
                file = str(candidate.relative_to(Path.cwd()))
            except ValueError:
                file = str(candidate)
        return Problem(parts[3].strip(), file=file, line=int(parts[1]), hint=f"column {parts[2]}")
    return Problem(line.strip())
