"""Renamed and deprecated settings (annotations ``renamed_from`` and
``deprecated``) in a generated package: the annotated golden case renames
``ShopConfig.workers`` (from ``threads``) and ``Checkout.max_items`` (from
``max_basket``) and deprecates ``ShopConfig.tags``. Old names work as
properties, config keys, dict keys and prototxt field names, each use
warning at the user's line; nothing is written under an old name."""

from __future__ import annotations

import copy
import pickle
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import ROOT, golden_tree, import_generated

HERE = __file__


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    out = golden_tree(ROOT / "tests" / "goldens" / "cases" / "annotated" / "expected", tmp_path_factory.mktemp("al"))
    return import_generated(out, "golden_annotated")


@pytest.fixture
def shop(pkg):
    return pkg.Shop()


def caught(action):
    """Run ``action``; its warnings (all of them, none filtered)."""
    return returned_and_caught(action)[1]


def returned_and_caught(action):
    """What ``action`` returns, and its warnings."""
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        result = action()
    return result, found


def line_of(text: str) -> int:
    """The line of this file holding ``text`` (where a warning must point)."""
    lines = Path(HERE).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line and "line_of" not in line)


def test_an_old_property_reads_and_writes_the_new_field_and_warns_at_the_callers_line(shop):
    def write():
        shop.threads = 7  # the old name, written

    (w,) = caught(write)
    assert shop.workers == 7 and shop.config.workers == 7
    assert w.category is DeprecationWarning
    assert str(w.message) == "'threads' was renamed 'workers' in 1.2: use 'workers'"
    assert (w.filename, w.lineno) == (HERE, line_of("shop.threads = 7"))

    def read():
        assert shop.threads == 7  # the old name, read

    (w,) = caught(read)
    assert (w.filename, w.lineno) == (HERE, line_of("assert shop.threads == 7"))


def test_an_old_property_goes_through_the_setters_checks(pkg, shop):
    shop.strict = True
    with pytest.raises(TypeError), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shop.threads = "many"
    assert shop.workers == 4  # unchanged


def test_nothing_is_written_under_an_old_name(pkg, shop):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shop.threads = 3
        shop.checkout_configs = {"max_basket": 9}
    text = str(shop.config)
    assert "workers: 3" in text and "max_items: 9" in text
    assert "threads" not in text and "max_basket" not in text
    assert pickle.loads(pickle.dumps(shop)).workers == 3 and copy.deepcopy(shop).checkout_configs["max_items"] == 9


def test_an_old_config_key_is_accepted_with_a_warning_in_both_modes(pkg):
    for strict in (False, True):
        shop = pkg.Shop()
        shop.strict = strict

        def assign():
            shop.checkout_configs = {"max_basket": 12, "timeout_s": 5.0}  # old key

        (w,) = caught(assign)
        assert shop.checkout_configs["max_items"] == 12 and shop.checkout_configs["timeout_s"] == 5.0
        assert str(w.message) == (
            "checkout_configs: 'max_basket' was renamed 'max_items' in 1.1; "
            "the old name goes away in 3.0: use 'max_items'"
        )
        assert (w.filename, w.lineno) == (HERE, line_of('{"max_basket": 12, "timeout_s": 5.0}'))


