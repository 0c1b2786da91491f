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
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run as bench  # noqa: E402  (tests/benchmarks/run.py: its snapshot, peers and timing)

# Code variants: what runs before the tool, replacing a mechanism with what it stands in for.
LAYOUT_BY_BLACK = (
    "from generator import format as f\n"
    "f._Formatter.file = lambda self, path, text, kind: f.run_black(text, kind)\n"
)
NO_LINE_WRAPPING = "from generator import format as f\nf._prewrapped = lambda *a, **k: None\n"
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
    ("edit", "all mechanisms", (), ""),
    ("edit", "no 'formatted' entries", ("formatted",), ""),
    ("edit", "no black-piece entries", ("black-pieces", "black-*"), ""),
    ("edit", "no 'annotation-trees' entries", ("annotation-trees",), ""),
    ("edit", "no 'hook-outlines' entries", ("hook-outlines",), ""),
    ("edit", "no 'templates' entries", ("templates",), ""),
    ("edit", "layout by black (no emulation)", (), LAYOUT_BY_BLACK),
    ("edit", "no line wrapping (long lines to black)", (), NO_LINE_WRAPPING),
    ("edit", "no gc tuning", (), NO_GC_TUNING),
    ("edit", "no os._exit", (), NO_OS_EXIT),
    ("check", "all mechanisms", (), ""),
    ("check", "no 'outputs' entries", ("outputs",), ""),
    ("check", "no .dist-info scan", (), NO_DIST_INFO_SCAN),
    ("check", "no os._exit", (), NO_OS_EXIT),
]
BUDGETS = {"first": 1.0, "edit": 0.75, "check": 0.2}


def _drop(cache: Path, kinds: tuple[str, ...]) -> None:
    folder = cache / "fleet-strategy-codegen"
    for pattern in kinds:
        for path in folder.glob(pattern):
            shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--root", type=Path, default=bench.ROOT, help="the checkout to measure")
    parser.add_argument("--only", default="first,edit,check", help="comma list of scenarios")
    args = parser.parse_args(argv)
    scenarios = args.only.split(",")
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
        times: dict[tuple[str, str], list[float]] = {}
        peer_times: list[float] = []

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
        for r in range(args.rounds):
            print(f"  round {r + 1}/{args.rounds}, load {os.getloadavg()[0]:.1f}", flush=True)
            peer_out = ctx.tmp / "peer-out"
            shutil.rmtree(peer_out, ignore_errors=True)
            peer_out.mkdir()
            peer_times.append(bench.run_process(peer, env=ctx.env, cwd=root).wall)
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
                sample = bench.run_process(command(code, *words), env=ctx.ours_env(cache), cwd=root)
                if sample.code != 0:
                    print(f"    {scenario}/{name}: exit {sample.code}: {sample.stderr.strip()[-300:]}")
                times.setdefault((scenario, name), []).append(sample.wall)
        bp2 = statistics.median(peer_times)
        print(f"\nbetterproto2 (descriptor set): {bp2 * 1000:.0f} ms; load average now {os.getloadavg()[0]:.2f}")
        for scenario in scenarios:
            base = statistics.median(times[scenario, "all mechanisms"])
            print(f"{scenario} (budget ≤ {BUDGETS[scenario]}× = {BUDGETS[scenario] * bp2 * 1000:.0f} ms):")
            for (s, name), walls in times.items():
                if s == scenario:
                    m = statistics.median(walls)
                    print(f"  {name:45} {m * 1000:6.0f} ms  {m / bp2:5.2f}×  vs all {m / base:5.2f}×  "
                          f"{(m - base) * 1000:+5.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
