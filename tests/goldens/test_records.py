"""The classes of a schema whose annotations name no reference (issue 30):
keyword constructor, repr, == by value, enum classes, nested classes, live
typed list and map views, strict by default and errors naming the class, the
field, the type expected and the value in both modes. proto3 (``shop``,
``proto3_features``), proto2 (``proto2_defaults``) and editions (``groups``).
A schema that names a reference (``annotated``, Paddle's) keeps the plain
``Wrapper`` API (tests/package and tests/integration hold Paddle's)."""

from __future__ import annotations

import copy
import importlib.util
import os
import pickle
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.goldens.regen import CASES
from tests.support import golden_tree, import_generated


def _package(tmp_path_factory: pytest.TempPathFactory, case: str) -> tuple[Path, ModuleType]:
    root = golden_tree(CASES / case / "expected", tmp_path_factory.mktemp(case))
    return root, import_generated(root, f"golden_{case}")


@pytest.fixture(scope="module")
def shop_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _package(tmp_path_factory, "shop")[0]


@pytest.fixture(scope="module")
def shop(shop_tree: Path) -> ModuleType:
    return importlib.import_module("golden_shop.shop")


def order(shop: ModuleType) -> object:
    return shop.Order(
        id="1",
        gift=True,
        payment="CARD",
        customer={"name": "Ann"},
        items=[{"sku": "a", "quantity": 2}, shop.Order.Item(sku="b")],
        labels={"channel": "web"},
    )


# -- 1. construct and inspect like a dataclass ----------------------------------


def test_keyword_constructor_sets_what_it_is_given_through_the_setters(shop):
    o = order(shop)
    assert (o.id, o.gift, o.customer.name, o.labels) == ("1", True, "Ann", {"channel": "web"})
    assert [item.sku for item in o.items] == ["a", "b"] and o.items[0].quantity == 2
    price = shop.Price(currency="EUR", amount=3)
    item = shop.Order.Item(unit_price=price)  # an instance where its message goes
    assert item.unit_price == price and type(item.unit_price) is shop.Price  # reads as its class
    assert shop.Order.Item(unit_price=price.message).unit_price.currency == "EUR"


def test_keyword_left_at_none_leaves_the_field_unset(shop):
    o = shop.Order(customer=None, address=None)
    assert not o.message.HasField("customer") and o.message.WhichOneof("delivery") is None
    o = shop.Order(customer={}, address="")  # given, even empty: set (presence kept)
    assert o.message.HasField("customer") and o.message.WhichOneof("delivery") == "address"


def test_constructor_checks_as_the_setters_and_never_touches_the_callers_dicts(shop):
    given = {"sku": "a", "quantity": 2**40}
    with pytest.raises(ValueError, match=r"^Order\.items\[0\]\['quantity'\]: 1099511627776 is out of range \[0, 4294967295\]"):
        shop.Order(items=[given])
    assert given == {"sku": "a", "quantity": 2**40}
    with pytest.raises(TypeError, match="unexpected keyword argument 'idd'"):
        shop.Order(idd="1")
    with pytest.raises(TypeError, match=r"^Order\.gift: expected bool, got str 'yes'$"):
        shop.Order(id="1", gift="yes")


def test_repr_shows_the_fields_that_are_set(shop):
    assert repr(shop.Order()) == "Order()"
    assert repr(shop.Order(id="1", gift=True)) == "Order(id='1', gift=True)"
    assert repr(order(shop)) == (
        "Order(id='1', customer=Customer(name='Ann'), items=[Order.Item(sku='a', quantity=2), "
        "Order.Item(sku='b')], labels={'channel': 'web'}, payment=<PaymentMethod.CARD: 1>, gift=True)"
    )
    catalogue = shop.Catalogue(prices={"x": {"amount": 3}})
    assert repr(catalogue) == "Catalogue(prices={'x': Price(amount=3)})"


def test_equality_by_value_unhashable_copies_and_pickles_equal(shop):
    a, b = order(shop), order(shop)
    assert a == b and a is not b and a != shop.Order() and a != a.message
    b.gift = False
    assert a != b
    with pytest.raises(TypeError, match="unhashable"):
        hash(a)
    for clone in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert clone == a and type(clone) is shop.Order
        clone.items[0].sku = "changed"
        assert a.items[0].sku == "a"  # the copy owns its messages
    assert shop.Order(strict=False) == shop.Order(strict=True)  # the mode is not a value


# -- 2. enums as enums ------------------------------------------------------------


def test_enum_class_per_proto_enum_getters_return_members(shop):
    assert issubclass(shop.PaymentMethod, int) and [m.name for m in shop.PaymentMethod] == [
        "PAYMENT_METHOD_UNSPECIFIED", "CARD", "TRANSFER"
    ]
    o = shop.Order()
    assert o.payment is shop.PaymentMethod.PAYMENT_METHOD_UNSPECIFIED
    for value in (shop.PaymentMethod.TRANSFER, 2, "TRANSFER"):
        o.payment = value
        assert o.payment is shop.PaymentMethod.TRANSFER and o.message.payment == 2
    doc = shop.PaymentMethod.__doc__
    assert "``CARD`` (1): A credit or debit card." in doc and "How an order is paid." in doc


