"""Compiled jinja2 templates, carried by a wheel: built when the wheel is
built, never cached in the user cache folder.

Compiling every template costs a good part of a first generation, so a
wheel carries them compiled, as the ``compiled_templates`` subpackage (Python
modules written by ``write_package``, called from the build hook
``build_hooks.py``; their bytecode is cached as any module's), each used only
while its key matches the template's source. A source checkout or an
editable install has none and compiles each template in memory, once a
process. They are not kept in the user cache: its entries are data that
another branch's CI may have written, and a compiled template is code (see
docs/benchmarks.md for what that costs a source checkout).
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path
from collections.abc import Callable, MutableMapping
from typing import Protocol, TypedDict

import jinja2

from ..model.doctext import shown_value

PACKAGE = "compiled_templates"  # the wheel's subpackage of compiled templates


class Options(TypedDict):
    """jinja2.Environment's options the templates are written for."""

    trim_blocks: bool
    lstrip_blocks: bool
    keep_trailing_newline: bool
    autoescape: bool
    optimized: bool
    finalize: Callable[[object], object]


# How the templates are compiled: part of every compiled template's key.
OPTIONS: Options = {
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
    "autoescape": False,
    # jinja2's constant folding: what it folds here saves no measurable
    # rendering, and it is ~10% of compiling the templates (in memory, in a
    # source checkout: docs/benchmarks.md)
    "optimized": False,
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


class Loader(jinja2.FileSystemLoader):
    """The templates folder's templates, compiled at most once (see the module)."""

    def load(
        self,
        environment: jinja2.Environment,
        name: str,
        globals: MutableMapping[str, object] | None = None,
    ) -> jinja2.Template:
        source, filename, uptodate = self.get_source(environment, name)
        key = source_key(source)
        namespace = _from_wheel(environment, name, filename, key)
        if namespace is not None:
            return environment.template_class.from_module_dict(
                environment, namespace, globals or {}
            )
        return environment.template_class.from_code(
            environment,
            environment.compile(source, name, filename),
            globals or {},
            uptodate,
        )


def _from_wheel(
    environment: jinja2.Environment, name: str, filename: str, key: str
) -> dict[str, object] | None:
    """The namespace of the wheel's compiled template, if it is of this very source."""
    try:
        spec = importlib.util.find_spec(f"{__package__}.{PACKAGE}.{module_name(name)}")
    except ImportError:
        return None
    if spec is None or spec.loader is None:
        return None  # a source checkout or an editable install: none built
    code = spec.loader.get_code(spec.name)  # type: ignore[attr-defined]
    namespace: dict[str, object] = {"environment": environment, "__file__": filename}
    exec(
        code, namespace
    )  # noqa: S102 - our own compiled template, bound to this environment
    return namespace if namespace.get("SOURCE_KEY") == key else None


class Filter(Protocol):
    def __call__(self, value: object, *args: object) -> object: ...


class _AnyFilter(dict[str, Filter]):
    """The filters at build time: jinja2 compiles a call by the filter's name
    (render.FILTERS are plain functions), so any name will do."""

    def get(self, name: str, default: object = None) -> Filter:
        return super().get(name, _plain)


def _plain(value: object, *args: object) -> object:
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
