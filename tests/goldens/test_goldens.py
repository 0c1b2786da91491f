"""Golden outputs of small schemas of our own (regenerate: python tests/goldens/regen.py)."""

from __future__ import annotations

import ast
import importlib
import math
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.errors import GeneratorError
from generator.pipeline import build
from tests.goldens.regen import CASES, case_options
from tests.support import ROOT, golden_files, golden_tree, import_generated

CASE_NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def expected_files(case: Path) -> dict[str, str]:
    return golden_files(case / "expected")


@pytest.mark.parametrize("name", CASE_NAMES, ids=CASE_NAMES)
def test_output_matches_golden(name):
    case = CASES / name
    result = build(case_options(case, case / "expected"))
    assert result.files == expected_files(case), "run: python tests/goldens/regen.py, then review the diff"


def _copy_expected(tmp_path: Path, name: str) -> Path:
    return golden_tree(CASES / name / "expected", tmp_path / name)


def test_proto2_defaults_case_behaves(tmp_path):
    module = import_generated(_copy_expected(tmp_path, "proto2_defaults"), "golden_proto2_defaults")
    job = module.Job()
    settings = job.settings
    assert settings.ratio == pytest.approx(0.8, rel=1e-7) and settings.ratio != 0.8  # float32
    assert settings.big == 2**63 - 1 and settings.unsigned_big == 2**64 - 1
    assert settings.name == 'quote " and backslash \\ and tab \t'
    assert settings.blob == b"\x01\x02"
    assert settings.kind == 2 and settings.enabled is True
    assert math.isinf(settings.infinite) and math.isnan(settings.not_a_number)
    assert job.owner == "nobody"
    # (a Record's field is documented under its declaration, in its class's module)
    source = Path(sys.modules[type(job).__module__].__file__).read_text(encoding="utf-8")
    assert re.search(r"ratio: .*\n\s+\"\"\"[^\"]*``float \(float32\)``, default\s+``0\.8``", source)  # not 0.800000011920929
    job.settings = {"kind": "KIND_A", "sizes": [1, 2]}
    assert job.settings.kind == 1 and job.settings.sizes == [1, 2]


def test_proto3_features_case_behaves(tmp_path):
    module = import_generated(_copy_expected(tmp_path, "proto3_features"), "golden_proto3_features")
    canvas = module.Canvas()
    canvas.points = [{"x": 1, "y": 2}, {"x": 3}]
    assert [(p.x, p.y) for p in canvas.points] == [(1, 2), (3, 0)]
    canvas.counts = {"a": 1}
    canvas.anchors = {"home": {"x": 5}}
    assert canvas.counts == {"a": 1} and canvas.anchors["home"].x == 5
    canvas.colour = "RED"
    canvas.image = "bg.png"  # same oneof: clears colour
    assert canvas.message.WhichOneof("background") == "image"
    canvas.opacity = 0.0
    assert canvas.message.HasField("opacity")
    canvas.origin = {"x": 4}
    canvas.origin = {"y": 0}  # proto3 implicit presence: 0 must still overwrite
    canvas.origin = {"x": 0}
    assert (canvas.origin.x, canvas.origin.y) == (0, 0)
    canvas.layer = "FRONT"
    assert canvas.layer == 1
    with pytest.raises(ValueError, match="did you mean 'FRONT'"):
        canvas.layer = "FRONTT"


def test_two_files_case_behaves(tmp_path):
    module = import_generated(_copy_expected(tmp_path, "two_files"), "golden_two_files")
    box = module.Box()
    assert box.width == {"value": 1.5, "unit": "m"}
    box.width = {"value": 2.0}
    box.edges = [{"unit": "cm"}]
    assert box.width["value"] == 2.0 and box.edges[0].unit == "cm"
    length = module.Length()  # used as a field type, and a class of its own too (issue 19)
    length.value = 3.0
    assert length.unit == "m" and type(length.message) is type(box.message.width)


