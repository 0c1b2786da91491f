"""A field's whole documentation reaches every place that documents it:
wrapper property docstrings, the key docs under a config property's key
table, and the TypedDict keys (a string after each key's annotation) and
classes, with code blocks and lists kept line for line."""

from __future__ import annotations

import ast
import inspect
import sys

import pytest

from generator.model.doctext import doc_layout, doc_parts
from tests.support import generate, import_generated

PROTO = '''syntax = "proto3";
package docs;

// Settings of a job. The second sentence is not lost.
//
// A list:
// - first item, which is long enough that reflowing it would join it to the next one
// - second item
message Job {
  // Run the job. Extra detail follows.
  //
  //     job.run = True
  //     job.go()
  //
  // 1. one
  // 2. two
  bool run = 1;
  // How to tune. Use it like this:
  //
  // ```python
  // tune(x)
  //
  //     nested = "kept"
  // ```
  //
  // Triple quotes """ and a backslash \\ stay data.
  Tuning tuning = 2;
  // One sentence only.
  int32 count = 3;
}

// Tuning knobs. Never reflowed into one line.
message Tuning {
  // Rate of learning. Must be positive:
  //   rate > 0
  float rate = 1;
  // Steps. Counted from one.
  //
  // * a bullet
  // * another bullet
  int32 steps = 2;
  // Plain one.
  bool plain = 3;
}
'''


def lines_in(block: str, doc: str) -> bool:
    """``block``'s lines are consecutive lines of ``doc``, each indented as in
    ``block`` relative to its first line (blank lines stay blank)."""
    want = block.split("\n")
    got = doc.split("\n")
    for start in range(len(got) - len(want) + 1):
        pad = got[start][: len(got[start]) - len(got[start].lstrip())]
        if all(got[start + i] == (pad + line if line else "") for i, line in enumerate(want)):
            return True
    return False


def norm(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("doc_layout")
    (out / "docs.proto").write_text(PROTO)
    package, _ = generate(out, [out / "docs.proto"])
    return out, package, import_generated(out, package)


def test_layout_keeps_code_blocks_and_lists_and_reflows_prose():
    text = "Lead line one\nand two.\n- a\n- b\n\n    code()\n      deeper()\n\n```\nx\n\ny\n```\n1. one\n2. two"
    assert doc_layout(text) == (
        "Lead line one and two.", "- a\n- b", "code()\n  deeper()", "```\nx\n\ny\n```", "1. one\n2. two"
    )
    assert doc_parts(text) == ("Lead line one and two.", ("- a\n- b", "code()\n  deeper()", "```\nx\n\ny\n```", "1. one\n2. two"))
    assert doc_parts("First. Second.\n\n    code") == ("First.", ("Second.", "code"))
    assert doc_parts("```\nunclosed\n\nfence") == ("```\nunclosed\n\nfence", ())
    assert doc_layout("One. ```x = 1``` inline\n```y```\nafter the one-line fence") == (
        "One. ```x = 1``` inline", "```y```", "after the one-line fence"
    )


def test_property_docstrings_hold_the_whole_comment_with_blocks(generated):
    _, _, module = generated
    # a Record's field is documented by the string under its declaration
    fields = typed_dict_docs(inspect.getsource(sys.modules[module.Job.__module__]))["Job"][1]
    run = fields["run"]
    assert run is not None
    assert run.startswith("Run the job.")
    assert "Extra detail follows." in run
    assert lines_in("job.run = True\njob.go()", run)
    assert lines_in("1. one\n2. two", run)
    tuning = fields["tuning"]
    assert tuning is not None
    assert lines_in('```python\ntune(x)\n\n    nested = "kept"\n```', tuning)
    assert 'Triple quotes """ and a backslash \\ stay data.' in tuning
    cls = module.Job.__doc__
    assert "The second sentence is not lost." in cls
    assert lines_in("- first item, which is long enough that reflowing it would join it to the next one\n- second item", cls)


def test_config_docs_point_to_the_typeddict_that_holds_every_keys_whole_doc(generated):
    """Each key's doc is stated once in full, on its TypedDict keys; a
    Record's message field names its class (whose fields carry their docs)."""
    out, package, module = generated
    doc = typed_dict_docs(inspect.getsource(sys.modules[module.Job.__module__]))["Job"][1]["tuning"]
    assert doc is not None and "``Tuning``" in doc and "Must be positive" not in doc
    keys = typed_dict_docs((out / package / "types.py").read_text())["TuningInput"][1]
    assert keys["rate"] is not None and "Must be positive" in keys["rate"]


def typed_dict_docs(source: str) -> dict[str, tuple[str | None, dict[str, str | None]]]:
    """Each TypedDict class: its docstring and the string after each key's annotation."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            keys: dict[str, str | None] = {}
            body = node.body
            for stmt, after in zip(body, [*body[1:], None]):
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    is_doc = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    keys[stmt.target.id] = inspect.cleandoc(after.value.value) if is_doc else None  # type: ignore[union-attr]
            found[node.name] = (ast.get_docstring(node), keys)
    return found


def test_typed_dict_keys_and_classes_carry_the_whole_doc(generated):
    """Once, on the input TypedDict (what editors show where a dict is
    written); the dict view says where."""
    out, package, _ = generated
    docs = typed_dict_docs((out / package / "types.py").read_text())
    doc, keys = docs["TuningInput"]
    assert "``docs.Tuning``" in doc and "Tuning knobs. Never reflowed into one line." in doc
    assert keys["rate"] == "Rate of learning. Must be positive:\n\nrate > 0"
    assert keys["steps"] == "Steps. Counted from one.\n\n* a bullet\n* another bullet"
    assert keys["plain"] == "Plain one."
    assert "TuningDict" not in docs  # a Record's getter returns its class, never a dict view
    doc, keys = docs["JobInput"]
    assert lines_in("- first item, which is long enough that reflowing it would join it to the next one\n- second item", doc)
    assert lines_in('```python\ntune(x)\n\n    nested = "kept"\n```', keys["tuning"])
    assert 'Triple quotes """ and a backslash \\ stay data.' in keys["tuning"]
    assert keys["count"] == "One sentence only."


@pytest.mark.parametrize("seed", range(4))
def test_fast_wrap_lays_out_prose_as_textwrap_fill(seed):
    """doctext._wrap skips textwrap for words between single spaces: the lines
    must be fill's, whatever the words (longer than the width, at it, Unicode
    spaces inside) and whatever the width."""
    import random
    import textwrap

    from generator.model.doctext import _wrap

    rnd = random.Random(seed)
    pieces = ["a", "bb", "x" * 30, "y" * 71, "z" * 72, "w" * 80, "é", ".", "-", ""]
    pieces += [" ", " ", "  ", "\t", "\n", "\xa0", "\u2028"]
    for _ in range(20_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 25)))
        width = rnd.choice([1, 5, 10, 40, 64, 72, 88])
        assert _wrap(text, width) == textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False), (text, width)
