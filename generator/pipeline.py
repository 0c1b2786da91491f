"""The stages chained: options in, every generated file's final text out."""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import keyword
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from . import COMMAND, __version__
from .errors import GeneratorError, Problem
from . import cache
from .inputs.compile import find_proto_files, include_folders, proto_names
from .inputs.files import (
    check_regular,
    decode_utf8,
    hand_written_module,
    hand_written_modules,
    read_input,
)
from .options import Options
from .output.manifest import MANIFEST_SUFFIX, manifest_text, output_digest
from .settings import GENERATOR, TEMPLATES, dependency_versions

if TYPE_CHECKING:
    from .annotations.keys import Annotations
    from .api_changes.surface import Surface
    from .inputs.compile import CompiledSchema
    from .model.records import PackageModel, Target
    from .render.templates import RenderedFile
    from .schema.schema import Schema

# The stages are imported inside build(): a `check` whose inputs are unchanged
# is answered from the manifest without loading them (see output.fast_clean).
# The constants below are re-exported for callers of the pipeline (cli, plugin, tests).


class Generated(msgspec.Struct, frozen=True):
    """What one run of the stages generated."""

    files: dict[str, str]  # relative to Options.out
    undocumented: tuple[str, ...]  # the model's: field paths without docs
    targets: tuple[Target, ...]  # the model's builds, the standalone one first
    api: Surface  # what users see of the model (generator.api_changes), also kept in the manifest
    notes: Annotations


PACKAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def shown_inputs(
    options: Options, proto_names: tuple[str, ...] | list[str]
) -> list[str]:
    """How the inputs are named in headers and the input hash: each .proto by
    its protoc name (relative to its include folder), the annotations file by
    its name, so the output never depends on the working folder (or where the
    project is checked out)."""
    return [*proto_names, *([options.annotations.name] if options.annotations else [])]


def input_hash(options: Options, proto_files: tuple[Path, ...] | list[Path]) -> str:
    """Hash of the user's inputs: the protos and the annotations (labelled as
    the headers show them), the hand-written modules beside the annotations
    (hooks; inputs.hand_written_modules), the package name and the generator's version. Never an absolute path, so
    it does not depend on the working folder or where the project is. With generator_hash() it keys
    the fast check's memo in the user cache; neither is recorded in any
    generated file, so those change only when the output does."""
    if options.annotations:  # named as what it is; read below
        check_regular(options.annotations, "annotations file")
    digest = hashlib.sha256()
    digest.update(
        f"{__version__}\0{options.package}\0{options.regenerate}\0{options.runtime}\0".encode()
    )
    files = list(proto_files) + ([options.annotations] if options.annotations else [])
    names = proto_names(
        list(proto_files), include_folders(list(proto_files), options.proto_paths)
    )
    kinds = [".proto file"] * len(proto_files) + [
        "annotations file"
    ]  # zip: as many as files
    labelled = list(zip(shown_inputs(options, names), files, kinds))
    if options.annotations:
        labelled += [
            (p.name, p, "hand-written module")
            for p in hand_written_modules(options.annotations)
        ]
    return _hash_files(digest, labelled)


# Once a process (a run asks twice: memo looked up, then written); the code
# running is what was imported anyway.
@functools.cache
def generator_hash() -> str:
    """Hash of the generator itself: its source, its templates and the installed
    versions of black, grpcio-tools and protobuf. It is kept out of every
    committed file (a change of the generator that leaves the output alone
    changes nothing there); the fast check finds it in the user cache (see
    known_output)."""
    digest = hashlib.sha256(f"{__version__}\0{dependency_versions()}\0".encode())
    labelled = [
        (f"templates/{p.name}", p, "generator file")
        for p in sorted(TEMPLATES.glob("*.j2"))
    ]
    labelled += [
        (p.relative_to(GENERATOR.parent).as_posix(), p, "generator file")
        for p in sorted(GENERATOR.glob("**/*.py"))
    ]
    return _hash_files(digest, labelled)


def _hash_files(digest: hashlib._Hash, labelled: list[tuple[str, Path, str]]) -> str:
    for label, path, what in labelled:
        try:
            content = read_input(path, what)  # never a FIFO: it would block the read
        except GeneratorError:
            if os.path.lexists(path):
                raise
            # each was found a moment ago (named, or listed in its folder)
            raise GeneratorError(
                Problem(
                    f"{what} disappeared while the tool ran (it was there a moment before: "
                    "was a folder moved or replaced during the run?)",
                    str(path),
                    hint="run again once nothing else changes the folder",
                )
            ) from None
        digest.update(label.encode() + b"\0" + content + b"\0")
    return digest.hexdigest()