def test_groups_case_works_end_to_end(tmp_path):
    """proto2 groups and Editions' DELIMITED fields (one wire format: start- and
    end-group tags) are message fields: set, get, and the very bytes protoc's
    own modules write and read (imported beside it, from protobuf's default pool)."""
    from grpc_tools import protoc

    out = _copy_expected(tmp_path, "groups")
    inputs = CASES / "groups" / "input"
    assert protoc.main(["protoc", f"-I{inputs}", f"--python_out={out}", "survey.proto", "ledger.proto"]) == 0
    _run_isolated(out, """
        import copy, pickle
        import ledger_pb2, survey_pb2  # protoc's own modules
        from golden_groups import Entry, Form

        form = Form()
        form.title = "Census"
        form.respondent = {"name": "Ada", "address": {"city": "London"}}
        form.answer = [{"question": 1, "text": "yes"}, {"question": 2, "confidence": 0.5}]
        assert form.respondent.name == "Ada" and form.respondent.age == 18  # the declared default
        assert form.respondent.address.city == "London"
        assert [(a.question, a.text, a.confidence) for a in form.answer] == [(1, "yes", 1.0), (2, "", 0.5)]
        field = type(form.message).DESCRIPTOR.fields_by_name["respondent"]
        assert field.type == field.TYPE_GROUP

        expected = survey_pb2.Form(title="Census")
        expected.respondent.name = "Ada"
        expected.respondent.address.city = "London"
        expected.answer.add(question=1, text="yes")
        expected.answer.add(question=2, confidence=0.5)
        data = expected.SerializeToString(deterministic=True)
        assert data.startswith(b"\\x0a\\x06Census\\x13")  # title, then field 2's start-group tag (2 << 3 | 3)
        assert form.message.SerializeToString(deterministic=True) == data
        back = Form()
        back.message.ParseFromString(data)
        assert back.respondent.address.city == "London" and [a.question for a in back.answer] == [1, 2]
        assert survey_pb2.Form.FromString(back.message.SerializeToString()) == expected
        assert copy.deepcopy(form).message == form.message and pickle.loads(pickle.dumps(form)).message == form.message

        entry = Entry()
        entry.memo = "lunch"
        entry.amount = {"currency": "EUR", "cents": 1250}
        entry.parts = [{"cents": 1000}, {"cents": 250}]
        entry.fee = {"cents": 10}
        assert (entry.amount.currency, entry.amount.cents) == ("EUR", 1250) and [p.cents for p in entry.parts] == [1000, 250]
        field = type(entry.message).DESCRIPTOR.fields_by_name["amount"]
        assert field.type == field.TYPE_GROUP and type(entry.message).DESCRIPTOR.fields_by_name["fee"].type == field.TYPE_MESSAGE
        reference = ledger_pb2.Entry(memo="lunch", amount=ledger_pb2.Money(currency="EUR", cents=1250), fee=ledger_pb2.Money(cents=10))
        reference.parts.add(cents=1000)
        reference.parts.add(cents=250)
        data = reference.SerializeToString(deterministic=True)
        assert b"\\x13" in data and b"\\x14" in data  # field 2's start and end tags: delimited, not length-prefixed
        assert entry.message.SerializeToString(deterministic=True) == data
        back = Entry()
        back.message.ParseFromString(data)
        assert back.amount.cents == 1250 and back.fee.cents == 10
    """)


