"""The format stage: generated code is what black (pinned, our Mode) makes of
it, and black itself runs only on the pieces the stage cannot be sure of."""

from __future__ import annotations

import json
import subprocess
import sys

import black
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import generator.render.format as format_stage
from generator.errors import GeneratorError
from generator.render.format import format_files, mode, wrap_line
from generator.options import Options
from generator.pipeline import build
from generator.render.templates import RenderedFile
from tests.support import ROOT

GENERATED = sorted(
    p
    for folder in (ROOT / "generated", ROOT / "tests" / "goldens" / "cases")
    for p in folder.rglob("*.py*")
    # hooks.py and module_helpers.py are copies of hand-written modules (not formatted)
    if p.suffix in (".py", ".pyi") and p.name not in ("hooks.py", "module_helpers.py") and "__pycache__" not in p.parts
)


def _kind(path: str) -> str:
    return "stub" if path.endswith(".pyi") else "python"


@pytest.mark.parametrize("path", GENERATED, ids=[p.relative_to(ROOT).as_posix() for p in GENERATED])
def test_black_leaves_generated_files_unchanged(path):
    text = path.read_text()
    assert black.format_str(text, mode=mode(_kind(path.name))) == text


@pytest.fixture
def black_calls(monkeypatch):
    """Every source the format stage hands black, no cache folder."""
    monkeypatch.setenv("FLEET_CODEGEN_NO_CACHE", "1")
    calls: list[str] = []
    real = format_stage.run_black

    def counting(source, kind, indent=0):
        calls.append(source)
        return real(source, kind, indent)

    monkeypatch.setattr(format_stage, "run_black", counting)
    return calls


def test_this_schema_generates_without_black(black_calls):
    options = Options(
        protos=(ROOT / "proto" / "distributed_strategy.proto",),
        annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
        out=ROOT / "generated",
        package="fleet_strategy",
    )
    build(options)
    assert black_calls == []  # the templates emit black's output, long lines wrapped as black wraps them


LONG = "a_very_long_name_" * 8  # 136 characters: no line holding it fits


def test_a_piece_at_risk_goes_to_black_and_the_file_equals_whole_file_black(tmp_path, black_calls):
    proto = tmp_path / "long_names.proto"
    proto.write_text(
        'syntax = "proto3";\npackage golden.long_names;\n\n'
        f"// A message with a name no line can hold.\nmessage M{LONG} {{\n"
        f"  // A field with such a name.\n  repeated int32 {LONG}field = 1;\n"
        f"  map<string, M{LONG}> {LONG}map = 2;\n}}\n"
    )
    files = build(Options(protos=(proto,), annotations=None, out=tmp_path / "out", package="long_names")).files
    assert black_calls, "pieces with a line no template could wrap go to black"
    checked = 0
    for relative, text in files.items():
        if relative.endswith((".py", ".pyi")):
            assert black.format_str(text, mode=mode(_kind(relative))) == text, relative
            checked += 1
    assert checked >= 5


