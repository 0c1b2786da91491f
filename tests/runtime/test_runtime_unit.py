"""The runtime as itself: generator/shipped/runtime.py imported directly (not a
package's copy), on a small schema compiled here into a private pool.

Specs read from descriptors, the annotations' overrides, the dict view, the
lean config path against the general one, and the Wrapper base class.
"""

from __future__ import annotations

import copy
import importlib
import logging
import math
import types
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2

from generator.inputs.compile import compile_protos
from generator.shipped import runtime

PROTO = """\
syntax = "proto2";
package rt_unit;
import "google/protobuf/timestamp.proto";

enum Color { RED = 0; GREEN = 2; }

message Leaf {
  optional int32 n = 1 [default = 7];
  repeated string tags = 2;
}

message Config {
  optional bool on = 1;
  optional int32 count = 2;
  optional uint64 big = 3;
  optional float ratio = 4 [default = 0.5];
  optional double precise = 5;
  optional string name = 6 [default = "x"];
  optional bytes raw = 7;
  optional Color color = 8 [default = GREEN];
  optional Leaf leaf = 9;
  repeated Leaf leaves = 10;
  repeated int64 numbers = 11;
  map<string, int32> counts = 12;
  map<string, Leaf> leaf_map = 13;
  optional google.protobuf.Timestamp at = 14;
  repeated google.protobuf.Timestamp times = 15;
  optional int32 old = 16 [deprecated = true];
}

message Top {
  optional bool flag = 1;
  optional int32 level = 2;
  optional Config config = 3;
  repeated string names = 4;
  optional int32 renamed_field = 5;
}
"""


