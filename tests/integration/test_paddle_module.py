"""Paddle's ``distributed_strategy`` module, pristine and with the Paddle build
overlaid, side by side (``paddle_probes.py``, one group of probes per process).

* Every name Paddle 3.3.1's module defines at module level is in the overlaid
  module, and each gives the same observations for the same arguments,
  errors included.
* Every deliberate difference, as ``reference.differences`` in the
  annotations states it (the class docs render it), holds: each has a check
  here asserting Paddle's behaviour and ours, and a difference without a
  check fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from paddle_env import ROOT, probe, requires_paddle

pytestmark = requires_paddle
ANNOTATIONS = ROOT / "proto" / "fleet_strategy.annotations.yaml"

@pytest.fixture(scope="module")
def sides(paddle_install: tuple[str, Path], paddle_python: tuple[str, Path]) -> Callable[[str], tuple[dict[str, Any], dict[str, Any]]]:
    """group -> (Paddle's observations, the overlaid Paddle build's)."""
    python, installed = paddle_install
    _, overlay = paddle_python

    def both(group: str, *flags: str) -> tuple[dict[str, Any], dict[str, Any]]:
        return probe(python, installed, group, "", *flags), probe(python, installed, group, str(overlay), *flags)

    return both


def test_the_overlay_offers_every_module_level_name(sides):
    theirs, ours = sides("module")
    defined = theirs["names of the pristine module present"]
    assert all(defined.values()) and len(defined) == 13, defined  # (the probe reads the pristine module's source)
    assert set(defined) == {
        "__all__", "non_auto_func_called", "__non_auto_func_called__", "is_strict_auto", "get_repeated_msg_dict",
        "get_msg_dict", "_is_repeated_field", "assign_repeated_msg", "assign_configs_value", "check_configs_key",
        "DistributedJobInfo", "ReduceStrategyFleet", "DistributedStrategy",
    }
    assert ours["names of the pristine module present"] == defined


def test_the_module_level_names_behave_as_paddles(sides):
    """The same calls, the same observations: values, errors, what was written
    before an error, the flag the decorators clear, the wrappers' names and signatures."""
    theirs, ours = sides("module")
    assert len(theirs) > 40 and any("error" in json.dumps(v) for v in theirs.values())
    assert ours == theirs


# One check per difference: (Paddle's observations, ours); group -> probe results.
Check = Callable[[Callable[..., tuple[dict[str, Any], dict[str, Any]]]], None]
CHECKS: dict[str, Check] = {}


def check(name: str) -> Callable[[Check], Check]:
    def register(function: Check) -> Check:
        CHECKS[name] = function
        return function

    return register


@check("config_dicts")
def _config_dicts(sides):
    theirs, ours = (side["config_dicts"] for side in sides("differences"))
    assert theirs["half applied"] == ["TypeError", 1024.0] and ours["half applied"] == ["TypeError", 32768.0]
    assert theirs["list assigned twice"] == ["a", "a"] and ours["list assigned twice"] == ["a"]
    given = {"dp_degree": 1, "order": ["dp", "pp", "sharding", "sep", "mp"], "mp_configs": {"sync_param_name": ["x"]},
             "pp_configs": {"dp_comm_overlap": True}}
    assert theirs["caller's dict after hybrid_configs"] == {"dp_degree": 1, "order": given["order"]}
    assert ours["caller's dict after hybrid_configs"] == given
    assert theirs["nested unknown key"] == {"ok": None}
    assert ours["nested unknown key"]["error"][0] == "UnknownConfigKeyError" and "'nope'" in ours["nested unknown key"]["error"][1]
    for name, paddles_name in (("amp_configs", "amp_configs"), ("gradient_merge_configs", "gradient_configs"),
                               ("recompute_configs", "checkpoint_configs")):
        assert theirs[f"unknown key of {name}"] == [True, False, [paddles_name]]  # a bare AssertionError
        assert ours[f"unknown key of {name}"] == [True, True, [name]]
    theirs_o, ours_o = sides("optimized", "-O")
    assert theirs_o["optimize"] == ours_o["optimize"] == 1
    assert theirs_o["unknown key"] == {"ok": None} and ours_o["unknown key"]["error"][0] == "UnknownConfigKeyError"
    assert theirs["dp_configs dict"][0]["error"][0] == "AttributeError" and ours["dp_configs dict"] == [{"ok": None}, 4]
    assert theirs["list of dicts"] == [[]] and ours["list of dicts"] == [["matmul"]]
    assert theirs["nested {}"] is False and ours["nested {}"] is True


