"""Issue 30 point 5: the runtime as a distribution of its own.

``runtime = "dependency"`` (one option: generator/options.py) generates a
package that carries no copy of the runtime: its ``runtime`` (and ``lint``)
module runs the fleet-strategy-codegen-runtime distribution's module of that
name as its own (generator/shipped/loader.py), after checking the version.
The distribution is built from generator/shipped by runtime/backend.py. Here
the distribution is staged as its build stages it (no wheel: the full tier's
test below builds and installs one) and the packages run in fresh processes.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from generator import __version__
from generator import options as o
from generator.cli import _parser
from generator.errors import GeneratorError
from generator.options import Options
from generator.output.plan import plan
from generator.output.write import apply
from generator.pipeline import Generated, build
from generator.schema.naming import RUNTIME_MODULES, runtime_bounds, runtime_requirement
from tests.support import ROOT

SHOP = ROOT / "tests" / "goldens" / "cases" / "shop" / "input"
ANNOTATED = ROOT / "tests" / "goldens" / "cases" / "annotated" / "input"
REQUIREMENT = runtime_requirement(__version__)
SHIPPED = ROOT / "generator" / "shipped"


def backend() -> ModuleType:
    """runtime/backend.py, the distribution's build backend."""
    spec = importlib.util.spec_from_file_location("runtime_backend", ROOT / "runtime" / "backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def staged_runtime(folder: Path, version: str | None = None) -> Path:
    """The distribution's package as its build stages it, under ``folder``
    (its __version__ replaced by ``version``): the folder to put on the path."""
    package = backend().stage(ROOT, folder)
    if version is not None:
        init = package / "__init__.py"
        init.write_text(init.read_text().replace(f"__version__ = {__version__!r}", f"__version__ = {version!r}"))
    return package.parent


def generate(out: Path, package: str, runtime: str = "dependency", case: Path = SHOP) -> Generated:
    annotations = case / "annotations.yaml"
    options = Options(
        protos=(case / "shop.proto",),
        annotations=annotations if annotations.is_file() else None,
        out=out,
        package=package,
        runtime=runtime,
    )
    result = build(options)
    apply(plan(out, result.files, package))
    return result


def run(code: str, *path: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter whose path has only ``path`` added."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, path))}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd)


# ------------------------------------------------------------------ the option


def test_the_runtime_is_one_setting_with_two_values(tmp_path):
    (option,) = [opt for opt in o.OPTIONS if opt.name == "runtime"]
    assert (option.flags, option.key, option.parameter, option.choices, option.default) == (
        ("--runtime",), "runtime", "runtime", ("copy", "dependency"), "copy"
    )
    assert o.parse_parameter("runtime=dependency") == {"runtime": "dependency"}
    with pytest.raises(GeneratorError) as bad:
        o.parse_parameter("runtime=shared")
    assert str(bad.value) == "plugin parameter 'runtime=shared': runtime must be one of 'copy', 'dependency'"
    pyproject = tmp_path / "pyproject.toml"
    assert o.check_table({"runtime": "dependency"}, pyproject) == {"runtime": "dependency"}
    with pytest.raises(GeneratorError) as bad:
        o.check_table({"runtime": "shared"}, pyproject)
    assert "[tool.fleet-strategy-codegen]: runtime must be one of 'copy', 'dependency', got 'shared'" in str(bad.value)
    with pytest.raises(GeneratorError):
        o.check_table({"runtime": True}, pyproject)
    table = o.Config({"runtime": "dependency"}, pyproject)
    merged = o.merge({"protos": [Path("a.proto")], "out": Path("out"), "package": "p"}, table, "cli", tmp_path)
    assert merged.runtime == "dependency"
    assert o.merge({"protos": [Path("a.proto")], "out": Path("o"), "package": "p"}, o.Config({}, None), "cli",
                   tmp_path).runtime == "copy"
    with pytest.raises(SystemExit) as exited:
        _parser("fleet-strategy-codegen").parse_args(["generate", "--runtime", "shared"])
    assert exited.value.code == 2


def test_the_requirement_follows_the_tools_version():
    assert runtime_bounds("0.1.0") == ((0, 1, 0), (0, 2))
    assert runtime_bounds("1.4.2") == ((1, 4, 2), (2,))
    assert runtime_requirement("0.1.0") == "fleet-strategy-codegen-runtime>=0.1.0,<0.2"
    assert runtime_requirement("2.0.1") == "fleet-strategy-codegen-runtime>=2.0.1,<3"
    from generator.shipped.loader import version_numbers

    assert [version_numbers(v) for v in ("0.1.0", "1.2.3rc1", "2", "x", "0.1.dev4")] == [
        (0, 1, 0), (1, 2, 3), (2,), (), (0, 1)
    ]


# ------------------------------------------------------------------ what is generated


def test_a_dependency_package_carries_no_runtime_and_says_what_it_needs(tmp_path):
    copied = generate(tmp_path / "copy", "shop_api", "copy").files
    depends = generate(tmp_path / "dependency", "shop_api").files
    runtime_files = {f"shop_api/{m}.py" for m in RUNTIME_MODULES}
    assert runtime_files <= set(copied)
    assert set(depends) == set(copied) - runtime_files | {"shop_api/runtime.py"}
    shim = depends["shop_api/runtime.py"]
    assert "from fleet_strategy_codegen_runtime.runtime import *" in shim
    assert f'load(__name__, "{REQUIREMENT}", (0, 1, 0), (0, 2))' in shim
    # the manifest, the package docstring and the reference page state the requirement
    assert json.loads(depends["shop_api.manifest.json"])["runtime"] == REQUIREMENT
    assert "runtime" not in json.loads(copied["shop_api.manifest.json"])
    assert f"Runtime: ``{REQUIREMENT}``, installed beside this" in depends["shop_api/__init__.py"]
    assert f"**Runtime**: the package runs on `{REQUIREMENT}`" in depends["shop_api.md"]
    assert "Runtime" not in copied["shop_api/__init__.py"] and "**Runtime**" not in copied["shop_api.md"]
    # nothing else differs: the classes, types and stubs are the same in both modes
    for path in set(depends) - {"shop_api/runtime.py", "shop_api/__init__.py", "shop_api.md", "shop_api.manifest.json"}:
        assert depends[path] == copied[path], path
    lines = sum(text.count("\n") for path, text in depends.items() if path.endswith((".py", ".pyi")))
    copied_lines = sum(text.count("\n") for path, text in copied.items() if path.endswith((".py", ".pyi")))
    runtime_lines = sum(copied[path].count("\n") for path in runtime_files)
    shim = depends["shop_api/runtime.py"].count("\n") + 2  # and the docstring's two lines on it
    assert lines <= copied_lines - runtime_lines + shim and lines * 3 < copied_lines


def test_shared_behaviour_is_stated_once_per_package(tmp_path):
    """Defaults, config dicts and threads: once, in the package docstring (and
    the reference page), not in each class, which points there; Paddle's
    classes (annotations with a reference) keep them."""
    files = generate(tmp_path / "out", "shop_api").files
    init, classes, page = files["shop_api/__init__.py"], files["shop_api/shop.py"], files["shop_api.md"]
    for section in ("Defaults:", "Config dicts:", "Threads:"):
        assert init.count(f"\n{section}\n") == 1 and f"{section}\n" not in classes
    assert "An instance may be shared between threads" in init and "shared between threads" not in classes
    # a compact Record's docstring is its message's doc; the notes are the package's
    assert "as for every class of" not in classes
    assert page.count("(every class)") == 3
    assert '"""How many; at least 1. ``int (uint32)``, default ``0``."""' in classes  # a field's facts on one line
    paddle = (ROOT / "generated" / "fleet_strategy" / "distributed_strategy.py").read_text()
    assert "\n    Threads:\n" in paddle and "as for every class of" not in paddle


def test_a_target_build_keeps_its_copy(tmp_path):
    """Paddle's tree (a target build) is self-contained whatever the setting;
    the standalone package alone depends on the distribution."""
    options = Options(
        protos=(ROOT / "proto" / "distributed_strategy.proto",),
        annotations=ROOT / "proto" / "fleet_strategy.annotations.yaml",
        out=tmp_path,
        package="fleet_strategy",
        runtime="dependency",
    )
    files = build(options).files
    target = "paddle/distributed/fleet/base/_fleet_strategy"
    assert {f"{target}/{m}.py" for m in RUNTIME_MODULES} <= set(files)
    assert "A verbatim copy of" in files[f"{target}/runtime.py"]
    assert not [m for m in RUNTIME_MODULES if m != "runtime" and f"fleet_strategy/{m}.py" in files]
    assert "fleet_strategy_codegen_runtime" in files["fleet_strategy/runtime.py"]
    assert "fleet_strategy_codegen_runtime" in files["fleet_strategy/lint.py"]


# ------------------------------------------------------------------ running it

ROUND_TRIP = """
import copy, pickle, sys
import shop_a, shop_b
from shop_a.shop import Customer, Order
order = Order()
order.id = "A-1"
order.customer = {"name": "Ann", "points": 7}
order.items = [{"sku": "X", "quantity": 2, "unit_price": {"currency": "EUR", "amount": 250}}]
order.labels = {"channel": "web"}
order.payment = "CARD"
order.address = "Main St 1"
data = order.message.SerializeToString()
again = Order()
again.message.ParseFromString(data)
assert again.message == order.message and again.customer.name == "Ann"
assert pickle.loads(pickle.dumps(order)).message == order.message
assert copy.deepcopy(order).message == order.message
# each package runs the runtime as its own modules: its own settings, its own specs
shop_a.set_default_strict(False)  # strict is the default of a schema without a reference
assert not shop_a.default_strict() and shop_b.default_strict()
import shop_b.shop
for cls in (Order, shop_b.shop.Order):  # compatible and strict: each names the field
    try:
        cls().gift = "yes"
    except TypeError as error:
        assert str(error) == "Order.gift: expected bool, got str 'yes'", error
    else:
        raise AssertionError("a str was taken for a bool")
runtime = sys.modules["fleet_strategy_codegen_runtime"]
for name in ("shop_a._runtime_specs", "shop_b._runtime_specs", "shop_a._runtime_wrapper"):
    assert sys.modules[name].__file__.startswith(runtime.__path__[0]), name
assert sys.modules["shop_a._runtime_specs"] is not sys.modules["shop_b._runtime_specs"]
print("ok")
"""


def test_it_runs_on_the_runtime_distribution_as_its_own(tmp_path):
    runtime = staged_runtime(tmp_path / "runtime")
    out = tmp_path / "out"
    generate(out, "shop_a")
    generate(out, "shop_b")
    assert not list(out.glob("shop_*/_runtime_*"))
    done = run(ROUND_TRIP, out, runtime, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", ""), done.stderr


LINT = """
from golden_dep.shop import Shop
shop = Shop()
shop.open = False
shop.checkout_configs = {"max_items": 3}
print([finding.code for finding in shop.lint()])
"""


def test_its_lint_runs_from_the_runtime_distribution(tmp_path):
    runtime = staged_runtime(tmp_path / "runtime")
    out = tmp_path / "out"
    files = generate(out, "golden_dep", case=ANNOTATED).files
    assert "fleet_strategy_codegen_runtime.lint import *" in files["golden_dep/lint.py"]
    done = run(LINT, out, runtime, cwd=tmp_path)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "['checkout-without-open']", "")
    cli = subprocess.run(
        [sys.executable, "-m", "golden_dep", "--help"], capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (out, runtime)))},
    )
    assert cli.returncode == 0 and "python -m golden_dep" in cli.stdout, cli.stderr


