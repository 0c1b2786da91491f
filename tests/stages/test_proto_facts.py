"""The facts several stages share (generator.schema.proto_facts) agree with protobuf
and with the shipped runtime, which keeps its own copies because it ships
alone; naming.WRAPPER_MEMBERS agrees with the runtime's Wrapper."""

from __future__ import annotations

import math

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool

from generator.schema import naming
from generator.schema.proto_facts import FLOAT_TYPES, INT_BOUNDS, NUMERIC_TYPES, PY_SCALAR, SCALAR_TYPES, WIRE_TYPES, finite_only, json_name, plain_number
from generator.shipped import runtime

F = descriptor_pb2.FieldDescriptorProto
NAMES = ["plain", "two_words", "three_word_name", "trailing_", "_leading", "double__under", "digit_1st", "x_y_z", "a1_b2"]


def _pool_message(fields: list[tuple[str, int]]) -> object:
    """A message descriptor with these (name, FieldDescriptorProto type) fields, built by protobuf."""
    file = descriptor_pb2.FileDescriptorProto(name="facts.proto", package="facts", syntax="proto3")
    message = file.message_type.add(name="M")
    for number, (name, type_) in enumerate(fields, start=1):
        message.field.add(name=name, number=number, type=type_, label=F.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return pool.FindMessageTypeByName("facts.M")


def test_scalar_tables_cover_the_same_types():
    scalars = set(SCALAR_TYPES.values())
    assert set(PY_SCALAR) == scalars
    assert NUMERIC_TYPES == set(INT_BOUNDS) | FLOAT_TYPES and NUMERIC_TYPES <= scalars
    assert scalars | {"enum", "message", "map"} == set(WIRE_TYPES)
    # every scalar type protobuf has (group, message and enum are not scalars)
    assert set(SCALAR_TYPES) == {v.number for v in F.Type.DESCRIPTOR.values} - {F.TYPE_GROUP, F.TYPE_MESSAGE, F.TYPE_ENUM}


def test_the_runtime_validates_each_scalar_type_as_the_generator_describes_it():
    """The runtime's own table (it ships alone) gives every scalar field the
    kind and integer bounds generator.schema.proto_facts states."""
    message = _pool_message([(f"f_{name}", number) for number, name in SCALAR_TYPES.items()])
    for number, name in SCALAR_TYPES.items():
        spec = runtime.field_spec(message.fields_by_name[f"f_{name}"])  # type: ignore[attr-defined]
        assert spec.kind == PY_SCALAR[name], name
        assert (spec.low, spec.high) == INT_BOUNDS.get(name, (None, None)), name
        assert spec.float32 == (name == "float"), name


@pytest.mark.parametrize("bound", [0.0, 1.0, -3.0, 2.5, 1e20, 1e-7, 0.1])
def test_the_runtime_shows_a_bound_as_the_generator_does(bound):
    spec = runtime.FieldSpec(name="x", kind=runtime.FLOAT, constraint=("!=", bound))
    with pytest.raises(ValueError) as caught:
        runtime.strict_value(spec, bound, "x")
    assert str(caught.value).endswith(f" {plain_number(bound)}"), caught.value


def test_plain_number():
    assert [plain_number(v) for v in (0.0, -2.0, 2.5, 1e20)] == [0, -2, 2.5, 10**20]
    assert type(plain_number(3.0)) is int and type(plain_number(3)) is int
    assert math.isnan(plain_number(math.nan)) and plain_number(math.inf) == math.inf


def test_json_name_is_protobufs():
    message = _pool_message([(name, F.TYPE_INT32) for name in NAMES])
    assert [json_name(n) for n in NAMES] == [message.fields_by_name[n].json_name for n in NAMES]  # type: ignore[attr-defined]


def test_finite_only():
    assert finite_only("double", False) and finite_only("float", False)
    assert not finite_only("double", True)
    assert not any(finite_only(t, False) for t in INT_BOUNDS)


# Python's own class attributes, not members the runtime gives a wrapper class
_PYTHON_CLASS_NAMES = {
    "__module__", "__doc__", "__qualname__", "__annotations__", "__annotate__", "__dict__", "__weakref__",
    "__firstlineno__", "__static_attributes__", "__init_subclass__", "__orig_bases__", "__parameters__",
}


def _runtime_members() -> set[str]:
    """What the runtime's Wrapper defines or declares (a subclass's slots included)."""
    wrapper = runtime.Wrapper
    record = runtime.Record  # the base of the classes of a schema without a reference
    members = set(vars(wrapper)) | set(wrapper.__annotations__) | set(vars(record))
    return members - _PYTHON_CLASS_NAMES


def test_wrapper_members_name_every_member_the_runtime_gives_a_class():
    """naming.WRAPPER_MEMBERS is hand-listed: every member of the runtime's
    Wrapper, and every dunder a generated class gets from it, is in it."""
    from fleet_strategy.distributed_strategy import DistributedStrategy

    missing = _runtime_members() - naming.WRAPPER_MEMBERS
    assert not missing, f"add to naming.WRAPPER_MEMBERS: {sorted(missing)}"
    dunders = {n for n in vars(DistributedStrategy) if n.startswith("__") and n.endswith("__")} - _PYTHON_CLASS_NAMES
    assert dunders <= naming.WRAPPER_MEMBERS, sorted(dunders - naming.WRAPPER_MEMBERS)


def test_wrapper_members_name_nothing_the_runtime_lacks():
    from fleet_strategy.distributed_strategy import DistributedStrategy

    given = _runtime_members() | set(vars(DistributedStrategy)) | set(dir(object))  # __eq__, __repr__: every class's
    stale = naming.WRAPPER_MEMBERS - given
    assert not stale, f"naming.WRAPPER_MEMBERS names what the runtime no longer defines: {sorted(stale)}"
