# Part of the runtime of the packages fleet-strategy-codegen generates (see
# runtime.py, the module generated code and hooks import): copied verbatim
# into each package beside it.
"""The package's JSON Schemas and ``python -m PKG``'s commands.

Every message has a JSON Schema (draft 2020-12) in the package's
``schemas/`` folder, ``<full.proto.Name>.schema.json``: what a document of
the message (``from_dict``, ``load``) may hold. A file refers to the other
messages it holds by their files (relative ``$ref``), so an editor pointed at
a file in the installed package finds them beside it; ``json_schema``
bundles one message with every message it reaches into one document (each
under ``$defs`` with its own ``$id``, as draft 2020-12 embeds resources),
which is what ``python -m PKG schema`` prints.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, cast

SCHEMAS_FOLDER = "schemas"
SCHEMA_SUFFIX = ".schema.json"


def schema_names(package: str) -> list[str]:
    """The full names of the messages ``package`` has a schema of, sorted."""
    folder = resources.files(package).joinpath(SCHEMAS_FOLDER)
    return sorted(
        entry.name[: -len(SCHEMA_SUFFIX)]
        for entry in folder.iterdir()
        if entry.name.endswith(SCHEMA_SUFFIX)
    )


def _read(package: str, full_name: str) -> dict[str, Any]:
    file = resources.files(package).joinpath(SCHEMAS_FOLDER).joinpath(full_name + SCHEMA_SUFFIX)
    document: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return document


def json_schema(package: str, full_name: str) -> dict[str, Any]:
    """The JSON Schema of the message ``full_name`` of ``package``, whole:
    its file, with the file of every message it reaches embedded under
    ``$defs`` (by full name). KeyError for a message without a schema."""
    if full_name not in schema_names(package):
        raise KeyError(full_name)
    root = _read(package, full_name)
    embedded: dict[str, Any] = {}
    waiting = _referred(root)
    while waiting:
        name = waiting.pop()
        if name == full_name or name in embedded:
            continue
        embedded[name] = document = _read(package, name)
        waiting |= _referred(document)
    if embedded:
        root["$defs"] = {**root.get("$defs", {}), **dict(sorted(embedded.items()))}
    return root


def _referred(node: object) -> set[str]:
    """The messages a schema refers to by file (``"$ref": "pkg.M.schema.json"``)."""
    found: set[str] = set()
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keyword = cast("dict[str, object]", item)
            ref = keyword.get("$ref")
            if isinstance(ref, str) and ref.endswith(SCHEMA_SUFFIX):
                found.add(ref[: -len(SCHEMA_SUFFIX)])
            stack.extend(keyword.values())
        elif isinstance(item, list):
            stack.extend(cast("list[object]", item))
    return found


def resolve_message(package: str, name: str) -> str:
    """The full name a user's ``name`` means: a full name, or the end of
    exactly one (``DistributedStrategy``, ``Order.Item``). LookupError
    naming the closest otherwise."""
    names = schema_names(package)
    if name in names:
        return name
    ends = [n for n in names if n.endswith("." + name)]
    if len(ends) == 1:
        return ends[0]
    if ends:
        raise LookupError(f"{name!r} names several messages: {', '.join(ends)}")
    # in the form given: a full name, or a message's own name
    spelled = names if "." in name else sorted({n.rsplit(".", 1)[-1] for n in names})
    close = difflib.get_close_matches(name, spelled, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise LookupError(f"no message {name!r}{hint} (--list lists them)")


def run_commands(
    argv: Sequence[str] | None,
    package: str,
    roots: Sequence[str],
    prog: str,
    lint: Callable[[Sequence[str]], int] | None = None,
    migrate: Callable[[Sequence[str]], int] | None = None,
) -> int:
    """``python -m PKG``: ``schema [MESSAGE] [--list]``, and ``lint ...``
    where the package has rules between fields (``lint``: its command,
    given the arguments from ``lint`` on), and ``migrate ...`` where fields
    have old names (the same way). ``roots``: the messages no other
    message holds, which ``schema`` prints when no message is named (one
    schema, or a JSON array of them when there are several). A reader that
    stops reading (``schema | head``) ends the command quietly, exit 0."""
    try:
        code = _command(argv, package, roots, prog, lint, migrate)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # (and Python's own flush at exit must not meet the closed pipe again)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _command(
    argv: Sequence[str] | None,
    package: str,
    roots: Sequence[str],
    prog: str,
    lint: Callable[[Sequence[str]], int] | None,
    migrate: Callable[[Sequence[str]], int] | None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if lint is not None and args[:1] == ["lint"]:
        return lint(args)
    if migrate is not None and args[:1] == ["migrate"]:
        return migrate(args)
    parser = argparse.ArgumentParser(prog=prog)
    commands = parser.add_subparsers(dest="command", required=True)
    schema = commands.add_parser(
        "schema",
        help="print a message's JSON Schema (draft 2020-12), with every message it holds",
    )
    schema.add_argument(
        "message",
        nargs="?",
        help="a message's full name or the end of one (default: the root messages)",
    )
    schema.add_argument("--list", action="store_true", help="list the messages, one a line")
    if lint is not None:
        commands.add_parser("lint", help="check a strategy file (python -m PKG lint --help)")
    if migrate is not None:
        commands.add_parser(
            "migrate", help="rewrite config files from old setting names to new (migrate --help)"
        )
    try:
        parsed = parser.parse_args(args)
    except SystemExit as exc:  # argparse's own exit: 2 for bad arguments, 0 for --help
        return int(exc.code or 0)
    if parsed.list:
        print("\n".join(schema_names(package)))
        return 0
    if parsed.message is None:
        found = [json_schema(package, name) for name in roots]
        print(_text(found[0] if len(found) == 1 else found))
        return 0
    try:
        full_name = resolve_message(package, parsed.message)
    except LookupError as exc:
        print(f"{prog} schema: {exc.args[0]}", file=sys.stderr)
        return 2
    print(_text(json_schema(package, full_name)))
    return 0


def _text(document: object) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