# Statements as the templates shape them, with names of every length around the
# line length: where wrap_line decides alone, it must decide as black does.
SHAPES = [
    ("python", "{n}_SPEC = MessageSpec(\"pkg.{n}\", mod_pb2.{n}, {{}})\n"),
    ("python", "{n} = _message_factory.GetMessageClass(_POOL.FindMessageTypeByName(\"pkg.{n}\"))\n"),
    ("python", "X.fields[\"{n}\"] = FieldSpec(\"{n}\", \"bool\", low=None, high=None)\n"),
    ("python", "def {n}_to_dict(message: mod_pb2.{n}) -> _types.{n}Dict:\n    return {{}}\n"),
    ("python", "def f(self) -> None:\n    value = _check_scalar(self._strict, _FIELDS[\"{n}\"], value, \"{n}\")\n"),
    ("python", "from pkg.{n}._runtime import UnknownConfigKeyError, default_strict, set_default_strict\n"),
    ("python", "def f(m):\n    return {{\n        \"{n}\": [{n}_to_dict(item) for item in m.{n}],\n    }}\n"),
    ("python", "def f(m):\n    return {{\n        \"{n}\": items1[:] if (items1 := m.{n}) else [],\n    }}\n"),
    ("python", "X = FieldSpec(\n    \"a\",\n    policy=Policy(\"raise\", ValueError, \"{n} is invalid {{received}}\"),\n)\n"),
    ("python", "class T(TypedDict, total=False):\n    {n}: {n}Input | mod_pb2.{n}\n"),
    ("python", "class T(TypedDict, total=False):\n    {n}: list[{n}Input | mod_pb2.{n}] | tuple[{n}Input | mod_pb2.{n}, ...]\n"),
    ("python", "class C:\n    @x.setter\n    def {n}(self, value: list[A | mod_pb2.{n}] | tuple[A | mod_pb2.{n}, ...]) -> None:\n        pass\n"),
    ("python", "__all__ = [\"{n}\", \"B\"]\n"),
    ("python", "X = {{\n    \"k\": {{\n        \"policy\": _P[\"warn\"]._replace(message=\"{n} is wrong\"),\n    }},\n}}\n"),
    ("python", "x = _P[\"warn\"]._replace(message=\"{n} is wrong\", other=\"{n}\")\n"),
    ("stub", "class M(_message.Message):\n    def HasField(self, field_name: _Literal[\"{n}\", \"b\", \"c\"]) -> _builtins.bool: ...\n"),
    ("stub", "class M(_message.Message):\n    @_builtins.property\n    def {n}(self) -> _containers.RepeatedCompositeFieldContainer[{n}]: ...\n"),
    ("stub", "{n}: _builtins.int\nclass M(_message.Message):\n    \"\"\"Doc.\"\"\"\n\n    x: int\n"),
    # the shapes of large real-world sets with long names (issue 19): enum classes,
    # repeated-message getters, unions inside subscripts and calls
    ("stub", "class {n}(_builtins.int, metaclass=_enum_type_wrapper.EnumTypeWrapper):\n    X: int\n"),
    ("python", "class {n}Kind(_builtins.int, metaclass=_enum_type_wrapper.EnumTypeWrapper):\n    x = 1\n"),
    ("stub", "class M(_message.Message):\n    @_builtins.property\n    def siblings(self) -> _containers.RepeatedCompositeFieldContainer[mod_pb2.{n}]: ...\n"),
    ("python", "class C:\n    @property\n    def siblings(self) -> _containers.RepeatedCompositeFieldContainer[mod_pb2.{n}]:\n        return x\n"),
    ("stub", "class M(_message.Message):\n    @_builtins.property\n    def m(self) -> _containers.MessageMap[_builtins.str, {n}]: ...\n"),
    ("stub", "class M(_message.Message):\n    def __init__(self, *, m: _Mapping[_builtins.str, {n}] | None = ..., x: _builtins.int | None = ...) -> None: ...\n"),
    ("python", "x = f({n}Input | mod_pb2.{n})\n"),
    ("python", "x = f({n}Input | mod_pb2.{n} | None, c)\n"),
]

# Long names as large real-world sets have them (message names of 30-60 characters)
REAL_WORLD = range(30, 61, 3)