def test_an_old_key_beside_its_new_name_is_refused_and_changes_nothing(shop):
    with pytest.raises(ValueError, match="both 'max_basket' and 'max_items'"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shop.checkout_configs = {"max_basket": 1, "max_items": 2}
    assert not shop.config.HasField("checkout")


def test_an_old_key_is_checked_like_its_field(shop):
    with pytest.raises(ValueError, match="max_items"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shop.checkout_configs = {"max_basket": 0}  # enforce_constraint: always, > 0
    assert not shop.config.HasField("checkout")


def test_an_unknown_key_is_still_unknown(pkg, shop):
    with pytest.raises(pkg.UnknownConfigKeyError):
        shop.checkout_configs = {"max_basket_size": 1}


def test_a_deprecated_field_warns_on_every_use(shop):
    def use():
        shop.tags = ["a"]  # deprecated field, written
        assert shop.tags == ["a"]  # and read

    first, second = caught(use)
    assert str(first.message) == (
        "'tags' is deprecated since 1.3, to be removed in 2.0: use owners to say who may change the settings"
    )
    assert first.category is DeprecationWarning and second.category is DeprecationWarning
    assert [first.lineno, second.lineno] == [line_of('shop.tags = ["a"]'), line_of('assert shop.tags == ["a"]')]
    assert first.filename == HERE


def test_a_deprecated_config_key_warns(pkg, shop, monkeypatch):
    runtime = pkg.runtime
    entry = runtime.Deprecated("shop.Checkout", "methods", "pay at the door", "1.0", None)
    monkeypatch.setitem(runtime.DEPRECATED, "shop.Checkout", {"methods": entry})
    (w,) = caught(lambda: setattr(shop, "checkout_configs", {"methods": ["card"]}))
    assert str(w.message) == "checkout_configs['methods']: 'methods' is deprecated since 1.0: pay at the door"
    assert shop.checkout_configs["methods"] == ["card"]


def test_the_attribute_lock_still_refuses_unknown_names(shop):
    with pytest.raises(TypeError):
        shop.thread = 1


def test_the_table_is_exposed_by_the_runtime(pkg):
    runtime = pkg.runtime
    assert runtime.RENAMED["shop.ShopConfig"] == {
        "threads": runtime.Renamed("shop.ShopConfig", "threads", "workers", "1.2", None)
    }
    assert runtime.renamed_of(pkg.shop_pb2.Checkout)["max_basket"].removed_in == "3.0"
    assert runtime.renamed_of(pkg.shop_pb2.Checkout.DESCRIPTOR) is runtime.RENAMED["shop.Checkout"]
    assert runtime.deprecated_of("shop.ShopConfig")["tags"].since == "1.3"
    assert runtime.renamed_of("shop.Nothing") == {} and runtime.deprecated_of(pkg.shop_pb2.Checkout()) == {}
    # the typing marker PEP 702 defines, without typing_extensions at run time
    assert pkg.Shop.threads.fget.__deprecated__.startswith("'threads' was renamed 'workers'")


# -- files: prototxt and dicts ------------------------------------------------------


PROTOTXT = """\
# threads: 99 (a comment is left alone)
threads: 9
tags: "threads"
checkout <
  max_basket: 5
  methods: ["max_basket", 'card']
>
"""


def test_text_renames_locate_old_names_and_skip_values_and_comments(pkg):
    runtime = pkg.runtime
    found = runtime.text_renames(PROTOTXT, pkg.shop_pb2.ShopConfig.DESCRIPTOR)
    assert found == [
        runtime.TextRename(2, 1, PROTOTXT.index("\nthreads: 9") + 1, "threads", "workers", "shop.ShopConfig"),
        runtime.TextRename(5, 3, PROTOTXT.index("max_basket: 5"), "max_basket", "max_items", "shop.Checkout"),
    ]


def test_a_prototxt_with_old_names_loads(pkg, shop, tmp_path):
    path = tmp_path / "old.prototxt"
    path.write_text(PROTOTXT, encoding="utf-8")
    found = caught(lambda: pkg.runtime.merge_text_file(shop.config, path))
    assert [str(w.message) for w in found] == [
        f"{path}:2: 'threads' was renamed 'workers' in 1.2: use 'workers'",
        f"{path}:5: 'max_basket' was renamed 'max_items' in 1.1; the old name goes away in 3.0: use 'max_items'",
    ]
    assert shop.config.workers == 9 and shop.config.checkout.max_items == 5
    assert list(shop.config.checkout.methods) == ["max_basket", "card"] and list(shop.config.tags) == ["threads"]


def test_the_wire_format_is_unchanged(pkg):
    """A field renamed in place keeps its number: bytes written under the old name read under the new."""
    from google.protobuf import descriptor_pb2

    fd = descriptor_pb2.FileDescriptorProto()
    pkg.shop_pb2.DESCRIPTOR.CopyToProto(fd)
    old = next(m for m in fd.message_type if m.name == "ShopConfig")
    next(f for f in old.field if f.name == "workers").name = "threads"
    from google.protobuf import descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    OldConfig = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.ShopConfig"))
    data = OldConfig(threads=11).SerializeToString()
    assert pkg.shop_pb2.ShopConfig.FromString(data).workers == 11


def test_current_keys_rename_at_every_level(pkg):
    runtime = pkg.runtime
    descriptor = pkg.shop_pb2.ShopConfig.DESCRIPTOR
    data = {"threads": 2, "checkout": {"max_basket": 3}, "open": True}
    found = caught(lambda: data.update(result=runtime.current_keys(descriptor, data)))
    assert data.pop("result") == {"workers": 2, "checkout": {"max_items": 3}, "open": True}
    assert [str(w.message).split(":")[0] for w in found] == ["shop.ShopConfig.threads", "shop.ShopConfig.checkout.max_basket"]
    assert data == {"threads": 2, "checkout": {"max_basket": 3}, "open": True}  # the caller's dict is untouched
    assert runtime.current_keys(descriptor, [1]) == [1]
    with pytest.raises(ValueError, match="both 'threads' and 'workers'"):
        runtime.current_keys(descriptor, {"threads": 1, "workers": 2})


def test_a_deep_document_does_not_exhaust_the_stack(pkg):
    """Hostile nesting under an unknown key is returned as it is; renames stop past protobuf's depth."""
    runtime = pkg.runtime
    deep: dict[str, object] = {}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]  # type: ignore[assignment]
    assert runtime.current_keys(pkg.shop_pb2.ShopConfig.DESCRIPTOR, {"checkout": deep})["checkout"] == deep
    text = "checkout {" * 5000 + "}" * 5000
    assert runtime.text_renames(text, pkg.shop_pb2.ShopConfig.DESCRIPTOR) == []


# -- lint -------------------------------------------------------------------------------


def test_lint_reports_deprecated_settings_in_use(pkg, shop):
    assert shop.lint() == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        shop.tags = ["a"]
    assert shop.lint() == [
        pkg.lint.Finding(
            "deprecated-setting",
            ("tags",),
            "`tags`: 'tags' is deprecated since 1.3, to be removed in 2.0: use owners to say who may change the settings.",
        )
    ]


def test_lint_finds_deprecated_settings_at_any_depth(pkg, shop, monkeypatch):
    entry = pkg.runtime.Deprecated("shop.Checkout", "timeout_s", "checkouts never time out", "1.0", None)
    monkeypatch.setitem(pkg.runtime.DEPRECATED, "shop.Checkout", {"timeout_s": entry})
    shop.checkout_configs = {"max_items": 2}
    assert shop.lint() == []  # not set
    shop.checkout_configs = {"timeout_s": 3.0}
    assert [(f.code, f.fields) for f in shop.lint()] == [("deprecated-setting", ("checkout.timeout_s",))]


def test_the_lint_command_reads_old_names_and_reports_them(pkg, tmp_path, capsys):
    path = tmp_path / "old.prototxt"
    path.write_text(PROTOTXT, encoding="utf-8")
    from importlib import import_module

    cli = import_module("golden_annotated.__main__")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the command reports old names as findings, never as warnings
        code = cli.main(["lint", str(path)], cli.CLASSES, prog="python -m golden_annotated")
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out == [
        f"{path}:2: renamed-setting: 'threads' was renamed 'workers' in 1.2: use 'workers'.",
        f"{path}:5: renamed-setting: 'max_basket' was renamed 'max_items' in 1.1; "
        "the old name goes away in 3.0: use 'max_items'.",
        f"{path}:3: deprecated-setting: `tags`: 'tags' is deprecated since 1.3, to be removed in 2.0: "
        "use owners to say who may change the settings.",
    ]


# -- documents: from_dict, load, to_dict, save ------------------------------------------


def test_from_dict_takes_old_names_and_to_dict_writes_new_ones(pkg):
    shop, found = returned_and_caught(lambda: pkg.Shop.from_dict({"threads": 3, "checkout": {"max_basket": 7}}))
    assert (shop.workers, shop.checkout_configs["max_items"]) == (3, 7)
    assert [str(w.message) for w in found] == [
        "threads: 'threads' was renamed 'workers' in 1.2: use 'workers'",
        "checkout.max_basket: 'max_basket' was renamed 'max_items' in 1.1; the old name goes away in 3.0: use 'max_items'",
    ]
    assert all(w.filename == HERE for w in found)
    assert shop.to_dict() == {"workers": 3, "checkout": {"max_items": 7}}


def test_a_document_giving_an_old_name_beside_its_new_one_is_refused(pkg):
    with pytest.raises(pkg.runtime.ConfigError) as info:
        pkg.Shop.from_dict({"threads": 3, "workers": 4, "checkout": {"max_basket": 1, "max_items": 2}})
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("duplicate_key", "threads"),
        ("duplicate_key", "checkout.max_basket"),
    ]
    assert "keep only 'workers'" in str(info.value)