def _run_isolated(out: Path, code: str) -> None:
    """Packages of schemas that import well-known types live in protobuf's
    default pool (as protoc's modules do): exercised in a process of their own."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(out), str(ROOT)])}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_well_known_types_case_uses_the_standard_classes(tmp_path):
    out = _copy_expected(tmp_path, "well_known_types")
    _run_isolated(out, """
        import datetime, pytest
        from google.protobuf import duration_pb2, struct_pb2, timestamp_pb2, wrappers_pb2
        from golden_well_known_types import Event, event_pb2

        event = Event()
        assert type(event.at) is timestamp_pb2.Timestamp and type(event.message.details) is struct_pb2.Struct
        event.at = timestamp_pb2.Timestamp(seconds=5)            # a standard instance
        assert event.at.ToDatetime() == datetime.datetime(1970, 1, 1, 0, 0, 5)
        event.at = {"seconds": 7, "nanos": 1}                       # or a dict of its fields
        assert (event.at.seconds, event.at.nanos) == (7, 1)
        event.details = {"a": [], "b": {"c": 1}, "d": None}        # a Struct takes its JSON-like content
        assert event.message.details["a"] == struct_pb2.ListValue() and event.message.details["b"]["c"] == 1
        event.waits = [duration_pb2.Duration(seconds=1), {"nanos": 3}]
        assert [(w.seconds, w.nanos) for w in event.waits] == [(1, 0), (0, 3)]
        event.marks = {"x": {"seconds": 1}, "y": timestamp_pb2.Timestamp(seconds=2)}
        assert event.marks["y"].seconds == 2
        event.count = wrappers_pb2.Int32Value(value=3)
        event.nothing = "NULL_VALUE"
        event.window = {"start": timestamp_pb2.Timestamp(seconds=9)}
        assert event.window.start.seconds == 9
        with pytest.raises(ValueError, match="unknown key 'second'.*did you mean 'seconds'"):
            event.at = {"second": 1}
        with pytest.raises(TypeError):
            event.at = duration_pb2.Duration(seconds=1)                # another type is refused
        assert event.at.seconds == 7                                   # and changed nothing
        # values round-trip through the wire and text formats
        copy = event_pb2.Event.FromString(event.message.SerializeToString())
        assert copy == event.message and copy.details["a"] == struct_pb2.ListValue()
    """)


@pytest.mark.parametrize("strict", [False, True], ids=["compatible", "strict"])
def test_well_known_json_types_take_json_like_values_everywhere(tmp_path, strict):
    """Value takes any JSON-like value, ListValue a list, Struct a dict: as a
    field, in a list, as a map value, nested in a dict; an assignment replaces
    the old value; protoc's own instances are taken as the package's; reading
    gives the message, and MessageToDict its plain value."""
    out = _copy_expected(tmp_path, "well_known_types")
    _run_isolated(out, f"""
        import pytest
        from google.protobuf import json_format, struct_pb2
        from golden_well_known_types import Event

        plain = json_format.MessageToDict
        event = Event(strict={strict})
        for value in (None, True, 3, 2.5, "text", [1, "a", None, [], {{}}], {{"a": {{"b": [True]}}, "c": None}}, {{}}, []):
            event.json = value
            assert plain(event.json) == value and event.message.HasField("json")
        event.json = [1, 2]
        event.json = [3]                                   # replaced, not appended to
        assert plain(event.json) == [3]
        event.values = [None, "x", {{"k": 1}}, [2]]
        assert [plain(v) for v in event.values] == [None, "x", {{"k": 1}}, [2]]
        event.attributes = {{"n": 1, "s": "t", "o": {{"p": None}}, "z": None}}
        assert {{k: plain(v) for k, v in event.attributes.items()}} == {{"n": 1, "s": "t", "o": {{"p": None}}, "z": None}}
        event.items = ["a", 1, {{"b": []}}]
        assert list(event.items) == ["a", 1, struct_pb2.Struct(fields={{"b": struct_pb2.Value(list_value={{}})}})]
        event.details = {{"a": 1}}
        event.details = {{"b": 2}}                         # a Struct is replaced too
        assert plain(event.details) == {{"b": 2}}
        event.window = {{"label": "w"}}                    # nested in a config dict
        assert plain(event.window.label) == "w"
        event.window = {{"label": {{"x": [1]}}}}
        assert plain(event.window.label) == {{"x": [1]}}
        # protoc's own instances (struct_pb2), singular, repeated and map values
        event.json = struct_pb2.Value(string_value="std")
        event.values = [struct_pb2.Value(number_value=1), "y"]
        event.attributes = {{"v": struct_pb2.Value(bool_value=True)}}
        event.items = struct_pb2.ListValue(values=[struct_pb2.Value(null_value=0)])
        assert (plain(event.json), [plain(v) for v in event.values]) == ("std", [1, "y"])
        assert plain(event.attributes["v"]) is True and list(event.items) == [None]
        # what JSON cannot hold is refused, naming where, and changes nothing
        with pytest.raises(TypeError, match=r"^Event.json: expected a JSON-like value .* got object"):
            event.json = object()
        with pytest.raises(TypeError, match=r"^Event.values\\[1\\]: expected a JSON-like value"):
            event.values = [1, b"bytes"]
        with pytest.raises(TypeError, match=r"^Event.attributes\\['k'\\]: "):
            event.attributes = {{"k": {{"nested": object()}}}}
        assert plain(event.json) == "std" and [plain(v) for v in event.values] == [1, "y"]
        assert list(event.attributes) == ["v"]
    """)


def test_well_known_types_are_typed_as_the_standard_classes(tmp_path):
    out = _copy_expected(tmp_path, "well_known_types")
    usage = out / "usage.py"
    usage.write_text(textwrap.dedent("""
        import datetime
        from typing_extensions import assert_type  # typing has it from 3.11; the tool supports 3.10
        from google.protobuf import duration_pb2, timestamp_pb2
        from golden_well_known_types import Event, event_pb2

        event = Event()
        assert_type(event.at, timestamp_pb2.Timestamp)
        assert_type(event.message.at, timestamp_pb2.Timestamp)
        event.at = timestamp_pb2.Timestamp(seconds=1)
        event.at = {"seconds": 1}
        moment: datetime.datetime = event.message.at.ToDatetime()
        event_pb2.Event(at=timestamp_pb2.Timestamp(), waits=[duration_pb2.Duration()])
        event.at = duration_pb2.Duration()  # E: the wrong message type
    """))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "usage.py"],
        cwd=out, capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(out)},
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "usage.py:14:" in errors[0] and "Duration" in errors[0], result.stdout


@pytest.mark.parametrize("strict", [False, True], ids=["compatible", "strict"])
def test_empty_messages_case_keeps_presence(tmp_path, strict):
    """F5: an empty sub-message, given as {} or as an empty message, is set:
    in a plain field, a oneof, a repeated field, a map, and nested in a dict."""
    module = import_generated(_copy_expected(tmp_path, "empty_messages"), "golden_empty_messages")
    pb2 = module.health_pb2
    health = module.Health(strict=strict)
    health.ping = {}
    assert health.message.HasField("ping")
    health.ping = {}  # again: still set, nothing else changed
    assert health.message.ListFields()[0][0].name == "ping" and len(health.message.ListFields()) == 1
    health.up = pb2.Ping()
    assert health.message.WhichOneof("signal") == "up"
    health.down = "gone"
    health.up = {}
    assert health.message.WhichOneof("signal") == "up" and health.message.down == ""
    health.pongs = [{}, pb2.Ping()]
    health.by_peer = {"a": {}, "b": pb2.Ping()}
    health.probe = {"inner": {}}
    assert len(health.message.pongs) == 2 and sorted(health.message.by_peer) == ["a", "b"]
    assert health.message.probe.HasField("inner") and health.probe.inner.message == pb2.Ping()
    again = pb2.Health.FromString(health.message.SerializeToString())
    assert again == health.message and again.HasField("ping") and again.probe.HasField("inner")
    fresh = module.Health(strict=strict)
    fresh.probe = pb2.Probe(inner=pb2.Ping())
    assert fresh.message.probe.HasField("inner")


def test_same_names_case_keeps_both(tmp_path):
    """F3: acme/api/http.proto and acme/rpc/http.proto get modules in their own
    folders; F4: the two Things and the two Kinds get package-qualified names."""
    out = _copy_expected(tmp_path, "same_names")
    package = out / "golden_same_names"
    assert (package / "acme" / "api" / "http_pb2.py").is_file() and (package / "acme" / "rpc" / "http_pb2.py").is_file()
    module = import_generated(out, "golden_same_names")
    types = importlib.import_module("golden_same_names.types")
    assert {"acme_api_ThingDict", "acme_rpc_ThingDict", "acme_api_KindName", "acme_rpc_KindName"} <= set(types.__all__)
    assert types.acme_api_KindName.__args__ == ("KIND_UNSPECIFIED", "KIND_BIG")
    thing = module.acme_rpc_Thing()
    thing.b_only = "b"
    thing.api = {"a_only": 3, "kind": "KIND_BIG"}
    thing.kind = "KIND_SMALL"
    assert thing.api["a_only"] == 3 and thing.api["kind"] == 1 and thing.kind == 1
    with pytest.raises(ValueError, match="not one of acme.api.Kind's KIND_UNSPECIFIED, KIND_BIG"):
        thing.api = {"kind": "KIND_SMALL"}  # the other package's Kind
    from golden_same_names.acme.api import http_pb2 as api_pb2
    from golden_same_names.acme.rpc import http_pb2 as rpc_pb2

    assert type(thing.message) is rpc_pb2.Thing and type(thing.message.api) is api_pb2.Thing


def test_generic_output_is_generic(tmp_path):
    """F10: without annotations nothing names Paddle, and the strict-mode
    variable comes from the package name."""
    for name in CASE_NAMES:
        for relative, text in expected_files(CASES / name).items():
            assert "paddle" not in text.lower(), f"{name}/{relative}"
            assert "FLEET_STRATEGY" not in text, f"{name}/{relative}"
    out = _copy_expected(tmp_path, "proto3_features")
    code = "import golden_proto3_features as g; print(g.default_strict())"
    for value, expected in (("1", "True"), ("0", "False")):
        env = {**os.environ, "PYTHONPATH": str(out), "GOLDEN_PROTO3_FEATURES_STRICT": value}
        result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
        assert result.stdout.strip() == expected, result.stderr


def test_annotations_name_the_reference_and_the_strict_variable(tmp_path):
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Limits { repeated int32 sizes = 1; }\nmessage Job { Limits limits = 1; }\n')
    notes = tmp_path / "notes.yaml"
    notes.write_text(
        "reference:\n  name: Acme 2.0\n  differences:\n    config_dicts: Acme 2.0 appended to list keys.\n"
        "strict_env: ACME_STRICT\n"
        "compat_policies:\n  warn: {action: warn, message: bad}\n  fail: {action: raise, error: ValueError, message: bad}\n"
        "classes:\n  Job:\n    message: Job\n    compat: warn\n"
        "messages:\n  Job:\n    fields:\n      count: {compat: fail}\n      size: {constraint: '> 0.5'}\n"
        "      mode: {choices: [fast, slow]}\n"
        "  Limits:\n    fields:\n      sizes: {repeated: append}\n"
    )
    proto.write_text(
        'syntax = "proto3";\nmessage Limits { repeated int32 sizes = 1; }\n'
        "message Job { Limits limits = 1; int32 size = 2; int32 count = 3; string mode = 4; double rate = 5; }\n"
    )
    package, result = generate(tmp_path / "out", [proto], notes)
    module = result.files[f"{package}/job.py"]
    classes = " ".join(module.split())  # docstrings wrap
    # the class's rules: said once, in the class docstring...
    for once in (
        "Config dicts: An option with a Keys table holds a message",
        "all-or-nothing",
        "keeps the old value, as Acme 2.0 does.",
        "Strict mode (the ``strict`` property) raises TypeError",
    ):
        assert classes.count(once) == 1, once
    # ...how the reference differs: in the reference page only, the class docstring points there
    assert "Acme 2.0 appended to list keys." not in classes
    pointer = f'How it differs from Acme 2.0: "Differences from Acme 2.0" in the option reference, ``{package}.md``.'
    assert classes.count(pointer) == 1 and classes.index(pointer) < classes.index("__slots__")
    # ...and a member whose answer differs says so itself
    assert "Compatible mode: a value of the wrong type raises ValueError, as Acme 2.0 does, unlike the class-wide" in classes
    assert "Acme" not in module.split("def size(self)")[1].split("def count(self)")[0]  # nothing repeated per member
    limits = " ".join(module.split("def limits(self)")[1].split("def size(self)")[0].split())
    assert "Assigning a list to ``sizes`` appends to the stored list, as Acme 2.0 does; its other list keys are replaced." in limits
    # constraints, worded by the templates from the model's facts
    for constraint in ('``> 0.5`` (enforced in strict mode)', 'int32 range [-2147483648, 2147483647]',
                       'one of ``"fast"``, ``"slow"`` (strict mode)', "finite (strict mode rejects NaN and infinity)"):
        assert f"* {constraint}" in module and f"- {constraint}" in result.files[f"{package}.md"], constraint
    page = result.files[f"{package}.md"]
    assert page.count("all-or-nothing") == 1 and page.count("Acme 2.0 appended to list keys.") == 1
    assert 'configure(strict_env="ACME_STRICT")' in result.files[f"{package}/_specs.py"]
    # the generic generator knows no reference: only the name given
    notes.write_text("reference: Acme 2.0\n")
    package, result = generate(tmp_path / "out3", [proto], notes)
    assert "appended" not in result.files[f"{package}/job.py"]
    notes.write_text("strict_env: acme-strict\n")
    with pytest.raises(GeneratorError, match=r"notes.yaml:1: strict_env: 'acme-strict' is not an environment variable name"):
        generate(tmp_path / "out2", [proto], notes)


def test_python_names_case_works_and_type_checks(tmp_path):
    """F6: fields self, property, from, int, bool, str, type, ClassVar and
    messages Mapping, Iterable, Literal, copy: the package works and its
    stubs type-check user code (the package itself: test_typing)."""
    out = _copy_expected(tmp_path, "python_names")
    module = import_generated(out, "golden_python_names")
    pb2 = importlib.import_module("golden_python_names.names_pb2")
    mapping = pb2.Mapping(self=1, property="p", int=5, bool=True, counts={"a": 1})
    setattr(mapping, "from", True)
    literal = module.Literal(strict=True)
    literal.ClassVar = "KIND_ONE"
    literal.iterable = {"items": [mapping, {"self": 2, "from": True}], "str": ["x"]}
    assert literal.ClassVar == 1 and literal.iterable.str == ["x"]
    assert [m.self for m in literal.message.iterable.items] == [1, 2] and getattr(literal.message.iterable.items[1], "from")
    assert not hasattr(module, "copy") and module.copy_().message.type == ""  # the class is renamed, the module kept
    c = module.copy_()
    c._set_ = 3  # fields named like the Wrapper's members get a trailing underscore, and work
    c._direct_ = True
    c.type = "t"
    assert (c.message._set, c.message._direct, c.message.type) == (3, True, "t") and c._set_ == 3
    usage = out / "usage.py"
    usage.write_text(textwrap.dedent("""
        from golden_python_names.names_pb2 import Iterable, Literal, Mapping

        m = Mapping(self=1, property="p", int=5, bool=True, counts={"a": 1})
        n: int = m.self + m.int
        s: str = m.property
        it = Iterable(items=[m], str=["a"])
        lit = Literal(ClassVar=Literal.KIND_ONE, iterable=it)
        lit.HasField("iterable")
        bad = Mapping(self="one")  # E
    """))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "usage.py"],
        cwd=out, capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(out)},
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "usage.py:10:" in errors[0], result.stdout


def test_extensions_and_field_options_case(tmp_path):
    """F7: extensions as protoc exposes them; deprecated fields warn when set
    (as a property and as a config key); deprecated, required and json_name
    are documented."""
    out = _copy_expected(tmp_path, "extensions_and_options")
    module = import_generated(out, "golden_extensions_and_options")
    pb2 = importlib.import_module("golden_extensions_and_options.options_pb2")
    assert pb2.LABEL_FIELD_NUMBER == 100 and pb2.Holder.WEIGHT_FIELD_NUMBER == 101
    base = pb2.Base(id=1)
    base.Extensions[pb2.label] = "x"
    base.Extensions[pb2.Holder.weight] = 3
    assert pb2.Base.FromString(base.SerializeToString()).Extensions[pb2.label] == "x"
    holder = module.Holder()
    with pytest.warns(DeprecationWarning, match="old is deprecated"):
        holder.old = 3
    with pytest.warns(DeprecationWarning, match=r"settings\['legacy'\] is deprecated"):
        holder.settings = {"legacy": True, "modern": True}
    assert holder.old == 3 and holder.settings.legacy is True
    docs = {name: " ".join(getattr(module.Holder, name).__doc__.split()) for name in ("old", "name", "display", "settings")}
    assert "Deprecated (``[deprecated = true]`` in the schema): setting it emits a DeprecationWarning." in docs["old"]
    assert "Required (proto2): a message without it does not serialize." in docs["name"]
    assert "JSON name: ``shownAs``." in docs["display"]
    assert "(deprecated) Superseded." in docs["settings"]
    stub = (out / "golden_extensions_and_options" / "options_pb2.pyi").read_text()
    # typed as mypy-protobuf types them, so msg.Extensions[label] is a str to a type checker
    assert "LABEL_FIELD_NUMBER: _builtins.int\nlabel: _extension_dict._ExtensionFieldDescriptor[Base, _builtins.str]\n" in stub
    assert "    weight: _ClassVar[_extension_dict._ExtensionFieldDescriptor[Base, _builtins.int]]\n" in stub


def test_float_defaults_are_documented_as_python_literals(tmp_path):
    """A float32 default of 50 is documented as 50.0 (protoc's shortest spelling is 5e+01)."""
    from tests.support import generate

    proto = tmp_path / "tuning.proto"
    proto.write_text('syntax = "proto2";\nmessage Tuning { optional float size = 1 [default = 50]; '
                     "optional float ratio = 2 [default = 0.8]; optional double tiny = 3 [default = 1e-30]; }\n")
    package, result = generate(tmp_path / "out", [proto])
    reference = result.files[f"{package}.md"]
    assert "| [`size`](#tuning-size) | `float (float32)` | `50.0` |" in reference and "5e+01" not in reference
    assert "| [`ratio`](#tuning-ratio) | `float (float32)` | `0.8` |" in reference
    assert "| [`tiny`](#tuning-tiny) | `float` | `1e-30` |" in reference


def test_deprecated_fields_are_marked_in_the_stubs(tmp_path):
    """PEP 702: mypy (with its deprecated check on) flags setting a deprecated field."""
    out = _copy_expected(tmp_path, "extensions_and_options")
    (out / "usage.py").write_text(textwrap.dedent("""
        from golden_extensions_and_options.options_pb2 import Holder, Settings

        h = Holder(name="n")
        h.old = 3  # E
        h.display = "d"
        s = Settings(modern=True)
        s.legacy = False  # E
        s.modern = False
    """))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--enable-error-code", "deprecated", "--cache-dir",
         str(tmp_path / "cache"), "usage.py"],
        cwd=out, capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(out)},
    )
    errors = [line for line in result.stdout.splitlines() if line.startswith("usage.py:")]
    assert [line.split(":")[1] for line in errors] == ["5", "8"], result.stdout
    assert all("is deprecated ([deprecated = true] in the schema)" in line for line in errors)


