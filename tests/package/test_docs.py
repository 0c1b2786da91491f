"""Docs and types generated from one source: docstrings, doctests, TypedDicts, reference page."""

from __future__ import annotations

import doctest
import json
import re
import typing

import pytest

import fleet_strategy
from fleet_strategy import distributed_strategy, distributed_strategy_pb2, hooks, types
from fleet_strategy.distributed_strategy import DistributedStrategy
from tests.support import REFERENCE, ROOT

FINDER = doctest.DocTestFinder(exclude_empty=True)
DOCTESTS = [
    t
    for module in (fleet_strategy, distributed_strategy, hooks, types)
    for t in FINDER.find(module, module.__name__)
    if t.examples
]
PROPERTIES = sorted(name for name, value in vars(DistributedStrategy).items() if isinstance(value, property) and name != "strict")


@pytest.mark.parametrize("test", DOCTESTS, ids=[t.name for t in DOCTESTS])
def test_docstring_examples_run(test, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that save files write here, never in the repo
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
    assert result.failed == 0


def test_every_property_has_an_example():
    with_examples = {t.name.rsplit(".", 1)[-1] for t in DOCTESTS}
    reference = json.loads((REFERENCE / "setter_behaviour.json").read_text())["properties"]
    assert PROPERTIES == sorted(reference)  # the same 61 properties as Paddle's class
    assert [p for p in PROPERTIES if p not in with_examples] == []


@pytest.mark.parametrize("name", PROPERTIES)
def test_property_docstring_states_descriptor_default(name):
    doc = getattr(DistributedStrategy, name).__doc__
    assert doc and doc.strip().splitlines()[0].endswith(".")
    assert "Type:" in doc and "Examples:" in doc
    if "Keys:" in doc:  # a config: its table shows every key's default; the class docs say so once
        assert "Default:" not in doc and re.search(r"^\s+key\s+type\s+default\s", doc, re.M)
        assert "until set, are at the defaults its table shows" in " ".join(DistributedStrategy.__doc__.split())
    elif name not in ("sparse_table_configs", "fleet_desc_configs"):
        assert "Default:" in doc  # the descriptor's: the class docs say so once
    assert "(the descriptor's default)" not in doc
    assert "the protobuf descriptor declares" in " ".join(DistributedStrategy.__doc__.split())


@pytest.mark.parametrize(
    ("name", "needle", "wrong"),
    [
        ("conv_workspace_size_limit", "``512``", "4000"),
        ("cudnn_exhaustive_search", "``False``", "``True``"),
        ("cudnn_batchnorm_spatial_persistent", "``False``", "``True``"),
    ],
)
def test_no_wrong_defaults_of_the_reference(name, needle, wrong):
    doc = getattr(DistributedStrategy, name).__doc__
    default = doc.split("Default:")[1].split("\n\n")[0]
    assert needle in default and wrong not in default


def test_config_tables_show_declared_values():
    amp = DistributedStrategy.amp_configs.__doc__
    assert re.search(r"decr_ratio\s+float \(float32\)\s+0\.8\s", amp)
    dgc = DistributedStrategy.dgc_configs.__doc__
    assert re.search(r"sparsity\s+list\[float \(float32\)\]\s+\[\]\s", dgc)
    for name in ("a_sync_configs", "trainer_desc_configs"):
        doc = getattr(DistributedStrategy, name).__doc__
        assert not re.search(r"^\s+k_step\s", doc, re.M) and not re.search(r"^\s+dump_field\s", doc, re.M)


def test_every_config_key_is_in_its_table():
    message = distributed_strategy_pb2.DistributedStrategy.DESCRIPTOR
    for field in message.fields:
        if field.message_type is None or field.name in ("downpour_table_param",):
            continue
        prop = {"build_strategy": "build_strategy"}.get(field.name, field.name)
        doc = getattr(DistributedStrategy, prop).__doc__
        for key in field.message_type.fields:
            assert re.search(rf"^\s+{re.escape(key.name)}\s", doc, re.M), (prop, key.name)


def _extra_keys() -> dict[str, list[str]]:
    """The annotations' extra keys (keys a setter takes besides the fields), by message name."""
    import yaml

    notes = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text())["messages"]
    return {full.rsplit(".", 1)[1]: list(note["extra_keys"]) for full, note in notes.items() if "extra_keys" in note}


