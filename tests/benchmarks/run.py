"""Benchmarks of fleet-strategy codegen against its peers and its budgets.

    python tests/benchmarks/run.py            # everything (about 5 minutes)
    python tests/benchmarks/run.py --quick    # under a minute: fewer samples, no proto-edit
                                              # run, scaling without whole-process runs
    python tests/benchmarks/run.py --only regen,runtime --json results.json

Sections (see "Performance budgets" in the design doc):

  regen    ``python -m generator generate`` (a first generation with nothing
           to reuse; after a one-field proto edit; into an empty folder with
           the cache warm), ``check --full`` on a fresh machine and ``check``
           vs protoc --python_out --pyi_out, mypy-protobuf and betterproto2 on
           the same .proto (betterproto2 also fed the compiled descriptor set,
           the peer of the budgets: it parses nothing, ours compiles the .proto
           within its time).
  large    a real-world-sized schema (240 messages, long names: make_schema.py
           --long-names), first generation vs betterproto2 on the same .proto.
  real     a real many-file schema set (googleapis-common-protos' 63 .proto
           files), first generation (empty cache, empty output folder) vs
           betterproto2 on the same files, as a wheel installs the tool and
           from a source checkout.
  scaling  generation of synthetic schemas of ~45, ~450 and ~4,500 messages
           (make_schema.py, --no-annotations): wall time, peak RSS, time ratio
           per 10x; plus the pipeline without the format stage, stage by
           stage, in-process.
  shapes   the worst shapes for cost that grows faster than the schema
           (make_schema.py --shape chain / wide, --no-annotations, whole
           process, cache cold): a chain of 4,500 messages, each holding the
           next (peak RSS; manifest size against 10x a chain of 450), and one
           message of 2,000 vs 8,000 fields (time ratio, medians of 3).
  runtime  DistributedStrategy calls (timeit, per call) vs Paddle 3.3.1's class,
           both in one process when Paddle imports (see --paddle-python);
           copies and pickling of the standalone class and of the Paddle
           build (overlaid on the installed Paddle, in processes alternating
           with pristine Paddle's).
  import   ``import fleet_strategy`` vs importing its ``_pb2`` module alone.
  size     issue 30's size budget: the shop golden schema's package generated
           with its runtime as a dependency vs betterproto2's output for the
           same file, in Python lines (package_size.py), at most 3x.

Every comparison is measured in this run, alternating the compared commands
(A B A B ...); each command is a whole process timed by wall clock unless the
section says otherwise. Figures are medians (per-call runtime figures: best of
the repeats, medians printed beside them). The commands run a copy of the
project taken at start (generator, templates, proto, generated), so edits made
while the benchmark runs do not mix into it. The table at the end gives each
figure, ours, the peer, the ratio, the budget and PASS/FAIL. The exit code is
0 whatever the budgets say (this is a report); 2 only for bad arguments.

Peers: betterproto2-compiler comes with ``pip install -e '.[dev]'``, mypy-protobuf with ``'.[bench]'``.
Paddle is optional: a Python that can ``import paddle`` (paddlepaddle==3.3.1),
found by --paddle-python, $PADDLE_PYTHON, this interpreter, or
/tmp/paddle-venv/bin/python. Without one, the design doc's recorded Paddle
figures are printed as "recorded".

The generator runs with its cache folder in a private place ($XDG_CACHE_HOME
pointed into this run's temp folder): "warm" means that folder already holds
this output, "cold", "first generation" and "fresh machine" mean it is empty
(a first generation also starts from an empty output folder; the fresh
machine's ``check --full`` checks a copy of
the committed tree). Children may write bytecode (PYTHONDONTWRITEBYTECODE is dropped for
them), as an installed tool does; an untimed warm-up writes it. The snapshot
is the tool as its wheel installs it, templates compiled at build time
(build_hooks.py); "source checkout" rows run a copy without them, which
compiles them in memory on every run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PACKAGE = "fleet_strategy"
PROTO_NAME = "distributed_strategy.proto"
SNAPSHOT = ("generator", "templates", "proto", "generated", "pyproject.toml")  # what the benchmarks run
EDIT_MESSAGE = "message LambConfig {"  # the proto edit adds a field here
BP2_SET = "betterproto2 --descriptor_set_in"  # betterproto2 fed protoc's compiled schema (no parsing)
LONG_NAMES_MESSAGES = 240  # the real-world-sized schema: make_schema.py --long-names

# Paddle figures recorded in the design doc (per call, seconds), for machines without Paddle.
RECORDED_PADDLE = {
    "scalar_get": 55e-9, "scalar_set": 394e-9, "config_get": 5.1e-6, "config_set": 8.4e-6,
    "construct": 13e-6, "repr": 90e-6, "raw_get": 29e-9,
}

# (case in runtime_bench.py, label, budget: ours / Paddle per call, None = no budget)
RUNTIME_CASES: list[tuple[str, str, float | None]] = [
    # parity: both sides are one property reading one protobuf attribute; the floor
    # row below (the very same read on both sides) shows a few percent of noise
    ("scalar_get", "scalar get  s.amp", 1.05),
    ("scalar_set", "scalar set  s.amp = True", 0.3),
    ("config_get", "config get  s.amp_configs", 0.1),  # unset: the defaults read once
    ("hybrid_get", "config get  s.hybrid_configs", 0.5),
    ("config_set", 'config set  s.amp_configs = {"init_loss_scaling": 1024.0}', 0.2),
    ("construct", "construction  DistributedStrategy()", 0.5),
    ("repr", "repr(s)  (amp + recompute configured)", 0.5),
    ("save_prototxt", "save_to_prototxt(tmp file)", None),
    ("raw_get", "raw protobuf  s.strategy.amp (floor)", None),
    # Paddle has no lint: no peer; the figure divided by the 16 rules is the per-rule cost
    ("lint_every_config", "lint(world_size=8), every config set  (16 rules)", None),
]
# Copies, for the standalone class (timed in one process with Paddle's) and the
# Paddle build (the overlaid class; in processes alternating with pristine
# Paddle's): (case, label, Paddle's case it is compared with). Budget: no slower.
# Paddle's copy.copy shares the message, ours copies it; Paddle's class cannot
# be pickled, so a pickle round trip is held to Paddle's deepcopy.
COPY_CASES: list[tuple[str, str, str]] = [
    ("deepcopy", "copy.deepcopy(s), default", "deepcopy"),
    ("deepcopy_typical", "copy.deepcopy(s), typical (amp, recompute, hybrid, sharding)", "deepcopy_typical"),
    ("copy", "copy.copy(s), default", "copy"),
    ("copy_typical", "copy.copy(s), typical", "copy_typical"),
    ("pickle", "pickle round trip, default (vs Paddle's deepcopy)", "deepcopy"),
    ("pickle_typical", "pickle round trip, typical (vs Paddle's deepcopy)", "deepcopy_typical"),
]
COPY_BUDGET = 1.0
# The copies are a few µs each, and some budgets are near parity: many short
# repeats (the best of them is a quiet one), not a few long ones.
COPY_SAMPLING = {"quick": ("40", "0.005"), "full": ("60", "0.005")}
SCALE_TOLERANCE = 1.0  # "10x schema <= 10x time"
MEMORY_BUDGET_MB = 400  # peak RSS of the largest first generation, and of the 4,500-message chain
CHAIN_MESSAGES = (450, 4500)  # the shapes section: the manifest of the longer chain <= 1.1x 10x the shorter's
WIDE_FIELDS = (2000, 8000)  # one message: 4x the fields in <= 5x the time


# --------------------------------------------------------------------------- processes


@dataclass
class Sample:
    wall: float
    maxrss_kb: int
    code: int
    timed_out: bool = False
    stdout: str = ""
    stderr: str = ""


def run_process(
    cmd: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float | None = None
) -> Sample:
    """Run ``cmd`` to completion; wall time and the child's own peak RSS (wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd,
                                start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        if timer:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; Popen must not wait again
        out.seek(0)
        err.seek(0)
        return Sample(wall, usage.ru_maxrss, proc.returncode, killed.is_set(),
                      out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))


