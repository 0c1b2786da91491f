"""Docs and types generated from one source: docstrings, doctests, TypedDicts, reference page."""

from __future__ import annotations

import doctest
import functools
import os
import json
import re
import typing

import pytest

import fleet_strategy
from fleet_strategy import _runtime_aliases, distributed_strategy, distributed_strategy_pb2, hooks, types
from fleet_strategy.distributed_strategy import DistributedStrategy
from tests.support import REFERENCE, ROOT

FINDER = doctest.DocTestFinder(exclude_empty=True)
DOCTESTS = [
    t
    for module in (fleet_strategy, distributed_strategy, hooks, types)
    for t in FINDER.find(module, module.__name__)
    if t.examples
]
PROPERTIES = sorted(name for name, value in vars(DistributedStrategy).items() if isinstance(value, property) and name != "strict")


@pytest.mark.parametrize("test", DOCTESTS, ids=[t.name for t in DOCTESTS])
def test_docstring_examples_run(test, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples that save files write here, never in the repo
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
    assert result.failed == 0


def test_every_property_has_an_example():
    with_examples = {t.name.rsplit(".", 1)[-1] for t in DOCTESTS}
    reference = json.loads((REFERENCE / "setter_behaviour.json").read_text())["properties"]
    assert PROPERTIES == sorted(reference)  # the same 61 properties as Paddle's class
    assert [p for p in PROPERTIES if p not in with_examples] == []


@pytest.mark.parametrize("name", PROPERTIES)
def test_property_docstring_states_descriptor_default(name):
    doc = getattr(DistributedStrategy, name).__doc__
    assert doc and doc.strip().splitlines()[0].endswith(".")
    assert "Type:" in doc and "Examples:" in doc
    if "Keys:" in doc:  # a config: its table shows every key's default; the class docs say so once
        assert "Default:" not in doc and re.search(r"^\s+key\s+type\s+default\s", doc, re.M)
        assert "until set, are at the defaults its table shows" in " ".join(DistributedStrategy.__doc__.split())
    elif name not in ("sparse_table_configs", "fleet_desc_configs"):
        assert "Default:" in doc  # the descriptor's: the class docs say so once
    assert "(the descriptor's default)" not in doc
    assert "the protobuf descriptor declares" in " ".join(DistributedStrategy.__doc__.split())


@pytest.mark.parametrize(
    ("name", "needle", "wrong"),
    [
        ("conv_workspace_size_limit", "``512``", "4000"),
        ("cudnn_exhaustive_search", "``False``", "``True``"),
        ("cudnn_batchnorm_spatial_persistent", "``False``", "``True``"),
    ],
)
def test_no_wrong_defaults_of_the_reference(name, needle, wrong):
    doc = getattr(DistributedStrategy, name).__doc__
    default = doc.split("Default:")[1].split("\n\n")[0]
    assert needle in default and wrong not in default


def test_config_tables_show_declared_values():
    amp = DistributedStrategy.amp_configs.__doc__
    assert re.search(r"decr_ratio\s+float \(float32\)\s+0\.8\s", amp)
    dgc = DistributedStrategy.dgc_configs.__doc__
    assert re.search(r"sparsity\s+list\[float \(float32\)\]\s+\[\]\s", dgc)
    for name in ("a_sync_configs", "trainer_desc_configs"):
        doc = getattr(DistributedStrategy, name).__doc__
        assert not re.search(r"^\s+k_step\s", doc, re.M) and not re.search(r"^\s+dump_field\s", doc, re.M)


def test_every_config_key_is_in_its_table():
    message = distributed_strategy_pb2.DistributedStrategy.DESCRIPTOR
    for field in message.fields:
        if field.message_type is None or field.name in ("downpour_table_param",):
            continue
        prop = {"build_strategy": "build_strategy"}.get(field.name, field.name)
        doc = getattr(DistributedStrategy, prop).__doc__
        for key in field.message_type.fields:
            assert re.search(rf"^\s+{re.escape(key.name)}\s", doc, re.M), (prop, key.name)


@functools.cache
def _extra_keys() -> dict[str, list[str]]:
    """The annotations' extra keys (keys a setter takes besides the fields), by message name."""
    import yaml

    notes = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text())["messages"]
    return {full.rsplit(".", 1)[1]: list(note["extra_keys"]) for full, note in notes.items() if "extra_keys" in note}


