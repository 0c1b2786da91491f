"""The JSON Schemas and the runtime agree (issue 31, point 5).

For every message of Paddle's schema and of every golden case (proto2,
proto3, editions-free and groups, maps, oneofs, well-known types, recursive
and nested messages), hypothesis draws documents, most of them almost valid
and each with a few deliberate faults (wrong types, numbers beside a bound,
digit strings, enum numbers, unknown keys, null, two members of a oneof,
bad base64, a bare item for a list), and each is judged twice: by the
``jsonschema`` library against the package's schema file (the others
resolved beside it, as an editor resolves them) and by the runtime reading
it as ``from_dict`` does (``document_to_message``, strict). The verdicts
must be the same for every document, except where the difference is
deliberate and named (``DIFFERENCES``, documented in docs/schema-owners.md,
"What the schema leaves to the runtime").
"""

from __future__ import annotations

import base64
import importlib
import json
import math
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.goldens.regen import CASES
from tests.support import ROOT, golden_tree

# documents per message: 200 in the full tier; the quick tier (FLEET_FUZZ_EXAMPLES,
# tests/conftest.py) draws a quarter as many per fuzz example it allows
EXAMPLES = min(200, 4 * int(os.environ.get("FLEET_FUZZ_EXAMPLES", "50")))
# The differences the test allows, by name: a document judged differently is
# excluded only when one of these names it (what and why: docs/schema-owners.md).
DIFFERENCES = {
    "native_values": "values JSON text cannot hold (NaN, infinity): the schema speaks of JSON, the runtime checks them",
    "well_known_types": "json_format's own checks of a well-known type's JSON form (Timestamp, Duration, FieldMask, Any)",
}
_JSON_FORMAT_TYPES = {
    "google.protobuf.Timestamp",
    "google.protobuf.Duration",
    "google.protobuf.FieldMask",
    "google.protobuf.Any",
}
_WIDE = {"int64", "sint64", "sfixed64", "uint64", "fixed64"}


class Package:
    """A generated package: its schemas (a validator per message) and its runtime."""

    def __init__(self, name: str, folder: Path) -> None:
        self.name = name
        self.runtime: Any = importlib.import_module(f"{name}.runtime")
        importlib.import_module(name)  # registers the specs
        schemas = {
            p.name.removesuffix(".schema.json"): json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((folder / "schemas").glob("*.schema.json"))
        }
        registry: Registry[Any] = Registry().with_resources(
            (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in schemas.values()
        )
        self.schemas = schemas
        self.validators = {n: jsonschema.Draft202012Validator(s, registry=registry) for n, s in schemas.items()}

    def schema_accepts(self, message: str, document: object) -> bool:
        return self.validators[message].is_valid(document)

    def runtime_accepts(self, message: str, document: object) -> bool:
        spec = self.runtime.SPECS[message]
        try:
            self.runtime.document_to_message(spec, document)
        except self.runtime.ConfigError:
            return False
        return True

    def descriptor(self, message: str) -> Any:
        return self.runtime.SPECS[message].cls.DESCRIPTOR


_PACKAGES: dict[str, Package] = {}


def _package(case: str, tmp_root: Path) -> Package:
    if case not in _PACKAGES:
        if case == "paddle":
            _PACKAGES[case] = Package("fleet_strategy", ROOT / "generated" / "fleet_strategy")
        else:
            tree = golden_tree(CASES / case / "expected", tmp_root / case)
            sys.path.insert(0, str(tree))
            _PACKAGES[case] = Package(f"golden_{case}", tree / f"golden_{case}")
    return _PACKAGES[case]


def _messages(case: str) -> list[str]:
    folder = (
        ROOT / "generated" / "fleet_strategy" / "schemas"
        if case == "paddle"
        else CASES / case / "expected" / f"golden_{case}" / "schemas"
    )
    return sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json"))


PAIRS = [
    (case, message)
    for case in ["paddle", *sorted(p.name for p in CASES.iterdir() if p.is_dir())]
    for message in _messages(case)
]


# ------------------------------------------------------------ documents


def _probes(node: object) -> list[object]:
    """Values a schema node singles out: enum members, consts, bounds and their neighbours."""
    found: list[object] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("enum", "const"):
                    found += value if isinstance(value, list) else [value]
                elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and isinstance(
                    value, (int, float)
                ):
                    for near in (value - 1, value - 0.5, value, value + 0.5, value + 1):
                        if math.isfinite(near):
                            found.append(near)
                            if float(near).is_integer():
                                found += [int(near), str(int(near))]
                elif key not in ("$ref", "description", "default", "$comment"):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


_ODD: list[object] = [None, True, False, 0, 1, -1, 0.5, "", "x", "1", [], {}, [1], {"k": 1}]
_SCALAR_TYPES = {
    1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool",
    9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64",
}  # fmt: skip
_BOUNDS = {
    "int32": (-(2**31), 2**31 - 1), "sint32": (-(2**31), 2**31 - 1), "sfixed32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1), "fixed32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1), "sint64": (-(2**63), 2**63 - 1), "sfixed64": (-(2**63), 2**63 - 1),
    "uint64": (0, 2**64 - 1), "fixed64": (0, 2**64 - 1),
}  # fmt: skip