@pytest.mark.parametrize(
    "name, text",
    [
        ("old.yaml", "# written for 1.1\nthreads: 5\ncheckout:\n  max_basket: 6\n"),
        ("old.json", '{\n  "threads": 5,\n  "checkout": {\n    "max_basket": 6\n  }\n}\n'),
        ("old.prototxt", "threads: 5\ncheckout {\n  max_basket: 6\n}\n"),
    ],
)
def test_old_files_load_with_warnings_naming_the_line_and_save_new_names(pkg, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    shop, found = returned_and_caught(lambda: pkg.Shop.load(path))
    assert (shop.workers, shop.checkout_configs["max_items"]) == (5, 6)
    lines = [i for i, line in enumerate(text.splitlines(), 1) if "threads" in line or "max_basket" in line]
    assert [str(w.message).split(": ")[0] for w in found] == [f"{path}:{line}" for line in lines]
    assert all(w.category is DeprecationWarning and w.filename == HERE for w in found)
    shop.save(path)
    saved = path.read_text(encoding="utf-8")
    assert "workers" in saved and "max_items" in saved and "threads" not in saved and "max_basket" not in saved
    assert caught(lambda: pkg.Shop.load(path)) == []


def test_a_deprecated_field_in_a_document_warns(pkg):
    found = caught(lambda: pkg.Shop.from_dict({"tags": ["a"]}))
    assert [str(w.message) for w in found] == [
        "tags: 'tags' is deprecated since 1.3, to be removed in 2.0: use owners to say who may change the settings"
    ]


def test_the_lint_command_reports_old_names_in_yaml_by_line(pkg, tmp_path, capsys):
    from importlib import import_module

    cli = import_module("golden_annotated.__main__")
    path = tmp_path / "old.yaml"
    path.write_text("open: true\ncheckout:\n  max_basket: 6\n", encoding="utf-8")
    code = cli.main(["lint", str(path)], cli.CLASSES, prog="python -m golden_annotated")
    assert code == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:3: renamed-setting: 'max_basket' was renamed 'max_items' in 1.1; "
        "the old name goes away in 3.0: use 'max_items'."
    ]