class Series:
    """Samples of one command; prints a failure once and keeps going."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.samples: list[Sample] = []
        self.error: str | None = None

    def add(self, sample: Sample, ok_codes: Iterable[int] = (0,)) -> Sample:
        if sample.timed_out:
            self.error = self.error or f"timed out after {sample.wall:.0f} s"
        elif sample.code not in ok_codes:
            tail = "\n".join((sample.stderr or sample.stdout).strip().splitlines()[-6:])
            if self.error is None:
                print(f"  ! {self.name}: exit {sample.code}\n    " + tail.replace("\n", "\n    "), flush=True)
            self.error = self.error or f"exit {sample.code}"
        else:
            self.samples.append(sample)
        return sample

    @property
    def walls(self) -> list[float]:
        return [s.wall for s in self.samples]

    @property
    def median(self) -> float | None:
        return statistics.median(self.walls) if self.samples else None

    @property
    def peak_mb(self) -> float | None:
        return max(s.maxrss_kb for s in self.samples) / 1024 if self.samples else None

    def describe(self) -> str:
        if not self.samples:
            return f"{self.name:<46} {self.error or 'no samples'}"
        w = self.walls
        return (f"{self.name:<46} median {fmt_s(statistics.median(w))}  min {fmt_s(min(w))}  "
                f"max {fmt_s(max(w))}  n={len(w)}  peak RSS {self.peak_mb:.0f} MB")


# --------------------------------------------------------------------------- report


@dataclass
class Row:
    section: str
    figure: str
    ours: float | None
    peer: float | None
    peer_name: str = ""
    unit: str = "s"  # "s": seconds per run; "call": seconds per call; "MB": megabytes; "lines"
    budget: float | None = None
    note: str = ""
    ours_lower_bound: bool = False  # ours timed out: the figure is a lower bound

    @property
    def ratio(self) -> float | None:
        if self.ours is None or not self.peer:
            return None
        return self.ours / self.peer

    @property
    def verdict(self) -> str:
        if self.budget is None:
            return "info"
        ratio = self.ratio
        if ratio is None:
            return "n/a"
        if round(ratio, 2) <= self.budget:  # as printed: a 1.004x "no slower" is parity, not a failure
            return "UNKNOWN" if self.ours_lower_bound else "PASS"
        return "FAIL"


def fmt_s(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds < 10 else f"{seconds:.1f} s"


def fmt_call(seconds: float) -> str:
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e3:.2f} ms"


def fmt_value(value: float | None, unit: str, lower_bound: bool = False) -> str:
    if value is None:
        return "-"
    mb = f"{value:.1f} MB" if value < 10 else f"{value:.0f} MB"
    text = fmt_call(value) if unit == "call" else mb if unit == "MB" else fmt_s(value)
    if unit == "lines":
        text = f"{value:.0f} lines"
    return ("> " if lower_bound else "") + text


def print_table(rows: list[Row]) -> None:
    headers = ("figure", "ours", "peer", "ratio", "budget", "verdict")
    lines = []
    for r in rows:
        ratio = r.ratio
        ratio_text = "-" if ratio is None else (">= " if r.ours_lower_bound else "") + f"{ratio:.2f}x"
        peer = fmt_value(r.peer, r.unit)
        if r.peer is not None and r.peer_name:
            peer = f"{peer} {r.peer_name}"
        elif r.peer_name and r.peer is None:
            peer = r.peer_name
        budget = "-" if r.budget is None else f"<= {r.budget:g}x"
        lines.append((f"[{r.section}] {r.figure}", fmt_value(r.ours, r.unit, r.ours_lower_bound), peer, ratio_text,
                      budget, r.verdict))
    widths = [max(len(h), *(len(line[i]) for line in lines)) for i, h in enumerate(headers)]
    sep = "  "
    print(sep.join(h.ljust(w) for h, w in zip(headers, widths)))
    print(sep.join("-" * w for w in widths))
    for line in lines:
        print(sep.join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
    notes = [(r, r.note) for r in rows if r.note]
    if notes:
        print()
        for r, note in notes:
            print(f"  {r.figure}: {note}")


# --------------------------------------------------------------------------- context


@dataclass
class Context:
    quick: bool
    python: str
    tmp: Path
    root: Path  # a snapshot of the project taken at start (see snapshot_project)
    env: dict[str, str]
    paddle_python: str | None
    sizes: list[int]
    scale_budget: float
    rows: list[Row] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def ours_env(self, cache: Path) -> dict[str, str]:
        env = dict(self.env)
        env["XDG_CACHE_HOME"] = str(cache)
        env.pop("FLEET_CODEGEN_NO_CACHE", None)
        return env

    @property
    def generated(self) -> Path:
        return self.root / "generated"

    @property
    def proto(self) -> Path:
        return self.root / "proto" / PROTO_NAME

    def fresh_dir(self, name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.tmp))


def snapshot_project(tmp: Path) -> Path:
    """Copy generator, templates, inputs and the generated package once.

    Every command then runs this copy (cwd and PYTHONPATH point at it), so an
    edit made in the work tree while the benchmark runs cannot change the code
    under test halfway, nor invalidate the cache folder between samples.
    """
    for snap, names in ((tmp / "project", SNAPSHOT), (tmp / "project-source", SNAPSHOT)):
        snap.mkdir()
        for name in names:
            source = ROOT / name
            if source.is_dir():
                ignore = shutil.ignore_patterns("__pycache__", "*.lock", "compiled_templates")
                shutil.copytree(source, snap / name, ignore=ignore)
            elif source.exists():
                shutil.copy2(source, snap / name)
    # The tool as a wheel installs it: its templates compiled at build time
    # (build_hooks.py). project-source is a source checkout as a fresh clone
    # has it (the committed output in place): its templates are compiled in
    # memory, once a process.
    sys.path.insert(0, str(ROOT))
    from generator.render.precompiled import PACKAGE, write_package

    write_package(ROOT / "templates", tmp / "project" / "generator" / "render" / PACKAGE)
    return tmp / "project"


def child_env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))  # the snapshot's generator
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed tool has its bytecode cached
    bindir = str(Path(sys.executable).parent)  # betterproto2 runs `ruff` from PATH
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    return env


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


# --------------------------------------------------------------------------- 1. regeneration


def prepare_out(out: Path, package_name: str = PACKAGE) -> None:
    """Empty ``out``: ``generate`` then writes every file (the hand-written
    modules are inputs, read beside the annotations file)."""
    shutil.rmtree(out, ignore_errors=True)
    (out / package_name).mkdir(parents=True)


reset_out = prepare_out  # for readability at the call sites: empty a used output folder


def peer_commands(ctx: Context, out: Path) -> dict[str, list[str] | str]:
    """The peers on the same .proto (betterproto2 also on its compiled
    descriptor set); a str value says why a peer is missing."""
    bindir = Path(ctx.python).parent
    # --include_source_info as ours compiles; protoc notes it only matters with --descriptor_set_out
    # (plugins get source info anyway), so it costs nothing.
    base = [ctx.python, "-m", "grpc_tools.protoc", f"-I{ctx.proto.parent}", "--include_source_info"]
    peers: dict[str, list[str] | str] = {
        "protoc --python_out --pyi_out": [*base, f"--python_out={out}", f"--pyi_out={out}", PROTO_NAME],
    }
    for name, plugin, flag in (
        ("mypy-protobuf", "protoc-gen-mypy", "--mypy_out"),
        ("betterproto2", "protoc-gen-python_betterproto2", "--python_betterproto2_out"),
    ):
        exe = bindir / plugin
        if not exe.exists():
            found = shutil.which(plugin)
            exe = Path(found) if found else exe
        if exe.exists():
            peers[name] = [*base, f"--plugin={plugin}={exe}", f"{flag}={out}", PROTO_NAME]
        else:
            peers[name] = f"{plugin} not found: pip install -e '.[bench]'"
    if isinstance(peers["betterproto2"], list):  # fed the compiled schema: its time is its own
        descriptors = ctx.tmp / "schema.desc"
        made = run_process([*base, "--include_imports", f"--descriptor_set_out={descriptors}", PROTO_NAME], env=ctx.env)
        command = peers["betterproto2"]
        peers[BP2_SET] = (
            [ctx.python, "-m", "grpc_tools.protoc", f"--descriptor_set_in={descriptors}", *command[-3:]]
            if made.code == 0 else f"protoc --descriptor_set_out failed: {made.stderr.strip()[-200:]}"
        )
    return peers


def add_proto_edit(source: str, index: int) -> str:
    """The schema with one new documented field: what a maintainer's edit looks like."""
    field_text = f"{EDIT_MESSAGE}\n  // Added by the benchmark (edit {index}).\n  optional bool bench_edit_{index} = {900 + index};"
    if EDIT_MESSAGE not in source:
        return source + f"\n// benchmark edit {index}\n"
    return source.replace(EDIT_MESSAGE, field_text, 1)