def _scalar(proto: str) -> st.SearchStrategy[object]:
    if proto == "bool":
        return st.booleans()
    if proto == "string":
        return st.text(max_size=6)
    if proto == "bytes":
        return st.one_of(
            st.binary(max_size=6).map(lambda b: base64.b64encode(b).decode("ascii")),
            st.sampled_from(["AAE", "A===", "%%%%", "AAE=\n", "QUJD"]),
        )
    if proto in ("float", "double"):
        return st.one_of(
            st.floats(allow_nan=False, allow_infinity=False, width=32 if proto == "float" else 64),
            st.integers(-(10**6), 10**6),
            st.sampled_from([1e39, -1e39, 3.4028235e38, 1e308, 10**309, "1.5", "NaN", "Infinity"]),
        )
    low, high = _BOUNDS[proto]
    numbers = st.one_of(
        st.integers(low, high),
        st.sampled_from([low, high, low - 1, high + 1, 0]),
        st.integers(-1000, 1000).map(float),
        st.sampled_from([1.5, -0.5, 1e20, 2.0**63, 2.0**64]),
    )
    if proto not in _WIDE:
        return st.one_of(numbers, st.sampled_from(["5", "-1"]))
    return st.one_of(
        numbers,
        st.integers(low, high).map(str),
        st.sampled_from(["007", "-0", "1.0", "1e3", " 5", "+5", str(high + 1), str(low - 1), "9" * 21, "0x10", "5\n"]),
    )


def _well_known(full_name: str) -> st.SearchStrategy[object]:
    json_values = st.recursive(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-5, 5),
            st.floats(allow_nan=False, allow_infinity=False),
            st.text(max_size=3),
        ),
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
        max_leaves=6,
    )
    wrapped = {
        "google.protobuf.DoubleValue": "double", "google.protobuf.FloatValue": "float",
        "google.protobuf.Int64Value": "int64", "google.protobuf.UInt64Value": "uint64",
        "google.protobuf.Int32Value": "int32", "google.protobuf.UInt32Value": "uint32",
        "google.protobuf.BoolValue": "bool", "google.protobuf.StringValue": "string",
        "google.protobuf.BytesValue": "bytes",
    }  # fmt: skip
    if full_name in wrapped:
        return _scalar(wrapped[full_name])
    if full_name == "google.protobuf.Value":
        return json_values
    if full_name == "google.protobuf.Struct":
        return st.dictionaries(st.text(max_size=3), json_values, max_size=3)
    if full_name == "google.protobuf.ListValue":
        return st.lists(json_values, max_size=3)
    if full_name == "google.protobuf.Timestamp":
        return st.sampled_from(
            ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00", "yesterday", "2024-13-01T00:00:00Z"]
        )
    if full_name == "google.protobuf.Duration":
        return st.sampled_from(["1.5s", "2s", "-3s", "1.5", "s", "1.1234567891s"])
    if full_name == "google.protobuf.FieldMask":
        return st.sampled_from(["a.b,c", "fooBar", ""])
    if full_name == "google.protobuf.Empty":
        return st.just({})
    return st.fixed_dictionaries({})


def _map_key(proto: str) -> st.SearchStrategy[str]:
    if proto == "bool":
        return st.sampled_from(["true", "false", "True", "1"])
    if proto == "string":
        return st.text(max_size=4)
    low, high = _BOUNDS[proto]
    return st.one_of(st.integers(low, high).map(str), st.sampled_from([str(high + 1), "x", "1.5", "-0", "01"]))


