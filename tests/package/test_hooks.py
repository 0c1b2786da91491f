"""The special members (hand-written hooks): environment flags, a_sync, auto, job info."""

from __future__ import annotations

import ast
import re
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fleet_strategy import DistributedJobInfo, DistributedStrategy, runtime

from tests.support import ROOT, annotated_env_fields

# FLAGS_* read at construction (where set) and the two more _enable_env writes (annotations: env:)
CONSTRUCTION_FLAGS = (
    "FLAGS_cudnn_batchnorm_spatial_persistent", "FLAGS_conv_workspace_size_limit",
    "FLAGS_cudnn_exhaustive_search", "FLAGS_sync_nccl_allreduce",
)
ENV_FLAGS = (*CONSTRUCTION_FLAGS, "FLAGS_fuse_parameter_memory_size", "FLAGS_fuse_parameter_groups_size")


def test_construction_reads_flags_from_the_environment(monkeypatch):
    monkeypatch.setenv("FLAGS_conv_workspace_size_limit", "1024")
    monkeypatch.setenv("FLAGS_cudnn_exhaustive_search", "true")
    monkeypatch.setenv("FLAGS_sync_nccl_allreduce", "0")
    strategy = DistributedStrategy()
    assert strategy.conv_workspace_size_limit == 1024
    assert strategy.cudnn_exhaustive_search is True
    assert strategy.sync_nccl_allreduce is False
    assert strategy.cudnn_batchnorm_spatial_persistent is False  # unset: the descriptor's default


def test_unreadable_flags_are_ignored_with_a_warning(monkeypatch, caplog):
    caplog.set_level(logging.WARNING, logger="fleet_strategy")
    monkeypatch.setenv("FLAGS_conv_workspace_size_limit", "lots")
    monkeypatch.setenv("FLAGS_cudnn_exhaustive_search", "maybe")
    strategy = DistributedStrategy()
    assert strategy.conv_workspace_size_limit == 512 and strategy.cudnn_exhaustive_search is False
    assert len(caplog.records) == 2 and "FLAGS_conv_workspace_size_limit" in caplog.text


def test_enable_env_exports_the_six_flags(monkeypatch):
    for name in ENV_FLAGS:  # restored by monkeypatch after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    strategy = DistributedStrategy()
    strategy.conv_workspace_size_limit = 256
    strategy.cudnn_exhaustive_search = True
    strategy._enable_env()
    assert os.environ["FLAGS_conv_workspace_size_limit"] == "256"
    assert os.environ["FLAGS_cudnn_exhaustive_search"] == "true"
    assert os.environ["FLAGS_fuse_parameter_memory_size"] == "32"
    assert os.environ["FLAGS_fuse_parameter_groups_size"] == "50"
    assert set(CONSTRUCTION_FLAGS) < set(ENV_FLAGS)
    again = DistributedStrategy()  # what a later strategy (or Paddle) reads back
    assert again.conv_workspace_size_limit == 256 and again.cudnn_exhaustive_search is True


def test_a_sync_resets_k_steps():
    strategy = DistributedStrategy()
    strategy.a_sync_configs = {"k_steps": 100, "send_queue_size": 4}
    strategy.a_sync = False
    assert strategy.a_sync_configs["k_steps"] == 0 and strategy.a_sync_configs["send_queue_size"] == 4
    with pytest.raises(ValueError):
        strategy.a_sync = "no"  # type: ignore[assignment]
    assert strategy.a_sync is False


def test_is_strict_auto():
    strategy = DistributedStrategy()
    assert strategy._is_strict_auto() is False
    strategy.auto = True
    assert strategy._is_strict_auto() is True
    strategy.semi_auto = True  # auto-parallel's own options keep it
    assert strategy._is_strict_auto() is True
    strategy.amp = True
    assert strategy._is_strict_auto() is False


def test_env_fields_are_the_annotations_env_entries():
    """runtime.env_fields gives what the annotations file declares (env:),
    for the class and its instances: the fields _is_strict_auto leaves out."""
    declared = annotated_env_fields()
    fields = runtime.env_fields(DistributedStrategy)
    assert {(e.variable, e.field, e.read) for e in fields} == declared and len(fields) == len(declared)
    assert {e.field for e in fields if e.read} == {
        "cudnn_batchnorm_spatial_persistent", "conv_workspace_size_limit", "cudnn_exhaustive_search", "sync_nccl_allreduce",
    }
    assert runtime.env_fields(DistributedStrategy()) == fields
    assert runtime.env_fields(DistributedJobInfo) == ()
    with pytest.raises(TypeError, match="env_fields: Wrapper is not a generated class"):
        runtime.env_fields(runtime.Wrapper)