def test_strict_rejects_unknown_enum_numbers_and_names_naming_the_enum_and_its_values(shop):
    o = shop.Order()
    with pytest.raises(ValueError, match=r"^Order\.payment: 'CASH' is not one of shop\.PaymentMethod's PAYMENT_METHOD_UNSPECIFIED, CARD, TRANSFER"):
        o.payment = "CASH"
    with pytest.raises(ValueError, match=r"^Order\.payment: 9 is not a number of shop\.PaymentMethod's PAYMENT_METHOD_UNSPECIFIED=0, CARD=1, TRANSFER=2$"):
        o.payment = 9
    assert o.payment is shop.PaymentMethod.PAYMENT_METHOD_UNSPECIFIED  # unchanged


def test_an_undeclared_number_read_from_data_is_a_member_of_its_own(shop):
    message = shop.Order().message
    message.payment = 7  # proto3 enums are open: newer data may hold it
    o = shop.Order.__new__(shop.Order)
    o.__setstate__((message.SerializeToString(), False, (), ()))
    assert o.payment == 7 and isinstance(o.payment, shop.PaymentMethod) and o.payment.name == "7"
    o.strict = False
    o.payment = 8  # compatible mode stores what protobuf stores
    assert o.payment == 8


# -- 3. nested messages nested, typed views -------------------------------------------


def test_nested_message_class_is_nested_and_its_flat_name_an_alias(shop, shop_tree):
    assert shop.Order.Item.__qualname__ == "Order.Item" and shop.Order_Item is shop.Order.Item
    item = shop.Order.Item(sku="a")
    assert pickle.loads(pickle.dumps(item)) == item  # found by its qualified name


def test_repeated_message_field_is_a_live_list_of_instances_validated_on_the_way_in(shop):
    o = shop.Order()
    o.items.append({"sku": "a"})
    o.items.append(shop.Order.Item(sku="b"))
    o.items.insert(0, shop.Order.Item(sku="z").message)
    assert [i.sku for i in o.items] == ["z", "a", "b"] and len(o.items) == 3
    o.items[1] = {"sku": "A", "quantity": 1}
    o.items[0].quantity = 4  # live: changes the order's message
    assert o.message.items[0].quantity == 4 and o.items[1] == shop.Order.Item(sku="A", quantity=1)
    with pytest.raises(ValueError, match=r"^Order\.items\[4\]\['quantity'\]"):
        o.items.extend([{"sku": "ok"}, {"quantity": -1}])
    assert len(o.items) == 3  # extend is all-or-nothing
    with pytest.raises(TypeError, match=r"^Order\.items\[3\]: expected a dict of shop\.Order\.Item keys, got int"):
        o.items.append(3)
    with pytest.raises(TypeError, match=r"^Order\.items: expected a list, got str"):
        o.items.extend("ab")
    del o.items[0]
    assert o.items == [shop.Order.Item(sku="A", quantity=1), shop.Order.Item(sku="b")]
    with pytest.raises(IndexError):
        o.items[5]


def test_map_of_messages_is_a_live_mapping_of_instances_validated_on_the_way_in(shop):
    c = shop.Catalogue()
    c.prices["a"] = {"currency": "EUR", "amount": 1}
    c.prices["b"] = shop.Price(amount=2)
    assert c.prices["a"].currency == "EUR" and sorted(c.prices) == ["a", "b"] and "a" in c.prices
    c.prices["a"].amount = 5
    assert c.message.prices["a"].amount == 5
    with pytest.raises(TypeError, match=r"^Catalogue\.prices\[3\]: expected str, got int 3$"):
        c.prices[3] = {}
    with pytest.raises(TypeError, match=r"^Catalogue\.prices\['c'\]\['amount'\]: expected int, got str 'x'"):
        c.prices["c"] = {"amount": "x"}
    assert "c" not in c.prices and 3 not in c.prices and len(c.prices) == 2
    with pytest.raises(KeyError):
        c.prices["missing"]
    assert "missing" not in c.message.prices  # reading did not add it
    del c.prices["b"]
    assert c.prices == {"a": shop.Price(currency="EUR", amount=5)}


# -- 4. strict by default outside a reference; errors name everything ----------------


def test_strict_is_the_default_and_the_environment_variable_chooses_compatible(shop, shop_tree):
    assert shop.Order().strict is True
    code = "from golden_shop.shop import Order; print(Order().strict)"
    env = {**os.environ, "PYTHONPATH": str(shop_tree), "GOLDEN_SHOP_STRICT": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "compatible"])
