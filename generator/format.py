"""Stage 6: black, in-process, with an explicit Mode; cached by content hash.

black dominates generation time, and its output depends only on its input,
its version and the Mode, so results are cached under the user's cache folder
keyed by all three. A cache entry is only ever a black output, so a stale or
corrupt cache cannot change what is generated (it is re-formatted on a miss).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from generator.errors import GeneratorError, Problem
from generator.pipeline import BLACK_VERSION_REQUIRED, cache_root
from generator.render import RenderedFile

LINE_LENGTH = 100


def _cache_dir() -> Path | None:
    root = cache_root()
    return root / f"black-{BLACK_VERSION_REQUIRED}-{LINE_LENGTH}" if root else None


def _key(file: RenderedFile) -> str:
    return hashlib.sha256(f"{file.kind}\0{file.text}".encode("utf-8")).hexdigest()


def format_files(files: list[RenderedFile]) -> dict[str, str]:
    """Python/stub files through black; others unchanged. Path -> final text."""
    cache = _cache_dir()
    out: dict[str, str] = {}
    for file in files:
        if file.kind not in ("python", "stub"):
            out[file.path] = file.text
            continue
        key = _key(file)
        cached = cache / key[:2] / key if cache else None
        if cached is not None and cached.is_file():
            out[file.path] = cached.read_text(encoding="utf-8")
            continue
        text = _black(file)
        out[file.path] = text
        if cached is not None:
            _store(cached, text)
    return out


def _black(file: RenderedFile) -> str:
    import black  # deferred: a warm cache never needs it

    if black.__version__ != BLACK_VERSION_REQUIRED:
        raise GeneratorError(
            Problem(f"black {BLACK_VERSION_REQUIRED} is required (found {black.__version__}); run pip install -e '.[dev]'")
        )
    mode = black.Mode(
        target_versions={black.TargetVersion.PY310},
        line_length=LINE_LENGTH,
        is_pyi=file.kind == "stub",
        string_normalization=True,
        magic_trailing_comma=True,
    )
    try:
        return black.format_str(file.text, mode=mode)
    except Exception as exc:  # black raises InvalidInput and friends
        raise GeneratorError(
            Problem(f"internal error: generated code does not parse ({exc}); please report with your inputs", file.path)
        ) from None


def _store(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time