@pytest.mark.parametrize("variable", CONSTRUCTION_FLAGS)
def test_a_flag_read_at_construction_keeps_strict_auto(monkeypatch, variable):
    """Construction sets the field from its FLAGS_*, as Paddle's constructor
    does through setters it does not mark "non-auto"; strict auto stays."""
    monkeypatch.setenv(variable, "1")
    strategy = DistributedStrategy()
    field = next(e.field for e in runtime.env_fields(DistributedStrategy) if e.variable == variable)
    assert strategy.strategy.HasField(field)  # the field is set: hooks must weigh it
    strategy.auto = True
    assert strategy._is_strict_auto() is True
    strategy.amp = True
    assert strategy._is_strict_auto() is False


def test_distributed_job_info():
    info = DistributedJobInfo()
    info._set_worker_num(4)
    info._set_worker_ips(["10.0.0.1", "10.0.0.2"])
    info._set_origin_main("program text")
    strategy = DistributedStrategy()
    strategy.amp = True
    info._set_distributed_strategy(strategy.strategy)
    assert info.job_info.worker_num == 4 and info.job_info.worker_ips == ["10.0.0.1", "10.0.0.2"]
    assert info.job_info.origin_main == "program text" and info.job_info.strategy.amp
    with pytest.raises(TypeError):
        info.worker_count = 3  # type: ignore[attr-defined]
    with pytest.raises(TypeError):  # no properties, as Paddle's class (job_info is read directly)
        info.worker_num = 3  # type: ignore[attr-defined]


def test_side_by_side_with_the_default_pool():
    """Another module registering paddle.fleet.* in protobuf's default pool (as
    Paddle's own _pb2 does) does not clash with ours."""
    code = (
        "from google.protobuf import descriptor_pool, descriptor_pb2\n"
        "import fleet_strategy\n"
        "fds = fleet_strategy.distributed_strategy_pb2.DESCRIPTOR\n"
        "proto = descriptor_pb2.FileDescriptorProto(); fds.CopyToProto(proto)\n"
        "proto.name = 'paddle/fluid/framework/distributed_strategy.proto'\n"
        "descriptor_pool.Default().Add(proto)\n"
        "from google.protobuf import message_factory\n"
        "Theirs = message_factory.GetMessageClass(descriptor_pool.Default().FindMessageTypeByName('paddle.fleet.DistributedStrategy'))\n"
        "theirs = Theirs(amp=True)\n"
        "ours = fleet_strategy.DistributedStrategy(); ours.strategy.ParseFromString(theirs.SerializeToString())\n"
        "assert ours.amp and str(ours.strategy) == str(theirs)\n"
        "print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # fleet_strategy: generated/, see pyproject
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.stdout.strip() == "ok", result.stderr


def test_sync_param_name_alone_leaves_mp_configs_unset():
    """sync_param_name lives outside the message: giving only it under
    mp_configs sets no mp_configs (Paddle's prototxt has none either)."""
    from fleet_strategy import DistributedStrategy

    strategy = DistributedStrategy()
    strategy.hybrid_configs = {"dp_degree": 2, "mp_configs": {"sync_param_name": ["x"]}}
    assert strategy.sync_param_name == ["x"]
    assert not strategy.strategy.hybrid_configs.HasField("mp_configs")
    assert str(strategy.strategy) == "hybrid_configs {\n  dp_degree: 2\n}\n"
    strategy.hybrid_configs = {"mp_configs": {"sync_param_name": ["y"], "sync_param": True}}
    assert strategy.strategy.hybrid_configs.mp_configs.sync_param and strategy.sync_param_name == ["y"]


# ----------------------------------------------- hooks use only public APIs

HOOKS = ROOT / "proto" / "hooks.py"  # hand-written, beside the annotations; each build has a copy


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(source: str) -> list[str]:
    """Where ``source`` imports a private module or name, or reaches a private
    attribute of an imported module (``os.environ._data``, ``getattr(m, "_x")``)."""
    tree = ast.parse(source)
    found: list[str] = []
    modules: set[str] = set()  # local names bound by imports
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"line {node.lineno}: import {alias.name}")
                modules.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") if node.module else []
            if any(_private(part) for part in parts):
                found.append(f"line {node.lineno}: from {'.' * node.level}{node.module} import ...")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''} import {alias.name}")
                modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in modules:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str) and _private(node.args[1].value)
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_hooks_use_no_private_module_or_attribute():
    """hooks.py imports only the runtime (its public names), the standard
    library, google.protobuf and the package's public modules, and reaches no
    private attribute of any of them (such as os.environ._data)."""
    assert private_uses(HOOKS.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "from . import _specs\n",
        "from ._specs import distributed_strategy_pb2\n",
        "import os\nx = os.environ._data\n",
        "from . import runtime\nruntime._Mode.strict = True\n",
        "import sys\nx = getattr(sys.modules['os'].environ, '_data', None)\n",
        "from fleet_strategy._pool import POOL\n",
        "from . import runtime\nfrom .runtime import _fail\n",
    ],
)
def test_the_private_use_check_catches(source):
    assert private_uses(source)