def test_reference_differences_land_as_data(tmp_path):
    """The annotations' prose of the class docs' sections is data: quotes,
    backslashes and template syntax land verbatim in the docstring and page."""
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Limits { repeated int32 sizes = 1; }\nmessage Job { Limits limits = 1; }\n')
    text = 'Acme {{ x }} {% if %} """ \\ n\u00e9e kept half.'
    notes = tmp_path / "notes.yaml"
    notes.write_text(
        f"reference:\n  name: Acme\n  differences:\n    config_dicts: '{text}'\n"
        "messages:\n  Job:\n    fields:\n      limits: {view: message}\n",  # a message view takes dicts too: the section is there
        encoding="utf-8",
    )
    package, result = generate(tmp_path / "out", [proto], notes)
    assert "- Config dicts: " + text.replace("|", "\\|") in result.files[f"{package}.md"]
    assert "Acme {{ x }}" not in result.files[f"{package}/job.py"]  # the docstring points to the page


def test_annotated_case_behaves_as_its_annotations_say(tmp_path, monkeypatch, caplog):
    """The one golden case with an annotations file: docs, a class-wide
    compatible-mode policy, constraints, choices, appended lists, a renamed
    and a hidden field, an environment-backed field, a plain attribute,
    aliases, the strict variable and the reference's difference."""
    monkeypatch.setenv("SHOP_WORKERS", "6")
    module = import_generated(_copy_expected(tmp_path, "annotated"), "golden_annotated")
    shop = module.Shop()
    assert shop.workers == 6 and shop.region == "eu"  # read from the environment; the attribute's default
    with caplog.at_level("WARNING"):
        shop.workers = "many"  # the class-wide policy: warn and keep
    assert shop.workers == 6 and "workers should be a int" in caplog.text
    with pytest.warns(DeprecationWarning, match="'tags' is deprecated since 1.3"):  # annotations: deprecated
        shop.tags = ["a"]
        shop.tags = ["b"]
        assert shop.tags == ["a", "b"]  # repeated: append
    shop.checkout_configs = {"max_items": 10, "methods": ["card"]}
    assert shop.checkout_configs["max_items"] == 10 and shop.config.checkout.methods == ["card"]
    with pytest.raises(ValueError, match="max_items"):
        shop.checkout_configs = {"max_items": 0}  # enforced in compatible mode too
    assert not hasattr(shop, "legacy_limit")
    shop._set_owner_list(["ann"])
    shop._set_currency_code(42)
    assert list(shop.config.owners) == ["ann"] and shop.config.currency == "42"
    strict = module.Shop(strict=True)
    with pytest.raises(ValueError, match="'GBP' is not one of 'EUR', 'USD', 'JPY'"):
        strict.currency = "GBP"
    monkeypatch.delenv("SHOP_WORKERS")
    strict.workers = 3
    strict._export_env()
    assert os.environ["SHOP_WORKERS"] == "3"
    doc = " ".join(module.Shop.__doc__.split())
    assert "Legacy Shop 1.0 raised AttributeError instead." not in doc and '"Differences from Legacy Shop 1.0"' in doc
    page = expected_files(CASES / "annotated")["golden_annotated.md"]
    assert "- Validation: Legacy Shop 1.0 raised AttributeError instead." in page
    assert 'configure(strict_env="SHOP_STRICT")' in expected_files(CASES / "annotated")["golden_annotated/_specs.py"]


