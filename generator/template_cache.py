"""Compiled jinja2 templates, never committed: built when the wheel is
built, or compiled on first use into the user cache folder.

Compiling every template costs a good part of a first generation, so each is
compiled once per source text, jinja2 version and Python. A wheel carries them
as the ``compiled_templates`` subpackage (Python modules written by
``write_package``, called from the build hook ``build_hooks.py``; their
bytecode is cached as any module's), each used only while its key matches.
Otherwise (a source checkout, an editable install) the first run stores each in ``templates/jinja2-<version>-<python>/`` under the user cache folder, one
marshalled code object a file, keyed by the template's name and the hash of its
source and compile options (``FLEET_CODEGEN_NO_CACHE``: compiled in memory
every run). A file is written whole (a temporary file, then a rename), so
concurrent runs at worst both write the same entry, and one that does not check
out (wrong hash, truncated, unreadable) is compiled again and rewritten.
Nothing is ever written beside the templates or in the folder generated into.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import re
import sys
from pathlib import Path
from types import CodeType
from typing import Any, MutableMapping

import jinja2

from .doctext import shown_value
from .settings import cache_root, read_cached, write_cached

PACKAGE = "compiled_templates"  # the wheel's subpackage of compiled templates

# How the templates are compiled: part of every compiled template's key.
OPTIONS: dict[str, Any] = {
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
    "autoescape": False,
    # every printed value through the one text layer (compiled into each template)
    "finalize": shown_value,
}


def source_key(source: str) -> str:
    """What a compiled template depends on: its source, jinja2 and the options."""
    options = ",".join(
        f"{k}={getattr(v, '__qualname__', v)}" for k, v in sorted(OPTIONS.items())
    )
    return hashlib.sha256(
        f"jinja2 {jinja2.__version__}\0{options}\0{source}".encode()
    ).hexdigest()


def module_name(name: str) -> str:
    return "t_" + re.sub(r"\W", "_", name)


def cache_folder() -> Path | None:
    root = cache_root()
    tag = sys.implementation.cache_tag  # marshal's format is the interpreter's
    return (
        None
        if root is None
        else root / "templates" / f"jinja2-{jinja2.__version__}-{tag}"
    )


class Loader(jinja2.FileSystemLoader):
    """The templates folder's templates, compiled at most once (see the module)."""

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, Any] | None = None,
    ) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        key = source_key(source)
        namespace = _from_wheel(environment, name, filename, key)
        if namespace is not None:
            return environment.template_class.from_module_dict(
                environment, namespace, globals or {}
            )
        code = cached_code(environment, name, filename, source, key)
        return environment.template_class.from_code(
            environment, code, globals or {}, uptodate
        )


def _from_wheel(
    environment: jinja2.Environment, name: str, filename: str, key: str
) -> dict[str, Any] | None:
    """The namespace of the wheel's compiled template, if it is of this very source."""
    try:
        spec = importlib.util.find_spec(f"{__package__}.{PACKAGE}.{module_name(name)}")
    except ImportError:
        return None
    if spec is None or spec.loader is None:
        return None  # a source checkout or an editable install: none built
    code = spec.loader.get_code(spec.name)  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"environment": environment, "__file__": filename}
    exec(
        code, namespace
    )  # noqa: S102 - our own compiled template, bound to this environment
    return namespace if namespace.get("SOURCE_KEY") == key else None


def cached_code(
    environment: jinja2.Environment, name: str, filename: str, source: str, key: str
) -> CodeType:
    """The template's code object from the user cache, compiled and stored there on a miss."""
    folder = cache_folder()
    entry = (
        folder / f"{module_name(name)}-{key[:32]}.bin" if folder is not None else None
    )
    code = _read(entry)
    if code is None:
        code = environment.compile(source, name, filename)
        _write(entry, code)
    return code


def _read(entry: Path | None) -> CodeType | None:
    """A stored code object (marshalled)."""
    body = read_cached(entry)
    if body is None:
        return None
    try:
        code = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _write(entry: Path | None, code: CodeType) -> None:
    write_cached(entry, marshal.dumps(code))


class _AnyFilter(dict[str, Any]):
    """The filters at build time: jinja2 compiles a call by the filter's name
    (render.FILTERS are plain functions), so any name will do."""

    def get(self, name: str, default: Any = None) -> Any:
        return super().get(name, _plain)


def _plain(value: Any, *args: Any) -> Any:
    return value


def write_package(templates: Path, target: Path) -> list[Path]:
    """Write the ``compiled_templates`` package into ``target`` (in a wheel's
    build folder): one module per template, holding its key."""
    env = jinja2.Environment(**OPTIONS)
    env.filters = _AnyFilter(env.filters)
    target.mkdir(parents=True, exist_ok=True)
    (target / "__init__.py").write_text(
        '"""Templates compiled by jinja2 when the wheel was built."""\n'
    )
    written = []
    for path in sorted(templates.glob("*.j2")):
        source = path.read_text(encoding="utf-8")
        code = env.compile(source, path.name, None, raw=True)
        module = target / f"{module_name(path.name)}.py"
        module.write_text(
            f"# @generated from templates/{path.name} when the wheel was built. DO NOT EDIT.\n"
            f"SOURCE_KEY = {source_key(source)!r}\n{code}\n",
            encoding="utf-8",
        )
        written.append(module)
    return written