def add_synthetic_field(source: str) -> str:
    """A synthetic schema (make_schema.py) with one more field in its first message."""
    start = source.index("message ")
    brace = source.index("{", start) + 1
    return source[:brace] + "\n  optional bool bench_edit = 536870000;" + source[brace:]


def bench_regen(ctx: Context) -> None:
    section("1. regeneration and check: ours vs protoc, mypy-protobuf, betterproto2 (whole process, wall)")
    rounds = 3 if ctx.quick else 7
    edit_n = 0 if ctx.quick else rounds  # --quick leaves the edits out
    py = ctx.python
    out = ctx.fresh_dir("regen-out")
    prepare_out(out)
    edit_dir = ctx.fresh_dir("regen-edit")
    edit_out = edit_dir / "out"
    prepare_out(edit_out)
    edit_proto = edit_dir / PROTO_NAME
    original = ctx.proto.read_text(encoding="utf-8")
    warm_cache = ctx.fresh_dir("cache-warm")
    peer_out = ctx.tmp / "peer-out"
    peers = peer_commands(ctx, peer_out)

    regen = [py, "-m", "generator", "generate", "--out", str(out)]
    check = [py, "-m", "generator", "check", "--out", str(out)]
    edit_regen = [py, "-m", "generator", "generate", "--proto", str(edit_proto), "--out", str(edit_out)]

    series = {k: Series(k) for k in (
        "ours first generation", "ours first generation, source checkout", "ours check --full (fresh machine)", "ours generate after a proto edit",
        "ours generate (cache warm)", "ours check (cache warm)", "ours generate, fresh clone", *peers)}

    def peer_run(name: str) -> None:
        cmd = peers[name]
        if isinstance(cmd, str):
            series[name].error = cmd
            return
        shutil.rmtree(peer_out, ignore_errors=True)
        peer_out.mkdir()
        series[name].add(run_process(cmd, env=ctx.env, cwd=ctx.root))

    def first_generation() -> None:
        """Nothing to reuse: an empty cache folder and an empty output folder."""
        first_out = ctx.fresh_dir("regen-first")
        prepare_out(first_out)
        cmd = [py, "-m", "generator", "generate", "--out", str(first_out)]
        series["ours first generation"].add(run_process(cmd, env=ctx.ours_env(ctx.fresh_dir("cache")), cwd=ctx.root))

    def first_generation_source() -> None:
        """The same from a source checkout: the templates compiled in memory too (a wheel carries them compiled)."""
        first_out = ctx.fresh_dir("regen-first-source")
        prepare_out(first_out)
        cmd = [py, "-m", "generator", "generate", "--out", str(first_out)]
        source = ctx.root.parent / "project-source"
        env = child_env(source) | {"XDG_CACHE_HOME": str(ctx.fresh_dir("cache"))}
        series["ours first generation, source checkout"].add(run_process(cmd, env=env, cwd=source))

    def fresh_clone_generate() -> None:
        """README command 1's generate on a fresh clone: a source checkout
        (templates compiled in memory), its committed output in place, an
        empty cache folder (nothing memoised: every file rendered and compared)."""
        source = ctx.root.parent / "project-source"
        env = child_env(source) | {"XDG_CACHE_HOME": str(ctx.fresh_dir("cache"))}
        series["ours generate, fresh clone"].add(run_process([py, "-m", "generator", "generate"], env=env, cwd=source))

    def fresh_check() -> None:
        """What CI runs on a fresh machine: check --full of the committed tree
        in place (another --out would be another regenerate command in the
        headers: drift), empty cache folder."""
        cmd = [py, "-m", "generator", "check", "--full"]
        series["ours check --full (fresh machine)"].add(
            run_process(cmd, env=ctx.ours_env(ctx.fresh_dir("cache")), cwd=ctx.root))

    # Untimed warm-up: bytecode of every tool (as after any first run on a machine), the OS file cache.
    run_process([py, "-m", "generator", "--version"], env=ctx.env, cwd=ctx.root)
    run_process([py, "-m", "generator", "--version"], env=child_env(ctx.root.parent / "project-source"),
                cwd=ctx.root.parent / "project-source")
    run_process([py, "-c", "import jinja2, yaml"], env=ctx.env, cwd=ctx.root)
    for name in peers:
        if not isinstance(peers[name], str):
            peer_out.mkdir(exist_ok=True)
            run_process(peers[name], env=ctx.env, cwd=ctx.root)  # type: ignore[arg-type]
    run_process(regen, env=ctx.ours_env(warm_cache), cwd=ctx.root)  # fills the warm cache (the fast check's memo)
    if not edit_n:
        series["ours generate after a proto edit"].error = "not measured with --quick"
    if edit_n:
        edit_proto.write_text(add_proto_edit(original, 0), encoding="utf-8")
        run_process(edit_regen, env=ctx.ours_env(warm_cache), cwd=ctx.root)  # edit 0: the edit tree's first output

    for r in range(rounds):
        print(f"  round {r + 1}/{rounds}", flush=True)
        first_generation()
        peer_run("protoc --python_out --pyi_out")
        first_generation_source()
        fresh_check()
        fresh_clone_generate()
        peer_run("betterproto2")
        peer_run(BP2_SET)
        reset_out(out)
        series["ours generate (cache warm)"].add(run_process(regen, env=ctx.ours_env(warm_cache), cwd=ctx.root))
        series["ours check (cache warm)"].add(run_process(check, env=ctx.ours_env(warm_cache), cwd=ctx.root))
        peer_run("mypy-protobuf")
        if r < edit_n:
            edit_proto.write_text(add_proto_edit(original, r + 1), encoding="utf-8")
            series["ours generate after a proto edit"].add(
                run_process(edit_regen, env=ctx.ours_env(warm_cache), cwd=ctx.root))

    print()
    for s in series.values():
        print("  " + s.describe())
    ctx.details["regen"] = {k: {"walls": s.walls, "peak_mb": s.peak_mb, "error": s.error} for k, s in series.items()}

    # The peer of the budgets is betterproto2 fed the compiled schema (protoc's
    # descriptor set, made untimed): ours parses the .proto within its time, it does not.
    bp2 = series[BP2_SET].median
    bp2_name = "betterproto2 (descriptor set)" if bp2 is not None else f"betterproto2: {series[BP2_SET].error}"
    for key, figure, budget, note in (
        ("ours first generation", "first generation (empty cache, empty output folder)", 1.0, ""),
        ("ours check --full (fresh machine)", "check --full on a fresh machine (empty cache)", 1.0, ""),
        ("ours generate after a proto edit", "generate after a one-field proto edit (both builds)", 0.75, ""),
        ("ours check (cache warm)", "check, unchanged inputs", 0.2, ""),
        ("ours generate (cache warm)", "generate into an empty folder, cache warm", None, ""),
    ):
        ctx.rows.append(Row("regen", figure, series[key].median, bp2, bp2_name, budget=budget,
                            note=series[key].error or note))
    ctx.rows.append(Row("regen", "first generation from a source checkout (templates compiled in memory)",
                        series["ours first generation, source checkout"].median, bp2, bp2_name))
    ctx.rows.append(Row("regen", "README command 1's generate on a fresh clone (source checkout, empty cache)",
                        series["ours generate, fresh clone"].median, bp2, bp2_name, budget=1.0,
                        note=series["ours generate, fresh clone"].error or ""))
    ctx.rows.append(Row("regen", "first generation vs betterproto2 parsing the .proto too", series["ours first generation"].median,
                        series["betterproto2"].median, "betterproto2 (.proto)"))
    for ours, what in (("ours first generation", "first generation"), ("ours check (cache warm)", "check")):
        for peer in ("protoc --python_out --pyi_out", "mypy-protobuf"):
            ctx.rows.append(Row("regen", f"{what} vs {peer.split()[0]}", series[ours].median, series[peer].median,
                                peer.split()[0] if series[peer].median else str(series[peer].error)))