def _documents(package: Package, message: str, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    descriptor = package.descriptor(message)
    schema = package.schemas[message]
    return _message_document(package, descriptor, schema, depth)


@st.composite
def _message_document(
    draw: Any, package: Package, descriptor: Any, schema: dict[str, Any], depth: int
) -> dict[str, Any]:
    fields = list(descriptor.fields)
    document: dict[str, Any] = {}
    if fields:
        chosen = draw(st.lists(st.sampled_from(fields), max_size=4, unique_by=lambda f: f.name))
        for field in chosen:
            node = schema["properties"].get(field.name, {})
            document[field.name] = draw(_field_value(package, field, node, depth))
    extra = draw(st.integers(0, 11))
    if extra == 0:
        document[draw(st.sampled_from(["unknown", "Name", "$schema", "x_y"]))] = draw(
            st.sampled_from(_ODD + ["s.json"])
        )
    elif extra == 1 and fields:
        field = draw(st.sampled_from(fields))
        camel = field.json_name
        if camel != field.name:
            document[camel] = draw(st.sampled_from(_ODD))
    if extra == 2:  # two members of a oneof
        for oneof in descriptor.oneofs:
            if len(oneof.fields) > 1:
                for member in oneof.fields[:2]:
                    node = schema["properties"].get(member.name, {})
                    document[member.name] = draw(_field_value(package, member, node, depth))
                break
    return document


def _field_value(package: Package, field: Any, node: dict[str, Any], depth: int) -> st.SearchStrategy[object]:
    odd = st.sampled_from(_ODD + _probes(node))
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        key, value = field.message_type.fields_by_name["key"], field.message_type.fields_by_name["value"]
        item = _single(package, value, node.get("additionalProperties", {}), depth)
        good = st.dictionaries(_map_key(_SCALAR_TYPES[key.type]), item, max_size=3)
        return st.one_of(good, good, odd)
    item = _single(package, field, node.get("items", node) if _is_repeated(field) else node, depth)
    if _is_repeated(field):
        return st.one_of(st.lists(item, max_size=3), st.lists(item, max_size=3), item, odd)
    return st.one_of(item, item, item, odd)


def _is_repeated(field: Any) -> bool:
    repeated = getattr(field, "is_repeated", None)  # protobuf 6 and later; label before
    return bool(field.label == field.LABEL_REPEATED if repeated is None else repeated)


def _single(package: Package, field: Any, node: dict[str, Any], depth: int) -> st.SearchStrategy[object]:
    probes = _probes(node)
    if field.enum_type is not None:
        names = [v.name for v in field.enum_type.values]
        return st.one_of(
            st.sampled_from(names),
            st.sampled_from([v.number for v in field.enum_type.values] + [n.lower() for n in names] + [""]),
        )
    if field.message_type is not None:
        full = field.message_type.full_name
        if full in package.schemas:
            if depth >= 2:
                return st.just({})
            return st.deferred(lambda: _documents(package, full, depth + 1))
        return _well_known(full)
    scalar = _scalar(_SCALAR_TYPES[field.type])
    return st.one_of(scalar, st.sampled_from(probes)) if probes else scalar


# ------------------------------------------------------------ the test


def _difference(package: Package, message: str, document: object) -> str | None:
    """The deliberate difference a document falls under, if any."""
    if _has_nonfinite(document):
        return "native_values"
    if _holds_json_format_type(package, message, document):
        return "well_known_types"
    return None


def _has_nonfinite(value: object) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_nonfinite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_nonfinite(v) for v in value)
    return False


def _holds_json_format_type(package: Package, message: str, document: object) -> bool:
    """The document sets a field of a type json_format checks itself."""
    descriptor = package.descriptor(message)
    if not isinstance(document, dict):
        return False
    for key, value in document.items():
        field = descriptor.fields_by_name.get(key) if isinstance(key, str) else None
        if field is None or field.message_type is None:
            continue
        target = field.message_type
        if target.GetOptions().map_entry:
            target = target.fields_by_name["value"].message_type
            values = list(value.values()) if isinstance(value, dict) else [value]
        else:
            values = value if isinstance(value, list) else [value]
        if target is None:
            continue
        if target.full_name in _JSON_FORMAT_TYPES:
            return True
        if target.full_name in package.schemas:
            if any(_holds_json_format_type(package, target.full_name, v) for v in values):
                return True
    return False


@pytest.mark.parametrize(("case", "message"), PAIRS, ids=[f"{c}:{m}" for c, m in PAIRS])
def test_schema_and_runtime_agree(case: str, message: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    package = _package(case, tmp_path_factory.getbasetemp() / "agreement")
    verdicts: Counter[str] = Counter()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(_documents(package, message))
    def agree(document: dict[str, Any]) -> None:
        by_schema = package.schema_accepts(message, document)
        by_runtime = package.runtime_accepts(message, document)
        if by_schema == by_runtime:
            verdicts["valid" if by_schema else "invalid"] += 1
            return
        name = _difference(package, message, document)
        assert name in DIFFERENCES, (
            f"{message}: the schema {'accepts' if by_schema else 'rejects'} and from_dict "
            f"{'accepts' if by_runtime else 'rejects'} {document!r}"
        )
        verdicts[name] += 1

    agree()
    # the documents are of both kinds (a message without fields has only one valid document)
    assert verdicts["invalid"] > EXAMPLES // 10, verdicts
    if package.descriptor(message).fields:
        assert verdicts["valid"] > 0, verdicts  # (a message of many fields has few valid documents: Shelf 2 of 48)
