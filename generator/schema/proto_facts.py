"""Facts of protobuf and of the generated API that several stages use, each
stated once: the scalar types (names, integer ranges, Python types, wire
encodings), protoc's JSON name of a field, which fields reject NaN and
infinity, and how a number is shown.

The shipped runtime keeps its own table of the scalar types (it is copied
into every generated package and imports nothing of the generator);
tests/stages/test_proto_facts.py ties the two together.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2 as d

_F = d.FieldDescriptorProto

# FieldDescriptorProto.Type -> the proto spelling of the scalar types
SCALAR_TYPES: dict[int, str] = {
    _F.TYPE_DOUBLE: "double",
    _F.TYPE_FLOAT: "float",
    _F.TYPE_INT64: "int64",
    _F.TYPE_UINT64: "uint64",
    _F.TYPE_INT32: "int32",
    _F.TYPE_FIXED64: "fixed64",
    _F.TYPE_FIXED32: "fixed32",
    _F.TYPE_BOOL: "bool",
    _F.TYPE_STRING: "string",
    _F.TYPE_BYTES: "bytes",
    _F.TYPE_UINT32: "uint32",
    _F.TYPE_SFIXED32: "sfixed32",
    _F.TYPE_SFIXED64: "sfixed64",
    _F.TYPE_SINT32: "sint32",
    _F.TYPE_SINT64: "sint64",
}

_INT32 = (-(2**31), 2**31 - 1)
_UINT32 = (0, 2**32 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = (0, 2**64 - 1)
# the integer types and the values they hold
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "int32": _INT32,
    "sint32": _INT32,
    "sfixed32": _INT32,
    "uint32": _UINT32,
    "fixed32": _UINT32,
    "int64": _INT64,
    "sint64": _INT64,
    "sfixed64": _INT64,
    "uint64": _UINT64,
    "fixed64": _UINT64,
}
FLOAT_TYPES = frozenset({"float", "double"})
NUMERIC_TYPES = frozenset(INT_BOUNDS) | FLOAT_TYPES
# the Python type a scalar field holds
PY_SCALAR: dict[str, str] = {
    **dict.fromkeys(INT_BOUNDS, "int"),
    **dict.fromkeys(FLOAT_TYPES, "float"),
    "bool": "bool",
    "string": "str",
    "bytes": "bytes",
}
# protobuf's wire encodings (varint and zigzag varint told apart); "map" for a map field
WIRE_TYPES: dict[str, str] = {
    **dict.fromkeys(("int32", "int64", "uint32", "uint64", "bool", "enum"), "varint"),
    **dict.fromkeys(("sint32", "sint64"), "zigzag varint"),
    **dict.fromkeys(("fixed32", "sfixed32", "float"), "32-bit"),
    **dict.fromkeys(("fixed64", "sfixed64", "double"), "64-bit"),
    **dict.fromkeys(("string", "bytes", "message", "map"), "length-delimited"),
}


def json_name(name: str) -> str:
    """protoc's JSON name of a field (protobuf's ToJsonName): underscores
    dropped, the letter after one upper-cased."""
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def finite_only(proto_type: str, allow_nonfinite: bool) -> bool:
    """Whether strict mode rejects NaN and infinity for a field of
    ``proto_type`` (annotations: ``allow_nonfinite``)."""
    return proto_type in FLOAT_TYPES and not allow_nonfinite


def plain_number(value: float) -> int | float:
    """A whole-number float as an int (``> 0``, not ``> 0.0``), any other
    number as it is: how docs, error messages and the API record show a bound."""
    return int(value) if float(value).is_integer() else value
