"""Issue 28.10: a field may take any name, every name of protobuf's
``Message`` included (upb answers ``message.SerializeToString`` with the
field of that name, ``message.DESCRIPTOR`` and even ``message.__class__``
too), and every wrapper member's: the runtime's own machinery (construction,
properties, configs, pickle, copies, repr, equality, the lock, text files,
lint) never goes through a name a field can take."""

from __future__ import annotations

import copy
import importlib
import pickle
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

from generator.schema import naming
from tests.support import generate, import_generated, unique_package

# every name of protobuf's Message (its dunders too) and of the wrapper's members
HOSTILE = sorted(
    set(dir(Message))
    | naming.WRAPPER_MEMBERS
    | {"strict", "_lock", "_mutex", "_binding", "_direct", "_renamed", "_set", "lint", "env_fields", "strategy"}
)
assert all(name.isidentifier() for name in HOSTILE)


def _proto() -> str:
    fields = [f"  optional int32 {name} = {number};" for number, name in enumerate(HOSTILE, 1)]
    return (
        'syntax = "proto2";\npackage hn;\n\n// A message whose fields take protobuf\'s and the wrapper\'s names.\n'
        "message Names {\n" + "\n".join(fields) + "\n"
        "  optional Names child = 1000;\n"
        "  repeated Names items = 1001;\n"
        "  map<string, Names> table = 1002;\n"
        "  repeated int32 numbers = 1003;\n"
        "  optional bool enabled = 1004;\n"
        "}\n"
    )


NOTES = """classes:
  Names:
    message: hn.Names
    message_attribute: strategy
rules:
  hn.Names:
    serialize-without-enabled:
      field: SerializeToString
      effective_when: enabled
      doc: SerializeToString does nothing unless enabled.
    descriptor-over-copy:
      relation: {left: child.DESCRIPTOR, op: "<=", right: child.CopyFrom}
      doc: DESCRIPTOR stays at most CopyFrom.
"""


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> Any:
    folder = tmp_path_factory.mktemp("names")
    (folder / "names.proto").write_text(_proto(), encoding="utf-8")
    (folder / "names.yaml").write_text(NOTES, encoding="utf-8")
    out = folder / "out"
    package, _ = generate(out, [folder / "names.proto"], folder / "names.yaml", unique_package("hn"))
    module = import_generated(out, package)
    return module, importlib.import_module(f"{package}.runtime")


def _property_of(cls: type, field: str) -> str:
    renamed = {f: p for p, f in cls._renamed.items()}
    return renamed.get(field, field)


def _filled(cls: type, strict: bool) -> Any:
    obj = cls(strict=strict)
    for number, name in enumerate(HOSTILE, 1):
        setattr(obj, _property_of(cls, name), number)
    obj.child = {name: -number for number, name in enumerate(HOSTILE, 1)}
    obj.items = [{"SerializeToString": 7, "DESCRIPTOR": 8, "__class__": 9}, {"child": {"CopyFrom": 1}}]
    obj.table = {"k": {"ListFields": 3, "__deepcopy__": 4}}
    obj.numbers = [1, 2]
    obj.enabled = True
    return obj


@pytest.mark.parametrize("strict", [False, True])
def test_every_property_sets_and_reads_its_own_field(names, strict):
    module, _ = names
    obj = _filled(module.Names, strict)
    message = obj.strategy
    descriptor = type(message).DESCRIPTOR
    for number, name in enumerate(HOSTILE, 1):
        assert getattr(obj, _property_of(module.Names, name)) == number, name
        field = descriptor.fields_by_name[name]
        assert type(message).HasField(message, name) and field.number == number
    # a message field reads as its class: its fields through their properties
    child = obj.child
    assert getattr(child, _property_of(module.Names, "SerializeToString")) == -HOSTILE.index("SerializeToString") - 1
    # (list items and map values read as messages: getattr reads a field of any name)
    assert [getattr(item, "DESCRIPTOR") for item in obj.items] == [8, 0]
    # (a map value reads as an instance of the class: its property of that field)
    assert getattr(obj.table["k"], _property_of(module.Names, "__deepcopy__")) == 4
    obj.child = {"child": {"__class__": 5}}  # merged into the config: the others kept
    names = module.Names
    assert getattr(getattr(obj.child, _property_of(names, "child")), _property_of(names, "__class__")) == 5
    # a message field reads as its class: its fields through their properties
    child = obj.child
    assert getattr(child, _property_of(module.Names, "SerializeToString")) == -HOSTILE.index("SerializeToString") - 1


