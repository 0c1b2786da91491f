"""The depth limit: what can be set can be copied and pickled.

Protobuf parses no message nested more than 100 levels below the top-level
message (its recursion limit), and copies and pickles carry a wrapper's
message in its wire form. So a set that would nest deeper is refused, with a
ValueError naming the field, before anything changes. The schema here (built
from descriptors, no protoc needed) has a recursive message, sub-messages in
lists and maps, and a ``google.protobuf.Struct``.
"""

from __future__ import annotations

import copy
import importlib
import os
import pickle
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, struct_pb2
from google.protobuf.message import DecodeError

import fleet_strategy._runtime_configs
import fleet_strategy.runtime


def _private_runtime() -> types.ModuleType:
    """A copy of the package's runtime modules of its own (imported from the
    package's folder under another package name), so the messages registered
    here stay out of the package's registry (SPECS)."""
    private = types.ModuleType("rt_depth_private")
    private.__path__ = [os.path.dirname(fleet_strategy.runtime.__file__)]
    sys.modules[private.__name__] = private
    return importlib.import_module("rt_depth_private.runtime")


runtime: Any = _private_runtime()
LIMIT = runtime.MAX_DEPTH
OPTIONAL, REPEATED = 1, 3
INT32, STRING, MESSAGE = 5, 9, 11


