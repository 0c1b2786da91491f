"""The manifest (``PACKAGE.manifest.json`` in the output folder): what the
last generate wrote (every file's hash, the undocumented fields, and the API
surface it emitted, for the API change report).

It is written by the tool but read as untrusted data (a pull request or a
merge may have changed it): ``read_manifest`` decodes the whole file against
one typed schema (``_Manifest``; the API record's own shape is checked
where it is read, by generator.api_changes.surface.decode_surface), bounded in size, from a regular file only; anything else
is ``Damaged`` and the callers treat it as no manifest ("the manifest is
damaged: run generate", which rewrites it)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated

import msgspec

from .. import COMMAND
from .files import read_bytes

MANIFEST_SUFFIX = ".manifest.json"
# Far above any manifest a schema makes (4,500 messages: ~6 MB); a larger file
# is damaged, not read.
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
DAMAGED = "the manifest is damaged: run generate"

_Hash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
# relative, "/"-separated, no empty, "." or ".." part
_Path = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^(?!(.*/)?\.\.?(/|$))[^/\x00]+(/[^/\x00]+)*$", max_length=4096
    ),
]


class _Record(msgspec.Struct, forbid_unknown_fields=True):
    """Every record rejects keys it does not know: what is read is what was checked."""


class _Manifest(_Record, rename={"marker": "@generated"}):
    marker: str
    files: dict[_Path, _Hash]
    undocumented: list[str]
    # the runtime distribution the package needs (runtime = "dependency")
    runtime: str | None = None
    # the API record: kept as the bytes it was (its shape is checked where it
    # is read, generator.api_changes.surface.decode_surface: one schema, one place)
    api: msgspec.Raw = msgspec.Raw()


class Manifest(msgspec.Struct, frozen=True):
    """A manifest that passed the schema."""

    files: dict[str, str]  # relative path -> sha256 of its content
    undocumented: list[str]
    api: bytes | None  # the API record's JSON, unchecked (decode_surface checks it)


class Damaged(msgspec.Struct, frozen=True):
    """A manifest file that is there but fails the schema (or cannot be read)."""

    why: str


def read_manifest(out: Path, package: str) -> Manifest | Damaged | None:
    """The manifest of the last generate into ``out``: None when there is
    none, Damaged when it is anything but a regular file of at most
    MAX_MANIFEST_BYTES holding UTF-8 JSON of the manifest's exact shape."""
    path = out / f"{package}{MANIFEST_SUFFIX}"
    try:
        data = read_bytes(path, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a link, a fifo, a folder, too large
        return Damaged(exc.strerror or str(exc))
    try:
        # the typed decode checks every value as it reads, so nesting is
        # bounded by the schema (a deep array fails at its first bracket)
        checked = msgspec.json.decode(data, type=_Manifest)
        api = (
            bytes(checked.api)
            if checked.api and bytes(checked.api) != b"null"
            else None
        )
    # (msgspec before 0.19 raises UnicodeDecodeError for bytes that are not UTF-8)
    except (
        msgspec.DecodeError,
        msgspec.ValidationError,
        UnicodeDecodeError,
        RecursionError,
    ) as exc:
        return Damaged(str(exc))
    return Manifest(dict(checked.files), list(checked.undocumented), api)


def manifest_text(
    files: dict[str, str],
    undocumented: tuple[str, ...],
    api: dict[str, object] | None = None,
    runtime: str | None = None,
) -> str:
    """What was generated: every file's hash, which lets ``check`` answer
    without regenerating when the user cache knows that this generator made
    exactly these files from the inputs at hand (see ``fast_clean``; no hash
    of the inputs or of the generator is recorded here, so the manifest
    changes only when the output does), and lets the next
    ``check``/``generate`` say what changed for users ("api": the API surface
    this generation emitted; see generator.api_changes); "runtime": the
    runtime distribution a package generated without its copy needs."""
    data = {
        "@generated": f"by fleet-strategy-codegen. DO NOT EDIT. Regenerate: {COMMAND} generate",
        "files": {
            path: _sha256(text.encode("utf-8")) for path, text in sorted(files.items())
        },
        "undocumented": list(undocumented),
    }
    if runtime is not None:  # the requirement of a package without its own runtime
        data["runtime"] = runtime
    text = json.dumps(data, indent=1, sort_keys=False)
    if api is None:
        return text + "\n"
    # one line per property, field and enum: a diff of the record reads like the report
    return f'{text[:-2]},\n "api": {_json_block(api, 1, 5)}\n}}\n'


def _json_block(value: object, depth: int, expand: int) -> str:
    """JSON of ``value``: mappings nested less than ``expand`` deep one key a line."""
    if not isinstance(value, dict) or depth >= expand or not value:
        return json.dumps(value, separators=(", ", ": "))
    pad = " " * (depth + 1)
    items = [
        f"{pad}{json.dumps(k)}: {_json_block(v, depth + 1, expand)}"
        for k, v in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def output_digest(files: dict[str, bytes]) -> str:
    """One digest of a whole output: every file's path and content."""
    digest = hashlib.sha256()
    for relative in sorted(files):
        digest.update(
            relative.encode() + b"\0" + hashlib.sha256(files[relative]).digest()
        )
    return digest.hexdigest()
