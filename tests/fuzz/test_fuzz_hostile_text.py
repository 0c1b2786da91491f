"""Issue 18.3: no code from input text. Hostile strings through every
annotation key that takes text, and through the .proto and annotations file
names.

Each example puts hostile text (line breaks of every kind, quotes, braces,
``#``, ``;``, NUL, backslashes and ``__import__(...)`` payloads that would set
an environment variable or create a marker file) into one to three of the
annotation keys below (``SLOTS``), on ``hostile/hostile.proto`` with the
hooks of ``hostile/hooks.py``, or into the input files' names. The generator
must then either refuse with exit 2 (a GeneratorError) whose every problem
names the file and line, or generate a package that

* holds no call to ``__import__`` in any module (text is data: a literal,
  a docstring or a comment);
* imports and builds an instance, reading every property, with no payload
  run (no environment variable set, no marker file);
* shows each documentation text verbatim, as data, in the docstrings (where
  the reference page shows it, the same words), but for its hidden characters
  (controls, bidi and other format characters, line separators), which every
  generated file shows as escapes (issue 28.9: no file holds one);
* keeps data as data: an attribute's string default, a choice, the
  compatible-mode message with its literal text (the runtime fills it
  without an error).

Besides: the reviewer's two cases end to end through the CLI, .proto names
protoc would read as options, and the hostile fixture's values that are
within the code grammars (hostile.annotations.yaml) staying data.

Profile as in test_fuzz_schemas.py: ``fuzz-default`` (few examples, the same
ones every run) unless ``HYPOTHESIS_PROFILE=long``.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import logging
import os
import shutil
import string
import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from generator.render import templates as gen_render
from generator.model.doctext import visible
from generator.errors import GeneratorError
from generator.schema.naming import RUNTIME_MODULES
from tests.support import ROOT, generate, import_generated, unique_package

FIXTURES = Path(__file__).resolve().parent / "hostile"
MARKER_DIR = "FSC_HOSTILE_MARKER_DIR"  # where the file payload would create PWNED
ENV_PAYLOAD = '__import__("os").environ.__setitem__("FSC_PWNED", "1")'
FILE_PAYLOAD = f'__import__("pathlib").Path(__import__("os").environ["{MARKER_DIR}"], "PWNED").touch()'

_PROFILES = {
    "fuzz-default": dict(max_examples=40, derandomize=True),
    "long": dict(max_examples=400),
}
FUZZ = settings(
    **_PROFILES["long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "fuzz-default"],
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
# the quick test tier (tests/conftest.py) draws fewer of the same derandomized examples
if os.environ.get("FLEET_FUZZ_EXAMPLES"):
    FUZZ = settings(FUZZ, max_examples=int(os.environ["FLEET_FUZZ_EXAMPLES"]))

# ================================================================ strings

SNIPPETS = [
    "\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x00", "\x1b", "\x7f", "\t", "\ufeff",
    "\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u061c", "\u200b", "\u00ad", "\U000e0001", "\x9b", "\u2067x\u2069",
    '"""', "'''", '"', "'", "\\", "\\n", "\\x00", "{", "}", "{}", "{0}", "{field}", "{received.__class__}",
    "{{", "}}", "#", ";", " = ", ":", "[", "]", "(", ")", ",", ".", "-->", "<!--", "|", "`", "{{ 7 * 191 }}",
    "{% if x %}", "{#", "%s", "é", "中文", "😀", "int", "str", "None", "class", "lambda", "__init__", "x", " ",
    ENV_PAYLOAD, FILE_PAYLOAD, f"\n{ENV_PAYLOAD}\n", f"\r{FILE_PAYLOAD}\r", f"\u2028{ENV_PAYLOAD}", f"\n    {ENV_PAYLOAD}\n",
    f'"""; {ENV_PAYLOAD}; """', f"'''; {FILE_PAYLOAD}; '''", f"]; {ENV_PAYLOAD} #", f"); {FILE_PAYLOAD}; (",
    f" = {ENV_PAYLOAD}", f"int = {FILE_PAYLOAD}", f"x; {ENV_PAYLOAD}; x",
]
hostile = st.lists(st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=6)), min_size=1, max_size=5).map("".join)

