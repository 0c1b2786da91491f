"""The stages chained: options in, every generated file's final text out."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from generator import __version__
from generator.annotations import hook_class_members, load_annotations
from generator.compile import compile_protos
from generator.errors import GeneratorError, Problem
from generator.format import BLACK_VERSION_REQUIRED, format_files
from generator.model import Header, PackageModel, build_model
from generator.render import TEMPLATES, render_package
from generator.schema import load_schema, local_names


@dataclass(frozen=True, kw_only=True)
class Options:
    protos: tuple[Path, ...]
    annotations: Path | None
    out: Path
    package: str
    root: Path  # paths in headers are shown relative to this folder


@dataclass(frozen=True)
class Result:
    files: dict[str, str]  # relative to Options.out
    model: PackageModel


PACKAGE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def input_hash(options: Options, proto_files: tuple[Path, ...], hooks_file: Path | None) -> str:
    """Hash of everything the output depends on besides the generator itself.

    Files are labelled by where they are relative to the project (inputs), the
    package (hooks) or the templates folder, never by absolute paths, so the
    hash does not depend on where the output is written.
    """
    digest = hashlib.sha256()
    digest.update(f"{__version__}\0black {BLACK_VERSION_REQUIRED}\0{options.package}\0".encode())
    labelled = [(_shown(p, options.root), p) for p in proto_files]
    if options.annotations:
        labelled.append((_shown(options.annotations, options.root), options.annotations))
    if hooks_file:
        labelled.append((f"{options.package}/{hooks_file.name}", hooks_file))
    labelled += [(f"templates/{p.name}", p) for p in sorted(TEMPLATES.glob("*.j2"))]
    for label, path in labelled:
        digest.update(label.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build(options: Options) -> Result:
    if not PACKAGE_NAME.match(options.package):
        raise GeneratorError(Problem(f"--package must be a Python identifier, got {options.package!r}"))
    compiled = compile_protos(list(options.protos))
    schema = load_schema(compiled.descriptor_set, local_names(compiled.proto_files, compiled.include_root))
    package_dir = options.out / options.package
    notes = load_annotations(options.annotations, schema, package_dir)
    hooks_file = package_dir / f"{notes.hooks_module}.py" if notes.hooks_module else None
    members = {
        c.mixin: hook_class_members(hooks_file, c.mixin) for c in notes.classes if c.mixin and hooks_file is not None
    }
    shown_inputs = [_shown(p, options.root) for p in compiled.proto_files]
    if options.annotations:
        shown_inputs.append(_shown(options.annotations, options.root))
    header = Header(
        generator_version=__version__,
        inputs=tuple(shown_inputs),
        input_hash=input_hash(options, compiled.proto_files, hooks_file),
    )
    model = build_model(schema, notes, options.package, header, members)
    return Result(files=format_files(render_package(model)), model=model)
