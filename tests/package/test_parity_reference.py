"""Compatible mode against what Paddle 3.3.1's class really does (recorded data)."""

from __future__ import annotations

import json
import logging
import math

import pytest
from google.protobuf import descriptor_pb2, text_format
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

import fleet_strategy
from fleet_strategy import DistributedStrategy
from generator.inputs.compile import compile_protos
from generator.schema.schema import float32
from tests.support import REFERENCE, ROOT

DEFAULTS = json.loads((REFERENCE / "defaults.json").read_text())
BEHAVIOUR = json.loads((REFERENCE / "setter_behaviour.json").read_text())
SCENARIOS = json.loads((REFERENCE / "scenarios.json").read_text())
PROPERTIES = sorted(BEHAVIOUR["properties"])


@pytest.fixture(autouse=True)
def compatible_mode():
    assert not fleet_strategy.default_strict()


def normalize(value):
    """The recording's JSON shape of a getter's value."""
    if isinstance(value, fleet_strategy.distributed_strategy_pb2.BuildStrategy):
        return {"__type__": "BuildStrategy"}  # recorded as an opaque paddle.static.BuildStrategy
    if isinstance(value, Message):
        return {"__message__": value.DESCRIPTOR.full_name, "fields": MessageToDict(value, preserving_proto_field_name=True)}
    if isinstance(value, float) and math.isnan(value):
        return {"__float__": "nan"}
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__.startswith("Repeated"):
        return [normalize(v) for v in value]
    return value


def recorded(value):
    if isinstance(value, dict) and "__type__" in value:
        return {"__type__": value["__type__"]}
    return value


# ------------------------------------------------------------------ schema


def _fields(fds: descriptor_pb2.FileDescriptorSet) -> dict:
    out = {}
    for file in fds.file:
        for enum in file.enum_type:
            out[f"enum {file.package}.{enum.name}"] = [(v.name, v.number) for v in enum.value]
        for message in file.message_type:
            assert not message.nested_type and not message.oneof_decl
            for f in message.field:
                key = f"{file.package}.{message.name}.{f.name}"
                default = f.default_value if f.HasField("default_value") else None
                if default and f.type == f.TYPE_FLOAT:  # protoc versions print float32 defaults differently
                    default = float32(float(default))
                elif default and f.type == f.TYPE_DOUBLE:
                    default = float(default)
                out[key] = (f.number, f.label, f.type, f.type_name, default)
    return out


def test_schema_is_wire_identical_to_paddles():
    compiled = compile_protos([ROOT / "proto" / "distributed_strategy.proto"])
    ours = descriptor_pb2.FileDescriptorSet.FromString(compiled.descriptor_set)
    theirs = descriptor_pb2.FileDescriptorSet.FromString((REFERENCE / "schema.fds").read_bytes())
    assert [f.syntax or "proto2" for f in ours.file] == [f.syntax or "proto2" for f in theirs.file]
    assert ours.file[0].package == "paddle.fleet"
    assert [m.name for m in ours.file[0].message_type] == [m.name for m in theirs.file[0].message_type]
    mine, reference = _fields(ours), _fields(theirs)
    assert len([k for k in reference if not k.startswith("enum")]) == 329
    assert mine == reference


# ---------------------------------------------------------------- defaults


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_fresh_strategy_returns_papers_defaults(name):
    strategy = DistributedStrategy()
    assert normalize(getattr(strategy, name)) == recorded(DEFAULTS[name])


def test_build_strategy_defaults_match_the_message():
    strategy = DistributedStrategy()
    options = strategy.build_strategy
    assert options == fleet_strategy.distributed_strategy_pb2.BuildStrategy()
    options.enable_inplace = True
    assert strategy.build_strategy.enable_inplace is False  # a detached copy
    strategy.build_strategy = options
    assert strategy.build_strategy.enable_inplace is True


# ---------------------------------------------------------- setter attempts


def _attempts():
    for name in PROPERTIES:
        for index, attempt in enumerate(BEHAVIOUR["properties"][name]["attempts"]):
            yield pytest.param(name, attempt, id=f"{name}-{index}-{attempt['value'][:40]}")