VALID_TYPES = ["int", "str | None", "list[str]", "dict[str, Any]", "Literal['a', 1]", '"Forward"', "tuple[int, ...]"]
types = st.one_of(
    hostile,
    hostile.map(lambda t: f"Literal[{t!r}]"),  # in the grammar: the text is a literal
    hostile.map(lambda t: f"list[{t}]"),
    hostile.map(lambda t: repr(t)),  # a forward reference
    st.sampled_from(VALID_TYPES),
)
NAMES = ["x", "é", "ｓtrict", "class", "None", "strategy", "order", "triple", "extra", "_x", "__x", "__init__", "x_1",
         "match", "print", "self", "value", "message", "hooks", "Hostile", "Other", "FSC_X", "lower", "A", "export_env"]
names = st.one_of(hostile, st.sampled_from(NAMES), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True))
messages = st.one_of(
    hostile,
    # in the grammar: the text's braces doubled, then the runtime's placeholders
    hostile.map(lambda t: t.replace("{", "{{").replace("}", "}}") + " {field} {property!r} {type} {received}"),
    st.sampled_from(["{field} {oops", "}", "{0}", "{}", "{received.__init__.__globals__}", "{field:>3}", "{type!x}"]),
)
KINDS: dict[str, st.SearchStrategy[str]] = {"text": hostile, "data": hostile, "type": types, "name": names,
                                            "format": messages}

# ================================================================ the notes


def base_notes() -> dict[str, Any]:
    """Annotations for hostile.proto using every key that takes text, all benign."""
    return {
        "hooks": "hooks",
        "compat_policies": {"warn": {"action": "warn", "message": "{field} must be {type}"}},
        "classes": {
            "Hostile": {
                "message": "hostile.Hostile",
                "message_attribute": "strategy",
                "compat": "warn",
                "doc": "Class doc.",
                "example": ">>> 1 + 1\n2",
                "extra_properties": {
                    "extra": {"doc": "Extra doc.", "example": ">>> 2\n2", "getter": "get_extra", "setter": "set_extra",
                              "type": "int", "setter_type": "int"},
                },
                "attributes": {"order": {"default": "first", "type": "str", "doc": "Order doc."}},
                "aliases": {"set_jinja": {"field": "jinja", "parameter": "value"}},
                "environment": {"export": "export_env", "doc": "Export doc."},
            },
        },
        "messages": {
            "hostile.Hostile": {
                "doc": "Message doc.",
                "fields": {
                    "triple": {"doc": "Triple doc.", "example": ">>> 3\n3", "choices": ["a", "b"],
                               "env": {"variable": "FSC_HOSTILE_TRIPLE", "read": False}},
                    "jinja": {"compat": "warn", "compat_message": "{property} takes an int", "property": "jinja",
                              "type": "int", "setter_type": "int"},
                },
            },
            "hostile.Inner": {"doc": "Inner doc.", "fields": {"quote_end": {"doc": "Quote end doc."}}},
        },
        "enums": {"hostile.Kind": {"doc": "Kind doc.", "values": {"KIND_A": {"doc": "A doc."}}}},
        "reference": {"name": "Acme 1.0", "differences": {"validation": "Validation differs.",
                                                          "config_dicts": "Dicts differ."}},
        "strict_env": "FSC_HOSTILE_STRICT",
    }


class Example:
    """One example's annotations and what the generated package must then show."""

    def __init__(self) -> None:
        self.notes = base_notes()
        self.cls = self.notes["classes"]["Hostile"]
        self.fields = self.notes["messages"]["hostile.Hostile"]["fields"]
        # member -> its name in the class (name slots rename them)
        self.names = {"class": "Hostile", "extra": "extra", "order": "order", "set_jinja": "set_jinja",
                      "export_env": "export_env", "property": "jinja"}
        self.docs: list[tuple[str, str]] = []  # (where: a member, "class", "types.X", "constant"; text)
        self.checks: list[Callable[[Any, str], None]] = []  # run on (module, package) after import

    def doc(self, where: str, text: str) -> None:
        self.docs.append((where, text))


def _rename(mapping: dict[str, Any], old: str, new: str) -> None:
    items = list(mapping.items())
    mapping.clear()
    mapping.update((new if k == old else k, v) for k, v in items)


