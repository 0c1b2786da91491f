"""Constants and places every stage may need: the bottom of the import graph.

Stages import downward only (compile, schema, annotations, model, render,
format, output); ``pipeline`` chains them and only ``cli`` and ``plugin``
import it. What more than one of them needs lives here.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent
# black's majors the format stage accepts, as pyproject.toml's range: first,
# last + 1. The output is byte-identical on each (.ci/versions.sh proves it).
BLACK_MAJORS = (24, 27)
LINE_LENGTH = 100  # black's line length for generated code


def _templates_folder() -> Path:
    """The jinja2 templates. Installed, they are the package data
    ``fleet_strategy_codegen.templates``, a folder beside this module; run as
    ``python -m generator`` from a source checkout, whose package has no such
    subpackage, the checkout's top-level templates/ folder."""
    installed = GENERATOR / "templates"
    if installed.is_dir():
        return installed
    if (GENERATOR.parent / "templates").is_dir():
        return GENERATOR.parent / "templates"
    import importlib.resources  # an install that is not plain files (a zip)

    return Path(str(importlib.resources.files(f"{__package__}.templates")))


TEMPLATES = _templates_folder()


@functools.cache
def installed_version(distribution: str) -> str:
    """An installed distribution's version ("" without it), without importing it."""
    found = _dist_info_versions().get(_normalized(distribution))
    if found is not None:
        return found
    import importlib.metadata  # rare: an install without a .dist-info folder

    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


@functools.cache
def _dist_info_versions() -> dict[str, str]:
    """Versions by normalized name, from the ``NAME-VERSION.dist-info`` folder
    names on sys.path, first entry first as importlib.metadata searches. Every
    run needs three versions; importing importlib.metadata alone takes longer
    than the whole fast check's budget allows."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip, a missing folder
            continue
        for name in names:
            if name.endswith(".dist-info"):
                dist, _, version = name.removesuffix(".dist-info").partition("-")
                found.setdefault(_normalized(dist), version)
    return found


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def black_version() -> str:
    """The installed black's: the caches that hold its output are keyed by it."""
    return installed_version("black")


def dependency_versions() -> str:
    """The versions of what the output is made with, within pyproject.toml's
    ranges (the output is the same on each; a cache keyed by them stays exact)."""
    names = ("black", "grpcio-tools", "protobuf")
    return ", ".join(f"{name} {installed_version(name)}" for name in names)


def cache_root() -> Path | None:
    """The user cache folder (None: disabled by FLEET_CODEGEN_NO_CACHE).

    Caches only ever save time: entries are keyed by everything that
    determines them, so a stale or corrupt entry cannot change the output.
    """
    if os.environ.get("FLEET_CODEGEN_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        # the XDG spec: a relative path is invalid and ignored (it would put the
        # cache in whatever folder the tool was started from)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fleet-strategy-codegen"


# -- user cache entries: each starts with its payload's sha256, so an entry cut
# short or altered reads as missing (a cache only ever saves time)


def read_cached(entry: Path | None) -> bytes | None:
    """The payload stored at ``entry`` by write_cached; None when there is
    none, or it is unreadable, truncated or altered."""
    if entry is None:
        return None
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    digest, payload = data[:32], data[32:]
    return payload if hashlib.sha256(payload).digest() == digest else None


def write_cached(entry: Path | None, payload: bytes) -> None:
    """Store ``payload`` at ``entry``, whole or not at all (a temporary file
    renamed over it); a cache that cannot be written only costs time."""
    if entry is None:
        return
    import tempfile  # deferred: most runs only read the cache

    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, entry)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def cache_entry(kind: str, code: str, *inputs: str | bytes) -> Path | None:
    """The user-cache entry of a result of ``kind`` made by the module file
    ``code`` (its source is part of the key: an edited generator never reads
    an older result) from ``inputs``; None when caching is off or that
    source cannot be read (an install that is not plain files)."""
    root = cache_root()
    source = _source_digest(code) if root is not None else None
    if root is None or source is None:
        return None
    digest = hashlib.sha256(source)
    for part in inputs:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    key = digest.hexdigest()
    return root / kind / key[:2] / key


@functools.cache  # read once a run: the format stage asks once per file
def _source_digest(code: str) -> bytes | None:
    try:
        return hashlib.sha256(Path(code).read_bytes()).digest()
    except OSError:
        return None