@check("defaults")
def _defaults(sides):
    theirs, ours = (side["defaults"] for side in sides("differences"))
    assert theirs["values"] == ours["values"] == {
        "conv_workspace_size_limit": 512, "cudnn_exhaustive_search": False, "cudnn_batchnorm_spatial_persistent": False,
        "decr_ratio": 0.8, "sparsity": [],
    }
    wrong = ("conv_workspace_size_limit 4000", "cudnn_exhaustive_search True", "cudnn_batchnorm_spatial_persistent True",
             "decr_ratio 0.5", "sparsity [0.999]")
    assert all(theirs["claims"][claim] for claim in wrong) and not any(ours["claims"][claim] for claim in wrong)
    assert not theirs["claims"]["conv_workspace_size_limit 512"] and ours["claims"]["conv_workspace_size_limit 512"]
    assert theirs["typed keys"] == {"_SyncConf k_step": True, "_TrainerDescConf dump_field": True}
    assert not any(ours["typed keys"].values()) and len(ours["typed keys"]) == 4


@check("construction_log")
def _construction_log(sides):
    theirs, ours = (side["construction_log"] for side in sides("differences"))
    assert theirs == ["distributed strategy initialized"] and ours == []


@check("attribute_lock")
def _attribute_lock(sides):
    theirs, ours = (side["attribute_lock"] for side in sides("differences"))
    assert theirs["strategy raw field"] == theirs["job info"] == {"ok": None}
    assert ours["strategy raw field"]["error"] == [
        "TypeError", "fuse_grad_size_in_TFLOPS is not an attribute of DistributedStrategy; did you mean '_fuse_grad_size_in_TFLOPS'?"
    ]
    assert ours["job info"]["error"][0] == "TypeError"
    assert theirs["strategy typo"]["error"][0] == ours["strategy typo"]["error"][0] == "TypeError"


@check("copies")
def _copies(sides):
    theirs, ours = (side["copies"] for side in sides("differences"))
    for label in ("strategy", "job info"):
        assert theirs[f"{label}: a change to copy.copy's message shows in the original"] is True
        assert ours[f"{label}: a change to copy.copy's message shows in the original"] is False
        assert theirs[f"{label}: pickle"]["error"][0] == "PicklingError"
    assert ours["strategy: pickle"] == {"ok": "DistributedStrategy"} and ours["job info: pickle"] == {"ok": "DistributedJobInfo"}


@check("load_all_or_nothing")
def _load(sides):
    theirs, ours = (side["load_all_or_nothing"] for side in sides("differences"))
    # [class, a ValueError, a text_format.ParseError, names the file and line]
    assert theirs == {"error": ["ParseError", False, True, False], "amp merged before the bad line": True}
    # a ValueError (the runtime's TextFormatFileError) naming the file and line, nothing merged
    assert ours["error"][1:] == [True, False, True] and ours["amp merged before the bad line"] is False


@check("save_atomic")
def _save_atomic(sides):
    """A file size limit stops the write part-way: Paddle's file is left with
    200 bytes of the new text, ours with the old text, no temporary file."""
    theirs, ours = (side["save_atomic"] for side in sides("differences"))
    assert theirs == {"error": "OSError", "old file kept": False, "bytes": 200, "files": ["saved.prototxt"]}
    assert ours == {"error": "OSError", "old file kept": True, "bytes": 10, "files": ["saved.prototxt"]}