def test_every_error_names_class_field_type_and_value_in_both_modes(shop, strict):
    o, item = shop.Order(strict=strict), shop.Order.Item(strict=strict)
    with pytest.raises(TypeError, match=r"^Order\.gift: expected bool, got str 'yes'$"):
        o.gift = "yes"
    with pytest.raises(ValueError, match=r"^Order\.Item\.quantity: 1099511627776 is out of range \[0, 4294967295\]$"):
        item.quantity = 2**40
    with pytest.raises(TypeError, match=r"^Order\.id: expected str, got int 3$"):
        o.id = 3
    assert (o.gift, item.quantity, o.id) == (False, 0, "")


def test_a_schema_naming_a_reference_keeps_the_plain_api(tmp_path_factory):
    _, package = _package(tmp_path_factory, "annotated")
    from golden_annotated import runtime

    classes = [getattr(package, name) for name in package.__all__ if isinstance(getattr(package, name), type)]
    wrappers = [cls for cls in classes if issubclass(cls, runtime.Wrapper)]
    assert wrappers and not any(issubclass(cls, runtime.Record) for cls in wrappers)
    assert runtime.default_strict() is False


# -- proto3 nested enum, proto2, editions ---------------------------------------------


def test_proto3_nested_enum_and_views(tmp_path_factory):
    _, package = _package(tmp_path_factory, "proto3_features")
    canvas_cls = package.Canvas
    canvas = canvas_cls(layer="FRONT", points=[{"x": 1}], anchors={"a": {"y": 2}}, opacity=0.0)
    assert canvas.layer is canvas_cls.Layer.FRONT and canvas_cls.Layer.__qualname__ == "Canvas.Layer"
    assert canvas.message.HasField("opacity") and repr(canvas).startswith("Canvas(points=[Canvas.Point(x=1)]")
    assert canvas.anchors["a"] == canvas_cls.Point(y=2) and canvas.points[0].x == 1
    assert canvas.colour == 0 and type(canvas.colour) is not int  # an enum of the module: a member
    canvas.stack = ["BACK", 1]  # names and numbers in; members out
    assert canvas.stack == [canvas_cls.Layer.BACK, canvas_cls.Layer.FRONT]
    assert all(type(layer) is canvas_cls.Layer for layer in canvas.stack)
    with pytest.raises(ValueError, match="Layer"):
        canvas_cls(stack=["SIDEWAYS"])


def test_proto2_enum_and_constructor(tmp_path_factory):
    _, package = _package(tmp_path_factory, "proto2_defaults")
    from golden_proto2_defaults import defaults

    kinds = [m.name for m in defaults.Kind]
    assert kinds and issubclass(defaults.Kind, int)
    job = package.Job(owner="me")
    assert job.owner == "me" and repr(job) == "Job(owner='me')" and job == package.Job(owner="me")


def test_editions_constructor_views_and_round_trip(tmp_path_factory):
    _, package = _package(tmp_path_factory, "groups")
    from golden_groups import ledger

    entry = ledger.Entry(memo="m", amount={"cents": 5}, parts=[ledger.Money(currency="EUR")], fee={})
    assert entry.parts[0].currency == "EUR" and entry.parts == [ledger.Money(currency="EUR")]
    entry.parts.append({"cents": 1})
    again = ledger.Entry()
    again.message.ParseFromString(entry.message.SerializeToString())
    assert again == entry and repr(again).startswith("Entry(memo='m', amount=Money(cents=5)")


def test_round_trip_through_protocs_own_module(shop, tmp_path):
    """What the constructor, the enum setters and the views write is what
    protoc's own classes read, and back."""
    from google.protobuf import text_format
    from grpc_tools import protoc

    out = tmp_path / "protoc"
    out.mkdir()
    source = CASES / "shop" / "input"
    assert protoc.main(["protoc", f"-I{source}", f"--python_out={out}", str(source / "shop.proto")]) == 0
    spec = importlib.util.spec_from_file_location("protoc_shop_pb2", out / "shop_pb2.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    o = order(shop)
    o.items.append(shop.Order.Item(sku="c", unit_price=shop.Price(currency="EUR", amount=5)))
    o.payment = shop.PaymentMethod.TRANSFER
    theirs = module.Order.FromString(o.message.SerializeToString())
    assert theirs.payment == module.TRANSFER and [i.sku for i in theirs.items] == ["a", "b", "c"]
    assert text_format.MessageToString(theirs) == text_format.MessageToString(o.message)
    back = shop.Order()
    back.message.ParseFromString(theirs.SerializeToString())
    assert back == o
    catalogue = shop.Catalogue(prices={"x": shop.Price(amount=1)}, customers=[{"name": "A"}])
    theirs_catalogue = module.Catalogue.FromString(catalogue.message.SerializeToString())
    assert theirs_catalogue.prices["x"].amount == 1 and theirs_catalogue.customers[0].name == "A"