def _memo_file(inputs: str) -> Path | None:
    return cache.entry("outputs", generator_hash(), inputs)


def known_output(inputs: str) -> str | None:
    """The output_digest() this very generator produced from these inputs
    before (recorded in the user cache by remember_output), or None. A fresh
    clone, a new cache or a changed generator know nothing, and the caller
    then builds: the generator is deterministic, so (generator, inputs) ->
    output is a pure function and this memo of it can never be stale."""
    payload = cache.read(_memo_file(inputs))
    try:
        recorded = json.loads(payload)["output"] if payload is not None else None
    except (ValueError, KeyError, TypeError):
        return None
    return recorded if isinstance(recorded, str) else None


def remember_output(inputs: str, files: dict[str, str]) -> None:
    """Record what these inputs generate (only saves time; failures are ignored)."""
    text = json.dumps(
        {"output": output_digest({k: v.encode("utf-8") for k, v in files.items()})}
    )
    cache.write(_memo_file(inputs), text.encode("utf-8"))


def resolve_protos(options: Options) -> list[Path]:
    return find_proto_files(list(options.protos))


# Top-level names a generated package must not take: importing it would
# import the other module instead, or break it (the _pb2 modules import google.protobuf).
SHADOWED = frozenset(sys.stdlib_module_names) | {"google"}


def check_package_name(package: str) -> None:
    """The package must import as itself: an identifier, no keyword (``import
    None`` is a syntax error; soft keywords such as ``match`` are names), and
    no name it would shadow or be shadowed by."""
    if not PACKAGE_NAME.match(package):
        raise GeneratorError(
            Problem(f"--package must be a Python identifier, got {package!r}")
        )
    if keyword.iskeyword(package):
        raise GeneratorError(
            Problem(
                f"--package {package!r} is a Python keyword: `import {package}` is a syntax error"
            )
        )
    if package in SHADOWED:
        other = (
            "the google namespace package that protobuf lives in"
            if package == "google"
            else "a standard-library module"
        )
        raise GeneratorError(
            Problem(
                f"--package {package!r} is the name of {other}: one of the two would hide the other on import",
                hint="choose another name",
            )
        )


def build(options: Options, compiled: CompiledSchema | None = None) -> Generated:
    """Run every stage. ``compiled``: the schema, when protoc has already
    compiled the protos (the protoc plugin); by default they are compiled here."""
    from .api_changes.surface import surface_json
    from .render.format import format_files

    # The schema and the model (~110 MB at 4,500 messages) are dropped once
    # rendered: only what callers read of them outlives _render, so the format
    # stage's copies of the text do not add to them (peak RSS budget, docs/benchmarks.md).
    rendered = _render(options, compiled)
    files = format_files(rendered.files).texts
    manifest = f"{options.package}{MANIFEST_SUFFIX}"
    files[manifest] = manifest_text(
        files, rendered.undocumented, surface_json(rendered.api), rendered.runtime
    )
    return Generated(
        files=files,
        undocumented=rendered.undocumented,
        targets=rendered.targets,
        api=rendered.api,
        notes=rendered.notes,
    )


class _Rendered(msgspec.Struct, frozen=True):
    """The rendered files, and what later stages and callers read of the model."""

    files: list[RenderedFile]
    undocumented: tuple[str, ...]
    targets: tuple[Target, ...]
    runtime: str | None
    api: Surface
    notes: Annotations


def _render(options: Options, compiled: CompiledSchema | None) -> _Rendered:
    from .api_changes.report import check_accepted
    from .api_changes.surface import api_surface
    from .render.templates import render_package
    from .schema.naming import package_clashes

    analysis = analyse(options, compiled)
    model = analysis.model
    api = api_surface(analysis.schema, analysis.model)
    check_accepted(analysis.notes)
    # the hand-written modules beside the annotations, copied into the builds:
    # the hooks into each, a module_members source into its target's
    names = {model.hooks_module} if model.hooks_module else set()
    names |= {
        t.module_members.source
        for t in model.targets
        if t.module_members and t.module_members.source
    }
    sources = {}
    if options.annotations is not None:
        for name in sorted(names):
            path = hand_written_module(options.annotations, name)
            text = read_input(path, "hand-written module")
            sources[name] = decode_utf8(text, path, "hand-written module")
    rendered = render_package(model, sources=sources)
    manifest = f"{options.package}{MANIFEST_SUFFIX}"
    clashes = package_clashes(
        [(f.path, f.proto) for f in rendered], {manifest: "the manifest"}
    )
    if clashes:  # before anything is written
        raise GeneratorError(clashes)
    # Rendering leaves cyclic garbage (jinja's contexts: 250,000 objects at 4,500
    # messages) that the CLI's raised collector threshold would keep until the
    # end: free it before the format stage builds its copy of the text (-50 MB).
    # Below a few MB of text the garbage is small and the collection (10 ms) is not.
    if sum(len(f.text) for f in rendered) > 4_000_000:
        gc.collect()
    return _Rendered(
        files=rendered,
        undocumented=model.undocumented,
        targets=model.targets,
        runtime=model.header.runtime,
        api=api,
        notes=analysis.notes,
    )


