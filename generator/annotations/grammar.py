"""Annotation text pasted into the generated code, checked against its grammar.

Most annotation text reaches the generated modules as data (a literal
through render.templates.pyrepr, a docstring through
render.templates.docstring). A few values
are pasted as code: names, type expressions, and the compatible-mode
message, a format string the runtime fills. Each is checked against its
grammar here, so no input text can add a call, a statement or a line.
"""

from __future__ import annotations

import ast
import io
import keyword
import string
import tokenize
import unicodedata

# what the runtime passes when it formats a compatible-mode message (runtime.check_scalar)
POLICY_PLACEHOLDERS = ("field", "property", "type", "received")


def python_name(text: str) -> bool:
    """An identifier the parser reads as itself: no keyword, and in NFKC form
    (Python normalizes identifiers: ``ｓtrict`` would be ``strict``)."""
    return (
        text.isidentifier()
        and not keyword.iskeyword(text)
        and unicodedata.normalize("NFKC", text) == text
    )


def dotted_name(text: str) -> bool:
    return all(python_name(part) for part in text.split("."))


def type_expression_problem(text: str) -> str | None:
    """Why ``text`` is not a type expression (None: it is one): names, dotted
    names, subscripts, ``|``, ``None``, ``...`` and literals (in ``Literal[]``;
    a string elsewhere is a forward reference, itself a type expression), on
    one line; no call, operator, statement or comment."""
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        return (
            f"it holds {bad!r}: a type expression is one line of printable characters"
        )
    try:
        tree = ast.parse(text, mode="eval")
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, tokenize.TokenError) as exc:
        return f"it does not parse: {getattr(exc, 'msg', None) or exc}"
    if any(t.type == tokenize.COMMENT for t in tokens):
        return "it holds a comment"
    return _type_problem(tree.body, in_literal=False)


_SUBSCRIPTABLE = (ast.Name, ast.Attribute)
_NODE_WORDS = {
    ast.Call: "a call",
    ast.Lambda: "a lambda",
    ast.NamedExpr: "an assignment (:=)",
    ast.Slice: "a slice",
    ast.Starred: "a starred item",
    ast.Tuple: "a tuple (only inside [])",
    ast.List: "a list (only inside [], as in Callable[[int], str])",
}


def _type_problem(node: ast.expr, in_literal: bool) -> str | None:
    """The first node of ``node`` outside the type grammar, in words."""
    if isinstance(node, ast.Name):
        return None
    if isinstance(node, ast.Attribute):
        if not isinstance(node.value, _SUBSCRIPTABLE):
            return (
                _type_problem(node.value, in_literal=False)
                or "only a (dotted) name has attributes"
            )
        return _type_problem(node.value, in_literal=False)
    if isinstance(node, ast.Subscript):
        if not isinstance(node.value, _SUBSCRIPTABLE):
            return (
                _type_problem(node.value, in_literal=False)
                or "only a (dotted) name can be subscripted"
            )
        literal = (
            node.value.id if isinstance(node.value, ast.Name) else node.value.attr
        ) == "Literal"
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for item in items:  # a list inside []: Callable[[int], str]
            for part in (
                item.elts if isinstance(item, ast.List) and not literal else [item]
            ):
                problem = _type_problem(part, literal)
                if problem:
                    return problem
        return _type_problem(node.value, in_literal=False)
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.BitOr)
        and not in_literal
    ):
        return _type_problem(node.left, in_literal) or _type_problem(
            node.right, in_literal
        )
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or (value is Ellipsis and not in_literal):
            return None
        if in_literal and isinstance(value, (str, bytes, int)):  # bool is an int
            return None
        if isinstance(value, str):  # a forward reference
            problem = type_expression_problem(value)
            return f"in the forward reference {value!r}: {problem}" if problem else None
        return f"the constant {value!r} outside Literal[...]"
    if (
        in_literal
        and isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and type(node.operand.value) is int
    ):
        return None
    if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
        return "an operator other than | between types is not part of a type expression"
    return f"{_NODE_WORDS.get(type(node), type(node).__name__)} is not part of a type expression"


def format_problem(
    text: str, placeholders: tuple[str, ...] = POLICY_PLACEHOLDERS
) -> str | None:
    """Why ``text`` is not a message ``str.format`` fills from ``placeholders``
    (None: it is one). Each placeholder is one of them, as is: no attribute or
    item (``{received.__class__}``), no position, no format spec."""
    named = ", ".join(f"{{{p}}}" for p in placeholders)
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        return (
            f"it is not a format string: {exc} (write a literal brace as {{{{ or }}}})"
        )
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in placeholders:
            return f"{{{name}}} is not a placeholder the runtime fills (it fills {named}; a literal brace is {{{{ or }}}})"
        if spec:
            return f"{{{name}:{spec}}}: a format spec is not supported (the values are of several types)"
        if conversion not in (None, "r", "s", "a"):
            return f"{{{name}!{conversion}}}: unknown conversion (r, s or a)"
    return None