def test_typed_dicts_are_complete():
    messages = distributed_strategy_pb2.DESCRIPTOR.message_types_by_name
    assert len(messages) == 45
    extras = _extra_keys()
    assert extras == {"HybridConfig": ["order"], "MpConfig": ["sync_param_name"]}  # Paddle's two
    for name, descriptor in messages.items():
        out = getattr(types, f"{name}Dict")
        given = getattr(types, f"{name}Input")
        names = [f.name for f in descriptor.fields]
        assert list(typing.get_type_hints(out, globalns=vars(types))) == names, name  # a getter returns fields only
        old = set(_runtime_aliases.RENAMED.get(descriptor.full_name, {}))  # and old names (renamed_from)
        assert [k for k in given.__annotations__ if k not in old] == names + extras.get(name, []), name  # a setter takes the extras too
        assert old <= set(given.__annotations__), name
        assert given.__total__ is False and out.__total__ is True


def test_extra_keys_are_what_the_setter_takes():
    """Each extra key the input TypedDicts declare is one the setter accepts, where they put it."""
    strategy = DistributedStrategy()
    configs: types.HybridConfigInput = {"order": ("pp", "dp", "sharding", "sep", "cp", "mp"), "mp_configs": {"sync_param_name": ["emb"]}}
    strategy.hybrid_configs = configs
    assert strategy.hybrid_parallel_order == ["pp", "dp", "sharding", "sep", "cp", "mp"]
    assert strategy.sync_param_name == ["emb"]
    assert "order" not in strategy.hybrid_configs and "sync_param_name" not in strategy.hybrid_configs["mp_configs"].DESCRIPTOR.fields_by_name
    assert typing.get_args(types.ModeName) == ("COLLECTIVE", "PS", "PIPELINE", "HETER")


def test_reference_page_lists_every_property_and_key():
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    for name in PROPERTIES:
        assert f"`DistributedStrategy.{name}`" in page
    assert re.search(r"\| `decr_ratio` \| `float \(float32\)` \| `0\.8` \|", page)
    # the default is the descriptor's; Paddle's claim of 4000 shows once, where the Defaults note names it
    assert re.search(r"\| \[`conv_workspace_size_limit`\]\(#[a-z_-]+\) \| `int \(int32\)` \| `512` \|", page)
    assert page.count("4000") == 1 and "docs claimed defaults" in page.split("4000")[0].rsplit("\n", 1)[-1]


SHARED_NOTES = (
    "logs a warning and keeps the old value",  # the class-wide compatible-mode answer
    "Strict mode (the ``strict`` property) raises TypeError",
    "all-or-nothing",
    "The caller's dict is never modified",
    "UnknownConfigKeyError",
    "replaces the stored list",
)


def _flat(text: str | None) -> str:
    return " ".join((text or "").split())


@pytest.mark.parametrize("needle", SHARED_NOTES)
def test_shared_notes_are_said_once_in_the_class_docs(needle):
    """Issue 13: a note that holds for every property is in the class
    docstring (help(DistributedStrategy) shows it) and in no property's."""
    assert _flat(DistributedStrategy.__doc__).count(needle) == 1
    assert [p for p in PROPERTIES if needle in _flat(getattr(DistributedStrategy, p).__doc__)] == []
    # DistributedJobInfo has no properties (as Paddle's class): none of the sections
    assert _flat(distributed_strategy.DistributedJobInfo.__doc__).count(needle) == 0
    page = _flat((ROOT / "generated" / "fleet_strategy.md").read_text())
    assert page.count(needle) == 1  # the page says the config rules once, above its classes


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        ("a_sync", "raises ValueError"),
        ("adam_d2sum", "raises ValueError"),
        ("fp16_allreduce", "raises TypeError"),
        ("last_comm_group_size_MB", "protobuf checks the value"),
    ],
)
def test_a_member_that_differs_from_the_class_rule_says_so(name, answer):
    doc = _flat(getattr(DistributedStrategy, name).__doc__)
    assert f"Compatible mode: a value of the wrong type {answer}, as Paddle 3.3.1 does" in doc or (
        f"Compatible mode: {answer}, as Paddle 3.3.1 does" in doc
    )
    assert "Validation section" in doc


def test_a_renamed_property_names_its_proto_field():
    doc = _flat(DistributedStrategy._fuse_grad_size_in_TFLOPS.__doc__)
    assert "Reads and writes the proto field ``fuse_grad_size_in_TFLOPS``." in doc


# ------------------------------------------------ the reference page is complete


def _page_tables(page: str) -> list[tuple[str, dict[str, tuple[str, str]]]]:
    """Every table of the page: (the heading above it, {first cell: (type cell, default cell)})."""
    tables: list[tuple[str, dict[str, tuple[str, str]]]] = []
    heading, rows, in_table = "", {}, False
    for line in page.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if not in_table:
                in_table, rows = True, {}
            elif not set(cells[0]) <= {"-"}:
                name = re.sub(r"^\[(.*)\]\(.*\)$", r"\1", cells[0]).strip("`")
                rows[name] = (cells[1], cells[2])
            continue
        if in_table:
            tables.append((heading, rows))
            in_table = False
        if line.startswith("#"):
            heading = line
    return tables