def _class_name(ex: Example, value: str) -> None:
    _rename(ex.notes["classes"], ex.names["class"], value)
    ex.names["class"] = value


def _member(key: str, section: str) -> Callable[[Example, str], None]:
    def rename(ex: Example, value: str) -> None:
        _rename(ex.cls[section], ex.names[key], value)
        ex.names[key] = value
    return rename


def _export_name(ex: Example, value: str) -> None:
    ex.cls["environment"]["export"] = ex.names["export_env"] = value


def _policy_name(ex: Example, value: str) -> None:
    ex.notes["compat_policies"] = {value: ex.notes["compat_policies"]["warn"]}
    ex.cls["compat"] = ex.fields["jinja"]["compat"] = value


def _attribute_default(ex: Example, value: str) -> None:
    ex.cls["attributes"][ex.names["order"]]["default"] = value
    ex.checks.append(lambda module, package: _assert_equal(getattr(_instance(module, ex), ex.names["order"]), value))


def _choice(ex: Example, value: str) -> None:
    ex.fields["triple"]["choices"] = [value, "b"]

    def check(module: Any, package: str) -> None:
        obj = _instance(module, ex, strict=True)
        obj.triple = value  # a choice, taken as the very string
        assert obj.triple == value
        with pytest.raises(ValueError):
            obj.triple = value + "?"
    ex.checks.append(check)


def _policy_message(ex: Example, value: str) -> None:
    (policy,) = ex.notes["compat_policies"].values()  # (its name may be a slot too)
    policy["message"] = value
    ex.checks.append(lambda module, package: _assert_warns(module, package, ex, "python", value))


def _compat_message(ex: Example, value: str) -> None:
    ex.fields["jinja"]["compat_message"] = value
    ex.checks.append(lambda module, package: _assert_warns(module, package, ex, ex.names["property"], value))


def _field_property(ex: Example, value: str) -> None:
    ex.fields["jinja"]["property"] = value
    ex.names["property"] = value


def _target(key: str) -> Callable[[Example, str], None]:
    def put(ex: Example, value: str) -> None:
        target = ex.notes.setdefault("targets", {"paddle": {
            "package": "tgt.cls._x", "classes_package": "tgt.cls", "public_package": "tgt", "pb2_package": "tgt.proto",
            "logger": "tgt.log.logger", "doc": "A second build."}})
        target["paddle"][key] = value
    return put


def _set(*path: str, doc: str | None = None) -> Callable[[Example, str], None]:
    """Put the value at ``path`` (under classes.<the class> when it starts
    with "cls"); ``doc``: where the text must then show."""
    def put(ex: Example, value: str) -> None:
        node: Any = ex.cls if path[0] == "cls" else ex.notes
        for key in path[1 if path[0] == "cls" else 0 : -1]:
            node = node[ex.names.get(key, key) if node is not ex.notes else key]
        node[path[-1]] = value
        if doc is not None:
            ex.doc(doc, value)
    return put


