"""What each speed mechanism buys: the budgets' commands with one mechanism
taken out at a time, against the same commands with all of them, and
betterproto2 on the compiled descriptor set (the budgets' peer).

    python tests/benchmarks/mechanisms.py [--rounds 7] [--root CHECKOUT]

Three scenarios of "Performance budgets" in the design doc, each a whole
process timed by wall clock, the commands of a scenario alternating round by
round (A B C ... A B C ...): a first generation (empty cache, ≤ 1×), generate
after a one-field proto edit (cache warm, ≤ 0.75×) and check with unchanged
inputs (cache warm, ≤ 0.2×). A mechanism is taken out either by removing one
kind of user-cache entry from the warm cache folder before each run (the run
recomputes it: exactly what the kind saves), or by a few lines run before
the tool's own ``run()`` (the code replaced by what it stands in for). Every
command, the baseline included, starts through the same ``python -c``.

--root runs another checkout (e.g. ``git archive`` of an older commit), so
kinds that no longer exist can be measured before their removal. Prints one
line per variant: median, ratio to betterproto2, ratio to the baseline and
the difference in milliseconds. The exit code is 0 (a report).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench  # noqa: E402  (tests/benchmarks/run.py: its snapshot, peers and timing)

# Code variants: what runs before the tool, replacing a mechanism with what it stands in for.
LAYOUT_BY_BLACK = (
    "from generator.render import format as f\n"
    "f._Formatter.file = lambda self, path, text, kind: f.run_black(text, kind)\n"
)
NO_LINE_WRAPPING = "from generator.render import format as f\nf._prewrapped = lambda *a, **k: None\n"
NO_DIST_INFO_SCAN = "from generator import settings as s\ns._dist_info_versions = lambda: {}\n"
NO_GC_TUNING = "import gc\ngc.set_threshold = lambda *a: None\n"
NO_OS_EXIT = "import os, sys\nos._exit = sys.exit\n"

# (scenario, variant, cache kinds removed before each run, code run first)
VARIANTS: list[tuple[str, str, tuple[str, ...], str]] = [
    ("first", "all mechanisms", (), ""),
    ("first", "layout by black (no emulation)", (), LAYOUT_BY_BLACK),
    ("first", "no line wrapping (long lines to black)", (), NO_LINE_WRAPPING),
    ("first", "no gc tuning", (), NO_GC_TUNING),
    ("first", "no os._exit", (), NO_OS_EXIT),
    ("first", "no gc tuning, no os._exit", (), NO_GC_TUNING + NO_OS_EXIT),
    ("edit", "all mechanisms", (), ""),
    ("edit", "no 'formatted' entries", ("formatted",), ""),
    ("edit", "no black-piece entries", ("black-pieces", "black-*"), ""),
    ("edit", "no 'annotation-trees' entries", ("annotation-trees",), ""),
    ("edit", "no 'hook-outlines' entries", ("hook-outlines",), ""),
    ("edit", "no 'templates' entries", ("templates",), ""),
    ("edit", "none of the removed kinds", ("formatted", "black-*", "black-pieces", "annotation-trees",
                                           "hook-outlines", "templates"), ""),
    ("edit", "layout by black (no emulation)", (), LAYOUT_BY_BLACK),
    ("edit", "no line wrapping (long lines to black)", (), NO_LINE_WRAPPING),
    ("edit", "no gc tuning", (), NO_GC_TUNING),
    ("edit", "no os._exit", (), NO_OS_EXIT),
    ("edit", "no gc tuning, no os._exit", (), NO_GC_TUNING + NO_OS_EXIT),
    ("check", "all mechanisms", (), ""),
    ("check", "no 'outputs' entries", ("outputs",), ""),
    ("check", "no .dist-info scan", (), NO_DIST_INFO_SCAN),
    ("check", "no os._exit", (), NO_OS_EXIT),
    ("check", "no gc tuning, no os._exit", (), NO_GC_TUNING + NO_OS_EXIT),
]
BUDGETS = {"first": 1.0, "edit": 0.75, "check": 0.2}
# The linear budget (10x the schema in <= 10x the time, 4,500 messages in <= 400 MB):
# a first generation of make_schema.py's 450 and 4,500 messages, --no-annotations.
SCALING = [("all mechanisms", ""), ("no gc tuning", NO_GC_TUNING), ("no os._exit", NO_OS_EXIT)]


def scaling(ctx: bench.Context, rounds: int) -> None:
    schemas = {}
    for n in (450, 4500):
        schemas[n] = ctx.tmp / f"synth_{n}.proto"
        bench.run_process([ctx.python, str(HERE / "make_schema.py"), "--messages", str(n), "--out", str(schemas[n])])
    walls: dict[tuple[str, int], list[float]] = {}
    peaks: dict[tuple[str, int], list[float]] = {}
    cpus: dict[tuple[str, int], list[float]] = {}
    for r in range(rounds):
        print(f"  scaling round {r + 1}/{rounds}, load {os.getloadavg()[0]:.1f}", flush=True)
        for n, proto in schemas.items():
            for name, code in SCALING:
                out = ctx.fresh_dir("scale-out")
                cmd = [ctx.python, "-c", code + "from generator.cli import run\nrun()", "generate", "--no-annotations",
                       "--proto", str(proto), "--out", str(out), "--package", "synth"]
                wall, cpu, peak, code_, err = timed(cmd, ctx.ours_env(ctx.fresh_dir("cache")), ctx.root)
                if code_ != 0:
                    print(f"    {name} {n}: exit {code_}: {err.strip()[-300:]}")
                walls.setdefault((name, n), []).append(wall)
                cpus.setdefault((name, n), []).append(cpu)
                peaks.setdefault((name, n), []).append(peak)
                shutil.rmtree(out, ignore_errors=True)
    print("scaling, first generation 450 -> 4,500 messages (budget: <= 10x the time, <= 400 MB):")
    for name, _ in SCALING:
        small, large = (statistics.median(walls[name, n]) for n in (450, 4500))
        cpu_small, cpu_large = (statistics.median(cpus[name, n]) for n in (450, 4500))
        print(f"  {name:30} wall {small:6.2f} s -> {large:6.2f} s  {large / small:5.2f}x per 10x;  "
              f"CPU {cpu_small:6.2f} s -> {cpu_large:6.2f} s  {cpu_large / cpu_small:5.2f}x;  "
              f"peak {max(peaks[name, 4500]):.0f} MB")


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float, int, str]:
    """Wall seconds, CPU seconds (user + system: less moved by a shared
    machine's load than the wall), peak RSS in MB, exit code, stderr."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode,
            err.decode("utf-8", "replace"))