@pytest.mark.parametrize("kind,shape", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_long_lines_are_wrapped_as_black_wraps_them(kind, shape, black_calls):
    wrapped_alone = 0
    for length in range(1, 130, 3):
        name = ("N" + "x" * length)[:length + 1]
        source = shape.format(n=name)
        calls = len(black_calls)
        formatted = format_files([RenderedFile("m.py", source, kind)]).texts["m.py"]
        assert formatted == black.format_str(source, mode=mode(kind)), f"name of {len(name)}:\n{formatted}"
        wrapped_alone += formatted != source and len(black_calls) == calls
    assert wrapped_alone  # the stage, not black, wrapped some


# the comprehension shapes (6, 7) are no template's any more: black's, as rare pieces
EMITTED = [(i, shape) for i, shape in enumerate(SHAPES) if i not in (6, 7)]


@pytest.mark.parametrize("kind,shape", [s for _, s in EMITTED], ids=[f"shape{i}" for i, _ in EMITTED])
def test_long_real_world_names_need_no_black(kind, shape, black_calls):
    """Issue 19: on a 239-message set with long names black ran 210 times, for
    these shapes; names of real-world length are now wrapped without it."""
    for length in REAL_WORLD:
        source = shape.format(n=("N" + "x" * length)[:length])
        formatted = format_files([RenderedFile("m.py", source, kind)]).texts["m.py"]
        assert formatted == black.format_str(source, mode=mode(kind)), f"name of {length}:\n{formatted}"
    assert black_calls == []


def test_wrap_line_gives_up_on_shapes_it_does_not_know():
    long = "x" * 90
    assert wrap_line(f"value = {long} + f({long})") is None  # an operator: black's delimiter rules
    assert wrap_line(f"value = a.b({long}).c({long})") is None  # a call chain
    assert wrap_line(f"value = ({long}, {long})") is None  # a tuple in parentheses
    assert wrap_line("short = 1") == ["short = 1"]


def test_top_level_blank_lines_are_black_s_and_a_long_class_goes_member_by_member(black_calls):
    source = (
        '# header\n"""Doc."""\n\nimport os\n\n\n\nX = 1\nY = [1, 2]\n'
        'class A:\n    """A."""\n\n    z = 1\n'
        + "".join(f"\n    def m{i}(self):\n        return {i}\n" for i in range(40))
        + f"\n    def long(self):\n        return {' + '.join(['value'] * 30)}\n"
        + "# a comment that goes with f\ndef f(a):\n    return a\n"
    )
    formatted = format_files([RenderedFile("m.py", source, "python")]).texts["m.py"]
    # black 24 and 25 keep up to two blank lines after an import, 26 one: the stage writes
    # one (26's output), which every black in pyproject.toml's range leaves as it is
    assert black.format_str(formatted, mode=mode("python")) == formatted
    if int(black.__version__.split(".")[0]) >= 26:
        assert formatted == black.format_str(source, mode=mode("python"))
    assert black_calls == ["def long(self):\n    return " + " + ".join(["value"] * 30) + "\n"]  # that member alone


def test_a_type_ignored_line_is_left_long_as_black_leaves_it(black_calls):
    source = "def f():\n    _fill(sub, value, SPECS[field.message], at, strict, clears, (*path, key))  # type: ignore[index]\n"
    assert format_files([RenderedFile("m.py", source, "python")]).texts["m.py"] == source
    assert black.format_str(source, mode=mode("python")) == source and not black_calls


def test_space_black_strips_from_a_docstring_sends_it_to_black(black_calls):
    source = 'def f():\n    """ Text with space around. """\n'
    formatted = format_files([RenderedFile("m.py", source, "python")]).texts["m.py"]
    assert formatted == black.format_str(source, mode=mode("python")) and black_calls


def test_the_manifest_records_no_pieces():
    data = json.loads((ROOT / "generated" / "fleet_strategy.manifest.json").read_text())
    assert set(data) == {"@generated", "files", "undocumented", "api"}


def test_generation_never_imports_black(tmp_path):
    code = (
        "import sys; from generator.cli import main; code = main(['check', '--full']); "
        "print(int(code), 'black' in sys.modules, 'jinja2' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
        env={"PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path), "PATH": ""},
    )
    assert done.stdout.split()[-3:] == ["0", "False", "True"], done.stdout + done.stderr


def test_code_black_rejects_is_an_internal_error_naming_the_file(black_calls):
    with pytest.raises(GeneratorError) as caught:
        format_files([RenderedFile("pkg/m.py", "X = (" + "a, " * 60 + "\n", "python")])
    problem = caught.value.problems[0]
    assert problem.file == "pkg/m.py" and "internal error" in problem.message


# Fuzzed: type expressions as the templates build them (dotted names of any
# length, unions, subscripts holding unions, ``...``) in every position a
# generated module puts one; the stage must agree with black whatever it decides.
_NAMES = st.builds(
    lambda parts: ".".join(parts),
    st.lists(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{6,50}", fullmatch=True), min_size=1, max_size=2),
)


def _subscripted(inner):
    return st.builds(
        lambda name, items, ellipsis: f"{name}[{', '.join(items + (['...'] if ellipsis else []))}]",
        _NAMES, st.lists(inner, min_size=1, max_size=2), st.booleans(),
    )


_TYPES = st.recursive(_NAMES, lambda inner: st.one_of(
    _subscripted(inner), st.lists(inner, min_size=2, max_size=3).map(" | ".join)), max_leaves=6)
_PLACES = [
    ("python", "class T(TypedDict, total=False):\n    {n}: {t}\n"),
    ("python", "class C:\n    def {n}(self, value: {t}) -> None:\n        pass\n"),
    ("stub", "class M(_message.Message):\n    def __init__(self, *, {n}: {t} | None = ..., x: int | None = ...) -> None: ...\n"),
    ("python", "class C:\n    @property\n    def {n}(self) -> {t}:\n        return x\n"),
    ("stub", "class M(_message.Message):\n    def {n}(self) -> {t}: ...\n"),
    ("python", "class {n}({t}, metaclass=_enum_type_wrapper.EnumTypeWrapper):\n    x = 1\n"),
    ("python", "x = f({t})\n"),
    ("python", "{n} = g(a, {t})\n"),
]


@settings(deadline=None, derandomize=True, max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(place=st.sampled_from(_PLACES), name=st.from_regex(r"[a-z_][a-z0-9_]{3,60}", fullmatch=True), type_=_TYPES)
def test_fuzzed_type_expressions_are_laid_out_as_black_lays_them_out(place, name, type_, black_calls):
    kind, shape = place
    source = shape.format(n=name, t=type_)
    formatted = format_files([RenderedFile("m.py", source, kind)]).texts["m.py"]
    assert formatted == black.format_str(source, mode=mode(kind)), formatted
    event("unchanged" if formatted == source else "black" if black_calls else "wrapped without black")
    black_calls.clear()


# Fuzzed schemas with long names: messages and enums named as large real-world
# sets name them, fields of every kind referring to each other.
_LONG_NAME = st.from_regex(r"[A-Z][A-Za-z0-9]{19,55}", fullmatch=True)
_FIELD_NAME = st.from_regex(r"[a-z][a-z0-9_]{2,45}", fullmatch=True).filter(lambda n: "__" not in n and not n.endswith("_"))


@st.composite
def _long_named_schema(draw):
    names = draw(st.lists(_LONG_NAME, min_size=2, max_size=4, unique_by=str.lower))
    enum = draw(_LONG_NAME.filter(lambda n: n.lower() not in {m.lower() for m in names}))
    lines = ['syntax = "proto3";', f"package {draw(st.sampled_from(['a.b', 'example.cloud.infrastructure.v1beta1']))};", ""]
    lines += [f"enum {enum} {{", f"  {enum.upper()}_UNSPECIFIED = 0;", f"  {enum.upper()}_OTHER = 1;", "}"]
    for number, name in enumerate(names):
        fields = draw(st.lists(_FIELD_NAME, min_size=1, max_size=5, unique=True))
        lines.append(f"// {name}.\nmessage {name} {{")
        for tag, field in enumerate(fields, 1):
            other = names[(number + tag) % len(names)]
            kind = draw(st.sampled_from([f"repeated {other}", other, enum, f"map<string, {other}>", "repeated string", "int64"]))
            lines.append(f"  // {field}.\n  {kind} {field} = {tag};")
        lines.append("}")
    return "\n".join(lines) + "\n"


@settings(deadline=None, derandomize=True, max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schema=_long_named_schema())
def test_fuzzed_long_named_schemas_are_black_s_output(schema, tmp_path_factory, black_calls):
    folder = tmp_path_factory.mktemp("long")
    (folder / "long_names.proto").write_text(schema)
    options = Options(protos=(folder / "long_names.proto",), annotations=None, out=folder / "out", package="long_names")
    for relative, text in build(options).files.items():
        # (the runtime's verbatim copies are the same in every example: .ci/run holds them to black)
        if relative.endswith((".py", ".pyi")) and "# A verbatim copy of" not in text[:400]:
            assert black.format_str(text, mode=mode(_kind(relative))) == text, relative
    event("black ran" if black_calls else "no black")
    black_calls.clear()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive repeats: Python 3.11+")
def test_a_long_escaped_literal_is_wrapped_without_backtracking_state() -> None:
    """A _pb2's descriptor literal (2.4 MB at 4,500 messages) is one string
    token: matched possessively, re keeps no state per escape (it took 52 MB,
    the peak of the whole run: docs/benchmarks.md), with the same wrapping."""
    import tracemalloc

    literal = "b'" + "\\n\\x10abc" * 100_000 + "'"
    line = f"DESCRIPTOR = _add_file({literal})"
    tracemalloc.start()
    try:
        wrapped = wrap_line(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert wrapped == ["DESCRIPTOR = _add_file(", f"    {literal}", ")"]
    assert peak < 4 * len(line), f"{peak / 1e6:.1f} MB for a {len(line) / 1e6:.1f} MB line"


_WORD = st.integers(1, 45).map(lambda n: "a" + "b" * (n - 1))


@st.composite
def _declarations(draw: st.DrawFn) -> tuple[int, str]:
    """A compact Record's field declaration, nested 1 to 3 classes deep, with
    getter and setter types of the shapes the templates write."""
    depth = draw(st.integers(1, 3))
    item = draw(st.sampled_from(["int", "str", "{w}.{v}", "list[{w}]", "_runtime.MessageList[{w}]",
                                 "_runtime.MessageMap[str, {w}]"])).format(w=draw(_WORD), v=draw(_WORD))
    setter = draw(st.sampled_from(["{g}", "{g} | {w}Input", "{g} | {w}Input | {v}_pb2.{w}",
                                   "list[{g}] | tuple[{g}, ...]", "Mapping[str, {g} | {w}Input]"])
                  ).format(g=item, w=draw(_WORD), v=draw(_WORD))
    enum = draw(st.sampled_from(["", f', enum="{draw(_WORD)}"']))
    name = draw(_WORD) + draw(_WORD)
    line = f"{name}: _runtime.Field[{item}, {setter}] = _runtime.field(default=_runtime.UNSET{enum})"
    return depth, "    " * depth + line


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_declarations())
def test_declarations_are_wrapped_as_black_wraps_them(declaration: tuple[int, str]) -> None:
    """The ways black lays out a long declaration (at the call, the value in
    parentheses, at the annotation's brackets, its items one a line): where wrap_line decides, it
    decides as black does; otherwise black formats the piece."""
    depth, line = declaration
    outer = "".join("    " * k + f"class C{k}:\n" for k in range(depth))
    wrapped = wrap_line(line)
    event("black" if wrapped is None else f"{len(wrapped)} lines")
    if wrapped is not None:
        source = outer + line + "\n"
        assert outer + "\n".join(wrapped) + "\n" == black.format_str(source, mode=mode("python"))