def bench_large(ctx: Context) -> None:
    """Issue 19: a real-world-sized schema (a few hundred messages, names as
    long as large API sets have them), first generation against betterproto2
    on the same .proto, alternating; both parse it."""
    section(f"1b. a real-world-sized schema: {LONG_NAMES_MESSAGES} messages, long names (make_schema.py --long-names), "
            "first generation vs betterproto2 on the same .proto")
    py = ctx.python
    proto = ctx.tmp / "large" / "cloud_infra.proto"
    made = run_process([py, str(HERE / "make_schema.py"), "--messages", str(LONG_NAMES_MESSAGES), "--long-names",
                        "--out", str(proto)], env=ctx.env)
    if made.code != 0:
        print(f"  ! make_schema --long-names: {made.stderr.strip()[-300:]}")
        return
    print(f"  {made.stdout.strip()}")
    peer_out = ctx.tmp / "large-peer-out"
    plugin = shutil.which("protoc-gen-python_betterproto2", path=str(Path(py).parent)) or shutil.which(
        "protoc-gen-python_betterproto2")
    ours, peer = Series("ours first generation (long names)"), Series("betterproto2 (long names)")
    for r in range(3 if ctx.quick else 5):
        out = ctx.fresh_dir("large-out")
        ours.add(run_process([py, "-m", "generator", "generate", "--no-annotations", "--proto", str(proto), "--out",
                              str(out), "--package", "cloud_infra"], env=ctx.ours_env(ctx.fresh_dir("cache")), cwd=ctx.root))
        if plugin is None:
            peer.error = "protoc-gen-python_betterproto2 not found: pip install -e '.[dev]'"
            continue
        shutil.rmtree(peer_out, ignore_errors=True)
        peer_out.mkdir()
        peer.add(run_process([py, "-m", "grpc_tools.protoc", f"-I{proto.parent}", "--include_source_info",
                              f"--plugin=protoc-gen-python_betterproto2={plugin}",
                              f"--python_betterproto2_out={peer_out}", proto.name], env=ctx.env, cwd=ctx.root))
    for s in (ours, peer):
        print("  " + s.describe())
    ctx.details["large"] = {s.name: s.walls for s in (ours, peer)}
    ctx.rows.append(Row("large", f"first generation, {LONG_NAMES_MESSAGES} msgs with long names (empty cache)",
                        ours.median, peer.median, "betterproto2" if peer.median else str(peer.error), budget=1.0,
                        note=ours.error or ""))


def real_schema_set(target: Path) -> list[str]:
    """googleapis-common-protos' .proto files (a dev dependency; the set
    tests/tool/test_real_schemas.py generates), copied with their paths."""
    import importlib.metadata

    names = []
    for file in importlib.metadata.files("googleapis-common-protos") or []:
        if file.suffix == ".proto":
            (target / file).parent.mkdir(parents=True, exist_ok=True)
            (target / file).write_bytes(Path(str(file.locate())).read_bytes())
            names.append(file.as_posix())
    return sorted(names)


def bench_real(ctx: Context) -> None:
    """Issue 30: a real many-file schema set (googleapis' files), first
    generation with an empty cache and an empty output folder, against
    betterproto2 fed the same files (both parse them) and their compiled
    descriptor set; the tool as a wheel installs it and from a source
    checkout (templates compiled in memory), alternating."""
    import importlib.metadata

    section("1c. a real many-file schema set: googleapis-common-protos, first generation vs betterproto2 on the same files")
    py = ctx.python
    schema = ctx.tmp / "real"
    try:
        files = real_schema_set(schema)
    except importlib.metadata.PackageNotFoundError as exc:
        files, missing = [], f"googleapis-common-protos not installed ({exc}): pip install -e '.[dev]'"
    else:
        missing = "" if files else "googleapis-common-protos has no .proto files"
    if missing:
        print(f"  ! {missing}")
        ctx.rows.append(Row("real", "first generation, googleapis' .proto files (empty cache)", None, None, missing))
        return
    print(f"  {len(files)} files")
    plugin = shutil.which("protoc-gen-python_betterproto2", path=str(Path(py).parent)) or shutil.which(
        "protoc-gen-python_betterproto2")
    protoc = [py, "-m", "grpc_tools.protoc"]
    descriptors = ctx.tmp / "real.desc"
    made = run_process([*protoc, f"-I{schema}", "--include_source_info", "--include_imports",
                        f"--descriptor_set_out={descriptors}", *files], env=ctx.env)
    ours_args = ["-m", "generator", "generate", "-I", ".", *[a for f in files for a in ("--proto", f)],
                 "--no-annotations", "--package", "real_googleapis"]
    series = {k: Series(k) for k in ("ours (wheel)", "ours (source checkout)", "betterproto2 (.proto)", BP2_SET)}
    peer_out = ctx.tmp / "real-peer-out"
    source = ctx.root.parent / "project-source"

    def peer(name: str, command: list[str]) -> None:
        if plugin is None:
            series[name].error = "protoc-gen-python_betterproto2 not found: pip install -e '.[dev]'"
            return
        shutil.rmtree(peer_out, ignore_errors=True)
        peer_out.mkdir()
        series[name].add(run_process([*command, f"--plugin=protoc-gen-python_betterproto2={plugin}",
                                      f"--python_betterproto2_out={peer_out}", *files], env=ctx.env, cwd=schema))

    def ours(name: str, root: Path) -> None:
        out = ctx.fresh_dir("real-out")
        env = child_env(root) | {"XDG_CACHE_HOME": str(ctx.fresh_dir("cache"))}
        series[name].add(run_process([py, *ours_args, "--out", str(out)], env=env, cwd=schema))

    if made.code != 0:
        series[BP2_SET].error = f"protoc --descriptor_set_out failed: {made.stderr.strip()[-200:]}"
    for _ in range(3 if ctx.quick else 7):
        ours("ours (wheel)", ctx.root)
        peer("betterproto2 (.proto)", [*protoc, f"-I{schema}"])
        ours("ours (source checkout)", source)
        if made.code == 0:
            peer(BP2_SET, [*protoc, f"--descriptor_set_in={descriptors}"])
    for item in series.values():
        print("  " + item.describe())
    ctx.details["real"] = {k: item.walls for k, item in series.items()}
    bp2 = series["betterproto2 (.proto)"]
    bp2_name = "betterproto2 (same .proto files)" if bp2.median else str(bp2.error)
    ctx.rows.append(Row("real", f"first generation, googleapis' {len(files)} .proto files (empty cache)",
                        series["ours (wheel)"].median, bp2.median, bp2_name, budget=1.0,
                        note=series["ours (wheel)"].error or ""))
    ctx.rows.append(Row("real", "the same from a source checkout (templates compiled in memory)",
                        series["ours (source checkout)"].median, bp2.median, bp2_name, budget=1.0,
                        note=series["ours (source checkout)"].error or ""))
    ctx.rows.append(Row("real", "the same vs betterproto2 on the compiled descriptor set",
                        series["ours (wheel)"].median, series[BP2_SET].median,
                        "betterproto2 (descriptor set)" if series[BP2_SET].median else str(series[BP2_SET].error)))