def test_typed_dicts_are_complete():
    messages = distributed_strategy_pb2.DESCRIPTOR.message_types_by_name
    assert len(messages) == 45
    extras = _extra_keys()
    assert extras == {"HybridConfig": ["order"], "MpConfig": ["sync_param_name"]}  # Paddle's two
    for name, descriptor in messages.items():
        out = getattr(types, f"{name}Dict")
        given = getattr(types, f"{name}Input")
        names = [f.name for f in descriptor.fields]
        assert list(typing.get_type_hints(out, globalns=vars(types))) == names, name  # a getter returns fields only
        assert list(given.__annotations__) == names + extras.get(name, []), name  # a setter takes the extras too
        assert given.__total__ is False and out.__total__ is True


def test_extra_keys_are_what_the_setter_takes():
    """Each extra key the input TypedDicts declare is one the setter accepts, where they put it."""
    strategy = DistributedStrategy()
    configs: types.HybridConfigInput = {"order": ("pp", "dp", "sharding", "sep", "cp", "mp"), "mp_configs": {"sync_param_name": ["emb"]}}
    strategy.hybrid_configs = configs
    assert strategy.hybrid_parallel_order == ["pp", "dp", "sharding", "sep", "cp", "mp"]
    assert strategy.sync_param_name == ["emb"]
    assert "order" not in strategy.hybrid_configs and "sync_param_name" not in strategy.hybrid_configs["mp_configs"].DESCRIPTOR.fields_by_name
    assert typing.get_args(types.ModeName) == ("COLLECTIVE", "PS", "PIPELINE", "HETER")


def test_reference_page_lists_every_property_and_key():
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    for name in PROPERTIES:
        assert f"`DistributedStrategy.{name}`" in page
    assert re.search(r"\| `decr_ratio` \| `float \(float32\)` \| `0\.8` \|", page)
    # the default is the descriptor's; Paddle's claim of 4000 shows once, where the Defaults note names it
    assert re.search(r"\| \[`conv_workspace_size_limit`\]\(#[a-z_-]+\) \| `int \(int32\)` \| `512` \|", page)
    assert page.count("4000") == 1 and "docs claimed defaults" in page.split("4000")[0].rsplit("\n", 1)[-1]


SHARED_NOTES = (
    "logs a warning and keeps the old value",  # the class-wide compatible-mode answer
    "Strict mode (the ``strict`` property) raises TypeError",
    "all-or-nothing",
    "The caller's dict is never modified",
    "UnknownConfigKeyError",
    "replaces the stored list",
    "kept the keys applied before a rejected one",  # how Paddle 3.3.1 differs (from the annotations)
)


def _flat(text: str | None) -> str:
    return " ".join((text or "").split())


@pytest.mark.parametrize("needle", SHARED_NOTES)
def test_shared_notes_are_said_once_in_the_class_docs(needle):
    """Issue 13: a note that holds for every property is in the class
    docstring (help(DistributedStrategy) shows it) and in no property's."""
    assert _flat(DistributedStrategy.__doc__).count(needle) == 1
    assert [p for p in PROPERTIES if needle in _flat(getattr(DistributedStrategy, p).__doc__)] == []
    # DistributedJobInfo has no properties (as Paddle's class): none of the sections
    assert _flat(distributed_strategy.DistributedJobInfo.__doc__).count(needle) == 0
    page = _flat((ROOT / "generated" / "fleet_strategy.md").read_text())
    assert page.count(needle) == 1  # the page says the config rules once, above its classes


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        ("a_sync", "raises ValueError"),
        ("adam_d2sum", "raises ValueError"),
        ("fp16_allreduce", "raises TypeError"),
        ("last_comm_group_size_MB", "protobuf checks the value"),
    ],
)
def test_a_member_that_differs_from_the_class_rule_says_so(name, answer):
    doc = _flat(getattr(DistributedStrategy, name).__doc__)
    assert f"Compatible mode: a value of the wrong type {answer}, as Paddle 3.3.1 does" in doc or (
        f"Compatible mode: {answer}, as Paddle 3.3.1 does" in doc
    )
    assert "Validation section" in doc


def test_a_renamed_property_names_its_proto_field():
    doc = _flat(DistributedStrategy._fuse_grad_size_in_TFLOPS.__doc__)
    assert "Reads and writes the proto field ``fuse_grad_size_in_TFLOPS``." in doc
