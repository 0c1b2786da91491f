"""A generated package in one process with protoc-built modules of the same
files: googleapis-common-protos (google/api/http.proto) and protoc's own
``--python_out`` modules of the schema, in either import order. The embedded
descriptors are what protoc embeds (json_name only where declared), so the
descriptor pool sees one file, not two different files of one name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import google.api

from tests.support import ROOT, generate

SCHEMA = """\
syntax = "proto3";
package acme.svc.v1;
import "google/api/http.proto";
import "google/protobuf/timestamp.proto";
// A route.
message Route {
  // Its rule.
  google.api.HttpRule rule = 1;
  // When it was made.
  google.protobuf.Timestamp at = 2;
  // A declared JSON name.
  string path_prefix = 3 [json_name = "prefix"];
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    work = tmp_path_factory.mktemp("coexist")
    schema = work / "schema"
    (schema / "google" / "api").mkdir(parents=True)
    shutil.copy(Path(google.api.__path__[0]) / "http.proto", schema / "google" / "api" / "http.proto")
    (schema / "acme" / "svc" / "v1").mkdir(parents=True)
    (schema / "acme" / "svc" / "v1" / "svc.proto").write_text(SCHEMA)
    out = work / "out"
    package, _ = generate(out, [schema / "google" / "api" / "http.proto", schema / "acme"], proto_paths=(schema,))
    protoc_out = work / "protoc"
    protoc_out.mkdir()
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{schema}", f"--python_out={protoc_out}", "acme/svc/v1/svc.proto"],
        check=True, capture_output=True,
    )
    return out, protoc_out, package


def _run(paths: list[Path], code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, paths), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("first", ["ours", "theirs"])
def test_beside_googleapis_common_protos_in_either_order(built, first):
    out, _, package = built
    ours = f"import {package}.acme.svc.v1.svc_pb2 as ours"
    theirs = "import google.api.http_pb2 as theirs"
    code = "\n".join([ours, theirs] if first == "ours" else [theirs, ours]) + (
        "\nrule = theirs.HttpRule(get='/v1/x')"
        "\nroute = ours.Route(rule=rule)"  # one pool, one file: their class is our field's class
        "\nassert route.rule.get == '/v1/x'"
        "\nprint('ok')"
    )
    done = _run([out], code)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


@pytest.mark.parametrize("first", ["ours", "theirs"])
def test_beside_protocs_own_modules_of_the_same_schema(built, first):
    out, protoc_out, package = built
    ours = f"import {package}.acme.svc.v1.svc_pb2 as ours"
    theirs = "import acme.svc.v1.svc_pb2 as theirs"
    code = "\n".join([ours, theirs] if first == "ours" else [theirs, ours]) + (
        "\nassert ours.Route is theirs.Route or ours.Route.DESCRIPTOR is theirs.Route.DESCRIPTOR"
        "\nassert ours.Route.DESCRIPTOR.fields_by_name['path_prefix'].json_name == 'prefix'"
        "\nprint('ok')"
    )
    done = _run([out, protoc_out], code)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