def test_hooks_use_only_documented_public_runtime_names():
    """Every runtime name hooks.py uses is public and documented (or a constant)."""
    tree = ast.parse(HOOKS.read_text(encoding="utf-8"))
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "runtime"}
    assert used, "hooks.py no longer uses the runtime?"
    for name in sorted(used):
        member = getattr(runtime, name)
        assert not name.startswith("_")
        assert callable(member) and (member.__doc__ or "").strip(), f"runtime.{name} has no docstring"


# The standalone package's modules the hooks import, as the Paddle build names them (targets.paddle)
PADDLE_MODULES = {
    "fleet_strategy": "paddle.distributed.fleet",
    "fleet_strategy.distributed_strategy": "paddle.distributed.fleet.base.distributed_strategy",
    "fleet_strategy.distributed_strategy_pb2": "paddle.distributed.fleet.proto.distributed_strategy_pb2",
}


def _copy_of(path: str, source: str) -> list[str]:
    """A build's copy of a hand-written module, without its generated header."""
    copy = (ROOT / "generated" / path).read_text(encoding="utf-8")
    header, marker, body = copy.partition(" edit that file, then regenerate.\n")
    assert marker and copy.startswith("# @generated") and all(line.startswith("# ") for line in header.splitlines())
    return body.splitlines()


def test_the_standalone_package_carries_the_hooks_module_as_it_is():
    own = HOOKS.read_text(encoding="utf-8")
    assert _copy_of("fleet_strategy/hooks.py", own) == own.splitlines()


@pytest.mark.parametrize("name", ["hooks", "module_helpers"])
def test_the_paddle_build_names_its_own_modules_where_the_hooks_name_the_standalone_packages(name):
    """The Paddle build's copy is the hand-written file line for line, but for
    the lines importing the standalone package (code and examples): they
    import Paddle's module instead, and no line names fleet_strategy."""
    own = (ROOT / "proto" / f"{name}.py").read_text(encoding="utf-8").splitlines()
    copy = _copy_of(f"paddle/distributed/fleet/base/_fleet_strategy/{name}.py", "")
    assert len(copy) == len(own)
    bound = 0
    for mine, theirs in zip(own, copy):
        for standalone, paddle in sorted(PADDLE_MODULES.items(), reverse=True):
            for form in ("from {} import", "import {} as"):
                if form.format(standalone) in mine:
                    mine = mine.replace(form.format(standalone), form.format(paddle))
                    bound += 1
                    break
            else:
                continue
            break
        assert theirs == mine
    assert not [line for line in copy if re.search(r"\b(from|import)\s+fleet_strategy\b", line)]
    if name == "hooks":
        assert bound == 5  # the class module and the message module (type checking), three examples


def test_the_module_helpers_are_the_paddle_builds_only():
    """module_helpers.py imports Paddle: the standalone package does not carry it."""
    assert not (ROOT / "generated" / "fleet_strategy" / "module_helpers.py").exists()
    assert (ROOT / "generated/paddle/distributed/fleet/base/_fleet_strategy/module_helpers.py").is_file()
