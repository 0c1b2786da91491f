"""Documents drawn at random from the specs of Paddle's messages and the
goldens' (every field kind, 64-bit digit strings, float32, bytes, maps of
every key kind, oneofs, nesting): each valid one loads, and ``to_dict`` then
``from_dict`` gives back an equal message and the same document (the exact
round trip); the same document with one value of a wrong type, or one
misspelt key, is refused, naming that value's path, and as a file (YAML and
JSON) naming its line. The JSON Schema agreement test lives with the schemas.
"""

from __future__ import annotations

import base64
import importlib
import json
import math
import os
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet_strategy import DistributedStrategy
from tests.support import ROOT, golden_tree, import_generated

FUZZ = settings(
    max_examples=int(os.environ.get("FLEET_FUZZ_EXAMPLES", "150")),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
CASES = ROOT / "tests" / "goldens" / "cases"
_FLOAT32_MAX = 3.4028234663852886e38
KEYS = st.text(string.ascii_letters + string.digits + "_-. ", max_size=8)


def classes(tmp: Path) -> dict[str, Any]:
    """Paddle's class and the goldens' root classes, by name."""
    found: dict[str, Any] = {"DistributedStrategy": DistributedStrategy}
    for case, package, module, names in (
        ("proto3_features", "golden_proto3_features", "features", ("Canvas",)),
        ("shop", "golden_shop", "shop", ("Order", "Catalogue")),
        ("annotated", "golden_annotated", "shop", ("Shop",)),
        ("proto2_defaults", "golden_proto2_defaults", None, ()),
    ):
        out = golden_tree(CASES / case / "expected", tmp / case)
        import_generated(out, package)
        if module is not None:
            loaded = importlib.import_module(f"{package}.{module}")
            found.update({name: getattr(loaded, name) for name in names})
    return found


@pytest.fixture(scope="module")
def wrappers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return classes(tmp_path_factory.mktemp("documents"))


def _bounded(field: Any, value: Any) -> bool:
    if field.constraint is None:
        return True
    op, bound = field.constraint
    return {">": value > bound, ">=": value >= bound, "<": value < bound, "<=": value <= bound, "!=": value != bound}[op]


def scalar(field: Any) -> st.SearchStrategy[Any]:
    kind = field.kind
    if kind == "bool":
        return st.booleans()
    if kind == "int":
        numbers = st.integers(field.low, field.high).filter(lambda v: _bounded(field, v))
        if field.high > 2**32:  # 64-bit: the JSON mapping's digit strings too
            return st.one_of(numbers, numbers.map(str))
        return numbers
    if kind == "float":
        width = 32 if field.float32 else 64
        return st.floats(width=width, allow_nan=False, allow_infinity=False).filter(lambda v: _bounded(field, v))
    if kind == "str":
        return st.sampled_from(field.choices) if field.choices else st.text(max_size=6)
    if kind == "bytes":
        return st.binary(max_size=6).map(lambda b: base64.b64encode(b).decode())
    return st.sampled_from(sorted(field.enum_values))


def value_of(field: Any, specs: Any, depth: int) -> st.SearchStrategy[Any]:
    if field.map_key is not None:
        key = field.map_key
        if key.kind == "str":
            keys: st.SearchStrategy[str] = KEYS
        elif key.kind == "bool":
            keys = st.sampled_from(["true", "false"])
        else:
            keys = st.integers(key.low, key.high).map(str)
        return st.dictionaries(keys, item_of(field.map_value, specs, depth), max_size=3)
    if field.repeated:
        return st.lists(item_of(field, specs, depth), max_size=2)
    return item_of(field, specs, depth)


def item_of(field: Any, specs: Any, depth: int) -> st.SearchStrategy[Any]:
    if field.kind == "message":
        return document(specs[field.message], specs, depth + 1)
    return scalar(field)


def document(spec: Any, specs: Any, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    if depth > 2 or not spec.generated:
        return st.builds(dict)  # (a new dict each time: the tests edit documents)
    descriptor = spec.cls.DESCRIPTOR
    fields = {name: value_of(field, specs, depth) for name, field in spec.fields.items()}

    def one_per_oneof(data: dict[str, Any]) -> dict[str, Any]:
        kept: dict[str, Any] = {}
        taken: set[str] = set()
        for name, value in data.items():
            oneof = descriptor.fields_by_name[name].containing_oneof
            if oneof is not None and len(oneof.fields) > 1:
                if oneof.name in taken:
                    continue
                taken.add(oneof.name)
            kept[name] = value
        return kept

    return st.fixed_dictionaries({}, optional=fields).map(one_per_oneof)


def spec_and_document(wrappers: dict[str, Any]) -> st.SearchStrategy[tuple[Any, dict[str, Any]]]:
    def for_class(name: str) -> st.SearchStrategy[tuple[Any, dict[str, Any]]]:
        cls = wrappers[name]
        specs = importlib.import_module(cls.__module__.rpartition(".")[0] + ".runtime").SPECS
        return document(cls._binding.spec, specs).map(lambda data: (cls, data))

    return st.sampled_from(sorted(wrappers)).flatmap(for_class)


def test_valid_documents_round_trip_exactly(wrappers):
    @FUZZ
    @given(spec_and_document(wrappers))
    def check(drawn: tuple[Any, dict[str, Any]]) -> None:
        cls, data = drawn
        loaded = cls.from_dict(data)
        written = loaded.to_dict()
        assert json.loads(json.dumps(written)) == written  # JSON-compatible
        again = cls.from_dict(written)
        assert again._message == loaded._message and again.to_dict() == written
        fields = cls._binding.spec.fields
        for name, value in data.items():  # every given key with presence is kept, by value
            field = fields[name]
            if not (field.has_presence and not field.repeated and field.map_key is None):
                continue
            assert name in written
            if isinstance(value, bool) or isinstance(written[name], bool):
                assert written[name] == value
            elif isinstance(value, float) and math.isfinite(value) and not isinstance(written[name], dict):
                assert math.isclose(written[name], value, rel_tol=1e-6) or value == written[name]

    check()


WRONG = [None, [], {}, "x", True, 1.5, 2**70]


def _leaf(data: dict[str, Any], path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The path of the first scalar value of a document (None: it has none)."""
    for key, value in data.items():
        if isinstance(value, dict):
            found = _leaf(value, (*path, key))
            if found is not None:
                return found
        elif not isinstance(value, list):
            return (*path, key)
    return None


def _display(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path)


def test_one_wrong_value_or_key_is_refused_and_located(wrappers, tmp_path):
    import yaml

    checked = []  # the examples that reached the checks (not every document has a value to spoil)

    @FUZZ
    @given(spec_and_document(wrappers), st.sampled_from(WRONG), st.booleans())
    def check(drawn: tuple[Any, dict[str, Any]], wrong: Any, as_key: bool) -> None:
        cls, data = drawn
        path = _leaf(data)
        if path is None:
            return
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        if as_key:  # a misspelt key (a map's keys are any text: only message keys)
            if not _is_message_key(cls, path):
                return
            value = holder.pop(path[-1])
            holder[path[-1] + "_typo"] = value
            path = (*path[:-1], path[-1] + "_typo")
        else:
            original = holder[path[-1]]
            if type(original) is type(wrong) or (isinstance(original, str) and isinstance(wrong, str)):
                return
            if isinstance(original, float) and type(wrong) in (int, float):
                return  # a number is right for a float field
            holder[path[-1]] = wrong
        try:
            cls.from_dict(data)
        except ValueError as error:
            paths = [p.path for p in error.problems]  # type: ignore[attr-defined]
        else:
            paths = []
        assert _display(path) in paths, (data, paths)
        for suffix, dump in ((".json", lambda d: json.dumps(d, indent=1)), (".yaml", yaml.safe_dump)):
            file = tmp_path / f"doc{suffix}"
            file.write_text(dump(data))
            try:
                cls.load(file)
            except ValueError as error:
                located = {p.path: p.line for p in error.problems}  # type: ignore[attr-defined]
                assert located.get(_display(path)) is not None, (suffix, located)
            else:
                raise AssertionError(f"{suffix}: loaded {data}")
        checked.append(path)

    check()
    assert checked


def _is_message_key(cls: Any, path: tuple[Any, ...]) -> bool:
    """Whether the last key of ``path`` names a message's field (not a map's key)."""
    spec = cls._binding.spec
    specs = importlib.import_module(cls.__module__.rpartition(".")[0] + ".runtime").SPECS
    for key in path[:-1]:
        field = spec.fields.get(key) if spec is not None else None
        if field is None or field.map_key is not None or field.kind != "message":
            return False
        spec = specs[field.message]
    return True