# --------------------------------------------------------------------------- 2. scaling


def bench_scaling(ctx: Context) -> None:
    section("2. scaling: synthetic schemas, generate --no-annotations (whole process, wall, peak RSS)")
    py = ctx.python
    schemas = {}
    for n in ctx.sizes:
        path = ctx.tmp / "schemas" / f"synth_{n}.proto"
        sample = run_process([py, str(HERE / "make_schema.py"), "--messages", str(n), "--out", str(path)], env=ctx.env)
        if sample.code != 0:
            print(f"  ! make_schema {n}: {sample.stderr.strip()[-300:]}")
            continue
        schemas[n] = path
        print(f"  {sample.stdout.strip()}")

    # The pipeline without the format stage, in-process per stage: shows which stage is superlinear.
    stage_times: dict[int, dict[str, Any]] = {}
    for n, path in schemas.items():
        sample = run_process([py, str(HERE / "stages.py"), "--proto", str(path), "--out", str(ctx.tmp / "stages-out")],
                             env=ctx.env, cwd=ctx.root, timeout=90)
        if sample.code == 0 and not sample.timed_out:
            data = json.loads(sample.stdout)
            data["peak_mb"] = sample.maxrss_kb / 1024
            stage_times[n] = data
            stages = "  ".join(f"{k} {v:.2f}" for k, v in data["stages"].items() if k != "format")
            print(f"  {n:>5} msgs, pipeline without the format stage: {data['build']:.2f} s  ({stages})  "
                  f"rendered {data['rendered_chars'] / 1e6:.1f} MB text, peak RSS {data['peak_mb']:.0f} MB", flush=True)
        else:
            print(f"  {n:>5} msgs, pipeline without the format stage: "
                  + ("timed out" if sample.timed_out else f"exit {sample.code}: {sample.stderr.strip()[-300:]}"))

    # Whole process: cold (empty cache folder), then warm (same cache), within --scale-budget.
    cold: dict[int, Sample] = {}
    warm: dict[int, Series] = {}
    edit: dict[int, Sample] = {}
    skipped: dict[int, str] = {}
    deadline = time.monotonic() + ctx.scale_budget
    if ctx.scale_budget <= 0:
        print("  whole-process generation skipped (--quick; give --scale-budget SECONDS to include it)")
    for n, path in schemas.items():
        remaining = deadline - time.monotonic()
        done = [(m, s.wall) for m, s in cold.items() if not s.timed_out]
        predicted = done[-1][1] * n / done[-1][0] if done else 0.0  # linear extrapolation
        if ctx.scale_budget <= 0:
            skipped[n] = "--quick"
            continue
        if remaining < 2 or predicted > remaining:
            skipped[n] = (f"linear extrapolation ~{predicted:.0f} s > {max(remaining, 0):.0f} s left of --scale-budget"
                          if predicted > remaining else "--scale-budget used up")
            print(f"  {n:>5} msgs, generate cold: skipped ({skipped[n]})")
            continue
        out = ctx.fresh_dir(f"scale-{n}")
        cache = ctx.fresh_dir(f"scale-cache-{n}")
        cmd = [py, "-m", "generator", "generate", "--no-annotations", "--proto", str(path), "--out", str(out),
               "--package", "synth"]
        sample = run_process(cmd, env=ctx.ours_env(cache), cwd=ctx.root, timeout=remaining)
        if sample.code != 0 and not sample.timed_out:
            print(f"  ! generate {n}: exit {sample.code}: {sample.stderr.strip()[-300:]}")
            continue
        # One sample is noisy; where a second costs under a tenth of the budget, keep the median (of 3).
        extra = [] if ctx.quick or sample.timed_out or sample.wall * 2 > ctx.scale_budget / 10 else [0, 1]
        samples = [sample]
        for _ in extra:
            reset_out(out, package_name="synth")
            samples.append(run_process(cmd, env=ctx.ours_env(ctx.fresh_dir(f"scale-cache-{n}")), cwd=ctx.root,
                                       timeout=max(2.0, deadline - time.monotonic())))
        sample = sorted(samples, key=lambda s: s.wall)[len(samples) // 2]
        cold[n] = sample
        text = f"> {sample.wall:.1f} s (timed out)" if sample.timed_out else fmt_s(sample.wall)
        print(f"  {n:>5} msgs, generate cold: {text}, peak RSS {sample.maxrss_kb / 1024:.0f} MB", flush=True)
        if sample.timed_out:
            continue
        warm[n] = Series(f"{n} warm")
        for _ in range(1 if ctx.quick else 3):
            if deadline - time.monotonic() < 2:
                break
            reset_out(out, package_name="synth")
            warm[n].add(run_process(cmd, env=ctx.ours_env(cache), cwd=ctx.root, timeout=max(2.0, deadline - time.monotonic())))
        if warm[n].median is not None:
            print(f"  {n:>5} msgs, generate warm: {fmt_s(warm[n].median)} (n={len(warm[n].samples)}), "
                  f"peak RSS {warm[n].peak_mb:.0f} MB", flush=True)
        # A one-field edit regenerated with an empty cache folder, the last output in place.
        if deadline - time.monotonic() > 2 and (out / "synth.manifest.json").is_file():
            edited = path.parent / "edited" / path.name  # same name: same modules
            edited.parent.mkdir(exist_ok=True)
            edited.write_text(add_synthetic_field(path.read_text(encoding="utf-8")), encoding="utf-8")
            edit_cmd = [*cmd[:cmd.index("--proto") + 1], str(edited), *cmd[cmd.index("--proto") + 2:]]
            # As for cold: the median of 3 where that is cheap; each a real one-field
            # edit of the output in place (the field added, removed, added again).
            runs = [edit_cmd] if ctx.quick or cold[n].wall * 2 > ctx.scale_budget / 10 else [edit_cmd, cmd, edit_cmd]
            samples = []
            for run_cmd in runs:
                if samples and deadline - time.monotonic() < 2:
                    break
                samples.append(run_process(run_cmd, env=ctx.ours_env(ctx.fresh_dir(f"scale-edit-cache-{n}")),
                                           cwd=ctx.root, timeout=max(2.0, deadline - time.monotonic())))
            sample = sorted(samples, key=lambda s: s.wall)[len(samples) // 2]
            if sample.code == 0 and not sample.timed_out:
                edit[n] = sample
                print(f"  {n:>5} msgs, generate after a one-field edit (cache cold): {fmt_s(sample.wall)}, "
                      f"peak RSS {sample.maxrss_kb / 1024:.0f} MB", flush=True)

    ctx.details["scaling"] = {
        "stages": stage_times,
        "cold": {n: {"wall": s.wall, "timed_out": s.timed_out, "peak_mb": s.maxrss_kb / 1024} for n, s in cold.items()},
        "warm": {n: s.walls for n, s in warm.items()},
        "edit": {n: {"wall": s.wall, "peak_mb": s.maxrss_kb / 1024} for n, s in edit.items()},
    }
    for n, s in cold.items():
        ctx.rows.append(Row("scaling", f"generate {n} msgs, cache cold", s.wall, None, ours_lower_bound=s.timed_out,
                            note=f"peak RSS {s.maxrss_kb / 1024:.0f} MB"))
    if cold:
        largest = max(cold)
        ctx.rows.append(Row("scaling", f"peak RSS, first generation of {largest} msgs", cold[largest].maxrss_kb / 1024,
                            MEMORY_BUDGET_MB, f"{MEMORY_BUDGET_MB} MB budget", unit="MB", budget=1.0))
    sizes = sorted(schemas)
    for small, big in zip(sizes, sizes[1:]):
        per10 = 10 * (small / big) if big != 10 * small else 1.0  # normalise to a 10x step
        label = f"{small}->{big} msgs"
        if small in cold and big in cold and not cold[small].timed_out:
            ratio_note = "" if per10 == 1.0 else f" (scaled to 10x: x{per10:.2f})"
            ctx.rows.append(Row("scaling", f"time ratio {label}, cold{ratio_note}", cold[big].wall * per10,
                                cold[small].wall, f"{small} msgs", budget=10 * SCALE_TOLERANCE,
                                ours_lower_bound=cold[big].timed_out,
                                note=f"peak RSS {cold[small].maxrss_kb / 1024:.0f} -> {cold[big].maxrss_kb / 1024:.0f} MB"
                                + (" (timed out: lower bound)" if cold[big].timed_out else "")))
        else:
            why = skipped.get(big) or skipped.get(small) or "a run failed"
            ctx.rows.append(Row("scaling", f"time ratio {label}, cold", None, None, "not measured",
                                budget=10 * SCALE_TOLERANCE, note=why))
        if small in edit and big in edit:
            ctx.rows.append(Row("scaling", f"time ratio {label}, after a one-field edit (cache cold)",
                                edit[big].wall * per10, edit[small].wall, f"{small} msgs", budget=10 * SCALE_TOLERANCE,
                                note=f"{fmt_s(edit[small].wall)} -> {fmt_s(edit[big].wall)}"))
        if small in warm and big in warm and warm[small].median and warm[big].median:
            ctx.rows.append(Row("scaling", f"time ratio {label}, warm", warm[big].median * per10, warm[small].median,
                                f"{small} msgs"))
        if small in stage_times and big in stage_times:
            a, b = stage_times[small], stage_times[big]
            timed = [k for k in b["stages"] if b["stages"][k] >= 0.05] or list(b["stages"])  # ignore noise-sized stages
            worst = max(timed, key=lambda k: b["stages"][k] / max(a["stages"].get(k, 0), 1e-4))
            growth = b["stages"][worst] / max(a["stages"][worst], 1e-4)
            ctx.rows.append(Row("scaling", f"time ratio {label}, pipeline without the format stage (in-process)",
                                b["build"] * per10, a["build"], f"{small} msgs",
                                note=f"steepest stage: {worst} x{growth:.1f} "
                                f"({a['stages'][worst]:.3f} s -> {b['stages'][worst]:.3f} s)"))


def bench_shapes(ctx: Context) -> None:
    section("2b. shapes: a chain of nested messages, one wide message (generate --no-annotations, whole process, "
            "cache cold)")
    py = ctx.python
    chain_label = f"chain of {CHAIN_MESSAGES[1]:,} msgs"
    wide_label = f"{WIDE_FIELDS[0]:,} -> {WIDE_FIELDS[1]:,} fields in one message"
    if ctx.quick:
        print("  skipped (--quick)")
        for figure, budget in ((f"peak RSS, {chain_label}", 1.0), (f"manifest size, {chain_label} vs 10x {CHAIN_MESSAGES[0]}", 1.1),
                               (f"time ratio {wide_label}, cold", 5.0)):
            ctx.rows.append(Row("shapes", figure, None, None, "not measured", budget=budget, note="--quick"))
        return
    schemas: dict[tuple[str, int], Path] = {}
    for shape, flag, sizes in (("chain", "--messages", CHAIN_MESSAGES), ("wide", "--fields", WIDE_FIELDS)):
        for n in sizes:
            path = ctx.tmp / "shapes" / f"{shape}_{n}.proto"
            made = run_process([py, str(HERE / "make_schema.py"), "--shape", shape, flag, str(n), "--out", str(path)],
                               env=ctx.env)
            if made.code != 0:
                print(f"  ! make_schema --shape {shape} {n}: {made.stderr.strip()[-300:]}")
                continue
            schemas[shape, n] = path
            print(f"  {made.stdout.strip()}")

    def generate(key: tuple[str, int]) -> tuple[Sample, Path]:
        out = ctx.fresh_dir(f"shape-{key[0]}-{key[1]}")
        cmd = [py, "-m", "generator", "generate", "--no-annotations", "--proto", str(schemas[key]), "--out", str(out),
               "--package", "synth"]
        return run_process(cmd, env=ctx.ours_env(ctx.fresh_dir("shape-cache")), cwd=ctx.root, timeout=600), out

    # the chain: each field's way in is as long as the chain; nothing may grow with its square
    chain: dict[int, tuple[Sample, float]] = {}
    for n in CHAIN_MESSAGES:
        if ("chain", n) not in schemas:
            continue
        sample, out = generate(("chain", n))
        if sample.code != 0 or sample.timed_out:
            print(f"  ! chain {n}: {'timed out' if sample.timed_out else f'exit {sample.code}'}: {sample.stderr.strip()[-300:]}")
            continue
        manifest_mb = (out / "synth.manifest.json").stat().st_size / 1e6
        chain[n] = (sample, manifest_mb)
        print(f"  chain of {n:>5} msgs: {fmt_s(sample.wall)}, peak RSS {sample.maxrss_kb / 1024:.0f} MB, "
              f"manifest {manifest_mb:.2f} MB", flush=True)
    small, big = CHAIN_MESSAGES
    ctx.rows.append(Row("shapes", f"peak RSS, {chain_label}", chain[big][0].maxrss_kb / 1024 if big in chain else None,
                        MEMORY_BUDGET_MB, f"{MEMORY_BUDGET_MB} MB budget", unit="MB", budget=1.0))
    ctx.rows.append(Row("shapes", f"manifest size, {chain_label} vs 10x {small}",
                        chain[big][1] if big in chain else None, 10 * chain[small][1] if small in chain else None,
                        f"10x {small} msgs", unit="MB", budget=1.1))

    # one wide message: every lookup of a field by name must stay constant-time (A B A B A B)
    wide: dict[int, Series] = {n: Series(f"wide {n} fields") for n in WIDE_FIELDS}
    for _ in range(3):
        for n in WIDE_FIELDS:
            if ("wide", n) in schemas:
                wide[n].add(generate(("wide", n))[0])
    for series in wide.values():
        print("  " + series.describe(), flush=True)
    a, b = (wide[n].median for n in WIDE_FIELDS)
    ctx.rows.append(Row("shapes", f"time ratio {wide_label}, cold", b, a, f"{WIDE_FIELDS[0]:,} fields", budget=5.0,
                        note=wide[WIDE_FIELDS[1]].error or wide[WIDE_FIELDS[0]].error or ""))
    ctx.details["shapes"] = {
        "chain": {n: {"wall": s.wall, "peak_mb": s.maxrss_kb / 1024, "manifest_mb": mb} for n, (s, mb) in chain.items()},
        "wide": {n: {"walls": s.walls, "peak_mb": s.peak_mb} for n, s in wide.items()},
    }


# --------------------------------------------------------------------------- 3. runtime


def find_paddle_python(explicit: str | None) -> tuple[str | None, str]:
    candidates = [explicit, os.environ.get("PADDLE_PYTHON"), sys.executable, "/tmp/paddle-venv/bin/python"]
    tried = []
    for candidate in candidates:
        if not candidate or candidate in tried or not Path(candidate).exists():
            continue
        tried.append(candidate)
        probe = run_process([candidate, "-c", "import paddle, sys; print(paddle.__version__)"], timeout=120)
        if probe.code == 0:
            return candidate, probe.stdout.strip().splitlines()[-1]
    return None, "no Python here imports paddle (tried: " + ", ".join(tried) + ")"


def bench_runtime(ctx: Context) -> None:
    section("3. runtime API: per call, timeit in one process, alternating ours / Paddle per repeat")
    repeats, target = (5, 0.01) if ctx.quick else (9, 0.04)
    script = [str(HERE / "runtime_bench.py"), "--generated", str(ctx.generated), "--repeats", str(repeats),
              "--target", str(target)]
    runs: list[dict[str, Any]] = []
    paddle_note = ""
    if ctx.paddle_python:
        sample = run_process([ctx.paddle_python, *script, "--impl", "ours", "--impl", "paddle"], env=ctx.env, cwd=ctx.root)
        data = json.loads(sample.stdout) if sample.code == 0 else {"results": {}, "errors": {"all": sample.stderr[-500:]}}
        if "ours" in data["results"] and "paddle" in data["results"]:
            runs.append(data)
            paddle_note = f"Paddle {data['versions'].get('paddle')} measured in the same process"
        else:
            print(f"  ! same-process run failed ({data['errors']}); measuring in separate processes")
            for _ in range(1 if ctx.quick else 3):  # alternate processes: ours, paddle, ours, paddle ...
                for py, impl in ((ctx.python, "ours"), (ctx.paddle_python, "paddle")):
                    s = run_process([py, *script, "--impl", impl], env=ctx.env, cwd=ctx.root)
                    if s.code == 0:
                        runs.append(json.loads(s.stdout))
            paddle_note = "Paddle measured in its own processes, alternating with ours"
    else:
        sample = run_process([ctx.python, *script, "--impl", "ours"], env=ctx.env, cwd=ctx.root)
        if sample.code == 0:
            runs.append(json.loads(sample.stdout))
        else:
            print(f"  ! runtime_bench failed: {sample.stderr.strip()[-500:]}")
        paddle_note = "Paddle not importable here: design doc's recorded figures ('recorded')"

    def samples(impl: str, key: str) -> list[float]:
        values: list[float] = []
        for run in runs:
            entry = run["results"].get(impl, {}).get(key, {})
            values += entry.get("per_call", [])
        return values

    print(f"  {paddle_note}; the table uses the best of {repeats} repeats (noise only adds time)")
    ctx.details["runtime"] = {"runs": runs, "note": paddle_note}
    for key, label, budget in RUNTIME_CASES:
        ours, paddle = samples("ours", key), samples("paddle", key)
        ours_best = min(ours) if ours else None
        if paddle:
            peer, peer_name = min(paddle), "Paddle"
        elif key in RECORDED_PADDLE and not ctx.paddle_python:
            peer, peer_name = RECORDED_PADDLE[key], "Paddle (recorded)"
        else:
            peer, peer_name = None, "Paddle: not measured"
        detail = f"  {label:<62} ours best {fmt_call(ours_best) if ours_best else '-':>10}"
        if ours:
            detail += f" (median {fmt_call(statistics.median(ours))})"
        if paddle:
            detail += f"   Paddle best {fmt_call(min(paddle)):>10} (median {fmt_call(statistics.median(paddle))})"
        print(detail)
        ctx.rows.append(Row("runtime", label, ours_best, peer, peer_name, unit="call", budget=budget))
    repeats_text, target_text = COPY_SAMPLING["quick" if ctx.quick else "full"]
    copies = [str(HERE / "runtime_bench.py"), "--generated", str(ctx.generated), "--repeats", repeats_text,
              "--target", target_text, "--cases", "copies"]
    copy_runs: list[dict[str, Any]] = []
    sample = run_process([ctx.paddle_python or ctx.python, *copies, "--impl", "ours",
                          *(["--impl", "paddle"] if ctx.paddle_python else [])], env=ctx.env, cwd=ctx.root)
    if sample.code == 0:
        copy_runs.append(json.loads(sample.stdout))
    else:
        print(f"  ! copies: {sample.stderr.strip()[-300:]}")

    def copy_samples(impl: str, key: str) -> list[float]:
        return [t for run in copy_runs for t in run["results"].get(impl, {}).get(key, {}).get("per_call", [])]

    print(f"  copies: best of {repeats_text} repeats of {float(target_text) * 1e3:.0f} ms each, in one process with Paddle's")
    copy_rows(ctx, "", lambda key: copy_samples("ours", key), lambda key: copy_samples("paddle", key))
    if ctx.paddle_python:
        bench_paddle_build_copies(ctx, copies)


def copy_rows(ctx: Context, build: str, ours: Callable[[str], list[float]], paddle: Callable[[str], list[float]]) -> None:
    """The COPY_CASES rows: best of each side's samples."""
    for key, label, peer_key in COPY_CASES:
        mine, theirs = ours(key), paddle(peer_key)
        peer, peer_name = (min(theirs), "Paddle") if theirs else (None, "Paddle: not measured")
        print(f"  {build}{label:<62} ours best {fmt_call(min(mine)) if mine else '-':>10}"
              f"   Paddle best {fmt_call(peer) if peer else '-':>10}")
        ctx.rows.append(Row("runtime", build + label, min(mine) if mine else None, peer, peer_name, unit="call",
                            budget=COPY_BUDGET))


def bench_paddle_build_copies(ctx: Context, script: list[str]) -> None:
    """The Paddle build (generated/paddle overlaid on the installed Paddle, as
    tests/integration/overlay.py builds it) against pristine Paddle: one
    cannot import beside the other, so their processes alternate."""
    assert ctx.paddle_python
    probe = run_process([ctx.paddle_python, "-c", "import importlib.util as u; "
                         "print(u.find_spec('paddle').submodule_search_locations[0])"], timeout=120)
    if probe.code != 0:
        print(f"  ! Paddle build: no installed paddle package found ({probe.stderr.strip()[-200:]})")
        return
    sys.path.insert(0, str(HERE.parent / "integration"))
    from overlay import build_overlay

    overlay = ctx.fresh_dir("overlay")
    build_overlay(Path(probe.stdout.strip()), ctx.generated / "paddle", overlay)
    runs: dict[str, list[dict[str, Any]]] = {"overlaid": [], "paddle": []}
    for _ in range(2 if ctx.quick else 4):  # overlaid, paddle, overlaid, paddle ...
        for impl in runs:
            extra = ["--overlay", str(overlay)] if impl == "overlaid" else []
            sample = run_process([ctx.paddle_python, *script, "--impl", impl, *extra], env=ctx.env, cwd=ctx.root)
            if sample.code == 0:
                runs[impl].append(json.loads(sample.stdout))
            else:
                print(f"  ! Paddle build, {impl}: {sample.stderr.strip()[-300:]}")

    def samples(impl: str, key: str) -> list[float]:
        return [t for run in runs[impl] for t in run["results"].get(impl, {}).get(key, {}).get("per_call", [])]

    ctx.details["runtime_paddle_build"] = runs
    print("  Paddle build (overlaid) vs pristine Paddle, in alternating processes:")
    copy_rows(ctx, "Paddle build: ", lambda key: samples("overlaid", key), lambda key: samples("paddle", key))


# --------------------------------------------------------------------------- 4. import


IMPORTTIME = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|\s+(\S.*)$")


def bench_import(ctx: Context) -> None:
    section("4. import cost: `import fleet_strategy` vs its _pb2 module alone (fresh processes)")
    rounds = 5 if ctx.quick else 15
    gen = str(ctx.generated)
    prelude = f"import sys, types; sys.path.insert(0, {gen!r}); "
    stub = (f"m = types.ModuleType({PACKAGE!r}); m.__path__ = [{str(ctx.generated / PACKAGE)!r}]; "
            f"sys.modules[{PACKAGE!r}] = m; ")
    codes = {
        "baseline": prelude + "pass",
        "package": prelude + f"import {PACKAGE}",
        "pb2": prelude + stub + f"import {PACKAGE}.distributed_strategy_pb2",
    }
    env = dict(ctx.env)
    env["PYTHONPYCACHEPREFIX"] = str(ctx.tmp / "pycache")  # bytecode of the generated package, outside the tree
    for code in codes.values():  # warm-up: write bytecode, fill the OS file cache
        run_process([ctx.python, "-c", code], env=env)
    walls: dict[str, list[float]] = {k: [] for k in codes}
    cumulative: dict[str, list[float]] = {"package": [], "pb2": []}
    for _ in range(rounds):
        for key, code in codes.items():  # A B C A B C ...
            s = run_process([ctx.python, "-c", code], env=env)
            if s.code != 0:
                print(f"  ! {key}: {s.stderr.strip()[-300:]}")
                continue
            walls[key].append(s.wall)
        for key, module in (("package", PACKAGE), ("pb2", f"{PACKAGE}.distributed_strategy_pb2")):
            s = run_process([ctx.python, "-X", "importtime", "-c", codes[key]], env=env)
            for line in s.stderr.splitlines():
                m = IMPORTTIME.match(line)
                if m and m.group(3).strip() == module:
                    cumulative[key].append(int(m.group(2)) / 1e6)
    med = {k: statistics.median(v) if v else None for k, v in walls.items()}
    imp = {k: statistics.median(v) if v else None for k, v in cumulative.items()}
    for key in codes:
        if med[key] is not None:
            print(f"  python -c '{key}': median {fmt_s(med[key])}  min {fmt_s(min(walls[key]))}  n={len(walls[key])}")
    for key in imp:
        if imp[key] is not None:
            print(f"  -X importtime cumulative, {key}: median {imp[key] * 1e3:.1f} ms")
    ctx.details["import"] = {"walls": walls, "importtime": cumulative}
    if med["baseline"] is not None and med["package"] is not None and med["pb2"] is not None:
        ctx.rows.append(Row("import", "import fleet_strategy, wall minus `python -c pass`",
                            med["package"] - med["baseline"], med["pb2"] - med["baseline"], "_pb2 alone", budget=1.5,
                            note=f"interpreter start-up {fmt_s(med['baseline'])} subtracted from both"))
    if imp["package"] and imp["pb2"]:
        ctx.rows.append(Row("import", "import fleet_strategy, -X importtime cumulative", imp["package"], imp["pb2"],
                            "_pb2 alone", budget=1.5))


# --------------------------------------------------------------------------- main

def bench_size(ctx: Context) -> None:
    """Issue 30's size budget (package_size.py): lines, not seconds."""
    from tests.benchmarks import package_size

    section("5. size: the shop schema's package, runtime as a dependency, vs betterproto2 (Python lines)")
    lines = package_size.ours(ctx.tmp / "size-ours", root=ctx.root)
    copied = package_size.ours(ctx.tmp / "size-ours-copy", runtime="copy", root=ctx.root)
    peer = package_size.betterproto2(ctx.tmp / "size-peer", ctx.python)
    print(f"ours {lines} lines (with the runtime copied: {copied}); betterproto2: {peer}")
    ctx.rows.append(Row("size", "shop package, runtime as a dependency", lines,
                        peer if isinstance(peer, int) else None, "betterproto2" if isinstance(peer, int) else str(peer),
                        unit="lines", budget=package_size.BUDGET))


SECTIONS: dict[str, Callable[[Context], None]] = {
    "regen": bench_regen,
    "large": bench_large,
    "real": bench_real,
    "scaling": bench_scaling,
    "shapes": bench_shapes,
    "runtime": bench_runtime,
    "import": bench_import,
    "size": bench_size,
}


def _reexec_in_venv() -> None:
    """``python tests/benchmarks/run.py`` with a Python lacking the project: use .venv's."""
    try:
        import fleet_strategy_codegen  # noqa: F401  (the dev install: the tool and its dependencies)
        import grpc_tools  # noqa: F401
    except ImportError:
        venv = ROOT / ".venv" / "bin" / "python"
        in_venv = Path(sys.prefix).resolve() == venv.parent.parent.resolve()
        if venv.exists() and not in_venv and "FSC_BENCH_REEXEC" not in os.environ:
            os.environ["FSC_BENCH_REEXEC"] = "1"
            os.execv(str(venv), [str(venv), __file__, *sys.argv[1:]])
        raise SystemExit("run.py needs the project installed: pip install -e '.[dev,bench]' (or create .venv)") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer samples and smaller schemas (under a minute)")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma list of sections: {', '.join(SECTIONS)}")
    parser.add_argument("--paddle-python", help="a Python that can import paddle (default: auto-detect)")
    parser.add_argument("--no-paddle", action="store_true", help="do not look for Paddle; use recorded figures")
    parser.add_argument("--sizes", help="scaling sizes in messages (default 45,450,4500; quick 45,450)")
    parser.add_argument("--scale-budget", type=float, help="seconds for whole-process generation in the scaling section (default 150; quick 0: skipped)")
    parser.add_argument("--json", type=Path, help="also write every sample to this JSON file")
    args = parser.parse_args(argv)
    requested = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = [s for s in requested if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; choose from {list(SECTIONS)}")
    chosen = [name for name in SECTIONS if name in requested]  # always in the documented order
    _reexec_in_venv()

    sizes = [int(s) for s in (args.sizes or ("45,450" if args.quick else "45,450,4500")).split(",")]
    paddle_python, paddle_info = (None, "skipped (--no-paddle)")
    if "runtime" in chosen and not args.no_paddle:
        paddle_python, paddle_info = find_paddle_python(args.paddle_python)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fsc-bench-") as tmp:
        root = snapshot_project(Path(tmp))
        ctx = Context(
            quick=args.quick, python=sys.executable, tmp=Path(tmp), root=root, env=child_env(root),
            paddle_python=paddle_python,
            sizes=sizes, scale_budget=args.scale_budget if args.scale_budget is not None else (0.0 if args.quick else 150.0),
        )
        print(f"fleet-strategy codegen benchmarks ({'quick' if args.quick else 'full'}); python {sys.version.split()[0]}, "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; sections: {', '.join(chosen)}")
        if "runtime" in chosen:
            print(f"Paddle: {paddle_python + ' (paddle ' + paddle_info + ')' if paddle_python else paddle_info}")
        for name in chosen:
            SECTIONS[name](ctx)
        elapsed = time.monotonic() - started
        section(f"results ({elapsed:.0f} s; medians, runtime: best of repeats; ratio = ours / peer; "
                f"load average now {os.getloadavg()[0]:.2f})")
        print_table(ctx.rows)
        verdicts = [r.verdict for r in ctx.rows]
        failed = [r.figure for r in ctx.rows if r.verdict == "FAIL"]
        print(f"\nSUMMARY: {verdicts.count('PASS')} budgets pass, {verdicts.count('FAIL')} fail, "
              f"{verdicts.count('UNKNOWN') + verdicts.count('n/a')} not decided"
              + (f"; failing: {'; '.join(failed)}" if failed else ""))
        if args.json:
            args.json.write_text(json.dumps({"rows": [r.__dict__ | {"ratio": r.ratio, "verdict": r.verdict}
                                                       for r in ctx.rows], "details": ctx.details}, indent=1,
                                            default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