@pytest.mark.parametrize(
    "clone",
    [copy.copy, copy.deepcopy, lambda o: pickle.loads(pickle.dumps(o)), lambda o: pickle.loads(pickle.dumps(o, 0))],
    ids=["copy", "deepcopy", "pickle", "pickle-0"],
)
def test_copies_and_pickles_keep_every_field(names, clone):
    module, _ = names
    obj = _filled(module.Names, strict=True)
    twin = clone(obj)
    assert type(twin) is type(obj) and twin.strict
    assert twin.strategy == obj.strategy and twin.strategy is not obj.strategy
    assert str(twin.strategy) == str(obj.strategy) and str(obj.strategy).startswith("ByteSize: ")
    twin.SerializeToString = 0  # independent
    assert obj.SerializeToString == HOSTILE.index("SerializeToString") + 1 and twin.strategy != obj.strategy


def test_repr_equality_and_the_lock(names):
    module, runtime = names
    a, b = _filled(module.Names, False), _filled(module.Names, False)
    assert a.strategy == b.strategy and a == b  # (a class of a schema without a reference: by value)
    b.CopyFrom = 0
    assert a.strategy != b.strategy and a != b
    assert repr(a).startswith("Names(ByteSize=") and str(a) == repr(a) and "__deepcopy___=" in repr(a)
    with runtime.lock_of(a):
        a.items = [{"ByteSize": 1}]
    assert getattr(a.items[0], "ByteSize") == 1


def test_text_files_and_views(names, tmp_path: Path):
    module, runtime = names
    obj = _filled(module.Names, strict=True)
    path = tmp_path / "names.prototxt"
    runtime.save_text(obj.strategy, path, runtime.lock_of(obj))
    assert path.read_text(encoding="utf-8") == str(obj.strategy)
    back = module.Names()
    runtime.merge_text_file(back.strategy, path, runtime.lock_of(back))
    assert back.strategy == obj.strategy
    # merged: a text naming some fields sets those, in nested messages and lists too
    path.write_text('CopyFrom: 77 child { DESCRIPTOR: 5 child { __class__: 6 } } items [{ HasField: 1 }, {}]\n'
                    'table { key: "HasField" value { ListFields: 2 } } numbers: [9]  # SerializeToString: 1\n', encoding="utf-8")
    runtime.merge_text_file(back.strategy, path)
    assert back.CopyFrom == 77 and back.SerializeToString == obj.SerializeToString
    names = module.Names
    assert getattr(back.child, _property_of(names, "DESCRIPTOR")) == 5
    assert getattr(getattr(back.child, _property_of(names, "child")), _property_of(names, "__class__")) == 6
    assert [getattr(item, "HasField") for item in back.items] == [0, 0, 1, 0]
    assert getattr(back.items[0], "SerializeToString") == 7  # (appended to the two it had)
    assert getattr(back.table["HasField"], "ListFields") == 2 and back.numbers == [1, 2, 9]  # (a key: as it is)
    # an error names the file and the line, and changes nothing
    before = type(back.strategy).SerializeToString(back.strategy)
    path.write_text("CopyFrom: 1\nchild { HasField: 2 nope: 3 }\n", encoding="utf-8")
    with pytest.raises(runtime.TextFormatFileError, match=r"names.prototxt: 2:.*nope"):
        runtime.merge_text_file(back.strategy, path)
    assert type(back.strategy).SerializeToString(back.strategy) == before
    view = runtime.dict_view(obj.strategy, runtime.lock_of(obj))
    assert view["DESCRIPTOR"] == HOSTILE.index("DESCRIPTOR") + 1 and view["items"][0]["__class__"] == 9
    assert view["table"]["k"].ListFields == 3  # (a map's values: the messages)

    class Target:  # an object that takes any attribute name (a plain object refuses __class__ = 1)
        def __init__(self) -> None:
            object.__setattr__(self, "seen", {})

        def __setattr__(self, name: str, value: Any) -> None:
            self.seen[name] = value

    target = runtime.copy_to_object(obj.strategy, Target())
    assert target.seen["ListFields"] == HOSTILE.index("ListFields") + 1 and target.seen["numbers"] == [1, 2]
    assert set(target.seen) == {*HOSTILE, "child", "items", "table", "numbers", "enabled"}


def test_lint_reads_the_fields_it_names(names):
    module, _ = names
    obj = module.Names()
    obj.SerializeToString = 1
    obj.child = {"DESCRIPTOR": 2, "CopyFrom": 1}
    assert [f.code for f in obj.lint()] == ["serialize-without-enabled", "descriptor-over-copy"]
    obj.enabled = True
    obj.child = {"DESCRIPTOR": 1, "CopyFrom": 1}
    assert obj.lint() == []
