"""The user cache: results a run may reuse instead of recomputing them.

Where: ``$XDG_CACHE_HOME/fleet-strategy-codegen`` (``~/.cache/...`` when that
is unset or relative); ``FLEET_CODEGEN_NO_CACHE`` turns it off. What it holds
is data that someone else may have written (a CI cache restored from another
branch), so nothing in it is trusted:

* an entry is read only when it is a regular file (opened without following
  a link and without blocking on a FIFO) of at most ``MAX_ENTRY_BYTES``,
  whose payload matches the HMAC-SHA256 written before it, keyed by this
  machine's secret (``key``: a file outside the cache folder, so a cache
  copied from elsewhere carries entries this machine never signed); anything
  else reads as missing, is recomputed and rewritten;
* a payload is plain data (UTF-8 text or JSON), never unmarshalled,
  unpickled, imported or executed;
* ``check --full`` and ``generate --full`` read no entry at all (``fresh``):
  they compute everything from the inputs, as on a fresh machine, and write
  entries as any run does.

An entry's key (``entry``) is a hash of everything the result depends on,
the generator's own source included, so a correct entry can
never be stale; but a key does not stop an entry planted under a known key.
So only one kind is kept, one that never puts anything into the output:

``outputs``
    the output's digest this generator made from these inputs (pipeline.py):
    ``check`` and ``generate`` with unchanged inputs and an output folder of
    that digest stop there (the fast check: 0.13-0.17x betterproto2's time
    with it, 0.54-0.63x without, over its 0.2x budget). A planted memo would
    make them call a tampered tree clean; signed with this machine's key,
    one made elsewhere is never read (and CI's ``check --full`` reads none).

Formatted files, black's outputs, compiled templates, read YAML and the
hooks module's outline were kept here once; none broke a budget when
removed, so none is (docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import os
import stat
from collections.abc import Iterator
from pathlib import Path

# An entry is a few hundred bytes; a larger file is not ours and is not read.
MAX_ENTRY_BYTES = 2**20
_DIGEST = hashlib.sha256().digest_size

# not following a link, not blocking on a FIFO, no text-mode translation
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)

_reading = True  # False while ``fresh`` is in force
_KEY_BYTES = 32


def _state_root() -> Path:
    """$XDG_STATE_HOME/fleet-strategy-codegen (~/.local/state/...): this
    machine's state, which CI caches of ~/.cache do not carry."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "fleet-strategy-codegen"


@functools.cache
def key() -> bytes | None:
    """This machine's secret that signs every entry (made on first use, 0600;
    None when it can be neither read nor made: then no entry is trusted)."""
    path = _state_root() / "cache.key"
    for _ in range(2):
        try:
            fd = os.open(path, _OPEN_FLAGS)
        except FileNotFoundError:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                made = os.open(
                    path,
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                    0o600,
                )
            except FileExistsError:
                continue  # another run made it meanwhile: read that one
            except OSError:
                return None
            with os.fdopen(made, "wb") as handle:
                handle.write(os.urandom(_KEY_BYTES))
            continue
        except OSError:  # a link, unreadable
            return None
        try:
            info = os.fstat(fd)
            data = os.read(fd, _KEY_BYTES + 1) if stat.S_ISREG(info.st_mode) else b""
        except OSError:
            data = b""
        finally:
            os.close(fd)
        return data if len(data) == _KEY_BYTES else None
    return None


def _signature(payload: bytes) -> bytes | None:
    secret = key()
    return None if secret is None else hmac.digest(secret, payload, "sha256")


def root() -> Path | None:
    """The user cache folder (None: disabled by FLEET_CODEGEN_NO_CACHE)."""
    if os.environ.get("FLEET_CODEGEN_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        # the XDG spec: a relative path is invalid and ignored (it would put the
        # cache in whatever folder the tool was started from)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fleet-strategy-codegen"


@contextlib.contextmanager
def fresh() -> Iterator[None]:
    """Read no entry while in force (``--full``: as on a fresh machine)."""
    global _reading
    before, _reading = _reading, False
    try:
        yield
    finally:
        _reading = before


def entry(kind: str, *inputs: str | bytes) -> Path | None:
    """The entry of a result of ``kind`` made from ``inputs`` (everything it
    depends on, the generator's own source included: an edited generator
    never reads an older result); None when caching is off."""
    folder = root()
    if folder is None:
        return None
    digest = hashlib.sha256(kind.encode())
    for part in inputs:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    key = digest.hexdigest()
    return folder / kind / key[:2] / key


def read(path: Path | None) -> bytes | None:
    """The payload stored at ``path`` by ``write``; None under ``fresh``, or
    when it is missing, not a regular file, too large, truncated or altered."""
    if path is None or not _reading:
        return None
    if not getattr(os, "O_NOFOLLOW", 0) and os.path.islink(path):
        return None  # where open cannot refuse a link itself
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:  # missing, a link (ELOOP), unreadable
        return None
    try:
        size = os.fstat(fd)
        if not stat.S_ISREG(size.st_mode) or size.st_size > MAX_ENTRY_BYTES:
            return None
        with open(fd, "rb", closefd=False) as handle:
            data = handle.read(size.st_size + 1)  # one more: it grew meanwhile
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) != size.st_size:
        return None
    digest, payload = data[:_DIGEST], data[_DIGEST:]
    expected = _signature(payload)
    if expected is None or not hmac.compare_digest(expected, digest):
        return None
    return payload


def write(path: Path | None, payload: bytes) -> None:
    """Store ``payload`` at ``path``, whole or not at all (a temporary file
    renamed over whatever is there); a cache that cannot be written only
    costs time."""
    signature = _signature(payload) if path is not None else None
    if path is None or signature is None or len(payload) + _DIGEST > MAX_ENTRY_BYTES:
        return
    import tempfile  # deferred: most runs only read the cache

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # never through a link planted on the way (it would put the file elsewhere)
        folder, top = path.parent, root()
        while True:
            if folder.is_symlink():
                return
            if folder == top or folder == folder.parent:
                break
            folder = folder.parent
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(signature + payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