@pytest.mark.parametrize("installed", ["0.2.0", "0.0.9", "1.0.0"])
def test_another_runtime_version_says_what_to_install(tmp_path, installed):
    runtime = staged_runtime(tmp_path / "runtime", installed)
    generate(tmp_path / "out", "shop_api")
    done = run("import shop_api", tmp_path / "out", runtime, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        f"ImportError: shop_api needs {REQUIREMENT}, but version {installed} is installed: "
        f"pip install '{REQUIREMENT}' (or regenerate shop_api with fleet-strategy-codegen {installed})"
    )


def test_no_runtime_installed_says_what_to_install(tmp_path):
    generate(tmp_path / "out", "shop_api")
    done = run("import shop_api", tmp_path / "out", cwd=tmp_path)
    assert done.stderr.strip().splitlines()[-1] == (
        f"ImportError: shop_api needs {REQUIREMENT}, which is not installed: pip install '{REQUIREMENT}'"
    )


def test_the_staged_distribution_is_the_shipped_source(tmp_path):
    """One source: the distribution's modules are generator/shipped's, byte
    for byte, and its __init__ holds the tool's version."""
    package = staged_runtime(tmp_path) / "fleet_strategy_codegen_runtime"
    shipped = {p.name for p in SHIPPED.glob("*.py")} - {"__init__.py"}
    assert {p.name for p in package.iterdir()} == shipped | {"__init__.py", "py.typed"}
    for name in shipped:
        assert (package / name).read_bytes() == (SHIPPED / name).read_bytes(), name
    assert f"__version__ = {__version__!r}" in (package / "__init__.py").read_text()
    assert (tmp_path / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()


def test_mypy_strict_types_a_dependency_package_through_the_distribution(tmp_path):
    """The package's runtime module re-exports the distribution's names to the
    type checker, so the package and its users pass mypy --strict."""
    runtime = staged_runtime(tmp_path / "runtime")
    out = tmp_path / "out"
    generate(out, "shop_api")
    (out / "usage.py").write_text(
        "from shop_api.shop import Order\n"
        "order = Order()\n"
        "order.gift = True\n"
        "reveal_type(order.customer)\n"
        "order.quantity = 3\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "shop_api", "usage.py"],
        capture_output=True, text=True, cwd=out, env={**os.environ, "MYPYPATH": f"{out}{os.pathsep}{runtime}"},
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[:2] for line in errors] == [["usage.py", "5"]], done.stdout
    assert 'Revealed type is "shop_api.shop.Customer"' in done.stdout, done.stdout


# ------------------------------------------------------------------ the built distribution (full tier)


def _run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)