@pytest.fixture(scope="module")
def pb2(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """A module as protoc's would be: DESCRIPTOR and one class per message."""
    folder = tmp_path_factory.mktemp("rt_unit")
    (folder / "rt_unit.proto").write_text(PROTO)
    compiled = compile_protos([folder / "rt_unit.proto"])
    files = descriptor_pb2.FileDescriptorSet.FromString(compiled.descriptor_set)
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
    for f in files.file:
        if f.name != "google/protobuf/timestamp.proto":
            pool.AddSerializedFile(f.SerializeToString())
    module = types.ModuleType("rt_unit_pb2")
    module.DESCRIPTOR = pool.FindFileByName("rt_unit.proto")  # type: ignore[attr-defined]
    for name, descriptor in module.DESCRIPTOR.message_types_by_name.items():
        setattr(module, name, message_factory.GetMessageClass(descriptor))
    warn = runtime.Policy("warn", None, "{field} should be {type}")
    runtime.register(
        module,
        policies={"rt_unit.Top": warn},
        fields={
            "rt_unit.Top.level": {"constraint": (">", 0.0)},
            "rt_unit.Config.numbers": {"append": True},
            "rt_unit.Config.ratio": {"allow_nonfinite": True},
        },
    )
    return module


def test_specs_come_from_the_descriptor(pb2: Any) -> None:
    fields = runtime.SPECS["rt_unit.Config"].fields
    assert fields["on"].kind == runtime.BOOL and fields["on"].has_presence
    assert (fields["count"].kind, fields["count"].low, fields["count"].high) == (runtime.INT, -(2**31), 2**31 - 1)
    assert (fields["big"].low, fields["big"].high) == (0, 2**64 - 1)
    assert fields["ratio"].float32 and not fields["precise"].float32
    assert fields["color"].enum_values == {"RED": 0, "GREEN": 2}
    assert fields["leaf"].message == "rt_unit.Leaf" and not fields["leaf"].repeated
    assert fields["leaves"].repeated and fields["numbers"].repeated and not fields["numbers"].has_presence
    counts = fields["counts"]
    assert counts.map_key is not None and counts.map_key.kind == runtime.STR
    assert counts.map_value is not None and counts.map_value.kind == runtime.INT and not counts.repeated
    assert fields["leaf_map"].map_value is not None and fields["leaf_map"].map_value.message == "rt_unit.Leaf"
    assert fields["old"].deprecated and not fields["count"].deprecated
    assert fields["name"].py_type == "str" and fields["color"].py_type == "enum"
    # a well-known type the schema uses is read from its descriptor too, and takes non-finite values
    assert runtime.SPECS["google.protobuf.Timestamp"].generated is False
    assert runtime.SPECS["rt_unit.Leaf"].generated is True


def test_overrides_apply_where_the_annotations_say(pb2: Any) -> None:
    top = runtime.SPECS["rt_unit.Top"].fields
    assert top["flag"].policy.action == "warn" and top["level"].policy.action == "warn"
    assert top["config"].policy is runtime.PASSTHROUGH  # a class-wide policy is for scalars only
    assert top["names"].policy is runtime.PASSTHROUGH
    assert top["level"].constraint == (">", 0.0) and not top["level"].constraint_always
    config = runtime.SPECS["rt_unit.Config"].fields
    assert config["numbers"].append and not config["leaves"].append
    assert config["ratio"].allow_nonfinite and not config["precise"].allow_nonfinite
    assert config["on"].policy is runtime.PASSTHROUGH  # another message: no class-wide policy


def test_fast_keys_are_scalars_with_presence(pb2: Any) -> None:
    fast = runtime.SPECS["rt_unit.Config"].fast_keys
    assert fast == {"on": bool, "count": int, "big": int, "ratio": float, "precise": float, "name": str, "raw": bytes}


def test_the_view_of_an_unset_message(pb2: Any) -> None:
    message = pb2.Config()
    view = runtime.dict_view(message)
    assert list(view) == [f.name for f in message.DESCRIPTOR.fields]
    assert view["ratio"] == 0.5 and view["name"] == "x" and view["color"] == 2 and view["count"] == 0
    assert view["leaves"] == [] and view["numbers"] == [] and view["counts"] == {} and view["times"] == []
    view["numbers"].append(1)
    assert runtime.dict_view(message)["numbers"] == []  # fresh on every call
    view["leaf"].n = 3  # the live sub-message
    assert message.leaf.n == 3


def test_the_view_of_a_set_message(pb2: Any) -> None:
    message = pb2.Config(count=3, numbers=[1, 2], counts={"a": 1})
    message.leaves.add(n=4, tags=["t"])
    message.times.add(seconds=5)
    message.leaf_map["k"].n = 9
    view = runtime.dict_view(message)
    assert view["count"] == 3 and view["numbers"] == [1, 2] and type(view["numbers"]) is list
    assert view["counts"] == {"a": 1} and type(view["counts"]) is dict
    assert view["leaves"] == [{"n": 4, "tags": ["t"]}]  # generated messages in a list: dicts
    assert [t.seconds for t in view["times"]] == [5] and not isinstance(view["times"][0], dict)  # messages
    assert view["leaf_map"]["k"].n == 9
    assert view["leaf"] is not None and view["ratio"] == 0.5


def test_the_view_of_a_message_with_one_field() -> None:
    assert runtime.dict_view(timestamp_pb2.Timestamp(seconds=3)) == {"seconds": 3, "nanos": 0}
    assert runtime.dict_view(runtime.imported_spec(timestamp_pb2.Timestamp).cls()) == {"seconds": 0, "nanos": 0}


@pytest.mark.parametrize(
    "config",
    [
        {"count": 3, "name": "y", "on": True},  # the lean path
        {"count": 2**40},  # protobuf rejects it: the general path names the key
        {"count": True},  # a bool for an int
        {"count": 3, "nope": 1},
        {"ratio": 2},  # an int for a float: the general path
        {"numbers": [1], "count": 3},
        {"old": 1},
    ],
)
@pytest.mark.parametrize("strict", [False, True])
def test_the_lean_config_path_answers_as_the_general_path(
    pb2: Any, config: dict[str, Any], strict: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = runtime.SPECS["rt_unit.Config"]

    def attempt() -> tuple[str, bytes]:
        target = pb2.Config(count=1, numbers=[5])
        try:
            with pytest.warns(DeprecationWarning) if "old" in config else _nothing():
                runtime.assign_config(target, dict(config), spec, "config", strict)
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}", target.SerializeToString()
        return "ok", target.SerializeToString()

    lean = attempt()
    monkeypatch.setattr(spec, "fast_keys", {})
    assert attempt() == lean
    if "nope" in config:
        assert lean[0].startswith("UnknownConfigKeyError: config: unknown key 'nope'")
    if config.get("count") == 2**40:
        assert "config['count']" in lean[0] and lean[1] == pb2.Config(count=1, numbers=[5]).SerializeToString()


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def test_a_rejected_config_changes_nothing(pb2: Any) -> None:
    target = pb2.Config(count=1)
    before = target.SerializeToString()
    with pytest.raises(TypeError, match=r"config\['leaf'\]\['n'\]"):
        runtime.assign_config(target, {"count": 5, "leaf": {"n": "x"}}, runtime.SPECS["rt_unit.Config"], "config", False)
    assert target.SerializeToString() == before


@pytest.fixture(scope="module")
def top_class(pb2: Any) -> type[runtime.Wrapper]:
    inits: list[object] = []

    class Top(runtime.Wrapper, message=pb2.Top, attribute="msg", init=inits.append):
        __slots__ = ("msg", "_strict")
        _direct = ("flag", "level_")
        _renamed = {"level_": "level"}
        msg: Any

        @property
        def flag(self) -> bool:
            return bool(self.msg.flag)

        @flag.setter
        def flag(self, value: bool) -> None:
            self._set("flag", value)

        @property
        def level_(self) -> int:
            return int(self.msg.level)

        @level_.setter
        def level_(self, value: int) -> None:
            self._set("level_", value)

        @property
        def config(self) -> dict[str, Any]:
            return runtime.dict_view(self.msg.config)

        @config.setter
        def config(self, value: Any) -> None:
            self._set("config", value)

        @property
        def names(self) -> list[str]:
            return list(self.msg.names)

        @names.setter
        def names(self, value: list[str]) -> None:
            self._set("names", value)

    top = Top()
    assert inits == [top]
    return Top


def test_the_wrapper_sets_each_kind(top_class: Any) -> None:
    top = top_class()
    top.flag = True
    top.level_ = 3
    top.config = {"count": 2, "leaf": {"n": 1}}
    top.names = ["a"]
    top.names = ["b"]  # replaced, not appended
    assert top.msg.flag and top.msg.level == 3 and top.config["count"] == 2 and top.names == ["b"]
    assert top.config["leaf"].n == 1


def test_the_wrapper_answers_bad_values_by_mode(top_class: Any, caplog: pytest.LogCaptureFixture) -> None:
    top = top_class()
    top.level_ = 3
    with caplog.at_level(logging.WARNING):
        top.level_ = "4"  # compatible mode: the class-wide policy warns and keeps the old value
    assert top.level_ == 3 and "level should be int" in caplog.text
    top.level_ = 0  # the constraint is for strict mode
    strict = top_class(strict=True)
    with pytest.raises(ValueError, match="level_ should be greater than 0"):
        strict.level_ = 0
    with pytest.raises(TypeError, match="level_: expected int"):
        strict.level_ = 1.5
    with pytest.raises(TypeError, match="names: expected a list"):
        strict.names = "abc"
    assert strict.msg.level == 0 and not strict.msg.names
    with pytest.raises(ValueError, match="nan"):
        strict.config = {"precise": math.nan}


def test_the_attribute_lock_and_strict(top_class: Any) -> None:
    top = top_class()
    with pytest.raises(TypeError, match="flg is not an attribute of Top; did you mean 'flag'"):
        top.flg = True
    with pytest.raises(TypeError):
        top._strict = True
    with pytest.raises(TypeError, match="strict must be a bool"):
        top_class(strict=1)
    top.strict = True
    with pytest.raises(TypeError):
        top.flag = 1
    with pytest.raises(TypeError, match="strict: expected bool"):
        top.strict = "yes"
    top.msg = top.msg.__class__(flag=True)  # the message slot is settable
    assert top.flag


def test_copies_own_their_message(top_class: Any) -> None:
    top = top_class(strict=True)
    top.level_ = 5
    for other in (copy.copy(top), copy.deepcopy(top)):
        other.level_ = 6
        assert top.level_ == 5 and other.level_ == 6 and other.strict


def test_the_direct_table_holds_plain_options_only(top_class: Any) -> None:
    top = top_class()
    top.level_ = 7  # a renamed option sets its field
    assert top.msg.level == 7
    top.level_ = 8
    with pytest.raises(ValueError):
        top.level_ = 2**40  # out of int32: protobuf's own check, on either path
    assert top.msg.level == 8


def test_the_generated_specs_state_only_what_the_annotations_add() -> None:
    """fleet_strategy's _specs.py: no descriptor fact, one entry per field the
    annotations give something of its own, each class-wide policy once."""
    import ast

    import yaml

    from tests.support import ROOT

    tree = ast.parse((ROOT / "generated" / "fleet_strategy" / "_specs.py").read_text())
    (call,) = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "register"]
    keywords = {k.arg: k.value for k in call.keywords}
    stated = {ast.literal_eval(key) for key in keywords["fields"].keys}  # type: ignore[union-attr]
    assert [ast.literal_eval(key) for key in keywords["policies"].keys] == ["paddle.fleet.DistributedStrategy"]  # type: ignore[union-attr]
    notes = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text())
    own = {"compat", "compat_message", "constraint", "choices", "allow_nonfinite", "repeated"}
    expected = {
        f"{message}.{name}"
        for message, entry in notes["messages"].items()
        for name, field in (entry.get("fields") or {}).items()
        if own & set(field or {})
    }
    assert stated == expected and len(stated) < 20
    assert "FieldSpec" not in ast.unparse(tree)  # kinds, bounds, presence, defaults: from the descriptors