def _value(text: str):
    return eval(text, {"nan": float("nan"), "inf": float("inf")})  # the recording's repr()s


@pytest.mark.parametrize(("name", "attempt"), list(_attempts()))
def test_setter_answers_like_paddle(name, attempt, caplog):
    strategy = DistributedStrategy()
    before_text = str(strategy.strategy)
    caplog.set_level(logging.WARNING, logger="fleet_strategy")
    raised = None
    try:
        setattr(strategy, name, _value(attempt["value"]))
    except Exception as exc:  # noqa: BLE001 - the recording says which class
        raised = exc
    if attempt["raised"] is None:
        assert raised is None, raised
    else:
        expected = {"TypeError": TypeError, "ValueError": ValueError, "AssertionError": AssertionError}[attempt["raised"]]
        assert isinstance(raised, expected), repr(raised)
        assert str(strategy.strategy) == before_text, "a rejected value must change nothing"
    assert [r.getMessage() for r in caplog.records] == attempt["warnings"]
    assert normalize(getattr(strategy, name)) == attempt["after"]
    if attempt["raised"] is None and not attempt["warnings"]:
        assert (str(strategy.strategy) != before_text) == attempt["prototxt_changed"]


def test_attribute_lock_raises_type_error():
    strategy = DistributedStrategy()
    with pytest.raises(TypeError, match="unknown_key is not an attribute of DistributedStrategy"):
        strategy.unknown_key = 1
    assert BEHAVIOUR["lock"]["raised"] == "TypeError"


def test_lock_suggests_the_property_for_a_renamed_field():
    with pytest.raises(TypeError, match="did you mean '_fuse_grad_size_in_TFLOPS'"):
        DistributedStrategy().fuse_grad_size_in_TFLOPS = 3.0


# --------------------------------------------------------------- scenarios


def _configured(steps) -> DistributedStrategy:
    strategy = DistributedStrategy()
    for name, value in steps:
        setattr(strategy, name, value)
    return strategy


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_scenario_getters(scenario):
    data = SCENARIOS[scenario]
    strategy = _configured(data["steps"])
    for name, expected in data["getters"].items():
        assert normalize(getattr(strategy, name)) == recorded(expected), name
    assert strategy.hybrid_parallel_order == data["hybrid_parallel_order"]
    assert strategy.sync_param_name == data["sync_param_name"]


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_scenario_steps_do_not_mutate_their_inputs(scenario):
    steps = SCENARIOS[scenario]["steps"]
    snapshot = json.dumps(steps, sort_keys=True)
    _configured(steps)
    assert json.dumps(steps, sort_keys=True) == snapshot


@pytest.mark.parametrize("scenario", ["default", *sorted(SCENARIOS)])
def test_prototxt_is_the_text_paddle_writes(scenario, tmp_path):
    strategy = _configured(SCENARIOS[scenario]["steps"] if scenario != "default" else [])
    strategy.save_to_prototxt(tmp_path / "out.prototxt")
    assert (tmp_path / "out.prototxt").read_text() == (REFERENCE / f"{scenario}.prototxt").read_text()


@pytest.mark.parametrize("scenario", ["default", *sorted(SCENARIOS)])
def test_paddles_prototxt_loads_into_ours(scenario):
    strategy = DistributedStrategy()
    strategy.load_from_prototxt(REFERENCE / f"{scenario}.prototxt")
    expected = _configured(SCENARIOS[scenario]["steps"] if scenario != "default" else [])
    assert strategy.strategy == expected.strategy


@pytest.mark.parametrize("scenario", ["default", *sorted(SCENARIOS)])
def test_repr_is_paddles_table(scenario):
    strategy = _configured(SCENARIOS[scenario]["steps"] if scenario != "default" else [])
    assert repr(strategy) == (REFERENCE / f"{scenario}_repr.txt").read_text()


def test_text_format_round_trip_of_every_scenario():
    for data in SCENARIOS.values():
        strategy = _configured(data["steps"])
        parsed = text_format.Parse(str(strategy.strategy), fleet_strategy.distributed_strategy_pb2.DistributedStrategy())
        assert parsed == strategy.strategy