@check("build_strategy_input")
def _build_strategy(sides):
    theirs, ours = (side["build_strategy_input"] for side in sides("differences"))
    assert theirs["dict"]["error"][0] == "AttributeError" and ours["dict"] == {"ok": None}
    assert theirs["paddle's object"] == ours["paddle's object"] == {"ok": None}
    assert ours["enable_inplace"] is False


@check("sparse_tables")
def _sparse_tables(sides):
    theirs, ours = (side["sparse_tables"] for side in sides("differences"))
    assert theirs["sparse: same name twice"] == theirs["fleet desc: same name twice"] == ["emb", "emb"]
    assert ours["sparse: same name twice"] == ours["fleet desc: same name twice"] == ["emb"]
    assert theirs["sparse: bad second table"]["error"][0] == ours["sparse: bad second table"]["error"][0] == "TypeError"
    assert theirs["sparse: tables kept"] == ["emb", "b"] and ours["sparse: tables kept"] == []


@check("enable_env_without_paddle")
def _enable_env(sides, paddle_install):
    theirs, ours = (side["enable_env_without_paddle"] for side in sides("differences"))
    assert theirs == ours == {"paddle's flag": 64.0, "os.environ changed": False}  # with Paddle: Paddle's flags
    python, installed = paddle_install
    standalone = probe(python, installed, "no_paddle", str(ROOT / "generated"))  # Paddle's class cannot be without Paddle
    assert standalone == {"environ": {"FLAGS_conv_workspace_size_limit": "256", "FLAGS_fuse_parameter_memory_size": "64"},
                          "read back": 256, "paddle imported": False}


@check("environment")
def _environment(sides, paddle_install):
    """An integer flag beyond int32: Paddle stops at ``import paddle``; our
    construction warns naming the variable and keeps the option's default."""
    import os
    import subprocess

    python, _ = paddle_install
    env = {**os.environ, "FLAGS_conv_workspace_size_limit": "2147483648", "PYTHONPATH": str(ROOT / "generated")}
    theirs = subprocess.run([python, "-c", "import paddle"], capture_output=True, text=True, env=env, timeout=300)
    assert theirs.returncode != 0 and "out_of_range" in theirs.stderr, theirs.stderr[-2000:]
    code = (
        "import logging; logging.basicConfig(); from fleet_strategy import DistributedStrategy; "
        "print(DistributedStrategy().conv_workspace_size_limit)"
    )
    ours = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert ours.returncode == 0 and ours.stdout.strip() == "512", ours.stderr[-2000:]
    assert "ignoring FLAGS_conv_workspace_size_limit='2147483648'" in ours.stderr


@check("strict_auto_per_strategy")
def _strict_auto(sides):
    theirs, ours = (side["strict_auto_per_strategy"] for side in sides("differences"))
    assert theirs == {"before": True, "after another strategy's amp": False, "flag after it": False, "the other's": False}
    assert ours == {"before": True, "after another strategy's amp": True, "flag after it": True, "the other's": False}


@check("job_info_strategy")
def _job_info(sides):
    theirs, ours = (side["job_info_strategy"] for side in sides("differences"))
    assert theirs["call"]["error"] == ["AttributeError", 'Assignment not allowed to message field "strategy" in protocol message object.']
    assert theirs["stored amp"] is False and ours == {"call": {"ok": None}, "stored amp": True}


def documented_differences() -> set[str]:
    differences = yaml.safe_load(ANNOTATIONS.read_text(encoding="utf-8"))["reference"]["differences"]
    return {name for name in differences if name != "members"} | set(differences.get("members", {}))


def test_every_documented_difference_has_a_check():
    assert documented_differences() == set(CHECKS)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_difference_is_what_the_docs_say(sides, paddle_install, name):
    function = CHECKS[name]
    if "paddle_install" in function.__code__.co_varnames[: function.__code__.co_argcount]:
        function(sides, paddle_install)
    else:
        function(sides)