def _drop(cache: Path, kinds: tuple[str, ...]) -> None:
    folder = cache / "fleet-strategy-codegen"
    for pattern in kinds:
        for path in folder.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--root", type=Path, default=bench.ROOT, help="the checkout to measure")
    parser.add_argument("--only", default="first,edit,check", help="comma list of scenarios (and scaling)")
    parser.add_argument("--variants", default="", help="only variants whose name holds one of these (comma list)")
    args = parser.parse_args(argv)
    scenarios = args.only.split(",")
    wanted = [w for w in args.variants.split(",") if w]
    VARIANTS[:] = [v for v in VARIANTS if v[1] == "all mechanisms" or not wanted or any(w in v[1] for w in wanted)]
    bench.ROOT = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="fsc-mech-") as tmp:
        root = bench.snapshot_project(Path(tmp))
        ctx = bench.Context(quick=False, python=sys.executable, tmp=Path(tmp), root=root,
                            env=bench.child_env(root), paddle_python=None, sizes=[], scale_budget=0)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.2f}; root {bench.ROOT}", flush=True)
        peer = bench.peer_commands(ctx, ctx.tmp / "peer-out")[bench.BP2_SET]
        assert isinstance(peer, list), peer
        proto = ctx.fresh_dir("edit") / bench.PROTO_NAME
        original = ctx.proto.read_text(encoding="utf-8")
        proto.write_text(original, encoding="utf-8")
        edits = iter(range(1, 10_000))
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}  # (wall, CPU) a run
        peer_times: list[tuple[float, float]] = []

        def command(code: str, *words: str) -> list[str]:
            return [ctx.python, "-c", code + "from generator.cli import run\nrun()", *words]

        warm: dict[tuple[str, str], tuple[Path, Path]] = {}
        for scenario, name, _, code in VARIANTS:  # each variant: its own warm cache and output
            if scenario == "first" or scenario not in scenarios:
                continue
            cache, out = ctx.fresh_dir("cache"), ctx.fresh_dir("out")
            bench.prepare_out(out, ctx.generated)
            argv = ["--proto", str(proto)] if scenario == "edit" else []
            bench.run_process(command("", "generate", *argv, "--out", str(out)), env=ctx.ours_env(cache), cwd=root)
            warm[scenario, name] = cache, out
        bench.run_process(command("", "--version"), env=ctx.env, cwd=root)  # bytecode written
        for r in range(args.rounds if set(scenarios) - {"scaling"} else 0):
            print(f"  round {r + 1}/{args.rounds}, load {os.getloadavg()[0]:.1f}", flush=True)
            peer_out = ctx.tmp / "peer-out"
            shutil.rmtree(peer_out, ignore_errors=True)
            peer_out.mkdir()
            wall, cpu, *_ = timed(peer, ctx.env, root)
            peer_times.append((wall, cpu))
            if "edit" in scenarios:
                proto.write_text(bench.add_proto_edit(original, next(edits)), encoding="utf-8")
            for scenario, name, kinds, code in VARIANTS:
                if scenario not in scenarios:
                    continue
                if scenario == "first":
                    cache, out = ctx.fresh_dir("cache"), ctx.fresh_dir("out")
                    bench.prepare_out(out, ctx.generated)
                    words = ["generate", "--out", str(out)]
                else:
                    cache, out = warm[scenario, name]
                    _drop(cache, kinds)
                    words = (["generate", "--proto", str(proto), "--out", str(out)] if scenario == "edit"
                             else ["check", "--out", str(out)])
                wall, cpu, _, code_, err = timed(command(code, *words), ctx.ours_env(cache), root)
                if code_ != 0:
                    print(f"    {scenario}/{name}: exit {code_}: {err.strip()[-300:]}")
                times.setdefault((scenario, name), []).append((wall, cpu))
        def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
            return (statistics.median(w for w, _ in samples) if samples else float("nan"),
                    statistics.median(c for _, c in samples) if samples else float("nan"))

        bp2, bp2_cpu = medians(peer_times)
        print(f"\nbetterproto2 (descriptor set): wall {bp2 * 1000:.0f} ms, CPU {bp2_cpu * 1000:.0f} ms; "
              f"load average now {os.getloadavg()[0]:.2f}")
        if "scaling" in scenarios:
            scaling(ctx, args.rounds)
            scenarios.remove("scaling")
        for scenario in scenarios:
            base, base_cpu = medians(times[scenario, "all mechanisms"])
            print(f"{scenario} (budget ≤ {BUDGETS[scenario]}× betterproto2), medians: wall, ratio to betterproto2's "
                  f"wall, difference to all; CPU, ratio to betterproto2's CPU, difference to all:")
            for (s, name), samples in times.items():
                if s == scenario:
                    m, c = medians(samples)
                    print(f"  {name:40} {m * 1000:5.0f} ms {m / bp2:5.2f}× {(m - base) * 1000:+5.0f} ms | "
                          f"CPU {c * 1000:5.0f} ms {c / bp2_cpu:5.2f}× {(c - base_cpu) * 1000:+5.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