# every annotation key that takes text: (kind, how to put a value there)
SLOTS: dict[str, tuple[str, Callable[[Example, str], None]]] = {
    "classes.X.doc": ("text", _set("cls", "doc", doc="class")),
    "classes.X.example": ("text", _set("cls", "example", doc="class")),
    "classes.X.message_attribute": ("name", _set("cls", "message_attribute")),
    "classes.X (class name)": ("name", _class_name),
    "classes.X.extra_properties (name)": ("name", _member("extra", "extra_properties")),
    "classes.X.extra_properties.P.doc": ("text", _set("cls", "extra_properties", "extra", "doc", doc="extra")),
    "classes.X.extra_properties.P.example": ("text", _set("cls", "extra_properties", "extra", "example", doc="extra")),
    "classes.X.extra_properties.P.type": ("type", _set("cls", "extra_properties", "extra", "type")),
    "classes.X.extra_properties.P.setter_type": ("type", _set("cls", "extra_properties", "extra", "setter_type")),
    "classes.X.attributes (name)": ("name", _member("order", "attributes")),
    "classes.X.attributes.A.type": ("type", _set("cls", "attributes", "order", "type")),
    "classes.X.attributes.A.doc": ("text", _set("cls", "attributes", "order", "doc")),  # a comment: checked as code
    "classes.X.attributes.A.default": ("data", _attribute_default),
    "classes.X.aliases (name)": ("name", _member("set_jinja", "aliases")),
    "classes.X.aliases.M.parameter": ("name", _set("cls", "aliases", "set_jinja", "parameter")),
    "classes.X.environment.export": ("name", _export_name),
    "classes.X.environment.doc": ("text", _set("cls", "environment", "doc", doc="export_env")),
    "compat_policies (name)": ("data", _policy_name),
    "compat_policies.P.message": ("format", _policy_message),
    "messages.M.doc": ("text", _set("messages", "hostile.Hostile", "doc", doc="types.HostileInput")),
    "messages.M.fields.F.doc": ("text", _set("messages", "hostile.Hostile", "fields", "triple", "doc", doc="triple")),
    "messages.M.fields.F.example": ("text", _set("messages", "hostile.Hostile", "fields", "triple", "example",
                                                 doc="triple")),
    "messages.M.fields.F.property": ("name", _field_property),
    "messages.M.fields.F.compat_message": ("format", _compat_message),
    "messages.M.fields.F.type": ("type", _set("messages", "hostile.Hostile", "fields", "jinja", "type")),
    "messages.M.fields.F.setter_type": ("type", _set("messages", "hostile.Hostile", "fields", "jinja", "setter_type")),
    "messages.M.fields.F.choices": ("data", _choice),
    "messages.M.fields.F.env": ("name", _set("messages", "hostile.Hostile", "fields", "triple", "env", "variable")),
    "messages.Inner.doc": ("text", _set("messages", "hostile.Inner", "doc", doc="types.InnerInput")),
    "messages.Inner.fields.F.doc": ("text", _set("messages", "hostile.Inner", "fields", "quote_end", "doc",
                                                 doc="constant")),
    # (shown as their first sentence, and not at all: checked as code only)
    "enums.E.doc": ("text", _set("enums", "hostile.Kind", "doc")),
    "enums.E.values.V.doc": ("text", _set("enums", "hostile.Kind", "values", "KIND_A", "doc")),
    "reference.name": ("text", _set("reference", "name", doc="class")),
    "reference.differences.validation": ("text", _set("reference", "differences", "validation", doc="page")),
    "reference.differences.config_dicts": ("text", _set("reference", "differences", "config_dicts", doc="page")),
    "strict_env": ("name", _set("strict_env")),
    "hooks": ("name", _set("hooks")),
    "targets.T.package": ("name", _target("package")),
    "targets.T.logger": ("name", _target("logger")),
    "targets.T.doc": ("text", _target("doc")),
}

# ================================================================ checks


def norm(text: str) -> str:
    return " ".join(text.split())


# the escapes of characters a layout may also take for a space or a line break
# (str.split and str.splitlines do, and jinja's indent and wordwrap filters)
_SPACE_ESCAPES = re.compile(r"\\(?:x0[b-d]|x1[c-f]|x85|u2028|u2029)")


def shown_words(text: str) -> str:
    """A text as the docs show it, hidden characters escaped (doctext.visible)
    and whitespace, escaped or not, as single spaces."""
    return norm(_SPACE_ESCAPES.sub(" ", visible(text)))