def _reachable(descriptor) -> list:
    """Every message held, at any depth, by a field of ``descriptor`` (map values included)."""
    found, queue = [], [descriptor]
    while queue:
        for field in queue.pop(0).fields:
            held = field.message_type
            if held is not None and held.GetOptions().map_entry:
                held = held.fields_by_name["value"].message_type
            if held is not None and held not in found and held is not descriptor:
                found.append(held)
                queue.append(held)
    return found


def _unnamed(page: str) -> list[str]:
    """Keys of nested messages and fields of the classes' messages the page
    lists nowhere (each message's keys, extra keys included, must be one
    table), and rows without a stated default."""
    tables = _page_tables(page)
    extras = _extra_keys()
    classes = {"DistributedStrategy": distributed_strategy_pb2.DistributedStrategy.DESCRIPTOR,
               "DistributedJobInfo": distributed_strategy_pb2.DistributedJobInfo.DESCRIPTOR}
    missing = []
    checked = {d.full_name for d in classes.values()}
    for name, descriptor in classes.items():
        in_class = {key: row for heading, rows in tables if name in heading or heading == f"## `{name}`" for key, row in rows.items()}
        cls = getattr(distributed_strategy, name)
        property_of = {field: prop for prop, field in getattr(cls, "_renamed", {}).items()}  # a property named otherwise
        for field in descriptor.fields:
            key = property_of.get(field.name, field.name)
            if key not in in_class:
                missing.append(f"{name}.{field.name}: no row")
            elif in_class[key][1] in ("", "—"):
                missing.append(f"{name}.{field.name}: no default")
        for held in _reachable(descriptor):
            if held.full_name in checked:  # a class's own message, or one checked already
                continue
            checked.add(held.full_name)
            keys = {f.name for f in held.fields} | set(extras.get(held.name, []))
            table = next((rows for _, rows in tables if set(rows) == keys), None)
            if table is None:
                missing.append(f"{held.full_name}: no table of its keys {sorted(keys)}")
                continue
            missing += [f"{held.full_name}.{k}: no default" for k, (_, default) in table.items() if default in ("", "—")]
    return missing


def test_reference_page_names_every_nested_key_with_its_default():
    """Issue 20: every key of every message reachable from the classes (nested
    configs such as ``hybrid_configs`` -> ``mp_configs.sync_grad``, the tables
    of ``downpour_table_param``) is in a table of the page with its default."""
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    assert _unnamed(page) == []
    assert len(_reachable(distributed_strategy_pb2.DistributedStrategy.DESCRIPTOR)) > 30  # the walk sees the nesting


def test_reference_page_finds_an_unnamed_key():
    """The check above fails on a page that drops one nested key's row."""
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    row = next(line for line in page.splitlines() if line.startswith("| `sync_grad` |"))
    assert _unnamed(page.replace(row + "\n", "")) == [
        "paddle.fleet.MpConfig: no table of its keys " + repr(sorted(_keys_of("MpConfig")))
    ]


def _keys_of(name: str) -> set[str]:
    return {f.name for f in distributed_strategy_pb2.DESCRIPTOR.message_types_by_name[name].fields} | set(
        _extra_keys().get(name, [])
    )


def test_reference_page_states_every_attribute_default():
    """Plain attributes (not fields) are listed with their defaults, as a fresh instance has them."""
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    tables = dict((heading, rows) for heading, rows in _page_tables(page) if "attributes" in heading)
    rows = tables["### DistributedStrategy attributes"]
    fresh = DistributedStrategy()
    for name in ("hybrid_parallel_order", "sync_param_name"):
        assert rows[name][1] == f"`{getattr(fresh, name)!r}`", name


def _recipes() -> dict[str, str]:
    import yaml

    notes = yaml.safe_load((ROOT / "proto" / "fleet_strategy.annotations.yaml").read_text())
    return {title: r["example"] for title, r in notes["classes"]["DistributedStrategy"]["recipes"].items()}


RECIPES = _recipes()
NEEDS_PADDLE = [title for title, example in RECIPES.items() if "import paddle" in example]


def test_reference_page_shows_the_recipes():
    """Issue 20's workflows, on the page: data parallel, hybrid with sharding and recompute,
    AMP O1/O2, pipeline, and handing a strategy to fleet (``to_paddle``/``from_paddle``)."""
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    for title, example in RECIPES.items():
        assert f"#### {title}\n" in page and example.strip() in page, title
    shown = " ".join(RECIPES.values())
    for needle in ("hybrid_configs", "sharding_configs", "recompute_configs", "use_pure_fp16", "pp_degree",
                   "fleet.distributed_optimizer(", "to_paddle()", "from_paddle("):
        assert needle in shown, needle


