"""Issue 28.9 (Trojan Source): no generated file holds a character a reader
does not see, or sees elsewhere (bidi embeddings, overrides and isolates,
marks, zero-width and other format characters, C0/C1 controls, line
separators): proto comments, annotation docs and ``json_name`` show them as
escapes. Docstrings hold the escape itself (backslash doubled), not the
character. One text layer does it (doctext.visible: the templates' finalize
and the docstring and comment filters)."""

from __future__ import annotations

import ast
import importlib
import inspect
import shutil
import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.model.doctext import visible
from generator.render.templates import comment_text, docstring, environment, markdown_text
from tests.goldens.regen import CASES
from tests.support import generate, import_generated, unique_package

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
FORMAT = "\ufeff\u200b\u200c\u200d\u2060\u00ad\u180e\U000e0001\U000e0041\U0001d173"
CONTROLS = "\x01\x07\x08\x0b\x0c\x0e\x1b\x1f\x7f\x80\x85\x9b\x9f\u2028\u2029"
HIDDEN = BIDI + FORMAT + CONTROLS
# what the scan looks for: other controls and format characters (but the
# layout's "\n" and "\t"), separators, surrogates (categories as unicodedata names them)
SCANNED = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def hidden_in(text: str) -> list[tuple[int, str]]:
    return [(i, f"U+{ord(c):04X}") for i, c in enumerate(text) if c not in "\n\t" and unicodedata.category(c) in SCANNED]


def test_the_characters_are_the_hidden_ones():
    assert all(unicodedata.category(c) in SCANNED for c in HIDDEN)


def _proto_escaped(text: str) -> str:
    """``text`` as a .proto string literal (every byte of its UTF-8 escaped)."""
    return "".join(f"\\x{b:02x}" for b in text.encode("utf-8"))


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The every_comment case with every hidden character in every comment,
    in a json_name and in every annotation text that reaches the docs."""
    folder = tmp_path_factory.mktemp("hidden")
    src = folder / "src"
    shutil.copytree(CASES / "every_comment" / "input", src)
    proto = src / "catalog.proto"
    text = proto.read_text(encoding="utf-8")
    assert text.count("// ") > 20 and "/*" not in text
    text = text.replace("// ", f"// a{HIDDEN}b ")
    text = text.replace("optional string title = 1;", f'optional string title = 1 [json_name = "t{_proto_escaped(HIDDEN)}t"];')
    proto.write_text(text, encoding="utf-8")
    hidden = f"x{HIDDEN}\x00y"
    notes = {
        "messages": {
            "golden.notes.Shelf": {
                "doc": f"Shelf {hidden} doc. Second {hidden} sentence.",
                "fields": {"title": {"doc": f"Title {hidden}.", "example": f">>> 1  # {hidden}\n1"}},
            },
        },
        "enums": {"golden.notes.Stock": {"doc": f"Stock {hidden}.", "values": {"STOCK_LOW": {"doc": f"Low {hidden}."}}}},
    }
    (src / "annotations.yaml").write_text(yaml.safe_dump(notes, allow_unicode=True, default_style='"'), encoding="utf-8")
    out = folder / "out"
    name, result = generate(out, [proto], src / "annotations.yaml", unique_package("hidden"))
    return out, name, result


def test_no_generated_file_holds_a_hidden_character(package):
    out, name, result = package
    assert result.files
    for relative, text in result.files.items():
        assert not hidden_in(text), (relative, hidden_in(text)[:5])
        if relative.endswith((".py", ".pyi")):
            ast.parse(text)
    # (what reached the files, escaped: comments, the json_name, annotation docs, on the page too)
    page = result.files[f"{name}.md"]
    assert "\\u202e" in page and "\\U000e0001" in page and "\\x1b" in page


def test_docstrings_hold_the_escapes_not_the_characters(package):
    out, name, result = package
    module = import_generated(out, name)
    doc = inspect.getdoc(module.Shelf)
    assert "Shelf x" + visible(HIDDEN) + "\\x00y doc." in doc and not hidden_in(doc)
    title = inspect.getdoc(module.Shelf.title)
    assert f"Title x{visible(HIDDEN)}\\x00y." in title
    assert f"``t{visible(HIDDEN)}t``" in title  # the json_name
    # an example is kept line for line: where it holds a character str.splitlines
    # breaks at (U+2028, \x0b, ...), the template's indent filter breaks the line there
    assert f">>> 1  # x{visible(BIDI + FORMAT)}\\x01\\x07\\x08" in title and not hidden_in(title)
    # every comment, in the stub's docstrings (values: the escapes)
    stub = ast.parse(result.files[f"{name}/catalog_pb2.pyi"])
    docs = [n.value for n in ast.walk(stub) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert sum(doc.count(f"a{visible(HIDDEN)}b") for doc in docs) >= 20
    pb2 = importlib.import_module(f"{name}.catalog_pb2")
    # the descriptor keeps the data: the json_name itself is the characters
    assert pb2.Shelf.DESCRIPTOR.fields_by_name["title"].json_name == f"t{HIDDEN}t"


@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_every_text_layer_shows_hidden_characters(text):
    shown = visible(text)
    assert not hidden_in(shown)
    assert visible(shown) == shown
    value = ast.literal_eval(docstring(text))  # a valid literal, whatever the text
    assert not hidden_in(value)
    assert value.split() == shown.split()  # the text, its hidden characters as escapes (layout aside)
    assert not hidden_in(comment_text(text)) and comment_text(text).split("\n") == shown.split("\n")
    assert not hidden_in(environment().from_string("{{ x }} {{ x | md }}").render(x=text))
    assert not hidden_in(environment().from_string("{{ x | md }}").render(x=markdown_text(text)))


def test_a_copied_module_is_printed_as_it_is():
    """Verbatim copies (the runtime, a hand-written module) are not input text: a CRLF kept."""
    from generator.model.doctext import Verbatim

    assert environment().from_string("{{ x }}").render(x=Verbatim("a = 1\r\n")) == "a = 1\r\n"
    assert environment().from_string("{{ x }}").render(x="a = 1\r\n") == "a = 1\\x0d\n"