def hidden_characters(text: str) -> list[str]:
    """Controls (but "\\n", "\\t"), format characters, separators, surrogates: none may reach a file."""
    return [f"U+{ord(c):04X}" for c in text if c not in "\n\t" and unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp", "Cs"}]


def assert_no_hidden_characters(files: dict[str, str]) -> None:
    for relative, text in files.items():
        assert not hidden_characters(text), (relative, hidden_characters(text)[:5])


def _assert_equal(got: Any, expected: Any) -> None:
    assert got == expected, (got, expected)


def _instance(module: Any, ex: Example, strict: bool = False) -> Any:
    return getattr(module, ex.names["class"])(strict=strict)


def _assert_warns(module: Any, package: str, ex: Example, prop: str, message: str) -> None:
    """A value of the wrong type logs the message, its literal text verbatim (no exception)."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger(package)
    logger.addHandler(handler)
    try:
        obj = _instance(module, ex)
        before = getattr(obj, prop)
        setattr(obj, prop, object())  # the wrong type for a bool or int field
        assert getattr(obj, prop) == before
    finally:
        logger.removeHandler(handler)
    assert len(records) == 1, records
    logged = records[0].getMessage()
    for literal, *_ in string.Formatter().parse(message):
        assert literal in logged, (literal, logged)


def _constants(files: dict[str, str]) -> str:
    """Every docstring of every generated module, normalized (the
    runtime's modules aside: copied verbatim, nothing in them comes from the
    inputs, and their own constants may name a hidden character, as the BOM
    a file reader strips)."""
    texts = []
    for relative, text in files.items():
        name = relative.rsplit("/", 1)[-1]
        if name.startswith("_runtime_") or name == "runtime.py":
            continue
        if relative.endswith((".py", ".pyi")):
            # the strings standing as statements (docstrings, attribute docs): data such as a
            # field's choices is a value, and holds whatever the annotations give it
            texts += [n.value.value for n in ast.walk(ast.parse(text))
                      if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)]
    return norm("\n".join(texts))


def assert_no_code_from_text(files: dict[str, str]) -> None:
    """Every payload is data: no generated module calls __import__."""
    for relative, text in files.items():
        if relative.endswith((".py", ".pyi")):
            calls = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                     and n.func.id == "__import__"]
            assert not calls, f"{relative}:{calls[0].lineno}: {text.splitlines()[calls[0].lineno - 1]}"


def assert_nothing_ran(markers: Path) -> None:
    assert "FSC_PWNED" not in os.environ, "a payload ran (environment variable set)"
    assert not (markers / "PWNED").exists(), "a payload ran (marker file created)"


def assert_refused_with_file_line(error: GeneratorError, path: Path) -> None:
    assert error.problems
    for problem in error.problems:
        assert problem.file == str(path) and problem.line, str(problem)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A generator cache of our own, one jinja Environment for all examples,
    and the folder a payload would create its marker file in."""
    markers = tmp_path_factory.mktemp("markers")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        mp.setenv(MARKER_DIR, str(markers))
        mp.delenv("FSC_PWNED", raising=False)
        mp.setattr(gen_render, "environment", functools.lru_cache(maxsize=None)(gen_render.environment))
        yield tmp_path_factory.mktemp("hostile"), markers


@FUZZ
@given(data=st.data())
def test_hostile_annotation_text_is_refused_or_stays_data(work, data):
    folder, markers = work
    ex = Example()
    slots = data.draw(st.lists(st.sampled_from(sorted(SLOTS)), min_size=1, max_size=3, unique=True), label="slots")
    for slot in slots:
        kind, put = SLOTS[slot]
        put(ex, data.draw(KINDS[kind], label=slot))
    # double-quoted, every character escaped as needed (PyYAML writes U+0085 in a plain key as a line break)
    text = yaml.safe_dump(ex.notes, allow_unicode=True, width=10**6, default_style='"')
    assert yaml.safe_load(text) == ex.notes  # the file says what the example means
    package = unique_package("hz")
    out = folder / package
    (out / package).mkdir(parents=True)
    shutil.copy(FIXTURES / "hooks.py", folder / "hooks.py")  # beside the annotations
    notes = folder / f"{package}.annotations.yaml"
    notes.write_text(text, encoding="utf-8")
    try:
        _, result = generate(out, [FIXTURES / "hostile.proto"], notes, package)
    except GeneratorError as exc:
        event("refused")
        assert_refused_with_file_line(exc, notes)
        assert_nothing_ran(markers)
        return
    event("generated")
    assert_no_code_from_text(result.files)
    assert_no_hidden_characters(result.files)
    module = import_generated(out, package)
    types = importlib.import_module(f"{package}.types")
    obj = _instance(module, ex)
    cls = type(obj)
    for name, member in vars(cls).items():
        if isinstance(member, property):
            getattr(obj, name)
    assert_nothing_ran(markers)
    # documentation: verbatim (as data), reflowed at most
    constants = _constants(result.files)
    for where, doc in ex.docs:
        if where == "constant":
            shown = constants
        elif where == "class":
            shown = inspect.cleandoc(cls.__doc__)
        elif where == "page":  # the reference page (Markdown: one line, pipes escaped)
            shown, doc = result.files[f"{package}.md"], norm(doc).replace("|", "\\|")
        elif where.startswith("types."):
            shown = inspect.cleandoc(getattr(types, where.split(".")[1]).__doc__)
        else:
            shown = inspect.cleandoc(getattr(cls, ex.names.get(where, where)).__doc__)
        assert not hidden_characters(shown), (where, shown)
        assert shown_words(doc) in shown_words(shown), (where, doc, shown)
    for check in ex.checks:
        check(module, package)
    assert_nothing_ran(markers)


# ============================================================ file names

file_names = hostile.filter(lambda t: "/" not in t and "\x00" not in t and t.strip(".") and len(t.encode()) < 180)
SMALL_PROTO = 'syntax = "proto2";\npackage fn;\n// Doc of M.\nmessage M {\n  // Doc of x.\n  optional int32 x = 1;\n}\n'


def _printable_runs(name: str) -> list[str]:
    """The parts of a name any display keeps as they are."""
    runs, run = [], ""
    for ch in name:
        if ch.isprintable() and ch not in "\\>":
            run += ch
        elif run:
            runs.append(run)
            run = ""
    return [*runs, run] if run else runs


@FUZZ
@given(proto_name=file_names, notes_name=file_names)
def test_hostile_file_names_are_refused_or_shown_as_data(work, proto_name, notes_name):
    folder, markers = work
    package = unique_package("hn")
    src = folder / f"{package}-src"
    src.mkdir()
    (src / f"{proto_name}.proto").write_text(SMALL_PROTO, encoding="utf-8")
    notes = folder / f"{package}-notes" / f"{notes_name}.yaml"
    notes.parent.mkdir()
    notes.write_text("classes:\n  M:\n    message: fn.M\n    doc: Class doc.\n", encoding="utf-8")
    out = folder / package
    try:
        _, result = generate(out, [src], notes, package)  # --proto DIR over the tree
    except GeneratorError as exc:
        event("refused")
        assert exc.problems and all(p.file for p in exc.problems), str(exc)
        return
    event("generated")
    assert_no_code_from_text(result.files)
    assert_no_hidden_characters(result.files)
    for relative, text in result.files.items():
        if relative.endswith((".py", ".pyi")) and not relative.endswith(tuple(f"/{m}.py" for m in RUNTIME_MODULES)):
            lines = text.splitlines()
            assert lines[1].startswith("# Inputs: ") and lines[2].startswith("# Regenerate: "), (relative, lines[:3])
    page = result.files[f"{package}.md"].splitlines()
    assert page[1].startswith("     Inputs: ") and "-->" not in "\n".join(page[:2]) and page[2].endswith("generate -->")
    module = import_generated(out, package)
    assert module.M().x == 0
    assert_nothing_ran(markers)
    pb2 = next(importlib.import_module(r.removesuffix(".py").replace("/", ".")) for r in result.files if r.endswith("_pb2.py"))
    for run in _printable_runs(f"{proto_name}.proto"):
        assert run in pb2.__doc__, (run, pb2.__doc__)


def test_a_proto_named_with_a_line_break_and_code_does_not_run_on_import(tmp_path):
    """The reviewer's case, end to end: --proto DIR over a tree holding such a name, then ``import pkg``."""
    src = tmp_path / "third_party"
    src.mkdir()
    (src / "x\rimport pathlib; pathlib.Path('PWNED').touch()\n#.proto").write_text(SMALL_PROTO, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FLEET_CODEGEN_NO_CACHE": "1"}
    generated = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--no-annotations", "--package", "pkg", "--out", str(tmp_path / "out"),
         "--proto", str(src)],
        cwd=tmp_path, env=env, capture_output=True, text=True,
    )
    assert generated.returncode == 0, generated.stderr
    imported = subprocess.run([sys.executable, "-c", "import pkg; print(pkg.M().x)"], cwd=tmp_path / "out", env=env,
                              capture_output=True, text=True)
    assert imported.returncode == 0 and imported.stdout == "0\n", imported.stderr
    assert not (tmp_path / "out" / "PWNED").exists()  # a relative path: where the import ran
    header = (tmp_path / "out" / "pkg" / "__init__.py").read_text(encoding="utf-8").split("\n")[1]
    assert header == "# Inputs: x\\rimport pathlib; pathlib.Path('PWNED').touch()\\n#.proto"