class Analysis(msgspec.Struct, frozen=True):
    """The inputs read and resolved: what the templates render, before rendering."""

    schema: Schema
    notes: Annotations
    model: PackageModel


def analyse(options: Options, compiled: CompiledSchema | None = None) -> Analysis:
    """compile -> schema -> annotations -> model (no rendering, no black)."""
    from .annotations.load import load_annotations
    from .annotations.members import hook_class_members
    from .inputs.compile import compile_protos
    from .model.build import build_model
    from .model.records import Header
    from .schema.naming import runtime_requirement
    from .schema.schema import load_schema

    check_package_name(options.package)
    from_protoc = compiled is not None
    compiled = compiled or compile_protos(list(options.protos), options.proto_paths)
    schema = load_schema(compiled.descriptor_set, list(compiled.names))
    notes = load_annotations(options.annotations, schema)
    hooks_file = (
        hand_written_module(options.annotations, notes.hooks_module)
        if notes.hooks_module and options.annotations
        else None
    )
    members = {
        c.mixin: hook_class_members(hooks_file, c.mixin)
        for c in notes.classes
        if c.mixin and hooks_file is not None
    }
    if (
        not from_protoc
    ):  # the plugin has protoc's names only: the model's check names them
        _check_imports(options, schema)
    header = Header(
        generator_version=__version__,
        inputs=tuple(shown_inputs(options, compiled.names)),
        command=options.regenerate or f"{COMMAND} generate",
        runtime=(
            runtime_requirement(__version__)
            if options.runtime == "dependency"
            else None
        ),
    )
    return Analysis(
        schema=schema,
        notes=notes,
        model=build_model(schema, notes, options.package, header, members),
    )


def _check_imports(options: Options, schema: Schema) -> None:
    """Every file a generated file imports is generated too (the model checks
    it again); the hint names each missing file as the user would give it to
    --proto: its -I folder as typed, joined with its name."""
    from .schema.schema import unresolved_imports
    from .model.stubs import standard_module

    def typed(name: str) -> str:
        folders = options.proto_paths or include_folders(
            find_proto_files(list(options.protos)), ()
        )
        found = next((f / name for f in folders if (f / name).is_file()), None)
        if found is None:
            return name
        if not options.proto_paths and found.is_relative_to(Path.cwd()):
            found = found.relative_to(
                Path.cwd()
            )  # the common folder: resolved, not typed
        return found.as_posix()

    problems = unresolved_imports(
        schema, lambda name: standard_module(name) is not None, typed
    )
    if problems:
        raise GeneratorError(problems)


def api_at_ref(options: Options, ref: str) -> tuple[Surface, tuple[str, ...]]:
    """The API surface the inputs generated at git ``ref`` (built in memory
    from copies of the inputs at that ref; nothing is rendered or written),
    and the inputs that did not exist there."""
    import tempfile

    from .api_changes.at_ref import inputs_at_ref
    from .api_changes.surface import api_surface, empty_surface

    with tempfile.TemporaryDirectory(prefix="fsc-ref-") as tmp:
        copy = inputs_at_ref(
            ref,
            options.protos,
            options.annotations,
            options.out / options.package,
            Path(tmp),
            options.proto_paths,
        )
        if not copy.protos:
            return empty_surface(), copy.missing
        at_ref = Options(
            protos=copy.protos,
            annotations=copy.annotations,
            out=copy.out,
            package=options.package,
            proto_paths=copy.proto_paths,
        )
        try:
            analysis = analyse(at_ref)
        except GeneratorError as exc:  # name the ref, not the temporary copy
            raise GeneratorError(
                [
                    Problem(
                        f"at {ref}: {p.message}",
                        p.file and p.file.replace(f"{tmp}/", f"{ref}:"),
                        p.line,
                        p.hint and p.hint.replace(f"{tmp}/", f"{ref}:"),
                    )
                    for p in exc.problems
                ]
            ) from None
        return api_surface(analysis.schema, analysis.model), copy.missing