def test_the_runtime_modules_are_those_copied() -> None:
    """Every runtime module in generator/shipped is one the generator copies
    (naming.RUNTIME_MODULES); the public face (runtime.py) re-exports a name of
    each of the others."""
    import ast
    from pathlib import Path

    from generator.schema.naming import RUNTIME_MODULES

    shipped = Path(runtime.__file__).parent
    # (loader: the runtime distribution's alone, runtime/backend.py)
    assert set(RUNTIME_MODULES) == {p.stem for p in shipped.glob("*.py")} - {"__init__", "lint", "loader"}
    imported = {n.module for n in ast.parse((shipped / "runtime.py").read_text()).body if isinstance(n, ast.ImportFrom)}
    assert imported == {"__future__", *(m for m in RUNTIME_MODULES if m != "runtime")}
    assert all(getattr(runtime, name) is not None for name in runtime.__all__)


@pytest.mark.parametrize("strict", [False, True], ids=["compatible", "strict"])
def test_a_message_of_another_class_of_the_same_type_is_taken(pb2: Any, strict: bool) -> None:
    """protoc's own class of a type (here timestamp_pb2.Timestamp, while the
    schema's pool has a class of its own for it) wherever a message is taken:
    a field, a list item, a map value; another type is still refused."""
    ours = runtime.SPECS["google.protobuf.Timestamp"].cls
    assert ours is not timestamp_pb2.Timestamp  # the schema's private pool has its own
    config = {"at": timestamp_pb2.Timestamp(seconds=5), "times": [timestamp_pb2.Timestamp(seconds=1), {"seconds": 2}]}
    built = runtime.build_message(config, runtime.SPECS["rt_unit.Config"], "config", strict)
    assert (built.at.seconds, [t.seconds for t in built.times]) == (5, [1, 2])
    alone = runtime.build_message(timestamp_pb2.Timestamp(nanos=3), runtime.SPECS["google.protobuf.Timestamp"], "at", strict)
    assert type(alone) is ours and alone.nanos == 3
    leaf = runtime.build_message({"leaf_map": {"k": pb2.Leaf(n=4)}}, runtime.SPECS["rt_unit.Config"], "c", strict)
    assert leaf.leaf_map["k"].n == 4
    with pytest.raises(TypeError, match=r"^config\['at'\]: expected a dict of google.protobuf.Timestamp keys, got Leaf"):
        runtime.build_message({"at": pb2.Leaf()}, runtime.SPECS["rt_unit.Config"], "config", strict)