def test_a_code_like_annotation_is_exit_2_with_file_and_line(tmp_path):
    """The reviewer's other case, through the CLI: a type that would run at import."""
    notes = tmp_path / "notes.yaml"
    notes.write_text(
        "classes:\n  M:\n    message: fn.M\n    attributes:\n      order:\n        default: 1\n"
        f"        type: \"int = {FILE_PAYLOAD.replace(chr(34), chr(39))}\"\n", encoding="utf-8")
    (tmp_path / "m.proto").write_text(SMALL_PROTO, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "generator", "generate", "--annotations", str(notes), "--package", "pkg", "--out",
         str(tmp_path / "out"), "--proto", str(tmp_path / "m.proto")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT), "FLEET_CODEGEN_NO_CACHE": "1"}, capture_output=True, text=True,
    )
    assert run.returncode == 2, run.stderr
    assert f"{notes}:7: classes.M.attributes.order.type:" in run.stderr and "is not a type expression" in run.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", ["--python_out=..proto", "-I..proto", "@args.proto"])
def test_a_proto_name_protoc_would_read_as_an_option_is_refused(tmp_path, monkeypatch, name):
    """protoc takes its inputs' names on its command line: '--python_out=..proto'
    would make it write modules into ./.proto, '@args.proto' read arguments from a file."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / name).write_text(SMALL_PROTO, encoding="utf-8")
    (tmp_path / "cwd" / ".proto").mkdir(parents=True)
    (tmp_path / "cwd" / "args.proto").write_text("--python_out=.proto\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "cwd")
    with pytest.raises(GeneratorError) as info:
        generate(tmp_path / "out", [tmp_path / "src"], None, unique_package("opt"))
    assert [str(p) for p in info.value.problems] == [
        f"{tmp_path / 'src' / name}: protoc would read this .proto file's name as an option ('-') or an argument file ('@')"
        " (rename the file, or put it in a folder)"
    ]
    assert list((tmp_path / "cwd" / ".proto").iterdir()) == []


def test_the_hostile_fixture_s_code_grammar_text_stays_data(tmp_path, monkeypatch):
    """hostile.annotations.yaml's values within the grammars, hostile inside:
    a Literal type's text, an attribute's string default and doc (a comment),
    and a compatible-mode message."""
    import typing

    monkeypatch.chdir(tmp_path)  # a relative "PWNED" would land here
    notes = yaml.safe_load((FIXTURES / "hostile.annotations.yaml").read_text(encoding="utf-8"))
    order = notes["classes"]["Hostile"]["attributes"]["order"]
    package, result = generate(tmp_path / "out", [FIXTURES / "hostile.proto"], FIXTURES / "hostile.annotations.yaml",
                               unique_package("hostile"))
    assert_no_code_from_text(result.files)
    module = import_generated(tmp_path / "out", package)
    obj = module.Hostile(strict=False)  # compatible mode: the warn policy (strict is the default without a reference:)
    assert obj.order == order["default"]
    hint = module.Hostile.__annotations__["order"]  # not evaluated at import
    assert typing.get_args(eval(hint, {"Literal": typing.Literal})) == typing.get_args(eval(order["type"], {"Literal": typing.Literal}))
    source = result.files[f"{package}/hostile.py"]
    comment = (  # the doc, its control characters escaped, wrapped, each line a comment
        '    # Comment\\x0dwith __import__("pathlib").Path("PWNED").touch()\\x00 and\n'
        "    # \\u2028\\x85 breaks\n"
        "    # #; {{ x }}\n"
    )
    assert comment in source
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logging.getLogger(package).addHandler(handler)
    try:
        obj.python = object()
    finally:
        logging.getLogger(package).removeHandler(handler)
    assert [r.getMessage() for r in records] == [
        '{field}""" python; __import__("pathlib").Path("PWNED").touch() <class \'object\'> \\'
    ]
    assert not (tmp_path / "PWNED").exists()
