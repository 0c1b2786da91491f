"""Compiled jinja2 templates, never committed: compiled on first use into
the user cache folder.

Compiling every template costs a good part of a first generation, so each is
compiled once per source text, jinja2 version and Python: the first run stores
it in ``templates/jinja2-<version>-<python>/`` under the user cache folder, one
marshalled code object a file, keyed by the template's name and the hash of its
source and compile options (``FLEET_CODEGEN_NO_CACHE``: compiled in memory
every run). A file is written whole (a temporary file, then a rename), so
concurrent runs at worst both write the same entry, and one that does not check
out (wrong hash, truncated, unreadable) is compiled again and rewritten.
Nothing is ever written beside the templates or in the folder generated into.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
import sys
import tempfile
from pathlib import Path
from types import CodeType
from typing import Any, MutableMapping

import jinja2

from .settings import cache_root

# How the templates are compiled: part of every compiled template's key.
OPTIONS: dict[str, Any] = {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True, "autoescape": False}


def source_key(source: str) -> str:
    """What a compiled template depends on: its source, jinja2 and the options."""
    options = ",".join(f"{k}={v}" for k, v in sorted(OPTIONS.items()))
    return hashlib.sha256(f"jinja2 {jinja2.__version__}\0{options}\0{source}".encode()).hexdigest()


def module_name(name: str) -> str:
    return "t_" + re.sub(r"\W", "_", name)


def cache_folder() -> Path | None:
    root = cache_root()
    tag = sys.implementation.cache_tag  # marshal's format is the interpreter's
    return None if root is None else root / "templates" / f"jinja2-{jinja2.__version__}-{tag}"


class Loader(jinja2.FileSystemLoader):
    """The templates folder's templates, compiled at most once (see the module)."""

    def load(
        self, environment: jinja2.Environment, name: str, globals: MutableMapping[str, Any] | None = None
    ) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        code = cached_code(environment, name, filename, source, source_key(source))
        return environment.template_class.from_code(environment, code, globals or {}, uptodate)


def cached_code(environment: jinja2.Environment, name: str, filename: str, source: str, key: str) -> CodeType:
    """The template's code object from the user cache, compiled and stored there on a miss."""
    folder = cache_folder()
    entry = folder / f"{module_name(name)}-{key[:32]}.bin" if folder is not None else None
    code = _read(entry)
    if code is None:
        code = environment.compile(source, name, filename)
        _write(entry, code)
    return code


def _read(entry: Path | None) -> CodeType | None:
    """A stored code object: a sha256 of the marshalled bytes, then the bytes."""
    if entry is None:
        return None
    try:
        data = entry.read_bytes()
        digest, body = data[:32], data[32:]
        if hashlib.sha256(body).digest() != digest:
            return None
        code = marshal.loads(body)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _write(entry: Path | None, code: CodeType) -> None:
    if entry is None:
        return
    body = marshal.dumps(code)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(hashlib.sha256(body).digest() + body)
            os.replace(tmp, entry)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a cache that cannot be written only costs time