def _schema() -> types.ModuleType:
    """package rt_depth: Node { child, v, kids, named (map to Node), counts (map to int) };
    Top { node, nodes, data (Struct) }."""
    file = descriptor_pb2.FileDescriptorProto(
        name="rt_depth.proto", package="rt_depth", syntax="proto2", dependency=["google/protobuf/struct.proto"]
    )
    node = file.message_type.add(name="Node")
    node.field.add(name="child", number=1, label=OPTIONAL, type=MESSAGE, type_name=".rt_depth.Node")
    node.field.add(name="v", number=2, label=OPTIONAL, type=INT32)
    node.field.add(name="kids", number=3, label=REPEATED, type=MESSAGE, type_name=".rt_depth.Node")
    for name, number, value in (("named", 4, ".rt_depth.Node"), ("counts", 5, None)):
        entry = node.nested_type.add(name=name.capitalize() + "Entry")
        entry.options.map_entry = True
        entry.field.add(name="key", number=1, label=OPTIONAL, type=STRING)
        if value:
            entry.field.add(name="value", number=2, label=OPTIONAL, type=MESSAGE, type_name=value)
        else:
            entry.field.add(name="value", number=2, label=OPTIONAL, type=INT32)
        node.field.add(name=name, number=number, label=REPEATED, type=MESSAGE,
                       type_name=f".rt_depth.Node.{entry.name}")
    top = file.message_type.add(name="Top")
    top.field.add(name="node", number=1, label=OPTIONAL, type=MESSAGE, type_name=".rt_depth.Node")
    top.field.add(name="nodes", number=2, label=REPEATED, type=MESSAGE, type_name=".rt_depth.Node")
    top.field.add(name="data", number=3, label=OPTIONAL, type=MESSAGE, type_name=".google.protobuf.Struct")
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(struct_pb2.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(file.SerializeToString())
    module = types.ModuleType("rt_depth_pb2")
    module.DESCRIPTOR = pool.FindFileByName("rt_depth.proto")  # type: ignore[attr-defined]
    for name, descriptor in module.DESCRIPTOR.message_types_by_name.items():
        setattr(module, name, message_factory.GetMessageClass(descriptor))
    runtime.register(module)
    return module


pb2 = _schema()


class Top(runtime.Wrapper, message=pb2.Top, attribute="msg"):
    __slots__ = ("msg", "_strict")
    msg: Any

    @property
    def node(self) -> dict[str, Any]:
        return runtime.dict_view(self.msg.node, self._lock)

    @node.setter
    def node(self, value: Any) -> None:
        self._set("node", value)

    @property
    def nodes(self) -> Any:
        return self.msg.nodes

    @nodes.setter
    def nodes(self, value: Any) -> None:
        self._set("nodes", value)

    @property
    def data(self) -> Any:
        return self.msg.data

    @data.setter
    def data(self, value: Any) -> None:
        self._set("data", value)


def chain(levels: int, leaf: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Node config spanning ``levels`` levels: {"child": {"child": ... leaf}}."""
    config: dict[str, Any] = dict(leaf or {"v": 1})
    for _ in range(levels - 1):
        config = {"child": config}
    return config


def chain_message(levels: int) -> Any:
    """The same chain as a message, built without a parse (no limit applies)."""
    message = pb2.Node()
    node = message
    for _ in range(levels - 1):
        node = node.child
    node.v = 1
    return message


def json_nesting(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1.0}
    for _ in range(levels - 1):
        value = {"k": value}
    return value


def copies_and_pickles(top: Top) -> None:
    wire = top.msg.SerializeToString()
    for clone in (copy.copy(top), copy.deepcopy(top), pickle.loads(pickle.dumps(top))):
        assert clone.msg.SerializeToString() == wire


# Each way of nesting: (set it on a fresh Top to span ``n`` levels as built, where the
# deepest level of the data sits at n + offset below the top message).
WAYS: dict[str, tuple[Callable[[Top, int], None], int]] = {
    "dicts": (lambda top, n: setattr(top, "node", chain(n)), 0),
    "a message": (lambda top, n: setattr(top, "node", chain_message(n)), 0),
    "a list item": (lambda top, n: setattr(top, "nodes", [chain(n)]), 0),
    "kids in dicts": (lambda top, n: setattr(top, "node", chain(n - 1, {"kids": [{"v": 1}]})), 0),
    "a map value": (lambda top, n: setattr(top, "node", {"named": {"a": chain(n)}}), 2),  # node + the entry
    "a scalar map": (lambda top, n: setattr(top, "node", chain(n, {"counts": {"a": 1}})), 1),  # the entry
}


@pytest.mark.parametrize("strict", [False, True], ids=["compatible", "strict"])
@pytest.mark.parametrize("way", sorted(WAYS))
def test_the_deepest_accepted_set_copies_and_one_level_more_changes_nothing(way: str, strict: bool) -> None:
    assign, offset = WAYS[way]
    deepest = LIMIT - offset  # n such that the data reaches exactly level LIMIT
    top = Top(strict=strict)
    assign(top, deepest)
    copies_and_pickles(top)
    top = Top(strict=strict)
    top.msg.nodes.add().v = 7  # something to keep
    before = top.msg.SerializeToString()
    with pytest.raises(ValueError, match=rf"^(node|nodes)\b.*: nested more than {LIMIT} levels deep, protobuf's limit"):
        assign(top, deepest + 1)
    assert top.msg.SerializeToString() == before


def test_protobufs_own_limit_is_the_one_enforced() -> None:
    """A top message holding LIMIT levels parses; one more does not (what
    copies and pickles would hit)."""
    top = pb2.Top()
    top.node.CopyFrom(chain_message(LIMIT))
    pb2.Top.FromString(top.SerializeToString())
    top.node.CopyFrom(chain_message(LIMIT + 1))
    with pytest.raises(DecodeError):
        pb2.Top.FromString(top.SerializeToString())


def test_a_struct_is_limited_by_its_real_depth() -> None:
    """Each JSON object nesting is three levels (Struct, its map entry, Value):
    the deepest accepted one copies, the next is refused and changes nothing."""
    outcomes = {}
    for levels in range(28, 38):
        top = Top()
        try:
            top.data = json_nesting(levels)
        except ValueError as exc:
            assert str(exc).startswith("data: nested more than")
            assert top.msg.ListFields() == []
            outcomes[levels] = False
        else:
            copies_and_pickles(top)
            outcomes[levels] = True
    accepted = [levels for levels, ok in outcomes.items() if ok]
    assert accepted and max(accepted) < max(outcomes) and accepted == list(range(min(outcomes), max(accepted) + 1))


def test_a_text_file_nested_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.prototxt"
    for levels, loads in ((LIMIT, True), (LIMIT + 1, False)):
        path.write_text(str(pb2.Top(node=chain_message(levels))), encoding="utf-8")
        message = pb2.Top()
        if loads:
            runtime.merge_text_file(message, path)
            pb2.Top.FromString(message.SerializeToString())
        else:
            with pytest.raises(runtime.TextFormatFileError, match=rf"^{path}: nested more than {LIMIT} levels deep"):
                runtime.merge_text_file(message, path)
            assert message.ListFields() == []
    path.write_text("node { " + "child { " * 5000, encoding="utf-8")  # deeper than Python's recursion
    with pytest.raises(runtime.TextFormatFileError, match=rf"^{path}: nested too deep to parse"):
        runtime.merge_text_file(pb2.Top(), path)


def test_types_that_cannot_nest_deep_are_not_walked() -> None:
    """The check walks a given message only where its type could be too deep:
    a non-recursive type's bound comes from the schema."""
    package = fleet_strategy.runtime
    strategy_spec = package.spec_of(package.message_class("paddle.fleet.DistributedStrategy"))
    assert 3 < fleet_strategy._runtime_configs.depth_bound(strategy_spec) < LIMIT
    private_configs: Any = sys.modules["rt_depth_private._runtime_configs"]
    assert private_configs.depth_bound(runtime.SPECS["rt_depth.Node"]) > LIMIT
    assert "rt_depth.Node" not in package.SPECS