def test_the_runtime_distribution_builds_installs_and_runs_a_package(tmp_path):
    """sdist (from a fresh clone's runtime/) -> wheel (from the unpacked sdist,
    which has no generator/) -> a new venv outside the repository, the wheel
    installed and no copy in the package: it imports, round-trips and lints."""
    clone = tmp_path / "clone"
    listed = _run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for relative in filter(None, listed.stdout.split("\0")):
        if (ROOT / relative).is_file() and relative.startswith(("runtime/", "generator/", "LICENSE")):
            (clone / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / relative, clone / relative)
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-c", f"import backend; print(backend.build_sdist({str(dist)!r}))", cwd=clone / "runtime")
    assert built.returncode == 0, built.stderr
    sdist = dist / built.stdout.strip().splitlines()[-1]
    assert sdist.name == f"fleet_strategy_codegen_runtime-{__version__}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
        archive.extractall(tmp_path / "unpacked", filter="data")
    modules = {p.name for p in SHIPPED.glob("*.py")} - {"__init__.py"}
    assert {f"src/fleet_strategy_codegen_runtime/{m}" for m in modules | {"__init__.py", "py.typed"}} <= names
    assert {"pyproject.toml", "backend.py", "LICENSE"} <= names
    unpacked = next((tmp_path / "unpacked").iterdir())
    wheel_dir = tmp_path / "wheel"
    made = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", wheel_dir, unpacked)
    assert made.returncode == 0, made.stderr
    wheel = next(wheel_dir.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        files = archive.namelist()
        metadata = archive.read(next(n for n in files if n.endswith("METADATA"))).decode()
        staged = {n: archive.read(n) for n in files if n.startswith("fleet_strategy_codegen_runtime/")}
    assert set(staged) == {f"fleet_strategy_codegen_runtime/{m}" for m in modules | {"__init__.py", "py.typed"}}
    for name in modules:
        assert staged[f"fleet_strategy_codegen_runtime/{name}"] == (SHIPPED / name).read_bytes(), name
    assert f"Version: {__version__}" in metadata and "License-Expression: Apache-2.0" in metadata
    assert [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")] == ["Requires-Dist: protobuf<8,>=4.22"]

    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", "--without-pip", venv).returncode == 0
    python = venv / "bin" / "python"
    installed = _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel)
    assert installed.returncode == 0, installed.stderr
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    protobuf = Path(importlib.util.find_spec("google.protobuf").origin).parents[2]  # type: ignore[arg-type]
    (site / "_dependencies.pth").write_text(f"{protobuf}\n")  # protobuf, from this environment
    out = tmp_path / "out"
    generate(out, "shop_a")
    generate(out, "shop_b")
    generate(out, "golden_dep", case=ANNOTATED)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(out)
    where = _run(python, "-c", "import fleet_strategy_codegen_runtime as r; print(r.__file__, r.__version__)", env=env, cwd=tmp_path)
    assert where.stdout.startswith(str(site)) and where.stdout.split()[-1] == __version__, where
    for code, expected in ((ROUND_TRIP, "ok"), (LINT, "['checkout-without-open']")):
        done = _run(python, "-c", code, env=env, cwd=tmp_path)
        assert (done.returncode, done.stdout.strip(), done.stderr) == (0, expected, "")
    # pyright (strict) on the package and a user's code, the runtime found installed in the venv
    (out / "use.py").write_text("from shop_a.shop import Order\norder = Order()\norder.gift = True\nreveal_type(order.customer)\n")
    (out / "pyrightconfig.json").write_text(json.dumps({
        "typeCheckingMode": "strict", "venvPath": str(tmp_path), "venv": "venv", "extraPaths": [str(protobuf)],
        "include": ["shop_a", "use.py"],
    }))
    checked = _run(Path(sys.executable).parent / "pyright", cwd=out)
    assert checked.returncode == 0 and 'Type of "order.customer" is "Customer"' in checked.stdout, checked.stdout


def test_generate_and_check_take_the_setting_and_check_tells_the_modes_apart(tmp_path):
    """The CLI's --runtime reaches the output and the fast check's memo key:
    a package generated as a dependency is clean for the same setting and
    stale for the other."""
    from generator.pipeline import input_hash

    protos = (SHOP / "shop.proto",)
    hashes = {mode: input_hash(Options(protos=protos, annotations=None, out=tmp_path, package="p", runtime=mode), protos)
              for mode in ("copy", "dependency")}
    assert hashes["copy"] != hashes["dependency"]
    base = [sys.executable, "-m", "generator"]
    flags = ["--proto", str(SHOP / "shop.proto"), "--no-annotations", "--out", str(tmp_path / "out"), "--package", "shop_api"]
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    made = subprocess.run([*base, "generate", *flags, "--runtime", "dependency"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert made.returncode == 0, made.stderr
    assert not list((tmp_path / "out" / "shop_api").glob("_runtime_*"))
    clean = subprocess.run([*base, "check", *flags, "--runtime", "dependency"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert clean.returncode == 0 and "clean" in clean.stdout, clean.stdout + clean.stderr
    other = subprocess.run([*base, "check", *flags], capture_output=True, text=True, cwd=ROOT, env=env)
    assert other.returncode == 1 and "shop_api/_runtime_specs.py" in other.stdout, other.stdout


def test_a_target_build_of_a_schema_without_a_reference_states_the_shared_notes_where_it_points(tmp_path):
    """A target build's classes live in another package than its support
    modules; the notes every class points to are in the support package's
    docstring, which the pointer names, in every build."""
    from tests.support import generate as generate_with

    proto = tmp_path / "job.proto"
    proto.write_text('syntax = "proto3";\nmessage Limits { int32 size = 1; }\nmessage Job { Limits limits = 1; }\n')
    notes = tmp_path / "notes.yaml"
    (tmp_path / "hooks.py").write_text('"""Nothing special."""\n')
    notes.write_text(
        "hooks: hooks\nclasses:\n  Job: {message: Job}\n"
        "targets:\n  acme:\n    package: acme.base._job\n    classes_package: acme.base\n    public_package: acme\n"
        "    pb2_package: pkg\n    logger: logging.root\n"
    )
    _, result = generate_with(tmp_path / "out", [proto], notes, package="pkg")
    for support, classes in (("pkg", "pkg/job.py"), ("acme/base/_job", "acme/base/job.py")):
        dotted = support.replace("/", ".")
        assert f"every class of ``{dotted}``" in " ".join(result.files[classes].split()), classes
        init = result.files[f"{support}/__init__.py"]
        assert "\nThreads:\n" in init and "\nConfig dicts:\n" in init, support


def test_the_loader_and_the_runtime_module_parse_as_python_3_9(tmp_path):
    """The runtime supports Python 3.9: the distribution's loader and a
    dependency package's runtime module use no newer syntax."""
    import ast

    files = generate(tmp_path / "out", "golden_dep", case=ANNOTATED).files
    for name, text in (("loader.py", (SHIPPED / "loader.py").read_text()), ("runtime.py", files["golden_dep/runtime.py"]),
                       ("lint.py", files["golden_dep/lint.py"])):
        ast.parse(text, filename=name, feature_version=(3, 9))
