"""mypy --strict and pyright --strict on user code of a schema without a
reference (issue 30): the keyword constructor is typed per field (an unknown
keyword or a wrong type is flagged), enum getters return the enum class,
repeated and map message fields are typed views of the classes, nested
classes are reachable nested. proto3 (shop), proto2 (proto2_defaults) and
editions (groups); each line marked '# E:' must be flagged, no other."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT, golden_tree

BIN = Path(sys.executable).parent

USAGE = """\
from __future__ import annotations

from typing_extensions import assert_type

from golden_groups.ledger import Entry, Money
from golden_proto2_defaults.defaults import Job, Kind
from golden_proto3_features.features import Canvas
from golden_shop import runtime
from golden_shop import shop_pb2
from golden_shop.shop import Catalogue, Customer, Order, Order_Item, PaymentMethod, Price

order = Order(id="1", gift=True, payment=PaymentMethod.CARD, items=[{"sku": "a"}, Order.Item(sku="b")])
order = Order(payment="TRANSFER", customer={"name": "Ann"}, labels={"k": "v"}, strict=False)
assert_type(order.payment, PaymentMethod)
assert_type(order.items, runtime.MessageList[Order.Item])
assert_type(order.items[0], Order.Item)
assert_type(order.items[0].quantity, int)
order.items.append({"sku": "c"})
order.items.append(Order_Item(sku="d"))
order.payment = PaymentMethod.TRANSFER
order.payment = 2
catalogue = Catalogue(prices={"x": Price(amount=1)}, customers=[{"name": "A"}])
assert_type(catalogue.prices, runtime.MessageMap[str, Price])
assert_type(catalogue.prices["x"].amount, int)
catalogue.prices["y"] = Price(currency="EUR")
assert order == Order()
item: Order.Item = Order_Item()
job = Job(owner="me", settings={"kind": Kind.KIND_A})
assert_type(Kind(1), Kind)
entry = Entry(memo="m", parts=[Money(cents=1)], amount={"cents": 2})
assert_type(entry.parts[0], Money)
canvas = Canvas(stack=["BACK", Canvas.Layer.FRONT, 1])
assert_type(canvas.stack, list[Canvas.Layer])
# one declaration per field: getters and setters typed per field, a message field read as its class
assert_type(order.customer, Customer)
assert_type(order.customer.points, int)
assert_type(order.labels, dict[str, str])
assert_type(order.message, shop_pb2.Order)
assert_type(order.strict, bool)
order.customer = Customer(name="B")
order.customer = {"points": 3}
order.gift = False
"""

NEGATIVE = """\
from __future__ import annotations

from golden_groups.ledger import Entry
from golden_proto2_defaults.defaults import Job
from golden_shop.shop import Catalogue, Order, PaymentMethod, Price

Order(idd="1")  # E: unknown keyword
Order(gift="yes")  # E: wrong type
Order(payment="CASH")  # E: not a name of the enum
Order(items=[Price()])  # E: another class
Order("1")  # E: positional
Catalogue(prices={1: {}})  # E: wrong key type
order = Order()
order.items.append(Price())  # E: another class
number: str = order.payment  # E: an enum member is an int, not a str
name: PaymentMethod = order.id  # E: str is not the enum
Job(owner=1)  # E: wrong type (proto2)
Entry(memo=3)  # E: wrong type (editions)
Order.Itemm  # E: no such nested class
order.gift = "no"  # E: a setter takes its field's type
order.customer = Price()  # E: another class
order.customer.name = 1  # E: the nested class's setter
Order(message=Order().message)  # E: the message slot is no keyword
Order(strict="yes")  # E: strict is a bool
"""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("records")
    for case in ("shop", "proto2_defaults", "groups", "proto3_features"):
        golden_tree(ROOT / "tests" / "goldens" / "cases" / case / "expected", root)
    (root / "usage.py").write_text(USAGE)
    (root / "negative.py").write_text(NEGATIVE)
    return root


def _marked(text: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if "# E:" in line}


def _mypy(tree: Path, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tree / ".mypy"), target],
        cwd=tree, capture_output=True, text=True, env={"MYPYPATH": str(tree), "PATH": str(BIN)},
    )


def _pyright(tree: Path, target: str) -> subprocess.CompletedProcess[str]:
    (tree / "pyrightconfig.json").write_text('{"typeCheckingMode": "strict", "reportUnusedExpression": false}')
    return subprocess.run(
        [str(BIN / "pyright"), "--pythonpath", sys.executable, target],
        cwd=tree, capture_output=True, text=True,
    )


def test_mypy_strict_accepts_the_usage(tree: Path) -> None:
    result = _mypy(tree, "usage.py")
    assert result.returncode == 0, result.stdout


def test_pyright_strict_accepts_the_usage(tree: Path) -> None:
    result = _pyright(tree, "usage.py")
    assert result.returncode == 0, result.stdout


def test_mypy_flags_every_negative_line(tree: Path) -> None:
    result = _mypy(tree, "negative.py")
    lines = {int(m) for m in re.findall(r"negative\.py:(\d+): error", result.stdout)}
    assert lines == _marked(NEGATIVE), result.stdout


def test_pyright_flags_every_negative_line(tree: Path) -> None:
    result = _pyright(tree, "negative.py")
    lines = {int(m) for m in re.findall(r"negative\.py:(\d+):\d+ - error", result.stdout)}
    assert lines == _marked(NEGATIVE), result.stdout