@pytest.mark.parametrize("title", [t for t in RECIPES if t not in NEEDS_PADDLE])
def test_recipe_runs(title, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(RECIPES[title], {}, title, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
    assert runner.failures == 0 and runner.tries > 3


@pytest.mark.parametrize("title", NEEDS_PADDLE)
def test_recipe_runs_with_paddle(title, tmp_path):
    import subprocess

    from tests.tool.test_docs_examples import paddle_python

    python = paddle_python()
    if python is None:
        pytest.skip("no Python with paddlepaddle==3.3.1: run tests/integration/setup_paddle.sh")
    script = (
        "import doctest, sys\n"
        f"test = doctest.DocTestParser().get_doctest({RECIPES[title]!r}, {{}}, {title!r}, None, 0)\n"
        "runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\n"
        "runner.run(test)\n"
        "sys.exit(1 if runner.failures or not runner.tries else 0)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generated"), "FLAGS_enable_pir_api": "0", "GLOG_v": "0"}
    done = subprocess.run([python, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


# ------------------------------------------------ Keys tables fit 100 columns


def _keys_table(doc: str) -> dict[str, tuple[str, str, str]]:
    """A docstring's Keys table, read as RST reads a simple table: columns
    from the rule's ``=`` runs, a line with a blank first column continuing
    the row above. ``{key: (type, default, meaning)}``."""
    lines = doc.split("Keys:\n", 1)[1].splitlines()
    rule = lines[0]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", rule)]
    rows: dict[str, list[str]] = {}
    key = None
    for line in lines[3:]:
        if line.strip() == rule.strip():
            break
        cells = [line[start:end if i < len(spans) - 1 else None].strip() for i, (start, end) in enumerate(spans)]
        if cells[0]:
            key = cells[0]
            rows[key] = cells[1:]
        else:
            rows[key] = [f"{a} {b}".strip() for a, b in zip(rows[key], cells[1:])]
    return {k: tuple(v) for k, v in rows.items()}  # type: ignore[misc]


CONFIGS = [p for p in PROPERTIES if "Keys:" in (getattr(DistributedStrategy, p).__doc__ or "")]


def test_keys_tables_fit_100_columns():
    """Issue 20: no line of a Keys table (in the class module as written) is wider than 100."""
    for path in (ROOT / "generated" / "fleet_strategy" / "distributed_strategy.py",
                 ROOT / "generated" / "paddle" / "distributed" / "fleet" / "base" / "distributed_strategy.py"):
        lines = path.read_text().splitlines()
        starts = [i for i, line in enumerate(lines) if line.strip() == "Keys:"]
        assert len(starts) == len(CONFIGS), path
        wide = []
        for start in starts:
            rules = 0
            for line in lines[start + 1 :]:
                rules += line.strip().startswith("=")
                if len(line) > 100:
                    wide.append(line)
                if rules == 3:  # the table's last rule
                    break
        assert wide == [], path


@pytest.mark.parametrize("name", CONFIGS)
def test_keys_table_keeps_every_fact(name):
    """Wrapped, a table still says what the reference page's table says: each
    key's type and default, and its description's first sentence."""
    table = _keys_table(getattr(DistributedStrategy, name).__doc__)
    page = (ROOT / "generated" / "fleet_strategy.md").read_text()
    section = page.split(f"`DistributedStrategy.{name}`\n", 1)[1].split("\n### ", 1)[0]
    on_page = next(rows for _, rows in _page_tables(section) if "key" not in rows)
    assert list(table) == [k for k in on_page if k not in _extra_keys().get(name, [])][: len(table)]
    for key, (type_text, default, meaning) in table.items():
        page_type, page_default = on_page[key]
        assert f"`{type_text}`" in page_type and page_default == f"`{default}`", key
        # an old name is said in the docstring's row; the page says it in its removal schedule
        meaning = re.sub(r"^\(formerly ``\w+``\) ", "", meaning)
        assert meaning.rstrip(".") in section, key


def test_reference_page_links_resolve():
    """Every in-page link (a property, a nested message's section, the contents) has its anchor."""
    from tests.tool.test_docs_examples import anchors

    page = ROOT / "generated" / "fleet_strategy.md"
    targets = re.findall(r"\]\(#([^)]+)\)", page.read_text())
    assert len(targets) > 100 and "nested-messages" in targets and "message-paddle-fleet-mpconfig" in targets
    assert sorted(set(targets) - anchors(page)) == []
