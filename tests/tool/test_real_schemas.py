"""Real multi-file schema sets that packages on PyPI ship, generated with -I
(never committed: the test setup gets them from the installed
googleapis-common-protos, a dev dependency, and from ONNX's wheel via pip).

Each set is generated from one working folder and checked (`check --full`)
from another, imported, round-tripped message by message against protoc's own
``--python_out`` modules, and type-checked with ``mypy --strict``. Our package
and protoc's modules register the same files in protobuf's default pool, so
each side runs in a process of its own and they meet through bytes and text.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.inputs.compile import compile_protos
from generator.schema.schema import load_schema
from tests.support import ROOT

ONNX_VERSION = "1.23.2"

# Process A: every message of the generated package, filled through the
# package's own setter machinery (dicts, strict validation; nested messages
# three deep, then empty ones, which must keep their presence), serialized.
OURS = r'''
import base64, importlib, json, pkgutil, sys
from google.protobuf import text_format
from google.protobuf.descriptor import FieldDescriptor as FD

package, out = sys.argv[1], sys.argv[2]
runtime = importlib.import_module(package + ".runtime")
specs = importlib.import_module(package + "._specs")
root = importlib.import_module(package)
modules = [importlib.import_module(m.name) for m in pkgutil.walk_packages(root.__path__, package + ".")
           if m.name.endswith("_pb2")]

def repeated(f):
    return f.is_repeated if hasattr(f, "is_repeated") else f.label == FD.LABEL_REPEATED

def scalar(f, salt):
    if f.type == FD.TYPE_BOOL: return True
    if f.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE): return 1.5 + salt
    if f.type == FD.TYPE_STRING: return "s%d" % salt
    if f.type == FD.TYPE_BYTES: return bytes([salt, 255])
    if f.type == FD.TYPE_ENUM:
        values = f.enum_type.values
        return values[min(salt, len(values) - 1)].name
    return 7 + salt

def value(f, depth, salt=1):
    if f.message_type is not None:
        return sample(f.message_type, depth + 1) if depth < 3 else {}
    return scalar(f, salt)

def sample(m, depth):
    config = {}
    for f in m.fields:
        entry = f.message_type
        if entry is not None and entry.GetOptions().map_entry:
            key, val = entry.fields_by_name["key"], entry.fields_by_name["value"]
            config[f.name] = {scalar(key, 1): value(val, depth)}
        elif repeated(f):
            config[f.name] = [value(f, depth), value(f, depth, 2)]
        else:
            config[f.name] = value(f, depth)
    return config

def walk(m):
    if not m.GetOptions().map_entry:
        yield m
        for n in m.nested_types:
            yield from walk(n)

result = {"messages": {}, "files": {}}
for module in modules:
    result["files"][module.DESCRIPTOR.name] = base64.b64encode(module.DESCRIPTOR.serialized_pb).decode()
    for top in module.DESCRIPTOR.message_types_by_name.values():
        for m in walk(top):
            message = runtime.build_message(sample(m, 0), runtime.SPECS[m.full_name], m.full_name, strict=True)
            result["messages"][m.full_name] = [
                base64.b64encode(message.SerializePartialToString(deterministic=True)).decode(),
                text_format.MessageToString(message),
            ]
json.dump(result, open(out, "w"))
'''

# Process B: protoc's modules parse each message, print and re-serialize it.
PROTOC = r'''
import base64, importlib, json, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format

files, data = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
modules = [importlib.import_module(f.removesuffix(".proto").replace("-", "_").replace("/", ".") + "_pb2") for f in files]

def walk(m):
    if not m.GetOptions().map_entry:
        yield m.full_name
        for n in m.nested_types:
            yield from walk(n)

def default_json_name(name):
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])

def normalized(serialized):
    """protoc's --python_out leaves out every json_name that is the default
    one (derived from the field name); the descriptor set protoc hands the
    generator has them all. A custom json_name stays, on both sides."""
    file = descriptor_pb2.FileDescriptorProto.FromString(serialized)
    def clear(fields, messages):
        for x in fields:
            if x.json_name == default_json_name(x.name):
                x.ClearField("json_name")
        for m in messages:
            clear([*m.field, *m.extension], m.nested_type)
    clear(file.extension, file.message_type)
    return file

theirs = {name for module in modules for top in module.DESCRIPTOR.message_types_by_name.values() for name in walk(top)}
assert theirs == set(data["messages"]), sorted(theirs ^ set(data["messages"]))
for module in modules:
    ours = normalized(base64.b64decode(data["files"][module.DESCRIPTOR.name]))
    assert normalized(module.DESCRIPTOR.serialized_pb) == ours, module.DESCRIPTOR.name
pool = descriptor_pool.Default()
for name, (wire, text) in data["messages"].items():
    message = message_factory.GetMessageClass(pool.FindMessageTypeByName(name))()
    message.MergeFromString(base64.b64decode(wire))
    assert text_format.MessageToString(message) == text, name
    assert base64.b64encode(message.SerializePartialToString(deterministic=True)).decode() == wire, name
print(len(data["messages"]), "messages", len(modules), "files")
'''


def _env(*paths: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in paths)}


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=cwd, env=env or _env(ROOT), capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return result


def googleapis_schema(target: Path) -> list[str]:
    """The .proto files googleapis-common-protos installs, copied with their paths."""
    names = []
    for file in importlib.metadata.files("googleapis-common-protos") or []:
        if file.suffix == ".proto":
            (target / file).parent.mkdir(parents=True, exist_ok=True)
            (target / file).write_bytes(Path(file.locate()).read_bytes())
            names.append(file.as_posix())
    return sorted(names)


def onnx_schema(target: Path, work: Path) -> list[str]:
    """ONNX's ML schema set (onnx-ml, onnx-operators-ml, onnx-data: the files its
    own onnx_ml_pb2 modules come from; onnx.proto redefines the same messages)."""
    _run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q", "-d", str(work),
          f"onnx=={ONNX_VERSION}"], cwd=work)
    (wheel,) = work.glob("onnx-*.whl")
    names = ["onnx/onnx-ml.proto", "onnx/onnx-operators-ml.proto", "onnx/onnx-data.proto"]
    with zipfile.ZipFile(wheel) as archive:
        for name in names:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(archive.read(name))
    return names


@pytest.mark.parametrize("schema_set", ["googleapis", "onnx"])
def test_real_schema_set(schema_set, tmp_path):
    schema = tmp_path / "schema"
    schema.mkdir()
    files = googleapis_schema(schema) if schema_set == "googleapis" else onnx_schema(schema, tmp_path)
    assert len(files) >= (20 if schema_set == "googleapis" else 3)
    if schema_set == "googleapis":
        assert {"google/api/http.proto", "google/rpc/http.proto"} <= set(files)
    package = f"real_{schema_set}"
    options = ["--no-annotations", "--package", package]
    # generate from the schema's folder with relative paths...
    protos = [arg for f in files for arg in ("--proto", f)]
    _run([sys.executable, "-m", "generator", "generate", "-I", ".", *protos, "--out", "../out", *options], cwd=schema)
    # ...and check from an unrelated folder with absolute ones: nothing differs
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    checked = _run([sys.executable, "-m", "generator", "check", "--full", "--proto-path", str(schema),
                    *[arg for f in files for arg in ("--proto", str(schema / f))], "--out", str(tmp_path / "out"), *options],
                   cwd=elsewhere)
    assert "clean" in checked.stdout

    # every commented field's comment reaches the stubs, verbatim
    compiled = compile_protos([schema / f for f in files], [schema])
    parsed = load_schema(compiled.descriptor_set, list(compiled.names))
    stubs = " ".join(" ".join(p.read_text().split()) for p in (tmp_path / "out" / package).rglob("*.pyi"))
    stubs = stubs.replace('\\"', '"').replace("\\\\", "\\")  # undo the escapes a docstring needs
    commented = [f.doc for m in parsed.messages.values() for f in m.fields if f.doc]
    shown = [doc for doc in commented if " ".join(doc.split()) in stubs]
    print(schema_set, f"{len(shown)}/{len(commented)} commented fields documented in the stubs")
    assert len(shown) >= 0.95 * len(commented) > 0
    # ...and the TypedDict keys: the string right after each key's annotation (what IDEs show)
    key_docs = " ".join(
        " ".join(after.value.value.split())
        for node in ast.walk(ast.parse((tmp_path / "out" / package / "types.py").read_text()))
        if isinstance(node, ast.ClassDef)
        for stmt, after in zip(node.body, node.body[1:])
        if isinstance(stmt, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
    )
    keyed = [doc for doc in commented if " ".join(doc.split()) in key_docs]
    print(schema_set, f"{len(keyed)}/{len(commented)} commented fields documented on their TypedDict keys")
    assert len(keyed) >= 0.95 * len(commented)

    # protoc's own modules, and the round trip through bytes and text
    reference = tmp_path / "reference"
    reference.mkdir()
    _run([sys.executable, "-m", "grpc_tools.protoc", "-I", str(schema), f"--python_out={reference}", *files], cwd=schema)
    ours = tmp_path / "ours.json"
    _run([sys.executable, "-c", OURS, package, str(ours)], cwd=tmp_path, env=_env(tmp_path / "out"))
    summary = _run([sys.executable, "-c", PROTOC, json.dumps(files), str(ours)], cwd=tmp_path, env=_env(reference))
    print(schema_set, summary.stdout.strip())
    assert int(summary.stdout.split()[0]) == len(json.loads(ours.read_text())["messages"]) > 0

    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy"), "-p", package],
        cwd=tmp_path / "out", capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(tmp_path / "out")},
    )
    assert typed.returncode == 0, typed.stdout[-6000:]