# A hooks module written for the standalone package: its imports of that
# package name another build's modules in that build's copy.
HOOKS_FOR_THE_STANDALONE_PACKAGE = """\
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import {package}.job_pb2 as job_pb2
    from {package}.job import Job
    from {package}._specs import register


class Members:
    def hello(self) -> str:
        \"\"\"Say hi.

        >>> from {package} import Job
        >>> Job().hello()
        'hi'
        \"\"\"
        return 'hi'
"""


def test_member_differences_and_a_builds_module_members(tmp_path):
    """``reference.differences.members``: each listed once, in its class's
    docs (both builds) and the reference page. A target's ``module_members``:
    the names its hand-written module gives the class module, module-level
    variables and ``__all__``, in that build only; the module is copied in."""
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Job { int32 size = 1; }\n')
    package = "golden_module_members"
    out = tmp_path / "out"
    (out / package).mkdir(parents=True)
    (tmp_path / "hooks.py").write_text(HOOKS_FOR_THE_STANDALONE_PACKAGE.format(package=package))
    (tmp_path / "helpers.py").write_text("def legacy(x):\n    return x * 2\n\n\n_private = 3\n")
    text = 'Logs nothing {{ x }} """ \\\\ kept.'
    notes = tmp_path / "notes.yaml"
    notes.write_text(
        "hooks: hooks\n"
        "reference:\n  name: Acme 2.0\n  differences:\n    members:\n"
        f"      quiet: {{of: [Job.__init__, Job.hello], text: '{text}'}}\n"
        "      whole: {of: [Job], text: Acme's Job was a dict.}\n"
        "classes:\n  Job: {message: Job, mixin: Members}\n"
        "targets:\n  acme:\n    package: acme.base._job\n    classes_package: acme.base\n    public_package: acme\n"
        f"    pb2_package: {package}\n    logger: logging.root\n"
        "    module_members:\n      from: helpers\n      names: [legacy, _private]\n"
        "      attributes: {flag: {type: bool, default: true, doc: Cleared by nothing here.}}\n      all: []\n",
        encoding="utf-8",
    )
    _, result = generate(out, [proto], notes, package=package)
    for module in (result.files[f"{package}/job.py"], result.files["acme/base/job.py"]):
        job = next(n for n in ast.parse(module).body if isinstance(n, ast.ClassDef) and n.name == "Job")
        doc = " ".join(ast.get_docstring(job).split())
        assert doc.endswith(f'How it differs from Acme 2.0: "Differences from Acme 2.0" in the option reference, ``{package}.md``.')
        assert "Logs nothing" not in doc and "was a dict" not in doc  # stated in the page only
    page = result.files[f"{package}.md"]
    assert "**Differences from Acme 2.0.**\n\n- ``__init__``, ``hello``: Logs nothing" in page
    standalone, target = result.files[f"{package}/job.py"], result.files["acme/base/job.py"]
    assert "helpers" not in standalone and "flag" not in standalone and '__all__ = [\n    "Job",\n]' in standalone
    # re-exported (the redundant alias says so to linters and type checkers), in isort's order
    assert "from acme.base._job.helpers import _private as _private\nfrom acme.base._job.helpers import legacy as legacy\n" in target
    assert "__all__: list[str] = []\n\n# Cleared by nothing here.\nflag: bool = True\n" in target
    assert result.files["acme/base/_job/helpers.py"].endswith((tmp_path / "helpers.py").read_text())
    assert f"{package}/helpers.py" not in result.files  # the target's only; the hooks are in every build
    # each build's copy of the hooks: the standalone package's modules named as that build's
    assert result.files[f"{package}/hooks.py"].endswith((tmp_path / "hooks.py").read_text())
    bound = {  # the target's binding: pb2 modules from pb2_package, class modules from classes_package, the rest from package
        f"import {package}.job_pb2 as": f"import {package}.job_pb2 as",
        f"from {package}.job import": "from acme.base.job import",
        f"from {package}._specs import": "from acme.base._job._specs import",
        f">>> from {package} import": ">>> from acme import",
    }
    expected = HOOKS_FOR_THE_STANDALONE_PACKAGE.format(package=package)
    for standalone, target in bound.items():
        assert standalone in expected
        expected = expected.replace(standalone, target)
    assert result.files["acme/base/_job/hooks.py"].endswith(expected)
    for folder in ("acme", "acme/base"):
        (out / folder / "__init__.py").write_text("")
    built = import_generated(out, "acme.base.job")
    assert (built.legacy(2), built._private, built.flag, built.__all__) == (4, 3, True, [])
    assert built.Job().hello() == "hi" and '"Differences from Acme 2.0"' in (built.Job.__doc__ or "")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("of: [Job.nope]", r"reference.differences.members.quiet: Job has no member 'nope'"),
        ("of: [Job.sise]", r"reference.differences.members.quiet: Job has no member 'sise' \(did you mean 'size'\?\)"),
    ],
)
def test_a_member_difference_names_a_member(tmp_path, change, message):
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Job { int32 size = 1; }\n')
    notes = tmp_path / "notes.yaml"
    notes.write_text(f"reference:\n  name: Acme\n  differences:\n    members:\n      quiet: {{{change}, text: t}}\n")
    with pytest.raises(GeneratorError, match=r"notes.yaml:5: " + message):
        generate(tmp_path / "out", [proto], notes)


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ("all: [missing]", r"targets.acme.module_members.all: job defines no 'missing'"),
        ("attributes: {Job: {type: int, default: 1}}", r"'Job' is a name the class module job already uses"),
        ("names: [legacy]\n      module: other", r"module_members.module: 'other' is not a class module"),
    ],
)
def test_module_members_fit_the_class_module(tmp_path, members, message):
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Job { int32 size = 1; }\n')
    (tmp_path / "out" / "pkg").mkdir(parents=True)
    (tmp_path / "hooks.py").write_text("X = 1\n")
    (tmp_path / "helpers.py").write_text("def legacy():\n    pass\n")
    notes = tmp_path / "notes.yaml"
    notes.write_text(
        "hooks: hooks\nclasses:\n  Job: {message: Job}\n"
        "targets:\n  acme:\n    package: acme.base._job\n    classes_package: acme.base\n    public_package: acme\n"
        f"    pb2_package: pkg\n    logger: logging.root\n    module_members:\n      from: helpers\n      {members}\n"
    )
    with pytest.raises(GeneratorError, match=message):
        generate(tmp_path / "out", [proto], notes, package="pkg")


@pytest.mark.parametrize("line", ["import pkg", "import pkg.job", '"""\n    >>> import pkg.job, os\n"""'])
def test_a_hooks_import_a_build_cannot_bind_is_refused(tmp_path, line):
    """``import pkg.job`` binds the name ``pkg``, which another build does not
    have: refused, naming the file and line (exit 2 from the CLI)."""
    from tests.support import generate

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Job { int32 size = 1; }\n')
    (tmp_path / "hooks.py").write_text(f"X = 1\n{line}\n")
    notes = tmp_path / "notes.yaml"
    notes.write_text("hooks: hooks\nclasses:\n  Job: {message: Job}\n")
    with pytest.raises(GeneratorError) as info:
        generate(tmp_path / "out", [proto], notes, package="pkg")
    line_number = 3 if line.startswith('"') else 2
    assert [str(p) for p in info.value.problems] == [
        f"hooks.py:{line_number}: import pkg... without 'as': a build's copy binds the standalone package's modules to its own,"
        " not that name (write from pkg.MODULE import NAME, or import pkg.MODULE as NAME)"
    ]