def test_protocs_own_instances_fill_a_package_generated_from_the_well_known_files(tmp_path: Path) -> None:
    """The well-known .proto files themselves as the input: the package has
    its own classes for them, and protoc's (api_pb2.Method, in a repeated
    field; source_context_pb2.SourceContext, singular) are taken as its own."""
    import os

    import grpc_tools
    from google.protobuf import api_pb2, source_context_pb2

    from tests.support import generate, import_generated

    folder = Path(os.path.dirname(grpc_tools.__file__)) / "_proto" / "google" / "protobuf"
    names = ("api", "type", "source_context", "any")
    out = tmp_path / "out"
    package, _ = generate(out, [folder / f"{n}.proto" for n in names], proto_paths=(folder.parents[1],))
    import_generated(out, package)
    api = importlib.import_module(f"{package}.google.protobuf.api").Api()
    assert type(api.message) is not api_pb2.Api
    api.methods = [api_pb2.Method(name="m", request_streaming=True), {"name": "n"}]
    api.source_context = source_context_pb2.SourceContext(file_name="f.proto")
    assert [(m.name, m.request_streaming) for m in api.message.methods] == [("m", True), ("n", False)]
    assert api.message.source_context.file_name == "f.proto"
    with pytest.raises(TypeError, match=r"^Api.source_context: expected a dict of google.protobuf.SourceContext keys"):
        api.source_context = api_pb2.Method()
