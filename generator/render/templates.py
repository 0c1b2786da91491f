"""Stage 5: the model -> source text, through jinja2 templates.

One Environment (StrictUndefined, so a missing value is an error, never an
empty string); every literal goes through ``pyrepr`` and every docstring
through ``docstring``, so text from the inputs always lands as data.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import jinja2
import msgspec

from ..errors import GeneratorError, Problem
from ..model import typeref
from ..model.doctext import Verbatim, visible
from ..model.records import (
    ClassModel,
    Header,
    ModuleMembersModel,
    PackageModel,
    Pb2Module,
    Target,
)
from ..model.typeref import Import, Statement
from ..schema import naming
from ..settings import GENERATOR, LINE_LENGTH, TEMPLATES
from .precompiled import OPTIONS, Loader

# The runtime every package gets: real modules of this tool, copied verbatim
# (``runtime``, the one generated code imports, and its private parts).
RUNTIME_SOURCES = {
    name: Verbatim((GENERATOR / "shipped" / f"{name}.py").read_text(encoding="utf-8"))
    for name in naming.RUNTIME_MODULES
}
# The linter, copied the same way into a package whose annotations declare rules.
LINT_SOURCE_NAME = "fleet-strategy-codegen's linter (generator/shipped/lint.py)"
LINT_SOURCE = Verbatim((GENERATOR / "shipped" / "lint.py").read_text(encoding="utf-8"))


# How a rendered file is formatted and checked: Python (black), a type stub,
# the reference page, or text kept as rendered.
FileKind = Literal["python", "stub", "markdown", "plain"]


class RenderedFile(msgspec.Struct, frozen=True):
    path: str  # relative to the output folder, "/"-separated
    text: str
    kind: FileKind
    # the .proto file whose modules this is (its folder's __init__ too), as
    # protoc names it; None: one of the package's own files
    proto: str | None = None


def pyrepr(value: object) -> str:
    """A Python literal that evaluates to ``value``."""
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else '-float("inf")'
        return repr(value)
    if isinstance(value, (str, bytes)):
        return _string_literal(value)
    if value is None or isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(pyrepr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(pyrepr(v) for v in value) + "]"
    raise TypeError(f"no literal for {type(value).__name__}")


def pyrepr_laid_out(
    value: object, indent: int, prefix: str = "", suffix: str = ","
) -> str:
    """``prefix`` + the literal of ``value`` + ``suffix``, at ``indent``
    spaces, laid out as black lays out a literal too long for its line: a
    tuple or list of several items one item a line with a trailing comma
    (black always explodes a bracketed display whose contents hold commas),
    a single item on a line of its own; each item laid out the same way.
    (Lines of the result after the first carry their own indentation.)"""
    one = prefix + pyrepr(value) + suffix
    if (
        indent + len(one) <= LINE_LENGTH
        or not isinstance(value, (tuple, list))
        or not value
    ):
        return one
    opening, closing = ("(", ")") if isinstance(value, tuple) else ("[", "]")
    pad, inner = " " * indent, " " * (indent + 4)
    if (
        len(value) == 1
    ):  # no comma between items: the item on its own line, a one-tuple keeps its comma
        item = pyrepr_laid_out(
            value[0], indent + 4, "", "," if isinstance(value, tuple) else ""
        )
        return f"{prefix}{opening}\n{inner}{item}\n{pad}{closing}{suffix}"
    lines = [f"{inner}{pyrepr_laid_out(v, indent + 4)}" for v in value]
    return f"{prefix}{opening}\n" + "\n".join(lines) + f"\n{pad}{closing}{suffix}"


def _string_literal(value: str | bytes) -> str:
    """repr(), in the quotes black normalizes it to (its normalize_string_quotes):
    the format stage does not run black on literals. repr() quotes with '
    unless the value holds ' and no ", escapes only the quote it is written
    in, and every other backslash begins an escape of its own, so black's
    rule comes down to counting: '...' becomes "..." when that takes no more
    backslashes (each \\' loses one, each " gains one); "..." stays."""
    text = repr(value)
    if text[-1] == '"':
        return text
    if isinstance(value, str):
        prefix, more_doubles = "", value.count('"') > value.count("'")
    else:
        prefix, more_doubles = "b", value.count(b'"') > value.count(b"'")
    if more_doubles:
        return text
    body = text[len(prefix) + 1 : -1].replace("\\'", "'").replace('"', '\\"')
    return f'{prefix}"{body}"'


def shown_name(name: str) -> str:
    """An input file's name as generated text shows it (header comments,
    docstrings): a backslash, ``>`` and every character that is not printable
    (control characters, line breaks such as U+2028) escaped as in a string
    literal, so no name can end a comment's line, or with ``-->`` the
    reference page's HTML comment."""
    return "".join(map(_shown_char, name))


def _shown_char(ch: str) -> str:
    if ch == ">":
        return "\\x3e"
    if ch == "\\" or not ch.isprintable():
        return ch.encode("unicode_escape").decode("ascii")
    return ch


@functools.lru_cache(maxsize=4096)  # both builds render the same docs
def docstring(text: str, indent: int = 4) -> str:
    """A triple-quoted literal holding ``text``, body indented, laid out as
    black lays out a docstring (first line stripped, the others dedented
    together and right-stripped, a space between a quote in the text and the
    closing or opening quotes). Hidden characters (control, bidi and other
    format characters, line breaks other than ``\\n``: doctext.visible) show
    as their escapes, backslash doubled: the docstring holds the escape, not
    the character, so the text has one layout (black splits docstrings at
    every line break splitlines knows) and reads as it is ordered."""
    body = visible(text).replace("\\", "\\\\")
    lines = body.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    while len(lines) > 1 and not lines[0].strip():
        lines.pop(0)
    rest = lines[1:]
    common = min(
        (len(line) - len(line.lstrip()) for line in rest if line.strip()), default=0
    )
    body = "\n".join([lines[0].strip(), *(line[common:].rstrip() for line in rest)])
    if body.endswith(
        '"'
    ):  # first: every backslash is doubled, so this quote is not escaped yet
        body = body[:-1] + '\\"'
    while '"""' in body:
        body = body.replace('"""', '""\\"')
    if body.startswith('"'):
        body = " " + body
    pad = " " * indent
    lines = body.split("\n")
    if len(lines) == 1:
        return f'"""{body or " "}{" " if body.endswith(chr(34)) else ""}"""'
    indented = "\n".join(
        [lines[0]] + [pad + line if line else "" for line in lines[1:]]
    )
    return f'"""{indented}\n{pad}"""'


def comment_text(text: str) -> str:
    """Text for ``#`` comment lines: hidden characters escaped (as ``docstring``
    does), line breaks other than ``\\n`` among them, so the caller's lines are
    the only ones and the source holds no NUL and no bidi control."""
    return visible(text)


def markdown_text(text: str) -> str:
    """Text for a Markdown table cell or paragraph: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown_code(text: str) -> str:
    return markdown_text(text).replace("`", "'")


FILTERS = {
    "pyrepr": pyrepr,
    "pyrepr_laid_out": pyrepr_laid_out,
    # Every build renders the same docs (half the calls repeat a text; ~6 ms).
    "docstring": functools.cache(docstring),
    "md": markdown_text,
    "md_code": markdown_code,
    "plain_attribute": naming.is_plain_attribute,
    "shown": shown_name,
    "comment": comment_text,
    # hidden characters as escapes before a text is wrapped (wrapping takes U+0085 for a space)
    "visible": visible,
}


@functools.cache  # a source checkout compiles each template once a process
def environment(templates: Path = TEMPLATES) -> jinja2.Environment:
    """The one Environment; templates compiled at most once (render.precompiled)."""
    env = jinja2.Environment(
        loader=Loader(str(templates)), undefined=jinja2.StrictUndefined, **OPTIONS
    )
    env.filters.update(FILTERS)
    return env


def runtime_copy(env: jinja2.Environment, header: Header, module: str) -> str:
    """A runtime module as every package carries it: the shipped source,
    verbatim, below a header that names no input (it depends on none)."""
    source = f"fleet-strategy-codegen's runtime (generator/shipped/{module}.py)"
    return env.get_template("runtime.py.j2").render(
        header=header, source=source, text=RUNTIME_SOURCES[module]
    )


def render_package(
    model: PackageModel,
    templates: Path = TEMPLATES,
    sources: Mapping[str, str] | None = None,
) -> list[RenderedFile]:
    """Every file of every build of the package, paths relative to the output
    folder. ``sources``: the hand-written modules beside the annotations, by
    name, that builds carry copies of (the hooks module in every build, a
    target's ``module_members`` source in that target's)."""
    env = environment(templates)
    files: list[RenderedFile] = []
    for target in model.targets:
        files += _render_target(env, model, target, sources or {})
    return sorted(files, key=lambda f: f.path)


FUTURE = Statement("__future__", (("annotations", None),))
_TYPE_ONLY = (
    "builtins",
    "typing",
    "collections.abc",
    "google.protobuf.internal.containers",
    ".types",
)


class _Imports:
    """The import blocks of one build's modules, laid out as isort lays them
    out (typeref.import_block): each module imports what its code names."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.pb2 = {r.alias: (r.import_from, r.module) for r in target.pb2_imports}
        self.first_party = target.package.split(".")[0]

    def block(
        self,
        statements: list[Statement],
        imports: tuple[Import, ...] | list[Import] = (),
    ) -> str:
        found = typeref.statements(imports, self.target.package, self.pb2)
        return typeref.import_block([*statements, *found], self.first_party)

    def package(
        self,
        name: str,
        alias: str | None = None,
        comment: str | None = None,
        noqa: str | None = None,
    ) -> Statement:
        return Statement(
            self.target.package, ((name, alias),), comment=comment, noqa=noqa
        )

    def classes(
        self,
        classes: list[ClassModel],
        hooks_module: str | None,
        members: ModuleMembersModel | None,
    ) -> tuple[str, str]:
        """A class module's imports: (those its code runs, those only its annotations name)."""
        used = {i for c in classes for i in c.imports}
        type_only = sorted(
            (
                i
                for i in used
                if i.pb2 is None
                and (i.module in _TYPE_ONLY or i.module.startswith("google."))
            ),
            key=repr,
        )
        runtime = sorted(used - set(type_only), key=repr)
        typing = [
            name
            for name, wanted in (
                ("TYPE_CHECKING", type_only),
                ("cast", any(c.uses_cast for c in classes)),
            )
            if wanted
        ]
        statements = [FUTURE, *(Statement("typing", ((n, None),)) for n in typing)]
        statements += [
            self.package(
                "_specs",
                "_specs",
                comment="importing _specs registers the message specs the classes are built from",
                noqa="F401",
            ),
            self.package("runtime", "_runtime"),
        ]
        if any(c.lint_rules for c in classes):
            statements += [
                self.package("_rules", "_rules"),
                self.package("lint", "_lint"),
            ]
        if hooks_module and any(c.uses_hooks for c in classes):
            statements.append(self.package(hooks_module))
        if members and members.names:
            statements += [  # re-exported: the redundant alias says so
                Statement(
                    f"{self.target.package}.{members.source}",
                    ((name, name),),
                    comment="what this build's module defines besides its classes (the annotations' module_members)",
                )
                for name in members.names
            ]
        checking = self.block([], type_only)
        return self.block(statements, runtime), checking

    def specs(
        self,
        policies: bool,
        logger_object: tuple[str, ...] | None,
        aliases: tuple[bool, bool] = (False, False),
    ) -> str:
        """_specs: the runtime's registration, every pb2 module (re-exported:
        "import m as m"); ``aliases``: whether it registers old names, deprecations."""
        names = (
            *((("Deprecated", None),) if aliases[1] else ()),
            *((("Policy", None),) if policies else ()),
            *((("Renamed", None),) if aliases[0] else ()),
            ("configure", None),
            ("register", None),
            *((("register_aliases", None),) if any(aliases) else ()),
        )
        statements = [FUTURE, Statement(f"{self.target.package}.runtime", names)]
        statements += [
            Statement(r.import_from, ((r.module, r.alias),))
            for r in self.target.pb2_imports
        ]
        if logger_object:
            statements.append(
                Statement(logger_object[0], ((logger_object[1], "_logger"),))
            )
        return self.block(statements)

    def init(self, classes: tuple[ClassModel, ...] | list[ClassModel]) -> str:
        names = (
            ("ConfigError", None),
            ("UnknownConfigKeyError", None),
            ("default_strict", None),
            ("set_default_strict", None),
        )
        statements = [Statement(f"{self.target.package}.runtime", names)]
        for module in sorted({c.module for c in classes}):
            found = tuple((c.name, None) for c in classes if c.module == module)
            statements.append(
                Statement(
                    f"{self.target.classes_package}.{module}", found, exploded=True
                )
            )
        return self.block(statements)

    def main(self, classes: list[ClassModel], migrated: list[ClassModel]) -> str:
        statements = [
            FUTURE,
            Statement("sys"),
            Statement(f"{self.target.package}.runtime", (("run_commands", None),)),
        ]
        if classes:
            statements.append(
                Statement(f"{self.target.package}.lint", (("main", None),))
            )
        if migrated:
            statements.append(
                Statement(f"{self.target.package}.runtime", (("migrate_main", None),))
            )
        statements += [
            Statement(f"{self.target.classes_package}.{c.module}", ((c.name, None),))
            for c in {c.name: c for c in [*classes, *migrated]}.values()
        ]
        return self.block(statements)

    def pb2_module(self, module: Pb2Module) -> str:
        """A generated pb2 module's imports (its dependencies, for their registration)."""
        pool = f"{self.target.package}._pool"
        statements = [Statement(pool, (("add_file", "_add_file"),))]
        if module.messages or module.enums:
            statements.append(Statement(pool, (("POOL", "_POOL"),)))
        if module.messages:
            statements.append(
                Statement("google.protobuf", (("message_factory", "_message_factory"),))
            )
        if module.enums:
            statements.append(
                Statement(
                    "google.protobuf.internal",
                    (("enum_type_wrapper", "_enum_type_wrapper"),),
                )
            )
        statements += [
            Statement(dep.import_from, ((dep.module, f"_{dep.alias}"),))
            for dep in module.dependencies
        ]
        return self.block(statements)


def _render_target(
    env: jinja2.Environment,
    model: PackageModel,
    target: Target,
    sources: Mapping[str, str],
) -> list[RenderedFile]:
    """Every file of one build (the standalone package, or a target)."""
    out = _TargetFiles(env, model, target)
    files = [*out.support(), *out.lint(), *out.commands(), *out.schemas()]
    files += [*out.subpackages(), *out.class_modules()]
    if target.standalone:
        files += out.standalone()
    copied = [model.hooks_module] if model.hooks_module else []
    if target.module_members and target.module_members.source:
        copied.append(target.module_members.source)
    files += [out.copied(name, sources[name]) for name in copied if name in sources]
    return files


class _TargetFiles:
    """The files of one build, by kind; each template gets the build's common values."""

    def __init__(
        self, env: jinja2.Environment, model: PackageModel, target: Target
    ) -> None:
        self.env, self.model, self.target = env, model, target
        self.pkg = target.folder(target.package)
        self.classes_dir = target.folder(target.classes_package)
        self.logger_object = (
            None if target.standalone else tuple(target.logger.rsplit(".", 1))
        )
        self.imports = _Imports(target)
        self.common = dict(
            header=model.header,
            package=target.package,
            logger=target.logger,
            # examples in the docs are written for the standalone package
            example_import=(
                f">>> from {model.name} import ",
                f">>> from {target.public_package} import ",
            ),
            logger_object=self.logger_object,
            pb2_modules=model.pb2_modules,
            pb2_imports=target.pb2_imports,
            enums=model.enums,
            hooks_module=model.hooks_module,
            reference_page=f"{model.name}.md",  # where the docs' differences are stated
            strict_env=model.strict_env,
            record=model.record,  # no reference named: strict by default
        )

    def render(self, template: str, **extra: object) -> str:
        return self.env.get_template(template).render(**self.common, **extra)

    @property
    def depends(self) -> bool:
        """This build imports the runtime from its distribution (runtime =
        "dependency"); a build for a target tree carries its copy all the same."""
        return self.model.header.runtime is not None and self.target.standalone

    def dependency(self, module: str) -> str:
        """A runtime module (``runtime``, ``lint``) of a package without the
        copy: the distribution's, run as this package's (its ``loader``)."""
        runtime = self.model.header.runtime
        low, high = naming.runtime_bounds(self.model.header.generator_version)
        return self.render(
            "runtime_dependency.py.j2",
            module=module,
            runtime_import=naming.RUNTIME_IMPORT,
            low=low,
            high=high,
            missing=f"{self.model.name} needs {runtime}, which is not installed: "
            f"pip install '{runtime}'",
        )

    def support(self) -> list[RenderedFile]:
        """``__init__``, the runtime's modules, ``_specs`` and ``types``."""
        model, target, pkg, imports = self.model, self.target, self.pkg, self.imports
        exported = model.classes if target.classes_package == target.package else ()
        init = self.render(
            "__init__.py.j2",
            classes=exported,
            every_class=model.classes,  # what they share is said here, in every build
            imports=imports.init(exported),
            exports=[c.name for c in exported],
        )
        specs = self.render(
            "_specs.py.j2",
            overrides=model.overrides,
            imports=imports.specs(
                bool(model.overrides.policies),
                self.logger_object,
                (bool(model.overrides.renamed), bool(model.overrides.deprecated)),
            ),
        )
        types = self.render(
            "types.py.j2",
            typed_dicts=model.typed_dicts,
            views=model.views,
            imports=imports.block([FUTURE], model.types_imports),
        )
        runtime = (
            [RenderedFile(f"{pkg}/runtime.py", self.dependency("runtime"), "python")]
            if self.depends
            else [
                RenderedFile(
                    f"{pkg}/{name}.py",
                    runtime_copy(self.env, model.header, name),
                    "plain",
                )
                for name in naming.RUNTIME_MODULES
            ]
        )
        return [
            RenderedFile(f"{pkg}/__init__.py", init, "python"),
            *runtime,
            RenderedFile(f"{pkg}/_specs.py", specs, "python"),
            RenderedFile(f"{pkg}/types.py", types, "python"),
        ]

    def lint(self) -> list[RenderedFile]:
        """The lint module and its rules: where a class has rules."""
        if not any(c.lint_rules for c in self.model.classes):
            return []
        pkg = self.pkg
        lint = (
            self.dependency("lint")
            if self.depends
            else self.env.get_template("runtime.py.j2").render(
                header=self.model.header, source=LINT_SOURCE_NAME, text=LINT_SOURCE
            )
        )
        rules = self.render("_rules.py.j2", rules=self.model.rules)
        return [
            RenderedFile(f"{pkg}/lint.py", lint, "python" if self.depends else "plain"),
            RenderedFile(f"{pkg}/_rules.py", rules, "python"),
        ]

    def commands(self) -> list[RenderedFile]:
        """``python -m``: ``schema``, ``lint`` where a class has rules, and
        ``migrate`` where fields have old names."""
        linted = [c for c in self.model.classes if c.lint_rules]
        # migrate: every class can be a file's root; only when there is an old name to rename
        migrated = list(self.model.classes) if self.model.overrides.renamed else []
        roots = tuple(s.full_name for s in self.model.json_schemas if s.root)
        main = self.render(
            "__main__.py.j2",
            classes=linted,
            migrated=migrated,
            roots=roots,
            imports=self.imports.main(linted, migrated),
        )
        return [RenderedFile(f"{self.pkg}/__main__.py", main, "python")]

    def schemas(self) -> list[RenderedFile]:
        """Every message's JSON Schema (``schemas/<full name>.schema.json``)."""
        return [
            RenderedFile(f"{self.pkg}/schemas/{s.file_name}", s.text, "plain")
            for s in self.model.json_schemas
        ]

    def subpackages(self) -> list[RenderedFile]:
        model, target = self.model, self.target
        found = (
            {(f"{self.pkg}/{folder}", folder) for folder in model.subpackages}
            if target.standalone
            else set()
        )
        found |= {
            (f"{self.classes_dir}/{folder}", folder)
            for folder in model.class_subpackages
        }
        return [
            RenderedFile(
                f"{path}/__init__.py",
                self.render("subpackage.py.j2", folder=folder),
                "python",
                self.proto_in(folder),
            )
            for path, folder in sorted(found)
        ]

    def proto_in(self, path: str) -> str:
        """The .proto file whose wrapper module is at ``path`` ("/"-separated,
        no suffix), or for a folder the first whose modules are under it."""
        return next(
            pb2.proto_file
            for pb2 in self.model.pb2_modules
            if pb2.path == f"{path}_pb2" or pb2.path.startswith(f"{path}/")
        )

    def class_modules(self) -> list[RenderedFile]:
        model, target = self.model, self.target
        files = []
        for module in model.class_modules:
            classes = [c for c in model.classes if c.module == module]
            members = (
                target.module_members
                if target.module_members and target.module_members.module == module
                else None
            )
            top, checking = self.imports.classes(classes, model.hooks_module, members)
            text = self.render(
                "classes.py.j2",
                module=module,
                classes=classes,
                # enum classes at the module's level (a Record schema's)
                module_enums=[
                    e
                    for e in model.enums
                    if model.record and e.module == module and e.owner is None
                ],
                module_members=members,
                imports=top,
                checking=checking,
            )
            path = f"{self.classes_dir}/{target.folder(module)}.py"
            files.append(
                RenderedFile(path, text, "python", self.proto_in(target.folder(module)))
            )
        return files

    def standalone(self) -> list[RenderedFile]:
        """What only the standalone package has: the pool, the _pb2 modules and stubs, the reference page."""
        model, pkg = self.model, self.pkg
        pool = self.render("_pool.py.j2", default_pool=model.default_pool)
        page = self.render("REFERENCE.md.j2", reference=model.reference)
        files = [
            RenderedFile(f"{pkg}/_pool.py", pool, "python"),
            RenderedFile(f"{pkg}/py.typed", "", "plain"),
            RenderedFile(f"{pkg}.md", page, "markdown"),
        ]
        for pb2 in model.pb2_modules:
            code = self.render(
                "pb2.py.j2", module=pb2, imports=self.imports.pb2_module(pb2)
            )
            stub = self.render(
                "pb2.pyi.j2",
                module=pb2,
                imports=self.imports.block([], pb2.imports),
                n=pb2.name_of,
            )
            files.append(
                RenderedFile(f"{pkg}/{pb2.path}.py", code, "python", pb2.proto_file)
            )
            files.append(
                RenderedFile(f"{pkg}/{pb2.path}.pyi", stub, "stub", pb2.proto_file)
            )
        return files

    def copied(self, module: str, text: str) -> RenderedFile:
        """A hand-written module beside the annotations, as this build carries
        it: below a header, its imports of the standalone package bound to
        this build's modules (``bound``)."""
        copied = self.render(
            "_copied.j2",
            source=f"the hand-written {module}.py beside the annotations file",
            text=Verbatim(self.bound(text, f"{module}.py")),
        )
        return RenderedFile(f"{self.pkg}/{module}.py", copied, "plain")

    def module_for(self, dotted: str) -> str:
        """This build's module for a module of the standalone package (the
        target's binding): the package itself is the public package, a class
        module lies in classes_package, a generated pb2 module in
        pb2_package, any other (the runtime, types, the hand-written
        modules) in package."""
        target, name = self.target, self.model.name
        inner = dotted[len(name) + 1 :]
        if not inner:
            return target.public_package
        if inner in self.model.class_modules:
            return f"{target.classes_package}.{inner}"
        if inner in {m.path.replace("/", ".") for m in self.model.pb2_modules}:
            return f"{target.pb2_package}.{inner}"
        return f"{target.package}.{inner}"

    def bound(self, text: str, filename: str) -> str:
        """A hand-written module's text with this build's module names. It is
        written for the standalone package, as the docs' examples are: each
        line ``from <package>[.module] import`` or ``import <package>.module
        as``, in code or in a ``>>>`` example, names this build's module
        instead (``module_for``). Relative imports stay as they are: every
        build's copy lies in its ``package``."""
        name = re.escape(self.model.name)
        module = rf"{name}(?:\.[\w.]+)?"
        unbound = re.search(
            rf"^[ \t]*(?:>>> )?import[ \t]+{module}[ \t]*(?:$|[,#;])",
            text,
            re.MULTILINE,
        )
        if unbound:
            raise GeneratorError(
                Problem(
                    f"import {self.model.name}... without 'as': a build's copy"
                    " binds the standalone package's modules to its own, not that name",
                    filename,
                    text.count("\n", 0, unbound.start()) + 1,
                    hint=f"write from {self.model.name}.MODULE import NAME, or import {self.model.name}.MODULE as NAME",
                )
            )
        return re.sub(
            rf"^([ \t]*(?:>>> )?(?:from|import)[ \t]+)({module})(?=[ \t]+(?:import|as)\b)",
            lambda m: m[1] + self.module_for(m[2]),
            text,
            flags=re.MULTILINE,
        )
