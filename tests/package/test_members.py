"""Members that are not properties, generated from the annotations file:
environment-backed fields (``env:``, ``environment:``), plain attributes and
method aliases - on a small schema of their own, so nothing Paddle-specific
is assumed."""

from __future__ import annotations

import copy
import os
import pickle
from pathlib import Path

import pytest

from generator.errors import GeneratorError
from tests.support import generate, import_generated

PROTO = """\
syntax = "proto2";
package demo;
message Config {
  optional bool fast = 1;
  optional int32 size = 2 [default = 4];
  optional float ratio = 3;
  optional string name = 4;
  repeated string hosts = 5;
  optional Inner inner = 6;
  optional string from = 7;
}
message Inner { optional int32 x = 1; }
"""

ANNOTATIONS = """\
hooks: hooks
classes:
  Config:
    message: demo.Config
    message_attribute: config
    mixin: Members
    environment:
      source: flag_store
      export: export_env
    attributes:
      order:
        type: list[str]
        default: [a, b]
        doc: the order things happen in
      extra:
        type: list[list[int]]
        default: [[1], [2, 3]]
    aliases:
      _set_size: size
      _add_hosts: hosts
      _set_inner: {field: inner, parameter: inner_message}
      _set_name: {field: name, convert: str}
      _set_from: from
messages:
  demo.Config:
    fields:
      fast: {env: DEMO_FAST}
      size: {env: DEMO_SIZE}
      ratio: {env: {variable: DEMO_RATIO, read: false, type: int}}
      name: {env: DEMO_NAME}
"""

HOOKS = """\
STORE = []


def flag_store():
    return STORE[0] if STORE else None


class Members:
    __slots__ = ()

    def describe(self):
        return "config"
"""

VARIABLES = ("DEMO_FAST", "DEMO_SIZE", "DEMO_RATIO", "DEMO_NAME")


def _build(tmp_path: Path, annotations: str = ANNOTATIONS, hooks: str = HOOKS):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "demo.proto").write_text(PROTO)
    notes = tmp_path / "in" / "notes.yaml"
    notes.write_text(annotations)
    out = tmp_path / "out"
    package = f"members_{abs(hash(str(tmp_path)))}"
    (out / package).mkdir(parents=True)
    (tmp_path / "in" / "hooks.py").write_text(hooks)  # beside the annotations
    package, result = generate(out, [tmp_path / "in" / "demo.proto"], notes, package=package)
    return import_generated(out, package), result


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    module, _ = _build(tmp_path_factory.mktemp("members"))
    return module


@pytest.fixture
def env(monkeypatch):
    for name in VARIABLES:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return monkeypatch


def test_construction_reads_env_backed_fields_where_set(pkg, env):
    env.setenv("DEMO_FAST", "on")
    env.setenv("DEMO_SIZE", "7")
    env.setenv("DEMO_NAME", "n")
    env.setenv("DEMO_RATIO", "9")  # read: false
    config = pkg.Config()
    assert config.fast is True and config.size == 7 and config.name == "n"
    assert not config.config.HasField("ratio")
    assert pkg.Config().describe() == "config"  # the mixin still contributes


def test_nothing_set_leaves_the_message_empty(pkg, env):
    assert pkg.Config().config.ListFields() == []


def test_export_writes_every_env_backed_field(pkg, env):
    config = pkg.Config()
    config.ratio = 2.75
    config.fast = True
    config.export_env()
    assert [os.environ[name] for name in VARIABLES] == ["true", "4", "2", ""]
    assert "DEMO_FAST" in pkg.Config.export_env.__doc__ and "os.environ" in pkg.Config.export_env.__doc__


def test_the_source_hook_replaces_os_environ(pkg, env):
    store = {"DEMO_SIZE": 11, "DEMO_FAST": 0}
    pkg.hooks.STORE.append(store)
    try:
        env.setenv("DEMO_SIZE", "3")
        config = pkg.Config()
        assert config.size == 11 and config.fast is False
        config.size = 12
        config.export_env()
        assert store == {"DEMO_SIZE": 12, "DEMO_FAST": False}  # only the flags the store has
        assert os.environ["DEMO_SIZE"] == "3" and "DEMO_NAME" not in os.environ
    finally:
        pkg.hooks.STORE.clear()


def test_plain_attributes_are_fresh_per_instance_and_settable(pkg, env):
    first, second = pkg.Config(), pkg.Config()
    assert first.order == ["a", "b"] and first.extra == [[1], [2, 3]]
    first.order.append("c")
    assert second.order == ["a", "b"]
    second.order = ["z"]
    assert second.order == ["z"]
    with pytest.raises(TypeError, match="ordr is not an attribute of Config; did you mean 'order'"):
        second.ordr = []


def test_plain_attributes_travel_with_copies_and_pickles(pkg, env):
    config = pkg.Config()
    config.order = ["x"]
    config.size = 5
    for other in (copy.copy(config), copy.deepcopy(config), pickle.loads(pickle.dumps(config))):
        assert other.order == ["x"] and other.size == 5 and other.extra == [[1], [2, 3]]
        assert other.order is not config.order


def test_aliases_write_one_field_each(pkg, env):
    config = pkg.Config()
    config._set_size(9)
    config._add_hosts(["h1"])
    config._add_hosts(("h2",))  # extends, as the methods Paddle has do
    inner = type(config.config.inner)(x=3)
    config._set_inner(inner_message=inner)
    config._set_name(42)
    config._set_from("there")
    assert config.size == 9 and config.hosts == ["h1", "h2"] and config.config.inner.x == 3
    assert config.name == "42" and getattr(config.config, "from") == "there"
    with pytest.raises(TypeError):
        config._set_size("nine")  # protobuf's own check


def test_generated_source_spells_members_plainly(pkg):
    source = Path(pkg.__file__).with_name("demo.py").read_text()
    assert "def _set_size(self, size: int) -> None:" in source
    assert 'def _set_from(self, value: str) -> None:' in source  # a keyword field: the parameter is `value`
    assert 'setattr(self.config, "from", value)' in source
    assert "__slots__ = (\"config\", \"_strict\", \"order\", \"extra\")" in source


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("      _set_size: size\n", "      describe: size\n"), "classes.Config: 'describe' is already the hooks class Members of Config"),
        (("size: {env: DEMO_SIZE}", "size: {env: DEMO_SIZE, property: _set_size}"),
         "classes.Config: '_set_size' is already a property or member of Config"),
    ],
)
def test_a_member_name_taken_by_the_class_is_an_error(tmp_path, change, words):
    with pytest.raises(GeneratorError) as info:
        _build(tmp_path, ANNOTATIONS.replace(*change))
    problems = [str(p) for p in info.value.problems]
    assert any(words in p and ":19:" in p for p in problems), problems


def test_a_field_named_like_a_member_gets_the_trailing_underscore(tmp_path):
    module, _ = _build(tmp_path, ANNOTATIONS.replace("      _set_size: size\n", "      fast: size\n"))
    config = module.Config()
    config.fast(3)  # the alias
    config.fast_ = True  # the property, renamed by the naming rule
    assert config.size == 3 and config.config.fast is True


def test_one_variable_backs_one_field_of_a_message(tmp_path):
    text = ANNOTATIONS.replace("name: {env: DEMO_NAME}", "name: {env: DEMO_SIZE}")
    with pytest.raises(GeneratorError) as info:
        _build(tmp_path, text)
    assert any("demo.Config.name.env: DEMO_SIZE already backs field 'size'" in str(p) for p in info.value.problems)
